//! One role's pane: its turns laid out as styled lines (cached per turn, so
//! a token re-lays only the paragraph it lands in) and its scroll position.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::follow::{Follow, Scroll};
use super::judge_text;
use super::markdown::Palette;
use super::pane_notes::{
    FactsAt, audience_lines, check_lines, conceded_by, ending, fact_lines, final_answer, holds_latest_verdict,
    human_lines, looked_up_count, looked_up_lines, segment_is_first, verdict_foot,
};
use super::streaming_text::StreamingText;
use super::theme::Theme;
use super::wait::Wait;
use super::wrap::wrap_plain;
use crate::debate::facts::{self, RoundFacts};
use crate::debate::state::{Round, Turn, TurnStatus, VerdictStatus};
use crate::debate::{DebateState, Role, TurnPurpose};
use crate::sanitize::{Sanitizer, clean};

/// What a cached turn was laid out from; any change re-lays it.
#[derive(Debug, Clone, PartialEq)]
struct Key {
    status: TurnStatus,
    /// What a turn waiting for its first word says it waits for.
    waiting: Option<&'static str>,
    /// The heat a person pinned for the next round (it wins over a verdict's).
    pinned: Option<crate::debate::Heat>,
    text_len: usize,
    reasoning_len: usize,
    show_reasoning: bool,
    verdict: Option<VerdictStatus>,
    /// What a judge turn draws of its round's facts.
    judge: Option<JudgeKey>,
    /// The judge said this debater conceded a point (known after its turn).
    conceded: bool,
    /// Quote checks arrive after the turn is done.
    checks: usize,
    /// The tool calls it made, and how many were answered.
    looked_up: (usize, usize),
    show_cited: bool,
    width: u16,
}

/// A judge turn's round facts, which settle after its verdict, and where
/// the turn stands among the round's judge turns.
#[derive(Debug, Clone, PartialEq)]
struct JudgeKey {
    facts: RoundFacts,
    /// The round's latest judge turn (a panel's votes are drawn under it).
    latest: bool,
    /// The judge turn that gave the round's latest verdict (a review's
    /// board is drawn under it).
    holds_verdict: bool,
    /// The debate ended: a panel judge still asked then has "no vote".
    ended: bool,
}

/// A turn's text made safe, chunk by chunk as it grows.
#[derive(Default)]
struct CleanText {
    sanitizer: Sanitizer,
    raw_len: usize,
    text: String,
}

impl CleanText {
    fn update(&mut self, raw: &str) -> &str {
        if raw.len() < self.raw_len || !raw.is_char_boundary(self.raw_len) {
            *self = CleanText::default();
        }
        let more = self.sanitizer.push(&raw[self.raw_len..]);
        self.text.push_str(&more.replace('\t', "    "));
        self.raw_len = raw.len();
        &self.text
    }
}

#[derive(Default)]
struct Segment {
    key: Option<Key>,
    body_src: CleanText,
    reasoning_src: CleanText,
    /// Whether `reasoning` holds the reasoning itself (not the hidden note).
    reasoning_shown: bool,
    head: Vec<Line<'static>>,
    reasoning: StreamingText,
    body: StreamingText,
    foot: Vec<Line<'static>>,
}

impl Segment {
    fn chunks(&self) -> impl Iterator<Item = &[Line<'static>]> {
        [&self.head[..]].into_iter().chain(self.reasoning.parts()).chain(self.body.parts()).chain([&self.foot[..]])
    }
}

/// A pane's laid-out content and scroll state.
pub struct Pane {
    pub role: Role,
    pub scroll: Scroll,
    /// Rows the pane showed at its last draw.
    pub height: usize,
    /// Whether the source lines a turn cited show under its marks.
    pub show_cited: bool,
    /// Whether a person seated in the debate answers on this screen (not
    /// a watch's or a replay's).
    pub person_here: bool,
    /// How the pane moves while it follows its stream.
    pub follow_by: Follow,
    segments: Vec<Segment>,
    ending: Vec<Line<'static>>,
    width: u16,
    total: usize,
}

impl Pane {
    pub fn new(role: Role) -> Self {
        Pane {
            role,
            scroll: Scroll::default(),
            height: 0,
            show_cited: false,
            person_here: true,
            follow_by: Follow::default(),
            segments: Vec::new(),
            ending: Vec::new(),
            width: 0,
            total: 0,
        }
    }

    /// Brings the layout up to date with the debate at `width` columns.
    pub fn update(&mut self, state: &DebateState, width: u16, theme: &Theme, show_reasoning: bool) {
        let old_total = self.total;
        let resized = width != self.width && self.width != 0;
        self.width = width;
        let palette = Palette::from_theme(theme, theme.role(self.role));
        let turns: Vec<(&Round, &Turn)> = state
            .rounds
            .iter()
            .flat_map(|r| r.turns.iter().filter(|t| t.role == self.role).map(move |t| (r, t)))
            .collect();
        self.segments.truncate(turns.len());
        // A round's facts, once a round however many judge turns it has.
        let mut round_facts: Option<(u32, RoundFacts)> = None;
        for (i, (round, turn)) in turns.into_iter().enumerate() {
            let facts = turn.role.is_judge().then(|| match &round_facts {
                Some((number, facts)) if *number == round.number => facts.clone(),
                _ => round_facts.insert((round.number, drawn_facts(state, round))).1.clone(),
            });
            let key = Key {
                status: turn.status.clone(),
                waiting: Wait::silent_line(state, turn, self.person_here),
                pinned: turn.role.is_judge().then(|| super::pane_notes::pinned_after(state, round)).flatten(),
                text_len: turn.text.len(),
                reasoning_len: turn.reasoning.len(),
                show_reasoning,
                verdict: turn.verdict.clone(),
                judge: facts.map(|facts| JudgeKey {
                    facts,
                    latest: round.turn(turn.role).is_some_and(|t| std::ptr::eq(t, turn)),
                    holds_verdict: holds_latest_verdict(round, turn),
                    ended: state.finish.is_some(),
                }),
                conceded: conceded_by(round, turn),
                checks: turn.checks.len(),
                looked_up: looked_up_count(turn),
                show_cited: self.show_cited,
                width,
            };
            if self.segments.get(i).is_some_and(|s| s.key.as_ref() == Some(&key)) {
                continue;
            }
            if i == self.segments.len() {
                self.segments.push(Segment::default());
            }
            let segment = &mut self.segments[i];
            segment.key = Some(key);
            let shown = Shown { reasoning: show_reasoning, cited: self.show_cited };
            lay_out(segment, state, round, turn, width, theme, &palette, shown);
        }
        // The last seat's pane closes the transcript: the judge's, or a vote's last debater's.
        self.ending = if state.seats().last() == Some(&self.role) {
            [human_lines(state, theme, width), audience_lines(state, theme, width), ending(state, theme, width)]
                .concat()
        } else {
            Vec::new()
        };
        self.total = self.segments.iter().flat_map(Segment::chunks).map(<[_]>::len).sum::<usize>() + self.ending.len();
        if resized && !self.scroll.follow && old_total > 0 {
            // Keep the same part of the transcript in view after a rewrap.
            self.scroll.offset = self.scroll.offset * self.total / old_total;
        }
    }

    /// Forgets the last turn's layout: its text was replaced (a retry
    /// discards a partial answer), not extended.
    pub fn reset_last(&mut self) {
        self.segments.pop();
    }

    pub fn total(&self) -> usize {
        self.total
    }

    /// The first line shown in a viewport of `height` rows (see [`Scroll::top`]).
    pub fn top(&self, height: usize) -> usize {
        self.scroll.top(self.follow_by, self.total, height)
    }

    /// The lines in view, borrowed from the cache.
    pub fn visible(&self, height: usize) -> Vec<&Line<'static>> {
        let top = self.top(height);
        let chunks = self.segments.iter().flat_map(Segment::chunks).chain([&self.ending[..]]);
        let mut skip = top;
        let mut out = Vec::with_capacity(height);
        for chunk in chunks {
            if skip >= chunk.len() {
                skip -= chunk.len();
                continue;
            }
            for line in &chunk[skip..] {
                if out.len() == height {
                    return out;
                }
                out.push(line);
            }
            skip = 0;
        }
        out
    }

    /// Every line of the layout, in order.
    pub fn lines(&self) -> impl Iterator<Item = &Line<'static>> {
        self.segments.iter().flat_map(Segment::chunks).chain([&self.ending[..]]).flatten()
    }

    /// Which of the pane's turns (in order) layout line `line` belongs to.
    pub fn segment_at(&self, line: usize) -> Option<usize> {
        let mut end = 0;
        for (i, segment) in self.segments.iter().enumerate() {
            end += segment.chunks().map(<[_]>::len).sum::<usize>();
            if line < end {
                return Some(i);
            }
        }
        None
    }

    /// The turn a person is looking at: the first whose heading is in view,
    /// else the one the view is inside.
    pub fn segment_in_view(&self) -> Option<usize> {
        let top = self.top(self.height);
        let mut start = 0;
        for (i, segment) in self.segments.iter().enumerate() {
            if (top..top + self.height).contains(&start) {
                return Some(i);
            }
            start += segment.chunks().map(<[_]>::len).sum::<usize>();
        }
        self.segment_at(top)
    }

    /// Scrolls so that `line` is in view, a third of the way down; a line
    /// already in view stays where it is.
    pub fn reveal(&mut self, line: usize) {
        let height = self.height.max(1);
        let top = self.top(height);
        if (top..top + height).contains(&line) {
            return;
        }
        let max = self.total.saturating_sub(height);
        self.scroll = Scroll { offset: line.saturating_sub(height / 3).min(max), follow: false };
    }

    pub fn scroll_up(&mut self, rows: usize) {
        let top = self.top(self.height).min(self.total.saturating_sub(self.height));
        self.scroll = Scroll { offset: top.saturating_sub(rows), follow: false };
    }

    /// Scrolls down; reaching the end follows the stream again.
    pub fn scroll_down(&mut self, rows: usize) {
        let top = self.top(self.height) + rows;
        let max = self.total.saturating_sub(self.height);
        self.scroll = if top >= max { Scroll::default() } else { Scroll { offset: top, follow: false } };
    }

    pub fn to_top(&mut self) {
        self.scroll = Scroll { offset: 0, follow: self.total <= self.height };
    }

    pub fn follow(&mut self) {
        self.scroll = Scroll::default();
    }
}

/// What a person asked to see besides the turns' text.
#[derive(Clone, Copy)]
struct Shown {
    reasoning: bool,
    /// The source lines under each citation's mark.
    cited: bool,
}

/// A turn's heading in its pane: the round and its heat (and whose pin),
/// or what the judge writes; then, for an argument, the round's question
/// (the person's, said so), the topics injected and the notes this seat
/// alone was sent.
fn head_lines(state: &DebateState, round: &Round, turn: &Turn, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let accent = Style::new().fg(theme.role(turn.role)).add_modifier(Modifier::BOLD);
    let muted = theme.secondary();
    let mut head = Vec::new();
    if !segment_is_first(state, round, turn) {
        head.push(Line::default());
    }
    let title = match turn.purpose {
        TurnPurpose::Argue => {
            let pinned = if round.seat_heats.contains_key(&turn.role) {
                " · pinned for this seat"
            } else if round.pinned {
                " · pinned"
            } else {
                ""
            };
            // No temperature sent (an agent CLI, a thinking model): the heat reached it by its prompt.
            let by_prompt = if turn.temperature.is_none() { " · by prompt" } else { "" };
            let asked = turn.temperature.unwrap_or(round.heat_for(turn.role).get());
            format!("Round {} · heat {asked:.2}{pinned}{by_prompt}", round.number + 1)
        }
        TurnPurpose::Judge => format!("Round {} · verdict", round.number + 1),
        TurnPurpose::RepairVerdict => format!("Round {} · verdict, asked again", round.number + 1),
        TurnPurpose::Synthesis => "Final synthesis".to_string(),
        TurnPurpose::RepairSynthesis => "Final synthesis, asked again".to_string(),
    };
    head.push(Line::from(Span::styled(title, accent)));
    if turn.purpose == TurnPurpose::Argue || !turn.notes.is_empty() {
        if round.asked_by_person {
            head.extend(wrap_plain(
                &format!("Your question: {}", clean(&round.topic)),
                width,
                Style::new().fg(theme.warn),
            ));
        } else if round.topic != state.topic {
            head.extend(wrap_plain(&format!("Topic: {}", clean(&round.topic)), width, muted));
        }
        for injected in round.injected.iter().filter(|_| turn.purpose == TurnPurpose::Argue) {
            head.extend(wrap_plain(&format!("Injected: {}", clean(injected)), width, Style::new().fg(theme.warn)));
        }
        for note in &turn.notes {
            head.extend(wrap_plain(
                &format!("Your note to this seat: {}", clean(note)),
                width,
                Style::new().fg(theme.warn),
            ));
        }
    }
    head
}

#[allow(clippy::too_many_arguments)]
fn lay_out(
    segment: &mut Segment,
    state: &DebateState,
    round: &Round,
    turn: &Turn,
    width: u16,
    theme: &Theme,
    palette: &Palette,
    shown: Shown,
) {
    let accent = Style::new().fg(theme.role(turn.role)).add_modifier(Modifier::BOLD);
    let muted = theme.secondary();
    segment.head = head_lines(state, round, turn, width, theme);
    // What it looked up came before what it argues.
    segment.head.extend(looked_up_lines(turn, width, theme));

    if turn.reasoning.is_empty() {
        segment.reasoning = StreamingText::default();
    } else if shown.reasoning {
        if !segment.reasoning_shown {
            segment.reasoning = StreamingText::default();
            segment.reasoning_shown = true;
        }
        segment.head.push(Line::from(Span::styled("thinking:", muted.add_modifier(Modifier::ITALIC))));
        let reasoning = segment.reasoning_src.update(&turn.reasoning);
        segment.reasoning.update(reasoning, width, &palette.secondary(theme));
    } else {
        let words = turn.reasoning.split_whitespace().count();
        segment.reasoning = StreamingText::default();
        segment.reasoning_shown = false;
        segment.reasoning.update(
            &format!("▸ reasoning hidden ({})", crate::words::count(words, "word")),
            width,
            &palette.secondary(theme),
        );
    }

    match (&turn.verdict, turn.role) {
        (Some(VerdictStatus::Parsed { verdict }), _) => {
            segment.body = StreamingText::default();
            segment.body.update(&clean(&verdict.verdict), width, palette);
        }
        (_, Role::Judge) => {
            segment.body = StreamingText::default();
            let so_far = judge_text::partial(&turn.text, &state.side_names());
            segment.body.update(&clean(&so_far.verdict), width, palette);
        }
        _ => {
            let text = segment.body_src.update(&turn.text);
            segment.body.update(text, width, palette);
        }
    }

    let mut foot = Vec::new();
    match &turn.status {
        TurnStatus::Streaming if turn.text.is_empty() && turn.reasoning.is_empty() => {
            if let Some(waiting) = segment.key.as_ref().and_then(|k| k.waiting) {
                foot.push(Line::from(Span::styled(waiting, muted)));
            }
        }
        TurnStatus::Retrying { attempt, max_retries, reason, .. } => {
            let msg = format!("↻ retry {attempt} of {max_retries}: {}", clean(reason));
            foot.extend(wrap_plain(&msg, width, Style::new().fg(theme.warn)));
        }
        TurnStatus::Done => {
            if let Some(tokens) = turn.truncated_at {
                let note = format!("… {}", crate::debate::cut_note(tokens));
                foot.push(Line::from(Span::styled(note, Style::new().fg(theme.warn))));
            } else if let Some(seconds) = turn.out_of_time {
                let note = format!("… {}", crate::debate::time_note(seconds));
                foot.push(Line::from(Span::styled(note, Style::new().fg(theme.warn))));
            } else if turn.possibly_cut {
                let note = format!("… {}", crate::debate::POSSIBLY_CUT);
                foot.push(Line::from(Span::styled(note, Style::new().fg(theme.warn))));
            }
            foot.extend(final_answer(state, turn, width, theme));
            foot.extend(check_lines(state, round, turn, width, theme, shown.cited));
        }
        TurnStatus::Cancelled => foot.push(Line::from(Span::styled("■ cancelled", muted))),
        TurnStatus::Failed { error } => {
            foot.extend(wrap_plain(&format!("✗ {}", clean(error)), width, Style::new().fg(theme.error)));
        }
        TurnStatus::Streaming => {}
    }
    foot.extend(verdict_foot(state, round, turn, width, theme, accent));
    if let Some(judge) = segment.key.as_ref().and_then(|k| k.judge.as_ref()) {
        let at = FactsAt { latest: judge.latest, holds_verdict: judge.holds_verdict };
        foot.extend(fact_lines(state, round, turn, &judge.facts, at, width, theme));
    }
    segment.foot = foot;
}

/// The facts of `round` a judge's turns draw. The vote among final answers
/// (drawn under each debater's answer) and the room's votes (at the pane's
/// end) are left out, so a ballot does not re-lay every judge turn.
fn drawn_facts(state: &DebateState, round: &Round) -> RoundFacts {
    RoundFacts { vote: None, room: None, ..facts::of_round(state, round) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::DebateEvent;
    use crate::debate::Heat;

    fn state_with(text: &str) -> DebateState {
        let mut s = DebateState::default();
        s.apply(&DebateEvent::Started {
            topic: "T".into(),
            max_rounds: 3,
            initial_heat: Heat::new(0.9),
            participants: vec![],
        });
        s.apply(&DebateEvent::RoundStarted { round: 0, topic: "T".into(), heat: Heat::new(0.9), injected: vec![] });
        s.apply(&DebateEvent::TurnStarted {
            round: 0,
            role: Role::Advocate,
            purpose: TurnPurpose::Argue,
            temperature: Some(0.9),
        });
        s.apply(&DebateEvent::Delta { round: 0, role: Role::Advocate, text: text.into() });
        s
    }

    fn theme() -> Theme {
        Theme::load("default", None, false).expect("theme")
    }

    fn text_of(lines: &[&Line<'_>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    #[test]
    fn lays_out_a_turn_with_its_round_heading() {
        let mut pane = Pane::new(Role::Advocate);
        pane.update(&state_with("Hello **world**\u{1b}[2J"), 30, &theme(), false);
        assert_eq!(text_of(&pane.visible(10)), ["Round 1 · heat 0.90", "Hello world"]);
    }

    #[test]
    fn follows_until_scrolled_up_and_resumes_at_the_end() {
        let words = (0..200).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
        let mut pane = Pane::new(Role::Advocate);
        pane.follow_by = Follow::Lines;
        pane.height = 5;
        pane.update(&state_with(&words), 20, &theme(), false);
        let total = pane.total();
        assert!(total > 20);
        assert_eq!(pane.top(5), total - 5);
        pane.scroll_up(3);
        assert_eq!(pane.top(5), total - 8);
        assert!(!pane.scroll.follow);
        // More text arrives: the parked view stays put.
        pane.update(&state_with(&format!("{words} more words here to add")), 20, &theme(), false);
        assert_eq!(pane.top(5), total - 8);
        pane.scroll_down(100);
        assert!(pane.scroll.follow);
        pane.to_top();
        assert_eq!(text_of(&pane.visible(1)), ["Round 1 · heat 0.90"]);
    }

    #[test]
    fn following_by_blocks_moves_half_a_pane_at_a_time_and_keeps_the_end_in_view() {
        let mut pane = Pane::new(Role::Advocate);
        pane.height = 10;
        let mut tops = Vec::new();
        for n in 1..200 {
            let words = (0..n).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
            pane.update(&state_with(&words), 20, &theme(), false);
            let top = pane.top(10);
            let shown = pane.visible(10);
            assert_eq!(shown.last().copied(), pane.lines().last(), "the newest line is in view");
            assert!(shown.len() >= pane.total().min(6), "over half the pane is text once it has filled");
            if tops.last() != Some(&top) {
                tops.push(top);
            }
        }
        assert!(tops.len() > 5, "{tops:?}");
        assert!(tops.windows(2).all(|w| w[1] - w[0] == 5), "it moved by blocks of 5: {tops:?}");
        pane.follow_by = Follow::Lines;
        assert_eq!(pane.top(10), pane.total() - 10, "line by line, the newest line is on the last row");
        // Scrolling up from a block's blank rows starts from the text's end.
        pane.follow_by = Follow::Blocks;
        pane.scroll_up(1);
        assert_eq!(pane.top(10), pane.total() - 11);
    }

    #[test]
    fn reasoning_shows_dimmed_and_collapses() {
        let mut state = state_with("The answer.");
        state.apply(&DebateEvent::Reasoning { round: 0, role: Role::Advocate, text: "let me think".into() });
        let mut pane = Pane::new(Role::Advocate);
        pane.update(&state, 40, &theme(), true);
        assert_eq!(text_of(&pane.visible(10)), ["Round 1 · heat 0.90", "thinking:", "let me think", "The answer."]);
        let thought = pane.visible(10)[2].spans[0].style;
        assert_eq!(thought, theme().secondary().add_modifier(Modifier::ITALIC));
        pane.update(&state, 40, &theme(), false);
        assert_eq!(text_of(&pane.visible(10)), ["Round 1 · heat 0.90", "▸ reasoning hidden (3 words)", "The answer."]);
        pane.update(&state, 40, &theme(), true);
        assert_eq!(text_of(&pane.visible(10))[2], "let me think");
    }

    #[test]
    fn a_retry_lays_the_new_answer_out_afresh() {
        let mut state = state_with("First try that will be dropped");
        let mut pane = Pane::new(Role::Advocate);
        pane.update(&state, 40, &theme(), false);
        state.apply(&DebateEvent::TurnRetrying {
            round: 0,
            role: Role::Advocate,
            attempt: 1,
            max_retries: 3,
            delay_ms: 10,
            reason: "overloaded".into(),
        });
        state.apply(&DebateEvent::Delta {
            round: 0,
            role: Role::Advocate,
            text: "A whole new and longer answer here".into(),
        });
        pane.reset_last();
        pane.update(&state, 40, &theme(), false);
        assert_eq!(text_of(&pane.visible(10))[1], "A whole new and longer answer here");
    }

    #[test]
    fn a_resize_keeps_the_parked_position_in_proportion() {
        let words = (0..400).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
        let mut pane = Pane::new(Role::Advocate);
        pane.height = 5;
        pane.update(&state_with(&words), 40, &theme(), false);
        pane.scroll = Scroll { offset: pane.total() / 2, follow: false };
        pane.update(&state_with(&words), 20, &theme(), false);
        let ratio = pane.scroll.offset as f64 / pane.total() as f64;
        assert!((ratio - 0.5).abs() < 0.05, "{ratio}");
    }
}
