//! The studio with more seats than the duel's: a vote's three debaters (no
//! judge) side by side under their format's names, each finished turn's
//! final answer under it, the header's convergence meter, the vote in the
//! results; six debaters in two rows of three; focus cycling over the
//! seats that sit, in a vote as in the duel; the person's verdict naming
//! a vote's debaters; and the start screen's roster for a vote.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support::log::Log;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::format::FormatRecord;
use heat::debate::{Command, DebateEvent, Heat, Outcome, Role, TurnPurpose, vote};
use heat::format::{Format, Origin};
use heat::tui::App;
use heat::tui::effect::Effect;
use studio_support::{DUEL, feed, mid_stream, new_app, roster, screen, start_screen_with};

const QUESTION: &str = "How many days should a working week have?";

const ANALYST_1: &str = "Trials in Iceland and the UK kept output steady on four days and cut burnout by a third.\n\nFinal answer: four days";
const PRAGMATIST_1: &str = "Most firms cannot rebuild their shifts overnight; five days with flexible hours is the change that sticks.\n\nFinal answer: five days";
const CONTRARIAN_1: &str =
    "Everyone assumes fewer days means less work. The trials say otherwise, oddly enough.\n\nFinal answer: Four days.";
const ANALYST_2: &str =
    "Nothing in the last round moves me: the evidence still favours four.\n\nFinal answer: four days";
const PRAGMATIST_2: &str =
    "The analyst's trials convince me that the shift can be phased in.\n\nFinal answer: four days";
const CONTRARIAN_2: &str = "I came to disagree and find myself agreeing.\n\nFinal answer: four days";

/// The vote's three seats, in screen order.
const VOTE: [Role; 3] = [Role::Advocate, Role::Skeptic, Role::Third];

fn vote_format() -> FormatRecord {
    Format::parse("vote", include_str!("../../assets/formats/vote.toml"), &Origin::BuiltIn).unwrap().record
}

/// Six free debaters, no judge.
fn six_format() -> FormatRecord {
    let seats = ["Ada", "Bea", "Cyd", "Dot", "Eve", "Fay"]
        .map(|name| {
            format!(
                "[[seats]]\nid = \"{}\"\nlabel = \"{name}\"\nside = \"free\"\nbrief = \"debater.md\"\n\n",
                name.to_lowercase()
            )
        })
        .concat();
    let file = format!("summary = \"six debaters\"\nmax_rounds = 2\n{seats}[judges]\ncount = 0\n");
    Format::parse("six", &file, &Origin::BuiltIn).unwrap().record
}

/// A debate in `format` started with `seats` at the table.
fn started(format: FormatRecord, seats: &[Role]) -> Vec<DebateEvent> {
    Log::new(QUESTION, 3, 0.9).seats(seats, "openai", "gpt-4.1-mini").formatted(format).into_events()
}

fn round_started(round: u32, heat: f32) -> DebateEvent {
    DebateEvent::RoundStarted { round, topic: QUESTION.into(), heat: Heat::new(heat), injected: vec![] }
}

fn argue(round: u32, role: Role, heat: f32) -> DebateEvent {
    DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: Some(heat) }
}

fn done(round: u32, role: Role, text: &str) -> DebateEvent {
    DebateEvent::TurnCompleted { round, role, text: text.into(), usage: None, truncated_at: None, possibly_cut: false }
}

/// Round 1 argued and counted (2–1 for four days); in round 2 the analyst
/// has answered, the pragmatist is writing and the contrarian thinks.
fn vote_mid_stream() -> App {
    let mut events = started(vote_format(), &VOTE);
    events.push(round_started(0, 0.9));
    events.extend(VOTE.map(|role| argue(0, role, 0.9)));
    events.extend([
        done(0, Role::Advocate, ANALYST_1),
        done(0, Role::Skeptic, PRAGMATIST_1),
        done(0, Role::Third, CONTRARIAN_1),
    ]);
    events.push(round_started(1, 0.6));
    events.extend(VOTE.map(|role| argue(1, role, 0.6)));
    events.extend([
        done(1, Role::Advocate, ANALYST_2),
        DebateEvent::Delta { round: 1, role: Role::Skeptic, text: "The analyst's trials convince me".into() },
    ]);
    let mut app = new_app();
    app.begin("20261125-020000-vote".into());
    feed(&mut app, &events);
    app
}

/// Every debater gave four days in round 2: the debate converged.
fn vote_converged() -> App {
    let mut app = vote_mid_stream();
    feed(&mut app, &[done(1, Role::Skeptic, PRAGMATIST_2), done(1, Role::Third, CONTRARIAN_2)]);
    let tally = vote::of_round(&app.debate, 1).unwrap();
    let synthesis = format!("The vote: {}.", vote::describe(&app.debate, &tally));
    feed(&mut app, &[DebateEvent::Finished { outcome: Outcome::Converged, synthesis: Some(synthesis) }]);
    app
}

/// Six debaters in round 1: three have answered, three still write.
fn six_mid_stream() -> App {
    let seats = Role::DEBATER_SEATS;
    let mut events = started(six_format(), &seats);
    events.push(round_started(0, 0.9));
    events.extend(seats.map(|role| argue(0, role, 0.9)));
    events.extend([
        done(0, Role::Advocate, ANALYST_1),
        done(0, Role::Skeptic, PRAGMATIST_1),
        done(0, Role::Third, CONTRARIAN_1),
        DebateEvent::Delta { round: 0, role: Role::Fourth, text: "Four days, if the work allows it".into() },
        DebateEvent::Delta { round: 0, role: Role::Fifth, text: "A week is a habit, not a law".into() },
    ]);
    let mut app = new_app();
    app.begin("20261125-020000-six".into());
    feed(&mut app, &events);
    app
}

/// The screen row where each pane's top border starts, left to right:
/// `(row, column)` of every rounded or thick top-left corner.
fn pane_corners(text: &str) -> Vec<(usize, usize)> {
    text.lines()
        .enumerate()
        .flat_map(|(row, line)| {
            line.chars().enumerate().filter(|(_, c)| matches!(c, '╭' | '┏')).map(move |(column, _)| (row, column))
        })
        .collect()
}

fn tab(app: &mut App, shift: bool) {
    let key = if shift {
        KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)
    } else {
        KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)
    };
    assert!(app.on_key(key).is_empty(), "moving the focus sends nothing");
}

/// The seats the focus visits over `presses` presses of Tab (or shift-Tab).
fn focus_walk(app: &mut App, presses: usize, shift: bool) -> Vec<Role> {
    (0..presses)
        .map(|_| {
            tab(app, shift);
            app.focused_role()
        })
        .collect()
}

#[test]
fn a_vote_shows_its_three_debaters_their_answers_and_how_far_they_agree() {
    let mut app = vote_mid_stream();
    let text = screen(&mut app, 120, 40);
    for label in ["Analyst", "Pragmatist", "Contrarian"] {
        assert!(text.contains(&format!(" {label} ")), "{label} has a pane:\n{text}");
    }
    for absent in ["Advocate", "Skeptic", "Judge", "Third"] {
        assert!(!text.contains(absent), "no {absent} in a vote:\n{text}");
    }
    assert_eq!(pane_corners(&text).len(), 3, "three panes:\n{text}");
    assert!(text.contains("agree 2–1 ▰▰▰▰▰▱▱▱▱▱"), "the meter counts round 1:\n{text}");
    assert!(text.contains("▸ final answer: four days"), "{text}");
    assert!(text.contains("▸ final answer: five days"), "{text}");
    insta::assert_snapshot!("vote_mid_stream_120x40", text);
    insta::assert_snapshot!("vote_mid_stream_200x50", screen(&mut app, 200, 50));

    // At 80 columns one pane shows under the tabs; the meter keeps its count.
    let narrow = screen(&mut app, 80, 24);
    assert!(narrow.contains(" Analyst · done ") && narrow.contains(" Contrarian · "), "{narrow}");
    assert!(narrow.contains("agree 2–1"), "{narrow}");
    assert_eq!(pane_corners(&narrow).len(), 1, "{narrow}");
    insta::assert_snapshot!("vote_mid_stream_80x24", narrow);
}

#[test]
fn a_converged_vote_says_so_in_the_header_the_last_pane_and_the_results() {
    let mut app = vote_converged();
    let results = screen(&mut app, 120, 40);
    assert!(results.contains("✓ CONVERGED"), "{results}");
    assert!(results.contains("☑ the vote: \"four days\" 3–0 (Analyst, Pragmatist, Contrarian)"), "{results}");
    assert!(!results.contains("Synthesis:"), "the vote is not said twice:\n{results}");
    assert!(results.contains("■ analyst ■ pragmatist ■ contrarian"), "every debater's words:\n{results}");
    insta::assert_snapshot!("vote_converged_results_120x40", results);
    insta::assert_snapshot!("vote_converged_results_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("vote_converged_results_200x50", screen(&mut app, 200, 50));

    app.close();
    let panes = screen(&mut app, 120, 40);
    assert!(panes.contains("agree 3–0 ▰▰▰▰▰▰▰▰▰▰"), "{panes}");
    assert!(panes.contains("Debate over: converged"), "the last seat's pane closes the debate:\n{panes}");
    insta::assert_snapshot!("vote_converged_120x40", panes);
    insta::assert_snapshot!("vote_converged_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("vote_converged_200x50", screen(&mut app, 200, 50));
}

#[test]
fn six_debaters_sit_in_two_rows_of_three() {
    let mut app = six_mid_stream();
    let text = screen(&mut app, 200, 50);
    let corners = pane_corners(&text);
    let rows: Vec<usize> = corners.iter().map(|(row, _)| *row).collect();
    let columns: Vec<usize> = corners.iter().map(|(_, column)| *column).collect();
    assert_eq!(rows.len(), 6, "six panes:\n{text}");
    assert_eq!(rows[..3], [rows[0]; 3], "{text}");
    assert_eq!(rows[3..], [rows[3]; 3], "{text}");
    assert!(rows[3] > rows[0], "{text}");
    assert_eq!(columns[..3], columns[3..], "the rows line up:\n{text}");
    for label in ["Ada", "Bea", "Cyd", "Dot", "Eve", "Fay"] {
        assert!(text.contains(&format!(" {label} ")), "{label} has a pane:\n{text}");
    }
    assert!(!text.contains("Judge"), "{text}");
    insta::assert_snapshot!("six_debaters_200x50", text);

    // Once all have answered and the debate ends, the results draw a bar for each.
    let answer = |role| done(0, role, "Shorter weeks work.\n\nFinal answer: four days");
    feed(&mut app, &[answer(Role::Fourth), answer(Role::Fifth), answer(Role::Sixth)]);
    let synthesis = Some("The vote: \"four days\" 5–1.".to_string());
    feed(&mut app, &[DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis }]);
    let results = screen(&mut app, 200, 50);
    assert!(results.contains("☑ the vote: \"four days\" 5–1 (Ada, Cyd, Dot, Eve, Fay); minority: Bea"), "{results}");
    assert!(results.contains("Words per round ■ ada ■ bea ■ cyd ■ dot ■ eve ■ fay"), "{results}");
}

#[test]
fn the_focus_cycles_over_exactly_the_seats_that_sit() {
    let mut app = vote_mid_stream();
    assert_eq!(app.focused_role(), Role::Advocate);
    assert_eq!(focus_walk(&mut app, 3, false), [Role::Skeptic, Role::Third, Role::Advocate]);
    assert_eq!(focus_walk(&mut app, 3, true), [Role::Third, Role::Skeptic, Role::Advocate]);

    let mut duel = mid_stream();
    assert_eq!(focus_walk(&mut duel, 3, false), [Role::Skeptic, Role::Judge, Role::Advocate]);
    assert_eq!(focus_walk(&mut duel, 3, true), [Role::Judge, Role::Skeptic, Role::Advocate]);

    let mut six = six_mid_stream();
    let walk = focus_walk(&mut six, 6, false);
    assert_eq!(walk, [Role::Skeptic, Role::Third, Role::Fourth, Role::Fifth, Role::Sixth, Role::Advocate]);
}

#[test]
fn the_duel_still_draws_three_panes_and_nothing_for_the_extra_seats() {
    let mut app = mid_stream();
    assert_eq!(app.seats(), DUEL);
    let text = screen(&mut app, 160, 45);
    assert_eq!(pane_corners(&text).len(), 3, "{text}");
    for absent in ["Third", "Fourth", "Fifth", "Sixth"] {
        assert!(!text.contains(absent), "no {absent} pane in a duel:\n{text}");
    }
    // Before any debate, the duel's three sit too.
    assert_eq!(new_app().seats(), DUEL);
}

#[test]
fn the_persons_verdict_in_a_vote_names_its_debaters() {
    let mut app = vote_mid_stream();
    let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
    assert!(app.on_key(key(KeyCode::Char('v'))).is_empty());
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("‹ even ›   analyst     pragmatist     contrarian"), "{text}");
    assert!(text.contains("end the debate here (Ctrl-E): the vote decides"), "no judge sums it up:\n{text}");
    for _ in 0..5 {
        app.on_key(key(KeyCode::Right));
    }
    assert!(screen(&mut app, 120, 40).contains("‹ contrarian ›"), "the last choice holds");
    let effects = app.on_key(key(KeyCode::Enter));
    let given = Command::HumanVerdict { ahead: Some(Role::Third), confidence: 50, note: String::new(), ends: false };
    assert_eq!(effects, vec![Effect::Send(given)]);
}

#[test]
fn the_start_screen_lists_a_votes_debaters_and_no_judge() {
    let mut seats = roster();
    let mut third = seats[0].clone();
    third.role = Role::Third;
    seats.push(third);
    let labels = vote_format().labels;
    let vote = heat::tui::settings::FormatChoice {
        name: "vote".into(),
        rounds: Some(3),
        labels,
        judges: 0,
        tagline: String::new(),
    };
    let mut app = start_screen_with(|options| {
        options.roster = seats;
        options.settings = Some(["3", "0.90", "auto", "", "auto", "", "auto", "", "", "vote"].map(String::from));
        options.formats = heat::tui::settings::FormatChoices { formats: vec![vote], plain_rounds: "4".into() };
    });
    let text = screen(&mut app, 80, 24);
    for label in ["Analyst", "Pragmatist", "Contrarian"] {
        assert!(text.contains(&format!("  {label}")), "{label} is listed:\n{text}");
    }
    assert!(!text.contains("Judge"), "no judge sits in a vote:\n{text}");
    assert!(text.contains("vote · 3 rounds from heat 0.90"), "{text}");
}

/// `b` in a vote: round 1's answers are in and the debate went on, so a
/// branch can be taken after it, at the heat the vote set; free seats have
/// no sides, so Ctrl-S swaps nothing and the form says why.
#[test]
fn b_in_a_vote_branches_after_a_counted_round_at_the_votes_heat_with_no_sides_to_swap() {
    use heat::tui::branch_form::branchable;
    use heat::tui::effect::BranchRequest;
    let mut app = vote_mid_stream();
    assert_eq!(branchable(&app.debate), [(1, Heat::new(0.6))], "round 1 counted; round 2 not yet");
    assert!(app.on_key(KeyEvent::new(KeyCode::Char('b'), KeyModifiers::NONE)).is_empty());
    assert!(matches!(app.modal, Some(heat::tui::modal::Modal::Branch(_))), "the form opens");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("0.60, as the vote set it"), "{text}");
    assert!(text.contains("free seats: each argues an answer of its own"), "{text}");
    assert!(!text.contains("^S swap"), "{text}");
    assert!(app.on_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)).is_empty());
    let request = BranchRequest {
        from: "20261125-020000-vote".into(),
        round: 1,
        swap_sides: false,
        heat: None,
        question: None,
        note: None,
    };
    assert_eq!(app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)), vec![Effect::Branch(request)]);
    // A vote that converged left nothing open after its last round.
    assert!(branchable(&vote_converged().debate).iter().all(|(round, _)| *round < 2), "round 2 ended it");
}
