//! The guards applied to a finished turn: each check's context comes from
//! the folded state and what the model was sent, and the answer is what the
//! engine should do next. Still pure: the engine emits the events.

use super::{ArgumentFault, Context, TopicFault, VerdictFault, argument, reason, text, topic};
use crate::debate::state::{DebateState, Round};
use crate::debate::{Role, TurnPurpose, Verdict};
use crate::provider::{ChatRequest, ChatRole};

/// The prompt texts a turn's model was sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SentPrompt {
    pub system: String,
    /// The user messages: the brief and what the model is asked.
    pub user: Vec<String>,
    /// The seat's own earlier turns, as a server model's history carries
    /// them (assistant messages): an answer must not copy them either.
    pub own: Vec<String>,
}

impl SentPrompt {
    pub fn of(request: &ChatRequest) -> Self {
        // A trailing assistant message is not history: it is the answer's own start (the embedded model's opening).
        let history = match request.messages.split_last() {
            Some((last, earlier)) if last.role == ChatRole::Assistant => earlier,
            _ => &request.messages[..],
        };
        let of = |role: ChatRole| history.iter().filter(move |m| m.role == role).map(|m| m.content.clone());
        Self {
            system: request.system.clone(),
            // The earlier rounds given in brief are the seats' own points given back, not the round's prompt.
            user: of(ChatRole::User).map(|m| crate::debate::prompt::earlier::without_brief(&m).to_string()).collect(),
            own: of(ChatRole::Assistant).collect(),
        }
    }
}

/// What becomes of a debater's finished answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgumentOutcome {
    /// It stands, as this (cleaned) text.
    Stands(String),
    /// Ask the model once more.
    Retry(ArgumentFault),
    /// It failed again: the turn fails with this sentence.
    Fails(String),
    /// A served model's answer that copied its prompt on both tries: a
    /// remote model repeating itself argues weakly, it is not broken, so
    /// the answer stands, said as what it repeats ("its round 1 argument").
    Repeats { text: String, what: String },
    /// An answer without every section its format asks for, after its one
    /// more try (the embedded model's at once: asked again, a tiny model
    /// writes no better): it stands, flagged with the sections it lacks.
    Flagged { text: String, missing: Vec<String> },
}

/// What becomes of a judge's verdict that parsed.
#[derive(Debug, Clone, PartialEq)]
pub enum VerdictOutcome {
    /// Invalid: it goes through the repair path with this clause.
    Invalid(VerdictFault),
    /// It stands, with its topic set aside (and the notice saying so) when
    /// the topic failed its guard.
    Stands { verdict: Verdict, notice: Option<String> },
}

/// Judges `role`'s answer; `retried` when this was its second try,
/// `served` when a server's model gave it (the embedded model's copies stay
/// failures: a tiny model that echoes its prompt has nothing else to say).
pub fn argument(
    state: &DebateState,
    role: Role,
    sent: &SentPrompt,
    answer: &str,
    retried: bool,
    served: bool,
) -> ArgumentOutcome {
    let allowed = allowed(state);
    let mut ctx = context(state, sent, &[], &allowed);
    // A served model repeating its own earlier turn is caught and said; the embedded model's
    // own turns are left out, as its repeats are its habit and failing them ends its debate.
    if !served {
        ctx.own = &[];
    }
    match argument::check(answer, &ctx) {
        Ok(text) => {
            let sections = state.format.as_ref().map_or(&[][..], |f| f.sections.as_slice());
            let missing = crate::debate::sections::missing(&text, sections);
            match (missing.is_empty(), retried || !served) {
                (true, _) => ArgumentOutcome::Stands(text.into_owned()),
                (false, false) => ArgumentOutcome::Retry(ArgumentFault::LacksSections),
                (false, true) => ArgumentOutcome::Flagged { text: text.into_owned(), missing },
            }
        }
        Err(fault) if !retried => ArgumentOutcome::Retry(fault),
        Err(ArgumentFault::CopiesPrompt) if served => {
            let text = argument::clean(answer, &ctx).into_owned();
            let what = repeated(state, role, &text, &ctx.allowed_texts());
            ArgumentOutcome::Repeats { text, what }
        }
        Err(fault) => ArgumentOutcome::Fails(format!("{fault} on both tries")),
    }
}

/// What an argument that copies its prompt repeats: the seat's own
/// argument of an earlier round, another seat's, or the prompt itself.
fn repeated(state: &DebateState, role: Role, text: &str, allowed: &[&str]) -> String {
    let earlier = state.rounds.iter().rev().flat_map(|r| state.debaters().iter().map(move |&seat| (r, seat)));
    for (round, seat) in earlier {
        let Some(argument) =
            round.argument(seat).filter(|_| round.turn(seat).is_some_and(crate::debate::state::Turn::is_settled))
        else {
            continue;
        };
        if text::mostly_copied(text, &[argument], allowed) {
            let whose = if seat == role { "its".to_string() } else { format!("the {}'s", state.seat_name(seat)) };
            return format!("{whose} round {} argument", round.number + 1);
        }
    }
    "its prompt".to_string()
}

/// Judges a verdict that parsed, given on `round` by a judge turn with
/// `purpose`.
pub fn verdict(
    state: &DebateState,
    round: u32,
    purpose: TurnPurpose,
    sent: &SentPrompt,
    verdict: Verdict,
    written: bool,
) -> VerdictOutcome {
    let Some(current) = state.rounds.iter().find(|r| r.number == round) else {
        return VerdictOutcome::Stands { verdict, notice: None };
    };
    let arguments: Vec<(Role, &str)> =
        state.debaters().iter().filter_map(|&role| current.argument(role).map(|text| (role, text))).collect();
    let allowed = allowed(state);
    let ctx = context(state, sent, &arguments, &allowed);
    let last = round.checked_sub(1).and_then(|n| state.rounds.iter().find(|r| r.number == n)).and_then(Round::verdict);
    // A verdict heat built from the judge's choices (`extractive`) quotes the
    // arguments by design; only a written one is checked as text.
    if written && let Err(fault) = reason::check(&verdict.verdict, last.map(|v| v.verdict.as_str()), &ctx) {
        return VerdictOutcome::Invalid(fault);
    }
    // On a panel the majority, not this verdict, decides whether a round follows.
    let leads_to_a_round = (!verdict.resolved || state.judges() > 1)
        && !purpose.is_final()
        && !state.force_requested
        && round + 1 < state.max_rounds;
    // The proposition, a round's topic or a person's note again: known text, nothing to judge.
    let wanted = text::words(&verdict.topic);
    let known = ctx.allowed_texts().iter().any(|t| text::words(t) == wanted);
    if !leads_to_a_round || known {
        return VerdictOutcome::Stands { verdict, notice: None };
    }
    match topic::check(&verdict.topic, &ctx) {
        Ok(()) => VerdictOutcome::Stands { verdict, notice: None },
        Err(fault) => {
            let notice = set_aside(&verdict.topic, fault, round + 1, &current.topic);
            VerdictOutcome::Stands {
                verdict: Verdict { topic: current.topic.clone(), ..verdict },
                notice: Some(notice),
            }
        }
    }
}

/// The notice for a topic set aside; `next` is the next round's number
/// (0-based, as rounds are kept).
fn set_aside(refused: &str, fault: TopicFault, next: u32, kept: &str) -> String {
    const SHOWN: usize = 60;
    let line = refused.split_whitespace().collect::<Vec<_>>().join(" ");
    let shown = match line.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    };
    format!("the judge's next topic \"{shown}\" was set aside ({fault}); round {} keeps: {kept}", next + 1)
}

/// Every round's topic and injected note, and those waiting for a round;
/// in a format that asks for final answers, every final answer given so
/// far: taking up another seat's answer is agreeing with it, not copying.
fn allowed(state: &DebateState) -> Vec<String> {
    let rounds = state.rounds.iter().flat_map(|r| std::iter::once(&r.topic).chain(&r.injected));
    let mut allowed: Vec<String> = rounds.chain(&state.pending_injections).cloned().collect();
    if state.final_answers() {
        let settled = state.rounds.iter().flat_map(|r| r.turns.iter()).filter(|t| !t.role.is_judge() && t.is_settled());
        allowed.extend(settled.filter_map(|t| super::super::vote::final_answer(&t.text)));
    }
    allowed
}

fn context<'a>(
    state: &'a DebateState,
    sent: &'a SentPrompt,
    arguments: &'a [(Role, &'a str)],
    allowed: &'a [String],
) -> Context<'a> {
    Context { proposition: &state.topic, system: &sent.system, user: &sent.user, own: &sent.own, arguments, allowed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::DebateEvent;
    use crate::debate::Heat;

    const JUDGED: &str = "The width point stands; the diff point was not answered.";

    /// A debate of 3 rounds whose first round was argued, with a note a
    /// person injected into it.
    fn state() -> DebateState {
        let mut events = vec![
            DebateEvent::Started {
                topic: "Tabs beat spaces".into(),
                max_rounds: 3,
                initial_heat: Heat::new(0.9),
                participants: Vec::new(),
            },
            DebateEvent::RoundStarted {
                round: 0,
                topic: "Tabs beat spaces".into(),
                heat: Heat::new(0.9),
                injected: vec!["Consider cost".into()],
            },
        ];
        for (role, text) in [(Role::Advocate, "Tabs let each reader pick a width."), (Role::Skeptic, "Diffs differ.")] {
            events.extend(DebateEvent::turn(0, role, TurnPurpose::Argue, text));
        }
        DebateState::from_events(&events)
    }

    fn judged(topic: &str, resolved: bool) -> VerdictOutcome {
        let sent = SentPrompt {
            system: "You are the JUDGE. Answer with one JSON object and nothing else.".into(),
            user: Vec::new(),
            own: Vec::new(),
        };
        let verdict = Verdict {
            resolved,
            verdict: JUDGED.into(),
            topic: topic.into(),
            heat: Heat::new(0.6),
            ..Verdict::default()
        };
        verdict_outcome(verdict, &sent)
    }

    fn verdict_outcome(verdict: Verdict, sent: &SentPrompt) -> VerdictOutcome {
        super::verdict(&state(), 0, TurnPurpose::Judge, sent, verdict, true)
    }

    #[test]
    fn a_topic_set_aside_keeps_the_rounds_topic_and_says_why_in_one_sentence() {
        let VerdictOutcome::Stands { verdict, notice } = judged("Answer with one JSON object", false) else {
            panic!("the verdict itself is fine")
        };
        assert_eq!(verdict.topic, "Tabs beat spaces");
        assert_eq!(
            notice.as_deref(),
            Some(
                "the judge's next topic \"Answer with one JSON object\" was set aside (it is a piece of the prompt); \
                 round 2 keeps: Tabs beat spaces"
            )
        );
    }

    #[test]
    fn known_topics_and_closing_verdicts_are_not_judged() {
        for (topic, resolved) in [("Consider cost", false), ("tabs beat spaces.", false), ("[topic]", true)] {
            let VerdictOutcome::Stands { verdict, notice } = judged(topic, resolved) else { panic!("{topic}") };
            assert_eq!((verdict.topic.as_str(), notice), (topic, None));
        }
    }

    #[test]
    fn a_long_refused_topic_is_shown_cut_on_one_line() {
        let long = format!("[{}]", "word\n".repeat(40));
        let VerdictOutcome::Stands { notice: Some(notice), .. } = judged(&long, false) else { panic!("set aside") };
        assert!(notice.contains("\"[word word") && notice.contains("…\" was set aside (it runs over"), "{notice}");
    }

    #[test]
    fn an_unusable_verdict_text_is_invalid_whatever_its_topic() {
        let sent = SentPrompt::default();
        let verdict = Verdict {
            resolved: false,
            verdict: "N/A".into(),
            topic: "Costs?".into(),
            heat: Heat::new(0.6),
            ..Verdict::default()
        };
        assert_eq!(verdict_outcome(verdict, &sent), VerdictOutcome::Invalid(VerdictFault::Placeholder));
    }

    #[test]
    fn arguments_are_cleaned_retried_once_then_failed() {
        let sent = SentPrompt {
            system: String::new(),
            user: vec!["{\"set_temp\": 0.90}\n\nProposition: Tabs beat spaces".into()],
            own: Vec::new(),
        };
        let state = state();
        let clean =
            super::argument(&state, Role::Advocate, &sent, "{\"set_temp\": 0.90}\nTabs are one byte.", false, false);
        assert_eq!(clean, ArgumentOutcome::Stands("Tabs are one byte.".into()));
        assert_eq!(
            super::argument(&state, Role::Advocate, &sent, "HEAT: 0.9", false, false),
            ArgumentOutcome::Retry(ArgumentFault::OnlyControl)
        );
        assert_eq!(
            super::argument(&state, Role::Advocate, &sent, "", true, false),
            ArgumentOutcome::Fails("the answer was empty on both tries".into())
        );
    }

    /// In a vote, a debater who takes up another's final answer of the
    /// round before agrees with it: that is not a copy of its prompt, and
    /// the prompt's line that carried the answer, said again, is dropped.
    #[test]
    fn taking_up_anothers_final_answer_is_agreeing_not_copying() {
        let vote = crate::format::Catalog::load(None).find("vote").map(|f| f.record.clone()).ok();
        let Some(vote) = vote else { panic!("the built-in vote format") };
        let topic = "Cities should ban cars from their centres";
        let answer = "The ban will cut carbon emissions and clean the air in the centre.";
        let mut events = vec![
            DebateEvent::Started {
                topic: topic.into(),
                max_rounds: 3,
                initial_heat: Heat::new(0.9),
                participants: Vec::new(),
            },
            DebateEvent::Formatted { format: Box::new(vote) },
            DebateEvent::RoundStarted { round: 0, topic: topic.into(), heat: Heat::new(0.9), injected: Vec::new() },
        ];
        for role in [Role::Advocate, Role::Skeptic, Role::Third] {
            let text = if role == Role::Third { format!("Final answer: {answer}") } else { "Final answer: No.".into() };
            events.extend(DebateEvent::turn(0, role, TurnPurpose::Argue, &text));
        }
        events.push(DebateEvent::RoundStarted {
            round: 1,
            topic: topic.into(),
            heat: Heat::new(0.6),
            injected: Vec::new(),
        });
        let state = DebateState::from_events(&events);
        let point = format!("The contrarian's main point: \u{201c}{answer}\u{201d}");
        let sent = SentPrompt {
            system: String::new(),
            user: vec![format!("Proposition: {topic}\n{point}\nRound 2 of 3.")],
            own: Vec::new(),
        };
        let agrees = format!("Final answer: {answer}");
        assert_eq!(
            super::argument(&state, Role::Skeptic, &sent, &agrees, false, false),
            ArgumentOutcome::Stands(agrees.clone())
        );
        let echoed = format!("{agrees}\n{point}");
        assert_eq!(
            super::argument(&state, Role::Skeptic, &sent, &echoed, false, false),
            ArgumentOutcome::Stands(agrees.clone())
        );
        // Out of a vote the same words are a copy of the prompt.
        let duel = DebateState::from_events(&[events[0].clone()]);
        let copied = format!("{answer} {answer}");
        let sent = SentPrompt { system: String::new(), user: vec![format!("{point}\n{point}")], own: Vec::new() };
        assert_eq!(
            super::argument(&duel, Role::Skeptic, &sent, &copied, false, false),
            ArgumentOutcome::Retry(ArgumentFault::CopiesPrompt)
        );
    }
}
