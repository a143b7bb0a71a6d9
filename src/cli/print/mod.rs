//! Prints a debate's events for `heat run` as readable text as it streams
//! (one JSON event per line is `json_lines`): what each event says, and a
//! round's facts as they settle. Advocate and skeptic stream at the same
//! time; the column they share (`stage.rs`) shows one live and holds the
//! other back until its turn comes, so their words never interleave.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use crate::debate::facts::{self, RoundFacts};
use crate::debate::state::DebateState;
use crate::debate::{DebateEvent, Role};
use crate::sanitize::Sanitizer;

pub use super::style::{Style, stdout_style};
use stage::Stage;

mod stage;

/// Streams events to a writer as text.
pub struct TextPrinter<W: Write> {
    stage: Stage<W>,
    state: DebateState,
    sanitizers: BTreeMap<Role, Sanitizer>,
    /// Rounds whose panel decision was printed, and whether it was the closing one.
    decided: BTreeSet<(u32, bool)>,
    /// Rounds whose vote among the final answers was printed.
    voted: BTreeSet<u32>,
    /// Participants held from `Started` until the next event says whether
    /// a format names their seats (`Formatted` follows at once) or not.
    unnamed: Vec<crate::debate::Participant>,
}

impl<W: Write> TextPrinter<W> {
    pub fn new(out: W, style: Style) -> Self {
        Self {
            stage: Stage::new(out, style),
            state: DebateState::default(),
            sanitizers: BTreeMap::new(),
            decided: BTreeSet::new(),
            voted: BTreeSet::new(),
            unnamed: Vec::new(),
        }
    }

    /// Folds events that happened before without printing them.
    pub fn absorb(&mut self, events: &[DebateEvent]) {
        for event in events {
            self.state.apply(event);
        }
    }

    pub fn into_inner(self) -> W {
        self.stage.out
    }

    pub fn event(&mut self, event: &DebateEvent) -> io::Result<()> {
        self.state.apply(event);
        // The seats, named as a format names them, once the event after the start says whether one does.
        if !matches!(event, DebateEvent::Formatted { .. }) && !self.unnamed.is_empty() {
            self.say_held_seats()?;
        }
        self.say(event)?;
        self.say_facts(event)?;
        self.say_room(event)
    }

    /// What the event's round established, each fact said once it settles:
    /// under a verdict its scores (a panel's with its decision) and a
    /// review's board, then a panel's decision once its last judge has
    /// spoken, and the vote among final answers once the last debater has.
    /// The swap check is said as it flips or fails (`say`), the room's
    /// votes once the round stops taking ballots (`say_room`).
    fn say_facts(&mut self, event: &DebateEvent) -> io::Result<()> {
        // A streamed piece settles no fact: the projection is not made a token at a time.
        if matches!(event, DebateEvent::Delta { .. } | DebateEvent::Reasoning { .. }) {
            return Ok(());
        }
        let Some(number) = event.round() else { return Ok(()) };
        let Some(round) = self.state.rounds.iter().find(|r| r.number == number) else { return Ok(()) };
        let closing = round.turn(Role::Judge).is_some_and(|t| t.purpose.is_final());
        let RoundFacts { scores, issues, panel, swap: _, vote, room: _, map } = facts::of_round(&self.state, round);
        if matches!(event, DebateEvent::VerdictReached { .. }) {
            if let Some(scores) = scores.as_ref().filter(|_| panel.is_none()) {
                self.stage.line(&crate::debate::scores::line(&self.state, number, scores))?;
            }
            if let Some(rows) = issues {
                self.say_issues(&rows)?;
            }
            for line in map.iter().flat_map(|m| crate::debate::argument_map::round_lines(&self.state, m)) {
                writeln!(self.stage.out, "  {}", crate::sanitize::clean(&line))?;
            }
        }
        if let Some(said) = panel.and_then(|p| p.said)
            && self.decided.insert((number, closing))
        {
            let line = format!("⚖ {}", crate::sanitize::clean(&said.unwrap_or_else(|undecided| undecided)));
            self.stage.painted("", "1", &line)?;
            if let Some(scores) = &scores {
                let line = crate::debate::scores::line(&self.state, number, scores);
                self.stage.line(&format!("{line} · panel median"))?;
            }
        }
        if let Some(tally) = vote
            && self.voted.insert(number)
        {
            self.stage.settle_debaters(&self.state)?;
            let line = format!("☐ vote: {}", crate::debate::vote::describe(&self.state, &tally));
            self.stage.painted("", "1", &line)?;
        }
        Ok(())
    }

    /// The room's vote on a round, once the round stops taking ballots
    /// (when the round after next starts, or the debate ends); ballots
    /// counted after the end, as they come.
    fn say_room(&mut self, event: &DebateEvent) -> io::Result<()> {
        let rounds = match event {
            DebateEvent::RoundStarted { round, .. } => round.checked_sub(2).into_iter().collect(),
            DebateEvent::Finished { .. } => crate::debate::audience::open_rounds(&self.state),
            DebateEvent::AudienceVoted { round, .. } if self.state.finish.is_some() => vec![*round],
            _ => Vec::new(),
        };
        for round in rounds {
            if let Some(tally) = self.state.audience.get(&round) {
                let line = format!(
                    "▌ The room's vote, round {}: {}",
                    round + 1,
                    crate::debate::audience::tally_words(&self.state, tally)
                );
                self.stage.painted("", "1", &line)?;
            }
        }
        Ok(())
    }

    /// A review's board of issues, after each verdict: a count, then each issue.
    fn say_issues(&mut self, rows: &[crate::debate::issues::Row]) -> io::Result<()> {
        if rows.is_empty() {
            return self.stage.line("▣ no issue raised yet");
        }
        let summary = format!("▣ {}", crate::debate::issues::summary(rows));
        self.stage.painted("", "1", &summary)?;
        for row in rows {
            let line = crate::debate::issues::row_line(&self.state, row);
            writeln!(self.stage.out, "  {line}")?;
        }
        Ok(())
    }

    /// The lines naming who plays each seat, the names in one column.
    fn say_participants(&mut self, participants: &[crate::debate::Participant]) -> io::Result<()> {
        let width = self.seat_column(participants);
        for p in participants {
            writeln!(self.stage.out, "  {:<width$} {}/{}", self.state.seat_name(p.role), p.provider, p.shown_model())?;
        }
        Ok(())
    }

    /// How wide the seats' names are, a panel's other judges' too (at least 9).
    fn seat_column(&self, participants: &[crate::debate::Participant]) -> usize {
        let judges = self.state.format.as_ref().map_or(0, |f| f.judges);
        let seats = participants.iter().map(|p| self.state.seat_name(p.role).chars().count());
        let panel = crate::debate::PanelJudge::members(judges).map(|j| format!("judge {j}").chars().count());
        seats.chain(panel).max().unwrap_or(0).max(9)
    }

    /// The seats held from the start, as the format (if any) names them;
    /// a scripted demo says so under them.
    fn say_held_seats(&mut self) -> io::Result<()> {
        let unnamed = std::mem::take(&mut self.unnamed);
        self.say_participants(&unnamed)?;
        if self.state.is_scripted() {
            writeln!(self.stage.out, "  a scripted demo: written in advance to show heat at work; no model answered")?;
        }
        Ok(())
    }

    /// A panel's other judges, each on its own model or the chair's.
    fn say_panel_judges(&mut self) -> io::Result<()> {
        let judges = self.state.format.as_ref().map_or(0, |f| f.judges);
        let width = self.seat_column(&self.state.participants);
        let chair = self.state.seat_name(Role::Judge);
        for judge in crate::debate::PanelJudge::members(judges) {
            let name = format!("judge {judge}");
            match crate::debate::panel::model_of(&self.state, judge) {
                Some(model) => writeln!(self.stage.out, "  {name:<width$} {}", crate::sanitize::clean(model))?,
                None => writeln!(self.stage.out, "  {name:<width$} the {chair}'s model")?,
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_lines)] // one arm per event kind reads best as one match
    fn say(&mut self, event: &DebateEvent) -> io::Result<()> {
        match event {
            DebateEvent::Started { topic, max_rounds, participants, .. } => {
                let title = self.stage.style.paint("1", &format!("heat · {}", crate::sanitize::clean(topic)));
                writeln!(self.stage.out, "{title}")?;
                writeln!(self.stage.out, "  up to {}", crate::words::count(*max_rounds as usize, "round"))?;
                // Named by the format, which comes next where there is one.
                self.unnamed.clone_from(participants);
            }
            DebateEvent::Grounded { date, source, library } => {
                if let Some(date) = date {
                    writeln!(self.stage.out, "  {}", crate::debate::grounding::date::line(date))?;
                }
                if let Some(source) = source {
                    let name = crate::sanitize::clean(&source.name);
                    writeln!(self.stage.out, "  source    {name} ({} lines)", source.line_count())?;
                }
                if let Some(library) = library {
                    let roots = crate::sanitize::clean(&library.roots.join(", "));
                    writeln!(self.stage.out, "  library   {roots} ({})", library.counted())?;
                }
            }
            DebateEvent::Formatted { format } => {
                let name = crate::sanitize::clean(&format.name);
                let lineup = format.lineup().replace(" vs ", " against ");
                writeln!(self.stage.out, "  format    {name}: {lineup}, {}", format.judging())?;
                self.say_held_seats()?;
                self.say_panel_judges()?;
            }
            DebateEvent::Retrieved { role, passages, .. } => {
                let read: Vec<String> = passages.iter().map(|p| crate::sanitize::clean(&p.label())).collect();
                self.stage.note(&format!("{} reads {}", self.state.seat_name(*role), read.join(" · ")))?;
            }
            DebateEvent::ToolAnswered { round, role, id, text, failed, millis } => {
                let turn = self.state.rounds.iter().find(|r| r.number == *round).and_then(|r| r.turn(*role));
                let call = turn.and_then(|t| t.tools.iter().flat_map(|s| &s.calls).find(|u| u.call.id == *id));
                if let Some(call) = call {
                    let said = crate::debate::grounding::lookup::said(&call.call);
                    let gist = crate::debate::grounding::lookup::gist(text, *failed);
                    let seat = self.state.seat_name(*role);
                    let took = crate::debate::grounding::lookup::took(*millis);
                    self.stage.note(&format!("{seat} looks up: {said} → {gist} · {took}"))?;
                }
            }
            DebateEvent::QuotesChecked { role, checks, .. } => {
                if !checks.is_empty() {
                    let said = crate::sanitize::clean(&crate::debate::grounding::describe_all(checks));
                    self.stage.note(&format!("{}'s citations: {said}", self.state.seat_name(*role)))?;
                }
            }
            DebateEvent::RoundStarted { round, topic, heat, injected } => {
                self.stage.live = None;
                self.stage.held.clear();
                // A seat pinned to a heat of its own is asked at it: said beside the round's heat.
                let seats: Vec<String> = self
                    .state
                    .rounds
                    .iter()
                    .find(|r| r.number == *round)
                    .map(|r| {
                        r.seat_heats
                            .iter()
                            .map(|(role, h)| format!(" · {} {h:.2}", self.state.seat_name(*role)))
                            .collect()
                    })
                    .unwrap_or_default();
                let header =
                    format!("── Round {} of {} · heat {heat:.2}{} ", round + 1, self.state.max_rounds, seats.concat());
                self.stage.painted("\n", "1", &format!("{header:─<60}"))?;
                if topic.trim() != self.state.topic.trim() {
                    self.stage.line(&format!("Question: {}", crate::sanitize::clean(topic)))?;
                }
                for note in injected {
                    self.stage.line(&format!("Moderator's note: {}", crate::sanitize::clean(note)))?;
                }
            }
            DebateEvent::TurnStarted { role, .. } => {
                self.sanitizers.insert(*role, Sanitizer::new());
                if role.is_judge() {
                    self.stage.settle_debaters(&self.state)?;
                    writeln!(self.stage.out, "\n{}", self.stage.heading(&self.state, Role::Judge))?;
                }
            }
            DebateEvent::Delta { role, text, .. } if role.is_debater() => {
                let clean = self.sanitizers.entry(*role).or_default().push(text);
                self.stage.debater_text(&self.state, *role, &clean)?;
            }
            DebateEvent::TurnRetrying { role, attempt, max_retries, delay_ms, reason, .. } => {
                let line = format!(
                    "↻ {}: {reason}; retrying in {:.1} s (attempt {attempt} of {max_retries})",
                    self.state.seat_name(*role),
                    *delay_ms as f64 / 1000.0
                );
                if self.stage.live == Some(*role) {
                    self.stage.end_text()?;
                    let notice =
                        self.stage.style.paint("33", &format!("{line} — the partial answer above is discarded"));
                    writeln!(self.stage.out, "{notice}")?;
                    self.stage.start_text(&self.state, *role, "")?;
                } else {
                    self.stage.held.entry(*role).or_default().text.clear();
                    self.stage.note(&line)?;
                }
            }
            DebateEvent::TurnCompleted { round, role, truncated_at, possibly_cut, .. } if role.is_debater() => {
                if let Some(tokens) = truncated_at {
                    self.stage.debater_text(&self.state, *role, &format!(" … {}", crate::debate::cut_note(*tokens)))?;
                } else if *possibly_cut {
                    self.stage.debater_text(&self.state, *role, &format!(" … {}", crate::debate::POSSIBLY_CUT))?;
                }
                self.stage.debater_done(&self.state, *role)?;
                let changed = self.state.rounds.iter().find(|r| r.number == *round).and_then(|r| r.turn(*role));
                if let Some(line) =
                    changed.and_then(|t| t.stance.as_ref()).filter(|_| self.state.stance_unexplained(*round, *role))
                {
                    let flag = format!(
                        "⚑ the {}'s stance changed to {} with no reason given",
                        self.state.seat_name(*role),
                        line.stance.name()
                    );
                    self.stage.note(&flag)?;
                }
            }
            DebateEvent::TurnCancelled { role, .. } => {
                if role.is_debater() {
                    self.stage.debater_done(&self.state, *role)?;
                }
                writeln!(
                    self.stage.out,
                    "{}",
                    self.stage.style.paint("33", &format!("[{} cancelled]", self.state.seat_name(*role)))
                )?;
            }
            DebateEvent::TurnTimedOut { role, seconds, .. } => {
                if role.is_debater() {
                    self.stage.debater_text(
                        &self.state,
                        *role,
                        &format!(" … {}", crate::debate::time_note(*seconds)),
                    )?;
                }
            }
            DebateEvent::TurnDiscarded { role, .. } => {
                if role.is_debater() {
                    self.stage.debater_done(&self.state, *role)?;
                }
                let line = format!("[{}'s answer above discarded: asked again]", self.state.seat_name(*role));
                self.stage.painted("", "33", &line)?;
            }
            DebateEvent::TurnFailed { role, error, .. } => {
                let line = format!("✗ {} failed: {error}", self.state.seat_name(*role));
                if self.stage.live.is_some() {
                    self.stage.note_in("31", &line)?;
                } else {
                    self.stage.painted("\n", "31", &line)?;
                }
            }
            DebateEvent::VerdictReached { round, verdict } => {
                let judge = self.state.rounds.iter().find(|r| r.number == *round).and_then(|r| r.turn(Role::Judge));
                // A verdict that closes the debate is said once, with the outcome, when it finishes;
                // on a panel the chair's verdict is a vote, said as such, and the decision follows.
                let panel = self.state.judges() > 1;
                if panel && !judge.is_some_and(|t| t.purpose.is_final()) {
                    let said = if verdict.resolved { "resolved" } else { "not resolved" };
                    let chair = crate::debate::panel::judge_name(&self.state, crate::debate::PanelJudge::CHAIR);
                    self.stage.line(&format!("{chair}: {said}: {}", crate::sanitize::clean(&verdict.verdict)))?;
                    self.stage.line(&format!(
                        "next: {} · heat {:.2}",
                        crate::sanitize::clean(&verdict.topic),
                        verdict.heat
                    ))?;
                } else if !judge.is_some_and(crate::debate::state::Turn::closes_debate) {
                    self.stage.line(&format!("not resolved: {}", crate::sanitize::clean(&verdict.verdict)))?;
                    self.stage.line(&format!(
                        "next: {} · heat {:.2}",
                        crate::sanitize::clean(&verdict.topic),
                        verdict.heat
                    ))?;
                } else {
                    // The heading is not left bare: the synthesis itself closes the debate, below.
                    let what = if judge.is_some_and(|t| t.purpose.is_final()) { "final synthesis" } else { "resolved" };
                    self.stage.line(&format!("{what}: the synthesis follows, with the outcome"))?;
                }
                if let Some(standing) = crate::debate::standing::describe(verdict, &self.state) {
                    self.stage.line(&standing)?;
                }
                // The round's scores and a review's board follow (`say_facts`).
            }
            DebateEvent::PanelVoted { judge, verdict, .. } => {
                let name = crate::debate::panel::judge_name(&self.state, *judge);
                let line = format!("{name}: {}", crate::debate::panel::verdict_brief(&self.state, verdict));
                self.stage.line(&crate::sanitize::clean(&line))?;
            }
            DebateEvent::PanelVoteFailed { judge, error, .. } => {
                let line = format!("✗ judge {judge} gave no vote and is outvoted: {}", crate::sanitize::clean(error));
                self.stage.note(&line)?;
            }
            DebateEvent::SwapChecked { flips: true, verdict, .. } => {
                let ahead = verdict.ahead.map_or_else(
                    || "named no side".to_string(),
                    |a| crate::debate::standing::ahead_words(a, &self.state),
                );
                let resolved = if verdict.resolved { "resolved" } else { "not resolved" };
                let line = format!(
                    "⇄ {}: read with the {} first, the judge said {ahead}, {resolved}",
                    crate::debate::swap::FLIPS,
                    self.state.seat_name(Role::Skeptic)
                );
                self.stage.note(&line)?;
            }
            DebateEvent::Briefed { round, role, text, .. } => {
                let line = format!(
                    "the {}'s round {} argument, in brief from now on: {}",
                    self.state.seat_name(*role),
                    round + 1,
                    crate::sanitize::clean(text)
                );
                self.stage.note(&line)?;
            }
            DebateEvent::BriefFailed { round, role, error, .. } => {
                let line = format!(
                    "the {}'s round {} argument could not be put in brief ({}); its first sentence stands for it",
                    self.state.seat_name(*role),
                    round + 1,
                    crate::sanitize::clean(error)
                );
                self.stage.note(&line)?;
            }
            DebateEvent::SwapCheckFailed { error, .. } => {
                let line = format!("⇄ {}: {}", crate::debate::swap::FAILED, crate::sanitize::clean(error));
                self.stage.note(&line)?;
            }
            DebateEvent::VerdictInvalid { error, will_retry, .. } => {
                let then = if *will_retry {
                    "asking the judge again".to_string()
                } else {
                    format!("keeping heat {:.2} and the current topic", self.state.heat)
                };
                self.stage.note(&format!("! the judge's answer could not be read ({error}); {then}"))?;
            }
            // Said where a line ends, never inside a debater's sentence.
            DebateEvent::Paused => self.stage.note("[paused]")?,
            DebateEvent::Resumed => self.stage.note("[resumed]")?,
            // Steering holds from the next round on: said once the live text reaches a line's end.
            DebateEvent::TopicInjected { text } => {
                self.stage.note(&format!("[topic injected: {}]", crate::sanitize::clean(text)))?;
            }
            DebateEvent::TemperaturePinned { heat } => self.stage.note(&format!("[heat pinned at {heat:.2}]"))?,
            DebateEvent::TemperatureReleased => self.stage.note("[heat released to the judge]")?,
            DebateEvent::ResolutionForced => self.stage.note("[resolution forced]")?,
            DebateEvent::NoteToSeats { text, seats } => {
                let to: Vec<String> = seats.iter().map(|&r| self.state.seat_name(r)).collect();
                self.stage.note(&format!(
                    "[note to the {} only: {}]",
                    to.join(" and the "),
                    crate::sanitize::clean(text)
                ))?;
            }
            DebateEvent::SeatHeatPinned { role, heat } => {
                self.stage.note(&format!("[the {}'s heat pinned at {heat:.2}]", self.state.seat_name(*role)))?;
            }
            DebateEvent::SeatHeatReleased { role } => {
                self.stage.note(&format!("[the {}'s heat released]", self.state.seat_name(*role)))?;
            }
            DebateEvent::BudgetReached { spent } => {
                self.stage.note(&format!("! budget reached: {}", crate::sanitize::clean(spent)))?;
            }
            DebateEvent::QuestionSet { question } => {
                self.stage.note(&format!("[next question set: {}]", crate::sanitize::clean(question)))?;
            }
            DebateEvent::SteeringTakenBack { what } => {
                let what = what.describe(|r| self.state.seat_name(r));
                self.stage
                    .note(&format!("[taken back before any request carried it: {}]", crate::sanitize::clean(&what)))?;
            }
            DebateEvent::SeatModelChanged { role, participant } => {
                let (seat, to) =
                    (self.state.seat_name(*role), format!("{}/{}", participant.provider, participant.model));
                self.stage
                    .note(&format!("[the {seat} is asked on {} from its next turn]", crate::sanitize::clean(&to)))?;
            }
            DebateEvent::RoundsAdded { rounds } => {
                let more = crate::words::count(*rounds as usize, "more round");
                self.stage.note(&format!(
                    "[{more} added: up to {}]",
                    crate::words::count(self.state.max_rounds as usize, "round")
                ))?;
            }
            DebateEvent::ModelReported { role, model } => {
                // Seats on one model served by another are said once, for the model, not once a seat.
                let me = self.state.participant(*role).cloned();
                let same = |p: &crate::debate::Participant| {
                    me.as_ref().is_some_and(|m| p.provider == m.provider && p.model == m.model)
                };
                let sharing = self.state.participants.iter().filter(|p| same(p)).count();
                let said = self
                    .state
                    .participants
                    .iter()
                    .any(|p| p.role != *role && same(p) && p.served.as_ref() == Some(model));
                if !said {
                    let who =
                        me.as_ref().map_or_else(|| "the server".into(), |p| crate::sanitize::clean(&p.reporter()));
                    let whom = match me.as_ref().filter(|_| sharing > 1) {
                        Some(p) => format!(
                            "{}/{} (every seat on it)",
                            crate::sanitize::clean(&p.provider),
                            crate::sanitize::clean(&p.model)
                        ),
                        None => format!("the {}", self.state.seat_name(*role)),
                    };
                    self.stage
                        .note(&format!("note: {who} says {} answered for {whom}", crate::sanitize::clean(model)))?;
                }
            }
            DebateEvent::Notice { message } | DebateEvent::EndpointAdapted { message, .. } => {
                self.stage.note(&format!("note: {}", crate::sanitize::clean(message)))?;
            }
            DebateEvent::Finished { outcome, synthesis } => {
                self.stage.settle_debaters(&self.state)?;
                let headline = outcome.headline(self.state.rounds.len());
                self.stage.painted("\n", "1", &format!("══ {headline} ══"))?;
                if let Some(text) = synthesis {
                    self.stage.line(&crate::sanitize::clean(text))?;
                } else if let Some(missing) = crate::debate::plan::missing_synthesis(&self.state) {
                    self.stage.painted("", "2", &missing)?;
                }
            }
            DebateEvent::HumanVerdict { .. } => {
                if let Some(verdict) = self.state.human.last() {
                    let note = if verdict.note.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", crate::sanitize::clean(&verdict.note))
                    };
                    let line =
                        format!("▌ Your verdict, round {}: {}{note}", verdict.round, verdict.describe(&self.state));
                    self.stage.painted("\n", "1", &line)?;
                }
            }
            DebateEvent::Derived { from, how } => {
                // Under the debate's header, not a second one.
                let line = format!("  a rematch of {}: {}", crate::sanitize::clean(from), crate::sanitize::clean(how));
                self.stage.painted("", "2", &line)?;
            }
            DebateEvent::Branched { from, round, how, participants, changes, .. } => {
                let title =
                    self.stage.style.paint("1", &format!("heat · {}", crate::sanitize::clean(&self.state.topic)));
                writeln!(self.stage.out, "{title}")?;
                let line = format!(
                    "  a branch of {} after round {round}: {}",
                    crate::sanitize::clean(from),
                    crate::sanitize::clean(how)
                );
                self.stage.painted("", "2", &line)?;
                // A branch that changed its rounds has said how many in its changes.
                if changes.max_rounds.is_none() {
                    let n = self.state.max_rounds;
                    writeln!(self.stage.out, "  up to {}", crate::words::count(n as usize, "round"))?;
                }
                self.say_participants(participants)?;
                self.say_panel_judges()?;
            }
            DebateEvent::Summarized { model, text, .. } => {
                let title = format!("══ the arbiter's summary ({}) ══", crate::sanitize::clean(model));
                self.stage.painted("\n", "1", &title)?;
                self.stage.line(&crate::sanitize::clean(text))?;
            }
            DebateEvent::Reopened => {
                let round = self.state.rounds.len().max(1);
                let topic = crate::sanitize::clean(&self.state.topic);
                let line = format!("heat · resuming \"{topic}\" at round {round}");
                self.stage.painted("", "1", &line)?;
            }
            // The room's votes are said by `say_room`, once a round's voting closes.
            DebateEvent::AudienceVoted { .. }
            | DebateEvent::ToolsCalled { .. }
            | DebateEvent::Delta { .. }
            | DebateEvent::TurnQueued { .. }
            | DebateEvent::TurnSent { .. }
            | DebateEvent::RequestSent { .. }
            | DebateEvent::TurnCompleted { .. }
            | DebateEvent::Reasoning { .. }
            | DebateEvent::SwapCheckStarted { .. }
            | DebateEvent::PanelVoteStarted { .. }
            | DebateEvent::SwapChecked { .. }
            // Its notice, which follows, says it in words.
            | DebateEvent::ParameterRefused { .. }
            // Kept for the record and its exports; a reader of the stream needs none of it.
            | DebateEvent::Recipe(_) => {}
        }
        self.stage.out.flush()
    }
}
