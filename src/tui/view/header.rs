//! The two header rows: topic and debate state; the round strip and the
//! heat gauge with its per-round history.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::debate::state::TurnStatus;
use crate::debate::swap::check::SwapCheck;
use crate::debate::verdict::spark;
use crate::debate::{Outcome, Role, convergence};
use crate::sanitize::clean;
use crate::tui::app::{App, Replay, speed_label};
use crate::tui::wrap::truncate;
use crate::words::count as counted;

const GAUGE_CELLS: usize = 10;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let theme = &app.theme;
    let width = usize::from(area.width);
    // The brand, some of the topic and the badge: a replay's place goes where they would not fit.
    let mut state_badge = badge(app, true);
    if 6 + 2 + 12 + state_badge.width() > width {
        state_badge = badge(app, false);
    }
    let brand = Span::styled(" heat ", Style::new().fg(theme.bar_bg).bg(theme.title).add_modifier(Modifier::BOLD));
    let brand = if theme.color { brand } else { brand.patch_style(Modifier::REVERSED) };
    // A debated document is named after the topic, while there is room for both.
    let source = app.debate.source.as_ref().map(|s| {
        let name = std::path::Path::new(&s.name).file_name().map_or(s.name.clone(), |n| n.to_string_lossy().into());
        format!(" · {}", clean(&name))
    });
    let source = source.or_else(|| {
        let library = app.debate.library.as_ref()?;
        Some(format!(" · library of {}", crate::words::count(library.files.len(), "file")))
    });
    let room = width.saturating_sub(6 + 2 + state_badge.width() + 1);
    let source = source.filter(|s| s.chars().count() * 2 < room).unwrap_or_default();
    let room = room.saturating_sub(source.chars().count());
    let topic = Span::styled(truncate(&clean(&app.debate.topic), room), Style::new().add_modifier(Modifier::BOLD));
    let source = Span::styled(source, theme.secondary());
    let pad = width.saturating_sub(6 + 1 + topic.width() + source.width() + state_badge.width());
    let top = Line::from(vec![brand, Span::raw(" "), topic, source, Span::raw(" ".repeat(pad)), state_badge]);
    super::line::one_line(frame, area, &top);

    let mut gauge = gauge(app, true);
    let mut left = rounds(app, width < 100);
    let left_width: usize = left.iter().map(Span::width).sum();
    if left_width + gauge.iter().map(Span::width).sum::<usize>() + 1 > width {
        left = rounds(app, true);
    }
    // Still too narrow: the gauge leaves out its history rather than run into the rounds.
    if left.iter().map(Span::width).sum::<usize>() + gauge.iter().map(Span::width).sum::<usize>() + 1 > width {
        gauge = self::gauge(app, false);
    }
    let gauge_width: usize = gauge.iter().map(Span::width).sum();
    let mut left_width: usize = left.iter().map(Span::width).sum();
    // Where debaters give final answers, how far they agree; else length
    // parity. Each in the longest form that fits: parity's counts and flag
    // in words, counts and a short flag, the flag; the meter with its bar, without.
    // Each form is worked out only when the one before did not fit: parity counts and compares the
    // sides' words, which is most of the header's cost on a long turn.
    let final_answers = app.debate.final_answers();
    let forms: &[Parity] =
        if final_answers { &[Parity::Full, Parity::Counts] } else { &[Parity::Full, Parity::Counts, Parity::Flag] };
    let measure = |form: Parity| {
        if final_answers { super::agreement::meter(app, form == Parity::Full) } else { parity(app, form) }
    };
    for spans in forms.iter().map(|&form| measure(form)) {
        let measure_width: usize = spans.iter().map(Span::width).sum();
        if left_width + measure_width + gauge_width < width {
            left.extend(spans);
            left_width += measure_width;
            break;
        }
    }
    // The scores' tug-of-war, in a format that scores, in the longest form that fits.
    for full in [true, false] {
        let spans = tug(app, full);
        let tug_width: usize = spans.iter().map(Span::width).sum();
        if left_width + tug_width + gauge_width < width {
            left.extend(spans);
            left_width += tug_width;
            break;
        }
    }
    // Last, where there is room: the judge shares a debater's model; the heat reaches a seat by prompt alone.
    for span in [same_model(app), by_prompt(app)].into_iter().flatten() {
        if left_width + span.width() + gauge_width < width {
            left_width += span.width();
            left.push(span);
        }
    }
    let mut spans = left;
    spans.push(Span::raw(" ".repeat(width.saturating_sub(left_width + gauge_width))));
    spans.extend(gauge);
    super::line::one_line(frame, Rect { y: area.y + 1, height: 1, ..area }, &Line::from(spans));
}

/// LIVE / PAUSED (with the turns a server finishes in the background) /
/// ENDED … (followed by "· watching ID" in a watch) or REPLAY (playing, paused, ended) with its speed and place
/// ("round 2 · 0:41 / 1:05"), coloured by tone; a scripted debate (the
/// bundled demo) plays as SCRIPTED DEMO, so nobody takes it for a model's
/// answers.
fn badge(app: &App, with_place: bool) -> Span<'static> {
    let theme = &app.theme;
    if let Some(replay) = app.replay {
        let what = if app.debate.is_scripted() { "SCRIPTED DEMO" } else { "REPLAY" };
        let speed = app.replay_clock.as_ref().map(|c| c.speed).filter(|s| (*s - 1.0).abs() > f64::EPSILON);
        let speed = speed.map(|s| format!(" {}", speed_label(s))).unwrap_or_default();
        let state = match replay {
            Replay::Playing => format!("▶ {what}{speed}"),
            Replay::Paused => format!("❚❚ {what} PAUSED{speed}"),
            // Every recorded event is on screen: nothing more is coming.
            Replay::Ended => format!("■ {what} · ended"),
        };
        let position = app
            .replay_clock
            .as_ref()
            .filter(|_| with_place)
            .map(|c| format!(" · {}", c.describe()))
            .unwrap_or_default();
        return Span::styled(format!("{state}{position} "), Style::new().fg(theme.title).add_modifier(Modifier::BOLD));
    }
    let (text, color) = match &app.debate.finish {
        Some(f) => match f.outcome {
            Outcome::Resolved | Outcome::Forced | Outcome::MaxRounds | Outcome::Consensus => ("✓ ENDED", theme.good),
            Outcome::Converged => ("✓ CONVERGED", theme.good),
            Outcome::Dissent => ("✓ ENDED · DISSENT", theme.warn),
            Outcome::Timeout(_) => ("⏱ TIME", theme.warn),
            Outcome::Failed(_) => ("✗ FAILED", theme.error),
            Outcome::Invalidated(_) => ("✗ INVALIDATED", theme.error),
            Outcome::Cancelled => ("■ STOPPED", theme.muted),
        },
        None if app.session.is_none() => ("", theme.muted),
        None if app.watching() && !app.watched_live => ("■ NOT RUNNING", theme.muted),
        None if app.paused() => ("❚❚ PAUSED", theme.warn),
        None if app.streaming() => ("● LIVE", theme.good),
        // The judge is asked again with the debaters swapped; the next round waits for it.
        None if app.debate.current_round().is_some_and(|r| r.swap == Some(SwapCheck::Asking)) => {
            ("⇄ SWAP CHECK", theme.muted)
        }
        // A panel's other judges weigh the round; the decision waits for them.
        None if app
            .debate
            .current_round()
            .is_some_and(|r| r.panel.values().any(|v| *v == crate::debate::panel::vote::Vote::Asking)) =>
        {
            ("⚖ PANEL VOTING", theme.muted)
        }
        None => ("● WAITING", theme.muted),
    };
    let finishing = app.seats().into_iter().filter(|&r| app.finishing(r)).count();
    let text = match finishing {
        0 => text.to_string(),
        n => format!("{text} · {} finishing", counted(n, "turn")),
    };
    // A watch says so, and whose debate it follows.
    let text = match app.session.as_deref().filter(|_| app.watching()) {
        Some(id) => format!("{text} · watching {id}"),
        None => text,
    };
    Span::styled(format!("{text} "), Style::new().fg(color).add_modifier(Modifier::BOLD))
}

/// "Round 2 of 4  Advocate ✓  Skeptic ●  Judge ·" (the seats that sit, by
/// the format's names) plus pending steering.
fn rounds(app: &App, compact: bool) -> Vec<Span<'static>> {
    let theme = &app.theme;
    let debate = &app.debate;
    let mut spans = Vec::new();
    let number = debate.current_round().map_or(0, |r| r.number + 1);
    spans.push(Span::styled(
        format!(" Round {number} of {}", debate.max_rounds),
        Style::new().add_modifier(Modifier::BOLD),
    ));
    // A format's phase (Oxford's opening, rebuttal, closing) follows the round.
    if let Some(phase) = debate.current_round().and_then(|r| debate.phase(r.number)).filter(|_| !compact) {
        let name = crate::sanitize::clean(&phase.name);
        spans.push(Span::styled(format!(" · {name}"), Style::new().add_modifier(Modifier::BOLD)));
    }
    for role in app.seats() {
        let status = debate.current_round().and_then(|r| r.turn(role)).map(|t| &t.status);
        let (mark, color) = match status {
            None => ("·", theme.muted),
            Some(TurnStatus::Streaming) => ("●", theme.role(role)),
            Some(TurnStatus::Retrying { .. }) => ("↻", theme.warn),
            Some(TurnStatus::Done) => ("✓", theme.good),
            Some(TurnStatus::Cancelled) => ("■", theme.muted),
            Some(TurnStatus::Failed { .. }) => ("✗", theme.error),
        };
        let label = debate.label(role);
        let name = if compact { label.chars().take(1).collect() } else { label.to_string() };
        spans.push(Span::raw("  "));
        spans.push(Span::styled(name, Style::new().fg(theme.role(role))));
        spans.push(Span::styled(format!(" {mark}"), Style::new().fg(color)));
    }
    let pending = debate.pending_injections.len();
    if pending > 0 && debate.finish.is_none() {
        let text = if compact {
            format!("  +{}", counted(pending, "topic"))
        } else {
            format!("  + {} waiting", counted(pending, "injected topic"))
        };
        spans.push(Span::styled(text, Style::new().fg(theme.warn)));
    }
    if debate.force_requested && debate.finish.is_none() {
        spans.push(Span::styled("  resolving", Style::new().fg(theme.warn).add_modifier(Modifier::BOLD)));
    }
    spans
}

/// That the judge sits on the model of the debaters it weighs (`judge =
/// skeptic's model`; Oxford's `chair = debaters' model`), as a judge prefers answers like its own; the start's
/// notice says how to seat it apart.
fn same_model(app: &App) -> Option<Span<'static>> {
    let same = app.debate.judge_shares_a_model();
    // The judge's seat as the format names it (Oxford's chair).
    let judge = app.debate.label(Role::Judge).to_lowercase();
    let text = match same.as_slice() {
        [] => return None,
        [one] => format!("  {judge} = {}'s model", app.debate.label(*one).to_lowercase()),
        _ => format!("  {judge} = debaters' model"),
    };
    Some(Span::styled(text, Style::new().fg(app.theme.warn)))
}

/// The debaters an agent CLI answers for, which take no temperature: the
/// heat reaches them by their prompt alone (`heat by prompt: advocate`).
fn by_prompt(app: &App) -> Option<Span<'static>> {
    let debate = &app.debate;
    let seats: Vec<String> = debate
        .debaters()
        .iter()
        .filter(|&&role| debate.participant(role).is_some_and(crate::debate::event::Participant::is_agent))
        .map(|&role| debate.label(role).to_lowercase())
        .collect();
    let text = match seats.len() {
        0 => return None,
        n if n == debate.debaters().len() => "  heat by prompt".to_string(),
        _ => format!("  heat by prompt: {}", seats.join(", ")),
    };
    Some(Span::styled(text, app.theme.secondary()))
}

/// How far the tug-of-war's marker moves from the middle, each way.
const TUG_REACH: i32 = 4;

/// The scores' running tug-of-war once a round is scored, the marker pulled
/// toward the leading side's pane: `score ──●─┼──── Proposition +2`; short,
/// `+2 P`. Nothing in a format that does not score.
fn tug(app: &App, full: bool) -> Vec<Span<'static>> {
    let debate = &app.debate;
    let scored = debate.rounds.iter().any(|r| crate::debate::scores::of_round(r).is_some());
    if !debate.scored() || !scored {
        return Vec::new();
    }
    let theme = &app.theme;
    let tug = crate::debate::scores::tug(debate);
    let leader = crate::debate::scores::leader(tug);
    let color = leader.map_or(theme.muted, |r| theme.role(r));
    if !full {
        // "+4 O": the lead and the leading side's initial.
        let short = leader.map_or_else(
            || "even".to_string(),
            |role| {
                let initial: String = debate.label(role).chars().take(1).collect();
                format!("{} {initial}", crate::debate::scores::signed(tug.abs()))
            },
        );
        return vec![Span::styled(format!("  {short}"), Style::new().fg(color).add_modifier(Modifier::BOLD))];
    }
    // The side for's pane is on the left: its lead pulls the marker left.
    let at = TUG_REACH - tug.clamp(-TUG_REACH, TUG_REACH);
    let bar: String = (0..=2 * TUG_REACH)
        .map(|i| {
            if i == at {
                '●'
            } else if i == TUG_REACH {
                '┼'
            } else {
                '─'
            }
        })
        .collect();
    vec![
        Span::styled("  score ", theme.secondary()),
        Span::styled(bar, Style::new().fg(color)),
        Span::styled(
            format!(" {}", crate::debate::scores::lead(debate, tug)),
            Style::new().fg(color).add_modifier(Modifier::BOLD),
        ),
    ]
}

/// Over this, one side's words are flagged: judges favour the longer side.
const PARITY_FLAG: f64 = 1.5;

/// How much of the length parity the header has room for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parity {
    /// `words 158:312  ⚖ skeptic 2.0× longer`
    Full,
    /// `words 158:312  ⚖ 2.0×`
    Counts,
    /// `⚖ 2.0×`
    Flag,
}

/// Each side's words this round, flagged once both have finished and one
/// wrote over 1.5× the other, or when their words are half or more alike,
/// in the given form; only where two debaters sit.
fn parity(app: &App, form: Parity) -> Vec<Span<'static>> {
    let two_sides = app.debate.debaters().len() == 2;
    let Some(round) = app.debate.current_round().filter(|_| app.show_parity && two_sides) else { return Vec::new() };
    let words = |role: Role| app.word_counts.of(&app.debate, round.number, role);
    let (advocate, skeptic) = (words(Role::Advocate), words(Role::Skeptic));
    let mut spans = Vec::new();
    if advocate + skeptic == 0 {
        return spans;
    }
    if form != Parity::Flag {
        spans.push(Span::styled(format!("  words {advocate}:{skeptic}"), app.theme.secondary()));
    }
    let done = |role: Role| round.turn(role).is_some_and(crate::debate::state::Turn::is_settled);
    let (long, shorter, who) =
        if advocate >= skeptic { (advocate, skeptic, Role::Advocate) } else { (skeptic, advocate, Role::Skeptic) };
    let ratio = long as f64 / shorter.max(1) as f64;
    // The sides saying much the same: the latest round both have spoken in.
    if let Some(alike) = app.likeness.of(round.number).filter(|x| *x >= convergence::ALIKE) {
        let text = match form {
            Parity::Full => format!("  ⇄ {:.0}% alike", alike * 100.0),
            Parity::Counts | Parity::Flag => format!("  ⇄ {:.0}%", alike * 100.0),
        };
        spans.push(Span::styled(text, Style::new().fg(app.theme.warn)));
    }
    if done(Role::Advocate) && done(Role::Skeptic) && ratio > PARITY_FLAG {
        let text = match form {
            Parity::Full => format!("  ⚖ {} {ratio:.1}× longer", app.debate.seat_name(who)),
            Parity::Counts | Parity::Flag => format!("  ⚖ {ratio:.1}×"),
        };
        spans.push(Span::styled(text, Style::new().fg(app.theme.warn)));
    }
    spans
}

/// "heat 0.72 ▰▰▰▰▰▱▱▱▱▱ ▂▅▇ pinned"; without `history`, no sparks. In a
/// format that keeps an argument map, a round that turned who is ahead is
/// marked on the sparks.
fn gauge(app: &App, history: bool) -> Vec<Span<'static>> {
    let theme = &app.theme;
    let heat = shown_heat(&app.debate);
    let color = theme.heat(heat);
    let filled = (heat.share() * GAUGE_CELLS as f32).round().clamp(1.0, 10.0) as usize;
    let mut spans = vec![
        Span::raw("heat "),
        Span::styled(format!("{heat:.2} "), Style::new().fg(color).add_modifier(Modifier::BOLD)),
        Span::styled("▰".repeat(filled), Style::new().fg(color)),
        Span::styled("▱".repeat(GAUGE_CELLS - filled), theme.secondary()),
    ];
    let history = if history { app.debate.heat_history() } else { Vec::new() };
    if history.len() > 1 {
        // A round where who is ahead changed (the argument map's turning point) is marked in
        // the colour of the side that went ahead, underlined.
        let turned: Vec<(u32, Option<crate::debate::Role>)> = if app.debate.map().is_some() {
            crate::debate::argument_map::turning_points(&app.debate).into_iter().map(|t| (t.round, t.now)).collect()
        } else {
            Vec::new()
        };
        spans.push(Span::raw(" "));
        let shown = history.len().saturating_sub(12);
        for (round, &h) in (0u32..).zip(&history).skip(shown) {
            let style = match turned.iter().find(|(r, _)| *r == round) {
                Some((_, now)) => Style::new()
                    .fg(now.map_or(theme.title, |side| theme.role(side)))
                    .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                None => Style::new().fg(color),
            };
            spans.push(Span::styled(spark(h).to_string(), style));
        }
    }
    if app.debate.pinned_heat.is_some() {
        spans.push(Span::styled(" PINNED", Style::new().fg(theme.warn).add_modifier(Modifier::BOLD)));
    }
    // A seat's own pin, beside the heat every other seat follows.
    for (role, pin) in &app.debate.seat_pins {
        let said = format!(" {} {pin:.2}", app.debate.seat_name(*role));
        spans.push(Span::styled(said, Style::new().fg(theme.warn).add_modifier(Modifier::BOLD)));
    }
    spans.push(Span::raw(" "));
    spans
}

/// The heat the gauge shows: the one the next round will use, which the
/// judge sets; with no judge (a vote) it follows the answers' agreement
/// round by round, so the gauge shows the round being argued (or the pin).
fn shown_heat(debate: &crate::debate::DebateState) -> crate::debate::Heat {
    match debate.current_round().filter(|_| debate.judges() == 0) {
        Some(round) => debate.pinned_heat.unwrap_or(round.heat),
        None => debate.effective_heat(),
    }
}
