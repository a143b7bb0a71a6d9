//! Exports a stored debate: Markdown, a readable record (participants, each
//! round's arguments, verdicts and heat, steering actions with timestamps,
//! the synthesis); JSON, the full structured record (state and every event).

use std::fmt::Write as _;

use serde_json::json;

use super::time::{clock, rfc3339};
use crate::debate::event::AT_THE_KEYBOARD;
use crate::debate::facts::{self, PanelFacts, RoundFacts};
use crate::debate::state::{Round, Turn, TurnStatus, VerdictStatus};
use crate::debate::verdict::Scores;
use crate::debate::{DebateEvent, DebateState, Outcome, Role};
use crate::sanitize::clean;
use crate::store::label::Label;
use crate::store::log::{Header, Record};

/// What an export is written as: Markdown or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    Md,
    Json,
}

/// Charts written beside a Markdown export: the files' names, as the
/// Markdown links them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Images {
    pub heat: String,
    pub words: String,
}

/// Renders a session in the given format; Markdown draws its charts as text.
pub fn render(format: ExportKind, header: &Header, records: &[Record]) -> String {
    render_with(format, header, records, None, &Label::default())
}

/// Renders a session with the name and tags a person gave it; Markdown
/// links `images` for its charts when given.
pub fn render_with(
    format: ExportKind,
    header: &Header,
    records: &[Record],
    images: Option<&Images>,
    label: &Label,
) -> String {
    let state = DebateState::from_events(records.iter().map(|r| &r.event));
    match format {
        ExportKind::Md => markdown(header, &state, records, images, label),
        ExportKind::Json => {
            // Serialised straight from the types, not through `serde_json::Value`,
            // which would widen every f32 (an initial heat of 0.9 read 0.8999999761581421).
            // The argument map folded from the verdicts, for a reader that does not fold it.
            let facts::DebateFacts { scores: _, issues: _, panel: _, swap: _, vote: _, room: _, map } =
                facts::of_debate(&state);
            let export = JsonExport {
                format: "heat-session-export",
                version: 1,
                map,
                session: json!({
                    "id": header.id,
                    "created": rfc3339(header.created_ms),
                    "name": label.name,
                    "tags": label.tags,
                }),
                state: &state,
                events: records,
            };
            let mut text = serde_json::to_string_pretty(&export).unwrap_or_default();
            text.push('\n');
            text
        }
    }
}

/// The JSON export's shape.
#[derive(serde::Serialize)]
struct JsonExport<'a> {
    format: &'static str,
    version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    map: Option<crate::debate::argument_map::DebateMap>,
    session: serde_json::Value,
    state: &'a DebateState,
    events: &'a [Record],
}

/// The date the models were told, the source and each side's citations.
fn grounding_lines(md: &mut String, state: &DebateState) {
    if let Some(date) = &state.date {
        let _ = writeln!(md, "- Date told to the models: {}", clean(date));
    }
    if let Some(source) = &state.source {
        let _ = writeln!(
            md,
            "- Source: `{}` ({} lines, sha256 `{}`)",
            clean(&source.name),
            source.line_count(),
            &source.sha256[..12.min(source.sha256.len())]
        );
        for &role in state.debaters() {
            let tally = state.tally(role);
            let _ = writeln!(md, "- {}'s citations: {}", clean(state.label(role)), citations_total(&tally));
        }
    }
}

/// "3 verified, 1 near, 2 not found" (or "none").
fn citations_total(tally: &crate::debate::grounding::Tally) -> String {
    if tally.is_empty() {
        return "none".into();
    }
    format!("{} verified, {} near, {} not found", tally.verified, tally.near, tally.unverified)
}

/// Under a debater's turn: the library's passages it read, what it
/// looked up, and what its citations came to.
fn turn_grounding(md: &mut String, state: &DebateState, round: &Round, turn: &Turn) {
    if let Some(readings) = round.readings.get(&turn.role) {
        let read: Vec<String> = readings.iter().map(|r| format!("`{}`", clean(&r.label()))).collect();
        let _ = writeln!(md, "*Read from the library:* {}\n", read.join(" · "));
    }
    let looked_up: Vec<String> = turn
        .tools
        .iter()
        .flat_map(|s| &s.calls)
        .map(|u| {
            let said = crate::debate::grounding::lookup::said(&u.call);
            let gist = u.answer.as_ref().map_or_else(
                || "not answered".to_string(),
                |a| crate::debate::grounding::lookup::gist(&a.text, a.failed),
            );
            format!("`{}` → {}", clean(&said), clean(&gist))
        })
        .collect();
    if !looked_up.is_empty() {
        let _ = writeln!(md, "*Looked up:* {}\n", looked_up.join(" · "));
    }
    if !turn.checks.is_empty() {
        let said = clean(&crate::debate::grounding::describe_all(&turn.checks));
        let against = if state.library.is_some() { "the library" } else { "the source" };
        let _ = writeln!(md, "*Checked against {against}:* {said}\n");
    }
}

/// The session, and where it came from: the one it branches, the one it runs again.
fn origin_lines(md: &mut String, header: &Header, state: &DebateState) {
    let _ = writeln!(md, "- Session: `{}`, started {}", header.id, rfc3339(header.created_ms));
    if let Some(b) = &state.branch {
        let _ = writeln!(md, "- Branch of `{}` after round {}: {}", clean(&b.from), b.round, clean(&b.how));
    }
    if let Some((from, how)) = &state.origin {
        let _ = writeln!(md, "- Rematch of `{}`: {}", clean(from), clean(how));
    }
    if let Some(format) = &state.format {
        let phases: Vec<String> = format.phases.iter().map(|p| clean(&p.name)).collect();
        let phases = if phases.is_empty() { String::new() } else { format!("; phases {}", phases.join(", ")) };
        let _ = writeln!(md, "- Format: {}{phases}", clean(&format.name));
    }
    if let Some(recipe) = &state.recipe {
        let _ = writeln!(md, "- To run it again: {}", clean(&recipe.describe()));
    }
}

fn markdown(
    header: &Header,
    state: &DebateState,
    records: &[Record],
    images: Option<&Images>,
    label: &Label,
) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", clean(&state.topic));
    if let Some(name) = &label.name {
        let _ = writeln!(md, "- Name: {}", crate::sanitize::one_line(name));
    }
    if !label.tags.is_empty() {
        let _ = writeln!(md, "- Tags: {}", crate::store::label::hashed(&label.tags));
    }
    origin_lines(&mut md, header, state);
    let outcome = match state.finish.as_ref().map(|f| &f.outcome) {
        None => format!("unfinished after {} round(s)", state.rounds.len()),
        Some(failed @ (Outcome::Failed(why) | Outcome::Invalidated(why))) => {
            format!("{}: {}", failed.headline(state.rounds.len()), clean(why))
        }
        Some(outcome) => outcome.headline(state.rounds.len()),
    };
    let _ = writeln!(md, "- Outcome: {outcome}");
    if let Some(totals) = crate::debate::scores::totals(state) {
        let _ = writeln!(md, "- Scores (a tug-of-war: what one side gains the other loses): {totals}");
    }
    for p in &state.participants {
        if p.is_person() {
            let _ = writeln!(md, "- {}: {AT_THE_KEYBOARD}", clean(state.label(p.role)));
            continue;
        }
        let asked = match &p.served {
            Some(_) => format!(" (asked for {})", clean(&p.model)),
            None => String::new(),
        };
        let _ = writeln!(md, "- {}: {}/{}{asked}", clean(state.label(p.role)), p.provider, clean(p.shown_model()));
    }
    grounding_lines(&mut md, state);
    let pinned = |round: &crate::debate::state::Round| if round.pinned { " (pinned)" } else { "" };
    let heats: Vec<String> = state.rounds.iter().map(|r| format!("{:.2}{}", r.heat, pinned(r))).collect();
    let _ = writeln!(md, "- Heat by round: {}\n", heats.join(" → "));
    summary(&mut md, state);
    charts(&mut md, state, images);
    for round in &state.rounds {
        let _ = writeln!(md, "## Round {} · heat {:.2}{}\n", round.number + 1, round.heat, pinned(round));
        if round.topic.trim() != state.topic.trim() {
            let _ = writeln!(md, "**Question:** {}\n", clean(&round.topic));
        }
        for note in &round.injected {
            let _ = writeln!(md, "**Moderator's note:** {}\n", clean(note));
        }
        for &role in state.debaters() {
            let Some(turn) = round.turn(role) else { continue };
            let _ = writeln!(md, "### {}\n", clean(state.label(role)));
            let text = super::markdown::nest_headings(&clean(turn.text.trim()), 3);
            let _ = writeln!(md, "{}\n", if text.is_empty() { "*(no argument)*".to_string() } else { text });
            if let Some(line) = &turn.stance {
                let flag =
                    if state.stance_unexplained(round.number, role) { " ⚑ changed with no reason given" } else { "" };
                let _ = writeln!(md, "*Stance:* {}{flag}\n", line.stance.name());
            }
            turn_grounding(&mut md, state, round, turn);
            if let Some(mark) = cut_mark(turn) {
                let _ = writeln!(md, "*(… {mark})*\n");
            }
            match &turn.status {
                TurnStatus::Cancelled => md.push_str("*(cancelled by the moderator)*\n\n"),
                TurnStatus::Failed { error } => {
                    let _ = writeln!(md, "*(failed: {})*\n", clean(error));
                }
                _ => {}
            }
        }
        // The review's board is one section at the end (`## Issues`), the
        // swap check is among the verdict's marks, the room's votes are a
        // section of their own.
        let RoundFacts { scores, issues: _, panel, swap: _, vote, room: _, map } = facts::of_round(state, round);
        judge_section(&mut md, state, round, scores.as_ref(), panel.as_ref());
        if let Some(tally) = vote {
            let _ = writeln!(md, "**The vote:** {}\n", clean(&crate::debate::vote::describe(state, &tally)));
        }
        if let Some(map) = map {
            map_section(&mut md, state, &map);
        }
    }
    let steering: Vec<String> = records.iter().filter_map(|r| steering_line(r.ms, &r.event)).collect();
    if !steering.is_empty() {
        md.push_str("## Steering\n\n");
        for line in steering {
            let _ = writeln!(md, "- {line}");
        }
        md.push('\n');
    }
    issues_section(&mut md, state);
    human_verdicts(&mut md, state);
    room_votes(&mut md, state);
    tokens_section(&mut md, state);
    if !state.notices.is_empty() {
        md.push_str("## Notices\n\n");
        for notice in &state.notices {
            let _ = writeln!(md, "- {}", clean(notice));
        }
        md.push('\n');
    }
    if let Some(synthesis) = state.finish.as_ref().and_then(|f| f.synthesis.as_deref()) {
        // With no judge the ending is the vote among the last final answers, not a synthesis.
        let heading = if state.judges() == 0 { "The outcome" } else { "Final synthesis" };
        let _ = writeln!(md, "## {heading}\n\n{}", super::markdown::nest_headings(&clean(synthesis.trim()), 2));
    }
    md
}

/// Each seat's and each panel judge's calls and tokens, then each round's.
/// The export carries no prices (they live in heat.toml): `$` in the
/// studio and the report give the cost.
fn tokens_section(md: &mut String, state: &DebateState) {
    let none = crate::debate::cost::Prices::default();
    let payers = crate::debate::cost::by_payer(state, &none);
    if payers.is_empty() {
        return;
    }
    md.push_str(
        "## Tokens

| Who | Calls | Input | Cached | Output |\n|---|---:|---:|---:|---:|\n",
    );
    let row = |md: &mut String, who: &str, s: &crate::debate::cost::Spent| {
        let n = crate::words::thousands;
        let _ = writeln!(md, "| {who} | {} | {} | {} | {} |", s.calls, n(s.input), n(s.cached), n(s.output));
    };
    for (payer, spent) in &payers {
        row(md, &clean(&payer.name(state)), spent);
    }
    for (round, spent) in crate::debate::cost::by_round(state, &none) {
        row(md, &format!("Round {}", round + 1), &spent);
    }
    md.push('\n');
}

/// A review's issues: each with its severity, its status, who raised it and
/// when, its claim and its evidence.
fn issues_section(md: &mut String, state: &DebateState) {
    let rows = crate::debate::issues::board(state);
    if !state.tracks_issues() || rows.is_empty() {
        return;
    }
    let _ = writeln!(md, "## Issues\n\n{}\n", crate::debate::issues::summary(&rows));
    md.push_str("| id | severity | status | raised by | claim | evidence |\n|---|---|---|---|---|---|\n");
    for row in rows {
        let cell = |text: &str| clean(text).replace('|', "\\|");
        let _ = writeln!(
            md,
            "| {} | {} | {} | {}, round {} | {} | {} |",
            cell(&row.issue.id),
            row.issue.severity.name(),
            row.status.name(),
            cell(state.label(row.by)),
            row.round + 1,
            cell(&row.issue.claim),
            row.issue.evidence.as_deref().map_or("–".to_string(), cell)
        );
    }
    md.push('\n');
}

/// A round's judge: its verdict (or why there is none), who is ahead, the
/// round's scores and its panel's votes.
/// A round's part of the argument map, a bullet each; nothing when it has none.
fn map_section(md: &mut String, state: &DebateState, map: &crate::debate::argument_map::RoundMap) {
    let lines = crate::debate::argument_map::round_lines(state, map);
    if lines.is_empty() {
        return;
    }
    md.push_str("**The argument map:**\n\n");
    for line in lines {
        let _ = writeln!(md, "- {}", clean(&line));
    }
    md.push('\n');
}

fn judge_section(
    md: &mut String,
    state: &DebateState,
    round: &crate::debate::state::Round,
    scores: Option<&Scores>,
    panel: Option<&PanelFacts>,
) {
    let Some(judge) = round.turn(Role::Judge) else { return };
    let _ = writeln!(md, "### {}\n", clean(state.label(Role::Judge)));
    match &judge.verdict {
        // One outcome, said once: the verdict that closed the debate is the final synthesis below.
        Some(VerdictStatus::Parsed { .. })
            if crate::debate::panel::closes(state, round, judge) && state.finish.is_some() =>
        {
            md.push_str("*(the judge closed the debate: the final synthesis is below)*\n\n");
        }
        Some(VerdictStatus::Parsed { verdict }) => {
            let said = super::markdown::nest_headings(&clean(&verdict.verdict), 3);
            let _ = writeln!(md, "**Not resolved.** {said}\n");
            let _ = writeln!(md, "Next: {} · heat {:.2}\n", clean(&verdict.topic), verdict.heat);
        }
        Some(VerdictStatus::Invalid { error, .. }) => {
            let _ = writeln!(md, "*(the verdict could not be read: {}; heat and topic kept)*\n", clean(error));
        }
        None => md.push_str("*(no verdict)*\n\n"),
    }
    if let Some(marks) = crate::debate::standing::round_marks(state, round) {
        let _ = writeln!(md, "*{marks}*\n");
    }
    if let Some(scores) = scores {
        let _ = writeln!(md, "*{}*\n", crate::debate::scores::line(state, round.number, scores));
    }
    if let Some(panel) = panel {
        panel_section(md, state, panel);
    }
}

/// A panel's other judges: each vote with its verdict in full, then the
/// majority's decision and its dissent.
fn panel_section(md: &mut String, state: &DebateState, panel: &PanelFacts) {
    use crate::debate::panel::vote::Vote;
    for (&judge, vote) in &panel.votes {
        let _ = write!(md, "- {}", clean(&crate::debate::panel::vote_line(state, judge, vote)));
        if let Vote::Voted { verdict, .. } = vote {
            let _ = write!(md, ": {}", super::markdown::nest_headings(&clean(&verdict.verdict), 3));
        }
        md.push('\n');
    }
    if let Some(said) = &panel.said {
        let _ = writeln!(md, "\n**{}**\n", clean(said.as_ref().unwrap_or_else(|undecided| undecided)));
    } else {
        md.push('\n');
    }
}

/// How an argument that did not end on its own is marked: cut at its
/// token limit, by its time limit, or possibly cut by its server.
fn cut_mark(turn: &crate::debate::state::Turn) -> Option<String> {
    if let Some(tokens) = turn.truncated_at {
        Some(format!("{}: the argument stopped at its token limit", crate::debate::cut_note(tokens)))
    } else if let Some(seconds) = turn.out_of_time {
        Some(crate::debate::time_note(seconds))
    } else {
        turn.possibly_cut.then(|| crate::debate::POSSIBLY_CUT.to_string())
    }
}

/// The person's verdicts, in the order given.
fn human_verdicts(md: &mut String, state: &DebateState) {
    if state.human.is_empty() {
        return;
    }
    md.push_str("## Your verdicts\n\n");
    for verdict in &state.human {
        let note = if verdict.note.is_empty() { String::new() } else { format!(": {}", clean(&verdict.note)) };
        let ended = if verdict.ends { " (ended the debate)" } else { "" };
        let _ = writeln!(md, "- Round {}: {}{ended}{note}", verdict.round, verdict.describe(state));
    }
    md.push('\n');
}

/// The room's vote on the audience page, round by round, beside the judge's.
fn room_votes(md: &mut String, state: &DebateState) {
    let rounds = super::agreement::room(state);
    if rounds.is_empty() {
        return;
    }
    md.push_str(
        "## The room's vote

",
    );
    for entry in rounds {
        let judge = if entry.judge.is_empty() { String::new() } else { format!("; the judge: {}", entry.judge) };
        let voters = crate::words::count(entry.voters, "voter");
        let _ = writeln!(md, "- Round {}: {} ({voters}, {}){judge}", entry.round, entry.tally, entry.room);
    }
    md.push('\n');
}

/// The arbiter's summary, when one was asked for, its sections under one heading.
fn summary(md: &mut String, state: &DebateState) {
    let Some(summary) = &state.summary else { return };
    let _ = writeln!(md, "## Summary for a decision\n\n*The arbiter's summary, by {}.*\n", clean(&summary.model));
    // The summary's own sections sit under this heading.
    let _ = writeln!(md, "{}\n", super::markdown::nest_headings(&clean(summary.text.trim()), 2));
}

/// Heat and words per round: the SVG charts when written beside the
/// export, else a sparkline and a table.
fn charts(md: &mut String, state: &DebateState, images: Option<&Images>) {
    if state.rounds.is_empty() {
        return;
    }
    let words = super::words::debater_words(state);
    if let Some(images) = images {
        let _ = writeln!(md, "## Heat per round\n\n![Heat per round]({})\n", images.heat);
        let _ = writeln!(md, "## Words per round\n\n![Words per round: advocate and skeptic]({})\n", images.words);
        return;
    }
    let line: String = state.rounds.iter().map(|r| crate::debate::verdict::spark(r.heat)).collect();
    let _ = writeln!(md, "## Heat per round\n\n`{line}` (0.30 ▁ … █ 1.00)\n");
    md.push_str("## Words per round\n\n| Round | Advocate | Skeptic | Alike |\n|---:|---:|---:|---:|\n");
    for ((round, advocate, skeptic), r) in words.into_iter().zip(&state.rounds) {
        let alike = crate::debate::convergence::of_round(r).map_or("–".to_string(), |x| format!("{:.0}%", x * 100.0));
        let _ = writeln!(md, "| {round} | {advocate} | {skeptic} | {alike} |");
    }
    md.push('\n');
}

fn steering_line(ms: u64, event: &DebateEvent) -> Option<String> {
    super::intervention::intervention_of(event).map(|(_, what)| format!("{} {what}", clock(ms)))
}
