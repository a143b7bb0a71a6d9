//! The report's transcript: each round's turns in the order they started,
//! with their timing and retries from the walk over the records, the
//! steering in place where it happened, and a judge's answer as a person
//! reads it.

use super::intervention::Intervention;
use super::walk::{Slot, Walk};
use super::words::words;
use crate::debate::state::{Round, Turn, TurnStatus, VerdictStatus};
use crate::debate::{DebateState, Heat, TurnPurpose};
use crate::sanitize::clean;

/// A turn in the transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptTurn {
    /// The page anchor: `r2-skeptic`, `r2-judge-2` for a second judge turn.
    pub anchor: String,
    pub seat: String,
    pub seat_class: &'static str,
    pub purpose: &'static str,
    pub temperature: Option<f32>,
    pub tokens: Option<(u64, u64)>,
    pub retries: u32,
    pub seconds: Option<f64>,
    pub words: usize,
    pub text: String,
    /// What a reader should know about how it ended (cancelled, failed, cut).
    pub note: Option<String>,
}

impl TranscriptTurn {
    /// `argument · temperature 0.90 · 212 words · 512 in / 180 out · 4.2 s · 1 retry`
    pub fn meta(&self) -> String {
        let mut parts = vec![self.purpose.to_string()];
        if let Some(t) = self.temperature {
            parts.push(format!("temperature {t:.2}"));
        }
        parts.push(crate::words::count(self.words, "word"));
        if let Some((input, output)) = self.tokens {
            parts.push(format!("{input} in / {output} out"));
        }
        if let Some(s) = self.seconds {
            parts.push(format!("{s:.1} s"));
        }
        if self.retries > 0 {
            parts.push(crate::words::count(self.retries as usize, "retry"));
        }
        parts.join(" · ")
    }
}

/// The transcript in the order things happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Turn(TranscriptTurn),
    Intervention(Intervention),
}

#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptRound {
    pub round: u32,
    pub heat: Heat,
    pub pinned: bool,
    pub question: String,
    pub injected: Vec<String>,
    pub entries: Vec<Entry>,
}

/// Every round's transcript.
pub(super) fn transcript(state: &DebateState, walk: &Walk) -> Vec<TranscriptRound> {
    let mut out: Vec<TranscriptRound> = state
        .rounds
        .iter()
        .enumerate()
        .map(|(i, round)| TranscriptRound {
            round: round.number + 1,
            heat: round.heat,
            pinned: round.pinned,
            question: clean(&round.topic),
            injected: round.injected.iter().map(|t| clean(t)).collect(),
            entries: round_entries(state, round, i, walk),
        })
        .collect();
    // Steering before the first round opens it.
    if let Some(first) = out.first_mut() {
        let before = walk.before.iter().cloned().map(Entry::Intervention);
        first.entries.splice(0..0, before);
    }
    out
}

fn round_entries(state: &DebateState, round: &Round, index: usize, walk: &Walk) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut n = 0;
    let mut judge_turns = 0;
    let slots = walk.rounds.get(index).map_or(&[][..], Vec::as_slice);
    for slot in slots {
        match slot {
            Slot::Intervention(steer) => entries.push(Entry::Intervention(steer.clone())),
            Slot::Turn { .. } => {
                let Some(turn) = round.turns.get(n) else { continue };
                let (seconds, retries) = walk.turn(index, n).unwrap_or((None, 0));
                n += 1;
                let anchor = if turn.role.is_judge() {
                    judge_turns += 1;
                    match judge_turns {
                        1 => format!("r{}-judge", round.number + 1),
                        k => format!("r{}-judge-{k}", round.number + 1),
                    }
                } else {
                    format!("r{}-{}", round.number + 1, turn.role.key())
                };
                // On a panel the chair's verdict is a vote: its next question is part of it.
                let vote = state.judges() > 1 && !turn.purpose.is_final();
                let shown = Shown { seat: state.label(turn.role), anchor, seconds, retries, vote };
                entries.push(Entry::Turn(transcript_turn(turn, shown)));
            }
        }
    }
    entries
}

/// How a turn is shown in the transcript besides its own text.
struct Shown<'a> {
    seat: &'a str,
    anchor: String,
    seconds: Option<f64>,
    retries: u32,
    /// A panel chair's verdict that is not the last word.
    vote: bool,
}

fn transcript_turn(turn: &Turn, shown: Shown<'_>) -> TranscriptTurn {
    let Shown { seat, anchor, seconds, retries, vote } = shown;
    let note = match &turn.status {
        TurnStatus::Cancelled => Some("cancelled by the person; the text so far stands".to_string()),
        TurnStatus::Failed { error } => Some(format!("failed: {}", clean(error))),
        TurnStatus::Streaming | TurnStatus::Retrying { .. } => Some("still being written".to_string()),
        TurnStatus::Done => turn
            .truncated_at
            .map(|tokens| format!("{}: stopped at its token limit", crate::debate::cut_note(tokens)))
            .or_else(|| turn.out_of_time.map(crate::debate::time_note))
            .or_else(|| turn.possibly_cut.then(|| crate::debate::POSSIBLY_CUT.to_string())),
    };
    TranscriptTurn {
        anchor,
        seat: seat.to_string(),
        seat_class: turn.role.key(),
        purpose: match turn.purpose {
            TurnPurpose::Argue => "argument",
            TurnPurpose::Judge => "verdict",
            TurnPurpose::RepairVerdict => "verdict, asked again",
            TurnPurpose::Synthesis => "final synthesis",
            TurnPurpose::RepairSynthesis => "final synthesis, asked again",
        },
        temperature: turn.temperature,
        tokens: turn.usage.map(|u| (u.input_tokens, u.output_tokens)),
        retries,
        seconds,
        words: words(&turn.text),
        text: clean(readable(turn, vote).trim()),
        note,
    }
}

/// A judge's answer as a person reads it: its verdict and next question,
/// not the JSON it came in; an answer that could not be read, as it came.
fn readable(turn: &Turn, vote: bool) -> String {
    match &turn.verdict {
        Some(VerdictStatus::Parsed { verdict }) if turn.closes_debate() && !vote => verdict.verdict.clone(),
        Some(VerdictStatus::Parsed { verdict }) => {
            format!("{}\n\nNext question: {} · heat {:.2}", verdict.verdict, verdict.topic, verdict.heat)
        }
        _ => turn.text.clone(),
    }
}
