//! A person's seat in `heat run` (`--seat skeptic=human`): each turn the
//! person is asked for is said on standard error, and answered on standard
//! input: an argument as lines up to an empty one, a verdict as a few short
//! answers (resolved, who is ahead, the verdict, the next question, the
//! heat), the final synthesis as who is ahead and what it says. Standard
//! output stays the debate's (text or JSON lines).

use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::debate::Heat;
use crate::debate::engine::EngineSetup;
use crate::debate::verdict::{Ahead, persons_answer};
use crate::provider::person::Ask;

type Input = Lines<BufReader<Stdin>>;

/// Answers the turns of the people `setup` seats from standard input, on a
/// task of its own; nothing when only models sit.
pub(super) fn take_seats(setup: &EngineSetup) {
    if let Some(asks) = setup.person_desk().and_then(|desk| desk.take_asks()) {
        tokio::spawn(answer(asks));
    }
}

async fn answer(mut asks: UnboundedReceiver<Ask>) {
    let mut input = BufReader::new(tokio::io::stdin()).lines();
    while let Some(ask) = asks.recv().await {
        if ask.is_closed() {
            continue;
        }
        let answered = match (ask.wants_verdict(), ask.request.closing) {
            (true, true) => synthesis(&mut input).await,
            (true, false) => verdict(&mut input).await,
            (false, _) => argument(&mut input, &ask).await,
        };
        let Some(text) = answered else {
            say!("heat: standard input ended; the {} has no answer", ask.seat);
            continue;
        };
        if ask.reply.send(text).is_err() {
            say!("heat: that turn was no longer wanted (cancelled or stopped); your text was not used");
        }
    }
}

/// The next line, trimmed; `None` at the end of the input.
async fn line(input: &mut Input) -> Option<String> {
    input.next_line().await.ok().flatten().map(|l| l.trim().to_string())
}

/// An argument: lines up to the first empty one after some text.
async fn argument(input: &mut Input, ask: &Ask) -> Option<String> {
    say!("\nheat: your turn as the {}. Type your argument; an empty line sends it.", ask.seat);
    let mut lines: Vec<String> = Vec::new();
    loop {
        match line(input).await {
            Some(l) if l.is_empty() && lines.is_empty() => {}
            Some(l) if l.is_empty() => break,
            Some(l) => lines.push(l),
            None if lines.is_empty() => return None,
            None => break,
        }
    }
    Some(lines.join("\n"))
}

/// The judge's final synthesis: who is ahead and what it says. It ends the
/// debate whatever it says, so neither whether it is resolved, nor a next
/// question, nor a heat is asked.
async fn synthesis(input: &mut Input) -> Option<String> {
    say!("\nheat: your final synthesis, as the judge: the debate ends with it.");
    let ahead = who_is_ahead(input).await?;
    let said = sentences(input, "  Your synthesis, in a few sentences:").await?;
    Some(persons_answer(true, ahead, &said, None, None))
}

/// Who is ahead: a, s or e (even, the default).
async fn who_is_ahead(input: &mut Input) -> Option<Ahead> {
    say!("  Who is ahead? a (advocate), s (skeptic), e (even) [e]");
    Some(match line(input).await?.to_ascii_lowercase().chars().next() {
        Some('a') => Ahead::Advocate,
        Some('s') => Ahead::Skeptic,
        _ => Ahead::Even,
    })
}

/// A line that says something, asked with `prompt` until one does.
async fn sentences(input: &mut Input, prompt: &str) -> Option<String> {
    say!("{prompt}");
    let mut said = line(input).await?;
    while said.is_empty() {
        say!("  It needs a sentence:");
        said = line(input).await?;
    }
    Some(said)
}

/// A verdict, asked field by field; an empty answer keeps the default.
async fn verdict(input: &mut Input) -> Option<String> {
    say!("\nheat: your verdict on the round, as the judge.");
    say!("  Resolved? y/N");
    let resolved = line(input).await?.to_ascii_lowercase().starts_with('y');
    let ahead = who_is_ahead(input).await?;
    let said = sentences(input, "  Your verdict, in a sentence or two:").await?;
    let question = if resolved {
        None
    } else {
        say!("  The next round's question [Enter keeps this round's]:");
        Some(line(input).await?)
    };
    let heat = loop {
        say!("  The heat, {:.1} to {:.1} [Enter keeps it]:", Heat::MIN.get(), Heat::MAX.get());
        let typed = line(input).await?;
        if typed.is_empty() {
            break None;
        }
        match typed.parse::<f32>() {
            Ok(value) if (Heat::MIN.get()..=Heat::MAX.get()).contains(&value) => break Some(Heat::new(value)),
            _ => say!("  {typed:?} is not a heat between {:.1} and {:.1}", Heat::MIN.get(), Heat::MAX.get()),
        }
    };
    Some(persons_answer(resolved, ahead, &said, question.as_deref(), heat))
}
