//! What a report shows, read from a session's records: the heat of each
//! round and who set it, the steering and where it happened, words and time
//! per turn, the verdicts with how each question changed, the evidence, and
//! the transcript in the order things happened. Plain data, every text
//! cleaned of control sequences; the page and the charts only lay it out.

use super::agreement::{self, HumanEntry, RoomEntry};
use super::intervention::Intervention;
use super::time::rfc3339;
use super::transcript::{TranscriptRound, transcript};
use super::walk::Walk;
use super::words::words;
use crate::debate::cost::{self, Prices};
use crate::debate::facts::{self, RoundFacts};
use crate::debate::grounding::{Cited, Mark};
use crate::debate::panel;
use crate::debate::state::VerdictStatus;
use crate::debate::swap::check::SwapCheck;
use crate::debate::verdict::Scores;
use crate::debate::{DebateEvent, DebateState, Heat, Outcome, Role};
use crate::sanitize::clean;
use crate::store::log::{Header, Record};

/// Who set a round's heat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeatSetBy {
    /// The debate's initial heat (the person's setting or the config).
    Start,
    /// The judge's verdict on the round before.
    Judge,
    /// A heat the person pinned.
    Person,
}

impl HeatSetBy {
    pub fn label(self) -> &'static str {
        match self {
            HeatSetBy::Start => "initial",
            HeatSetBy::Judge => "set by the judge",
            HeatSetBy::Person => "pinned by the person",
        }
    }
}

/// One round's heat.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatPoint {
    /// 1-based, as people count rounds.
    pub round: u32,
    pub heat: Heat,
    pub set_by: HeatSetBy,
}

/// Words and seconds of one seat's turn in a round.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Effort {
    pub words: usize,
    /// Wall time of the turn, start to end, when it ended.
    pub seconds: Option<f64>,
}

/// Each seat's effort in one round.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundEffort {
    pub round: u32,
    /// How alike the two arguments are, 0 to 1 (`debate::convergence`).
    pub alike: Option<f64>,
    /// In seat order: the debaters, then the judge (all its turns of the round).
    pub seats: Vec<(Role, Effort)>,
}

impl RoundEffort {
    pub fn words(&self, role: Role) -> usize {
        self.seats.iter().find(|(r, _)| *r == role).map_or(0, |(_, e)| e.words)
    }
}

/// A run of a changed question: `same`, `added` or `removed` words (the
/// page's classes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub class: &'static str,
    pub text: String,
}

/// What the judge said of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// Not resolved: a reason, the next question and heat.
    Goes,
    /// The verdict closed the debate.
    Closes,
    /// The answer could not be read.
    Unreadable,
    /// No verdict (the debate ended or stopped first).
    Nothing,
}

/// The judge's word on a round.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictEntry {
    pub round: u32,
    pub heat: Heat,
    pub question: String,
    pub said: Said,
    /// The judge's reason, or why its answer could not be read.
    pub reason: String,
    /// The next question, as a change from this round's.
    pub next: Vec<Change>,
    pub next_heat: Option<Heat>,
    /// Who the judge said is ahead and who conceded, in words; empty when not said.
    pub standing: String,
    /// The swap check's mark and its CSS class: `("verdict flips on swap", "flips")`.
    pub swap: Option<(&'static str, &'static str)>,
    /// A panel's other judges' votes, a line each ("Judge 2: not resolved · …").
    pub votes: Vec<String>,
    /// The panel's decision and its dissent, once every judge spoke.
    pub decision: Option<String>,
    /// The vote among the debaters' final answers, in a format that ends on them.
    pub vote: Option<String>,
    /// The round's part of the argument map, a line each (claims, the
    /// scorecard, a link left out, a turning point).
    pub map: Vec<String>,
}

impl VerdictEntry {
    /// The verdict's kind in words.
    pub fn said_words(&self) -> &'static str {
        match self.said {
            Said::Goes => "Not resolved",
            Said::Closes => "Closed the debate",
            Said::Unreadable => "The verdict could not be read; heat and question kept",
            Said::Nothing => "No verdict",
        }
    }
}

/// One checked citation.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub round: u32,
    pub seat: String,
    pub mark: &'static str,
    pub mark_class: &'static str,
    pub cited: String,
    pub found: String,
    /// The lines it points at, numbered (`L6: …`), when recorded.
    pub passage: Option<String>,
}

/// A seat and who spoke for it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatLine {
    pub seat: String,
    pub seat_class: &'static str,
    pub provider: String,
    pub model: String,
}

/// One row of the tokens-and-cost table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpendingRow {
    /// A seat, a panel judge, or a round.
    pub who: String,
    pub calls: u32,
    pub input: String,
    pub output: String,
    /// `$0.0123`, or why there is none.
    pub cost: String,
}

/// Each payer's row, then each round's; a cost only where every call has a price.
fn spending(state: &DebateState, prices: &Prices) -> Vec<SpendingRow> {
    let row = |who: String, s: &cost::Spent| SpendingRow {
        who,
        calls: s.calls,
        input: crate::words::thousands(s.input),
        output: crate::words::thousands(s.output),
        cost: s.cost.map_or_else(|| "no price in heat.toml".to_string(), |c| format!("${c:.4}")),
    };
    let payers = cost::by_payer(state, prices).into_iter().map(|(payer, s)| row(clean(&payer.name(state)), &s));
    let rounds = cost::by_round(state, prices).into_iter().map(|(round, s)| row(format!("Round {}", round + 1), &s));
    payers.chain(rounds).collect()
}

/// Everything a report shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub session: String,
    /// The name a person gave the debate, and its tags as `#work #later`.
    pub name: Option<String>,
    pub tags: Option<String>,
    pub started: String,
    pub topic: String,
    pub format: String,
    /// The scores' tug-of-war totals, in a format that scores.
    pub scores: Option<String>,
    pub seats: Vec<SeatLine>,
    pub source: Option<String>,
    /// The stored debate this one runs again, and how it was changed.
    pub origin: Option<(String, String)>,
    /// The stored debate this one branches: its id, the last round shared, what changed.
    pub branch: Option<(String, u32, String)>,
    /// The outcome in words, or what it is so far.
    pub outcome: String,
    /// Whether the debate has ended.
    pub finished: bool,
    /// The log is held by a debate still running: this is what exists so far.
    pub live: bool,
    pub rounds: usize,
    /// `12 min 04 s`
    pub duration: String,
    pub tokens: Option<(u64, u64)>,
    pub cached: u64,
    pub cost: Option<f64>,
    /// Each seat's and panel judge's calls, tokens and cost, then each round's.
    pub spending: Vec<SpendingRow>,
    pub heat: Vec<HeatPoint>,
    pub steering: Vec<Intervention>,
    pub effort: Vec<RoundEffort>,
    /// The debaters' seats and their names, in order.
    pub debaters: Vec<(Role, String)>,
    /// A judge sat (a `vote` debate has none).
    pub judged: bool,
    pub verdicts: Vec<VerdictEntry>,
    pub evidence: Vec<Evidence>,
    /// What the evidence was checked against: "the source" or "the library".
    pub evidence_against: &'static str,
    pub transcript: Vec<TranscriptRound>,
    pub synthesis: Option<String>,
    /// The person's verdicts, each beside the judge's for its round.
    pub human: Vec<HumanEntry>,
    /// The room's vote on the audience page, by round.
    pub room: Vec<RoomEntry>,
    /// A review's issues as they stand at the end, and their count in words.
    pub issues: Vec<IssueEntry>,
    pub issues_summary: String,
    /// The argument map, in a format that keeps one.
    pub map: Option<super::map::ReportMap>,
    /// "The person and the judge agree in 2 of 3 rounds.", where the judge named sides.
    pub agreement: Option<String>,
    /// The arbiter's summary (Markdown) and the model that wrote it.
    pub summary: Option<(String, String)>,
    pub notices: Vec<String>,
    /// What loading the log skipped or repaired.
    pub skipped: Vec<String>,
}

/// How the report was asked for.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The log is held by a running debate.
    pub live: bool,
    /// What loading the log skipped or repaired.
    pub skipped: Vec<String>,
    /// The prices configured, each seat's and each panel judge's.
    pub prices: Prices,
    /// The name and tags a person gave the stored debate, if any.
    pub label: crate::store::label::Label,
}

impl Report {
    /// Reads a session's records into a report.
    pub fn build(header: &Header, records: &[Record], context: &Context) -> Report {
        let state = DebateState::from_events(records.iter().map(|r| &r.event));
        let walk = Walk::over(records);
        let finished = state.finish.is_some();
        let outcome = match state.finish.as_ref().map(|f| &f.outcome) {
            None if context.live => format!("still running, in round {}", state.rounds.len().max(1)),
            None => format!("unfinished after {} round(s); `heat resume` goes on with it", state.rounds.len()),
            Some(failed @ (Outcome::Failed(why) | Outcome::Invalidated(why))) => {
                format!("{}: {}", failed.headline(state.rounds.len()), clean(why))
            }
            Some(outcome) => outcome.headline(state.rounds.len()),
        };
        // The debate's own length: to its end, not to a summary asked for later.
        let end = records.iter().rev().find(|r| matches!(r.event, DebateEvent::Finished { .. })).or(records.last());
        let ms = end.map_or(0, |r| r.ms);
        Report {
            session: header.id.clone(),
            name: context.label.name.as_deref().map(crate::sanitize::one_line),
            tags: (!context.label.tags.is_empty()).then(|| crate::store::label::hashed(&context.label.tags)),
            started: rfc3339(header.created_ms),
            topic: clean(&state.topic),
            format: format_line(&state),
            scores: crate::debate::scores::totals(&state).map(|t| clean(&t)),
            seats: seat_lines(&state),
            source: state.source.as_ref().map(|s| {
                format!("{} ({} lines, sha256 {})", clean(&s.name), s.line_count(), &s.sha256[..12.min(s.sha256.len())])
            }),
            origin: state.origin.as_ref().map(|(from, how)| (clean(from), clean(how))),
            branch: state.branch.as_ref().map(|b| (clean(&b.from), b.round, clean(&b.how))),
            outcome,
            finished,
            live: context.live && !finished,
            rounds: state.rounds.len(),
            duration: duration(ms),
            tokens: cost::tokens(&state),
            cached: cost::cached_input(&state),
            cost: cost::cost(&state, &context.prices),
            spending: spending(&state, &context.prices),
            heat: heat_points(&state),
            steering: walk.steering.clone(),
            effort: effort(&state, &walk),
            debaters: state.debaters().iter().map(|&r| (r, state.label(r).to_string())).collect(),
            judged: state.judges() > 0,
            verdicts: verdicts(&state),
            evidence: evidence(&state),
            evidence_against: state.grounds().unwrap_or("the source"),
            transcript: transcript(&state, &walk),
            synthesis: state.finish.as_ref().and_then(|f| f.synthesis.as_deref()).map(|s| clean(s.trim())),
            issues: issues(&state),
            issues_summary: crate::debate::issues::summary(&crate::debate::issues::board(&state)),
            map: super::map::of(&state),
            summary: state.summary.as_ref().map(|s| (clean(&s.model), clean(s.text.trim()))),
            human: agreement::entries(&state),
            room: agreement::room(&state),
            agreement: agreement::summary(&agreement::entries(&state)),
            notices: state.notices.iter().map(|n| clean(n)).collect(),
            skipped: context.skipped.iter().map(|n| clean(n)).collect(),
        }
    }

    /// Words of the debaters over the whole debate, in seat order.
    pub fn total_words(&self, role: Role) -> usize {
        self.effort.iter().map(|e| e.words(role)).sum()
    }
}

/// The format by name, with its phases and whether it scores:
/// "oxford (Opening, Rebuttal, Closing; each argument scored −3 to +3)".
fn format_line(state: &DebateState) -> String {
    let Some(format) = &state.format else { return crate::debate::format::DUEL.to_string() };
    let mut parts: Vec<String> = Vec::new();
    if !format.phases.is_empty() {
        parts.push(format.phases.iter().map(|p| clean(&p.name)).collect::<Vec<_>>().join(", "));
    }
    if format.scores {
        parts.push("each argument scored \u{2212}3 to +3".into());
    }
    let name = clean(&format.name);
    if parts.is_empty() { name } else { format!("{name} ({})", parts.join("; ")) }
}

/// Who the judge said is ahead and who conceded, then the round's scores
/// in a format that scores; empty when neither was said.
fn standing(state: &DebateState, round: &crate::debate::state::Round, scores: Option<&Scores>) -> String {
    let verdict = round.verdict();
    let said = verdict.and_then(|v| crate::debate::standing::describe(v, state));
    let scores = scores.map(|s| crate::debate::scores::line(state, round.number, s));
    said.into_iter().chain(scores).map(|s| clean(&s)).collect::<Vec<_>>().join(" · ")
}

fn seat_class(role: Role) -> &'static str {
    role.key()
}

fn seat_lines(state: &DebateState) -> Vec<SeatLine> {
    state
        .participants
        .iter()
        .map(|p| SeatLine {
            seat: state.label(p.role).to_string(),
            seat_class: seat_class(p.role),
            provider: clean(&p.provider),
            model: match &p.served {
                _ if p.is_person() => crate::debate::event::AT_THE_KEYBOARD.to_string(),
                Some(_) => format!("{} (asked for {})", clean(p.shown_model()), clean(&p.model)),
                None => clean(&p.model),
            },
        })
        .collect()
}

/// Each round's heat and who set it.
pub fn heat_points(state: &DebateState) -> Vec<HeatPoint> {
    state
        .rounds
        .iter()
        .enumerate()
        .map(|(i, round)| HeatPoint {
            round: round.number + 1,
            heat: round.heat,
            set_by: match (round.pinned, i) {
                (true, _) => HeatSetBy::Person,
                (false, 0) => HeatSetBy::Start,
                (false, _) => HeatSetBy::Judge,
            },
        })
        .collect()
}

/// One issue of a review, for the report's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssueEntry {
    pub id: String,
    pub severity: &'static str,
    pub status: &'static str,
    /// Who raised it, and in which round (from 1).
    pub by: String,
    pub round: u32,
    pub claim: String,
    pub evidence: String,
}

/// A review's board at the end; empty in a format that tracks no issues.
fn issues(state: &DebateState) -> Vec<IssueEntry> {
    if !state.tracks_issues() {
        return Vec::new();
    }
    crate::debate::issues::board(state)
        .into_iter()
        .map(|row| IssueEntry {
            id: clean(&row.issue.id),
            severity: row.issue.severity.name(),
            status: row.status.name(),
            by: clean(state.label(row.by)),
            round: row.round + 1,
            claim: clean(&row.issue.claim),
            evidence: row.issue.evidence.as_deref().map_or_else(|| "–".to_string(), clean),
        })
        .collect()
}

fn effort(state: &DebateState, walk: &Walk) -> Vec<RoundEffort> {
    state
        .rounds
        .iter()
        .enumerate()
        .map(|(i, round)| {
            let mut seats: Vec<(Role, Effort)> = state.seats().into_iter().map(|r| (r, Effort::default())).collect();
            for (n, turn) in round.turns.iter().enumerate() {
                let Some((_, effort)) = seats.iter_mut().find(|(r, _)| *r == turn.role) else { continue };
                let seconds = walk.turn(i, n).and_then(|(s, _)| s);
                if turn.role.is_debater() {
                    // A debater's latest turn is its argument.
                    *effort = Effort { words: words(&turn.text), seconds };
                } else {
                    effort.words += words(&turn.text);
                    effort.seconds = match (effort.seconds, seconds) {
                        (Some(a), Some(b)) => Some(a + b),
                        (a, b) => a.or(b),
                    };
                }
            }
            RoundEffort { round: round.number + 1, alike: crate::debate::convergence::of_round(round), seats }
        })
        .collect()
}

fn verdicts(state: &DebateState) -> Vec<VerdictEntry> {
    state
        .rounds
        .iter()
        .map(|round| {
            // The review's board is the page's own section (`issues`), the
            // room's votes the agreement table's.
            let RoundFacts { scores, issues: _, panel, swap, vote, room: _, map } = facts::of_round(state, round);
            let (votes, decision) = panel.map_or((Vec::new(), None), |judges| {
                let votes = judges.votes.iter().map(|(&judge, vote)| clean(&panel::vote_line(state, judge, vote)));
                (votes.collect(), judges.said.map(|said| clean(&said.unwrap_or_else(|undecided| undecided))))
            });
            let mut entry = VerdictEntry {
                round: round.number + 1,
                heat: round.heat,
                question: clean(&round.topic),
                said: Said::Nothing,
                reason: String::new(),
                next: Vec::new(),
                next_heat: None,
                standing: standing(state, round, scores.as_ref()),
                swap: swap.as_ref().and_then(SwapCheck::mark).map(|mark| {
                    (mark, if matches!(swap, Some(SwapCheck::Failed { .. })) { "failed" } else { "flips" })
                }),
                votes,
                decision,
                vote: vote.map(|tally| clean(&crate::debate::vote::describe(state, &tally))),
                map: map
                    .map(|m| crate::debate::argument_map::round_lines(state, &m))
                    .unwrap_or_default()
                    .iter()
                    .map(|l| clean(l))
                    .collect(),
            };
            let judge = round.turn(Role::Judge);
            match judge.and_then(|t| t.verdict.as_ref().map(|v| (t, v))) {
                Some((turn, VerdictStatus::Parsed { verdict })) => {
                    entry.reason = clean(&verdict.verdict);
                    if panel::closes(state, round, turn) {
                        entry.said = Said::Closes;
                    } else {
                        entry.said = Said::Goes;
                        entry.next = diff(&entry.question, &clean(&verdict.topic));
                        // A panel's next heat is its median.
                        entry.next_heat = Some(panel::decision(state, round.number).map_or(verdict.heat, |d| d.heat));
                    }
                }
                Some((_, VerdictStatus::Invalid { error, .. })) => {
                    entry.said = Said::Unreadable;
                    entry.reason = clean(error);
                }
                None => {}
            }
            entry
        })
        .collect()
}

/// Word by word, what changed from one question to the next; a question
/// rewritten more than it was kept comes back whole (class `new`), as a
/// diff of it would be hard to read.
pub fn diff(before: &str, after: &str) -> Vec<Change> {
    let diff = similar::TextDiff::from_words(before, after);
    let kept = diff
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Equal && !c.value().trim().is_empty())
        .count();
    let longer = before.split_whitespace().count().max(after.split_whitespace().count());
    if kept * 2 < longer {
        return vec![Change { class: "new", text: after.to_string() }];
    }
    let mut parts: Vec<Change> = Vec::new();
    for change in diff.iter_all_changes() {
        let class = match change.tag() {
            similar::ChangeTag::Equal => "same",
            similar::ChangeTag::Insert => "added",
            similar::ChangeTag::Delete => "removed",
        };
        // Runs of one kind are merged, so the page marks phrases, not words.
        match parts.last_mut() {
            Some(last) if last.class == class => last.text.push_str(change.value()),
            Some(last) if last.class == "removed" && class == "added" && !last.text.ends_with(' ') => {
                // A replaced word reads as two: the old, a space, the new.
                last.text.push(' ');
                parts.push(Change { class, text: change.value().to_string() });
            }
            _ => parts.push(Change { class, text: change.value().to_string() }),
        }
    }
    parts
}

fn evidence(state: &DebateState) -> Vec<Evidence> {
    let mut rows = Vec::new();
    for round in &state.rounds {
        for turn in round.turns.iter().filter(|t| !t.checks.is_empty()) {
            for check in &turn.checks {
                let cited = match &check.cited {
                    Cited::Lines { start, end } if start == end => format!("[L{start}]"),
                    Cited::Lines { start, end } => format!("[L{start}–L{end}]"),
                    Cited::Passage { file, start, end } if start == end => format!("[{}:L{start}]", clean(file)),
                    Cited::Passage { file, start, end } => format!("[{}:L{start}–L{end}]", clean(file)),
                    Cited::Quote { text } => format!("\u{201c}{}\u{201d}", clean(text)),
                };
                let at = check.lines.map(|(a, b)| {
                    let lines = if a == b { format!("L{a}") } else { format!("L{a}–L{b}") };
                    check.file.as_deref().map_or(lines.clone(), |file| format!("{}:{lines}", clean(file)))
                });
                let library = state.library.is_some();
                let place = if library { "in the library" } else { "in the source" };
                let (mark_class, found) = match check.mark {
                    Mark::Verified => ("verified", at.map_or(place.into(), |at| format!("{place}, {at}"))),
                    Mark::Near => (
                        "near",
                        at.map_or("near, not word for word".into(), |at| format!("near {at}, not word for word")),
                    ),
                    Mark::Unverified => {
                        ("unverified", if library { "not in the library" } else { "not in the source" }.into())
                    }
                    Mark::PriorTurn => (
                        "prior",
                        format!("quotes {}, not the source", clean(check.from.as_deref().unwrap_or("an earlier turn"))),
                    ),
                };
                rows.push(Evidence {
                    round: round.number + 1,
                    seat: state.label(turn.role).to_string(),
                    mark: check.mark.symbol(),
                    mark_class,
                    cited,
                    found,
                    passage: crate::debate::grounding::reading::lines_cited(state, check).map(|lines| {
                        lines.iter().take(12).map(|(n, l)| format!("L{n}: {}", clean(l))).collect::<Vec<_>>().join("\n")
                    }),
                });
            }
        }
    }
    rows
}

/// `4 min 05 s`, `38 s`, `1 h 02 min`.
fn duration(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s / 60 % 60),
    }
}
