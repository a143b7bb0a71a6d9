//! A person's seat in `heat run` (`--seat skeptic=human`): each turn the
//! person is asked for is said on standard error, and answered on standard
//! input: an argument as lines up to an empty one, a verdict as a few short
//! answers (resolved, who is ahead, the verdict, the next question, the
//! heat). Standard output stays the debate's (text or JSON lines).

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
        let answered = if ask.wants_verdict() { verdict(&mut input).await } else { argument(&mut input, &ask).await };
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

/// A verdict, asked field by field; an empty answer keeps the default.
async fn verdict(input: &mut Input) -> Option<String> {
    say!("\nheat: your verdict on the round, as the judge.");
    say!("  Resolved? y/N");
    let resolved = line(input).await?.to_ascii_lowercase().starts_with('y');
    say!("  Who is ahead? a (advocate), s (skeptic), e (even) [e]");
    let ahead = match line(input).await?.to_ascii_lowercase().chars().next() {
        Some('a') => Ahead::Advocate,
        Some('s') => Ahead::Skeptic,
        _ => Ahead::Even,
    };
    say!("  Your verdict, in a sentence or two:");
    let mut said = line(input).await?;
    while said.is_empty() {
        say!("  A verdict needs a sentence:");
        said = line(input).await?;
    }
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
