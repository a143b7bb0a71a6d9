//! Redirecting a debate from the studio: `a` sets the next round's question
//! (opened on the question the round would ask), `x` adds a round to a
//! running debate or goes on with one that ended; what each sends, what the
//! status line says, and what the panes show afterwards.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::verdict::Verdict;
use heat::debate::{Command, DebateEvent, Heat, Outcome, Role, TurnPurpose};
use heat::tui::App;
use heat::tui::effect::Effect;
use heat::tui::modal::Modal;
use studio_support::*;

const QUESTION: &str = "What happens to juniors who never meet anyone?";

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        assert!(press(app, KeyCode::Char(c)).is_empty(), "typing {c:?} sent something");
    }
}

/// The text in the open editor, if one is open.
fn editor_text(app: &App) -> Option<String> {
    match &app.modal {
        Some(Modal::Editor(editor)) => Some(editor.area.lines().join("\n")),
        _ => None,
    }
}

/// Round 1 argued and judged open, its verdict asking `next`; round 2 not started.
fn judged_open(max_rounds: u32, next: &str) -> App {
    let mut app = new_app();
    app.begin("20261128-120000-ab12".into());
    let verdict = Verdict {
        resolved: false,
        verdict: "Open.".into(),
        topic: next.into(),
        heat: Heat::new(0.6),
        ..Verdict::default()
    };
    let log = crate::support::log::Log::new(TOPIC, max_rounds, 0.9)
        .seats(&Role::DUEL, "openai", "gpt-4.1-mini")
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, verdict);
    feed(&mut app, log.events());
    app
}

#[test]
fn a_opens_on_the_judges_next_question_and_typing_replaces_it() {
    let mut app = judged_open(3, "Does remote work hurt juniors?");
    assert!(press(&mut app, KeyCode::Char('a')).is_empty());
    assert_eq!(editor_text(&app).as_deref(), Some("Does remote work hurt juniors?"));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Round 2's question, instead of the judge's"), "{text}");
    typed(&mut app, QUESTION);
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Send(Command::SetQuestion(QUESTION.into()))]);
    assert!(app.modal.is_none());
    assert!(screen(&mut app, 160, 40).contains("Round 2 asks your question instead of the judge's"));
}

#[test]
fn a_then_an_arrow_keeps_the_question_to_edit_it() {
    let mut app = judged_open(3, "Does remote work hurt juniors?");
    press(&mut app, KeyCode::Char('a'));
    press(&mut app, KeyCode::End);
    typed(&mut app, " And seniors?");
    let sent = press(&mut app, KeyCode::Enter);
    let edited = "Does remote work hurt juniors? And seniors?";
    assert_eq!(sent, vec![Effect::Send(Command::SetQuestion(edited.into()))]);
    // An empty question is refused in the dialog, which stays open.
    press(&mut app, KeyCode::Char('a'));
    press(&mut app, KeyCode::Backspace);
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    assert!(matches!(app.modal, Some(Modal::Editor(_))));
}

#[test]
fn a_question_set_in_the_last_round_says_it_waits_for_more_rounds() {
    let mut app = mid_stream();
    app.staged().debate.max_rounds = 1;
    press(&mut app, KeyCode::Char('a'));
    typed(&mut app, QUESTION);
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Send(Command::SetQuestion(QUESTION.into()))]);
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("Question kept for round 2: this is the last round, so x adds it to ask it"), "{text}");
}

#[test]
fn the_panes_say_whose_question_a_round_asks() {
    let mut app = judged_open(3, "Does remote work hurt juniors?");
    app.on_event(&DebateEvent::QuestionSet { question: QUESTION.into() });
    // Set but not yet asked: the judge's pane names both questions.
    let text = screen(&mut app, 320, 50);
    let next = "Next: What happens to juniors who never meet anyone? (your question; the judge asked: Does remote";
    assert!(text.contains(next), "{text}");
    app.on_event(&DebateEvent::RoundStarted {
        round: 1,
        topic: QUESTION.into(),
        heat: Heat::new(0.6),
        injected: vec![],
    });
    app.on_event(&DebateEvent::TurnStarted {
        round: 1,
        role: Role::Advocate,
        purpose: TurnPurpose::Argue,
        temperature: None,
    });
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("Your question: What happens to juniors"), "{text}");
    assert!(app.debate.rounds[1].asked_by_person);
}

#[test]
fn x_adds_a_round_to_a_running_debate() {
    let mut app = mid_stream();
    let limit = app.debate.max_rounds;
    assert_eq!(press(&mut app, KeyCode::Char('x')), vec![Effect::Send(Command::AddRounds(1))]);
    assert!(screen(&mut app, 160, 40).contains(&format!("One more round: up to {} rounds", limit + 1)));
}

#[test]
fn x_goes_on_with_a_resolved_debate_from_the_panes_or_the_results() {
    let mut app = resolved();
    assert_eq!(press(&mut app, KeyCode::Char('x')), vec![Effect::MoreRounds(1)]);
    assert!(screen(&mut app, 160, 40).contains("One more round: the debate goes on after round 1"));
    // From the results view: they close as the debate goes on.
    let mut app = resolved();
    press(&mut app, KeyCode::Char('o'));
    let results = screen(&mut app, 160, 45);
    assert!(results.contains("x more rounds"), "{results}");
    assert_eq!(press(&mut app, KeyCode::Char('x')), vec![Effect::MoreRounds(1)]);
    assert!(app.modal.is_none());
    // The engine's events lift the ending: the debate is live again.
    feed(&mut app, &[DebateEvent::Reopened, DebateEvent::RoundsAdded { rounds: 1 }]);
    assert!(app.live() && app.debate.finish.is_none());
    assert_eq!(app.debate.max_rounds, 2);
}

#[test]
fn x_on_a_stopped_debate_says_it_ended_and_sends_nothing() {
    let mut app = mid_stream();
    app.on_event(&DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    assert!(press(&mut app, KeyCode::Char('x')).is_empty());
    assert!(screen(&mut app, 160, 40).contains("The debate has ended"));
}

#[test]
fn a_replay_narrates_a_question_and_rounds_added_and_steers_nothing() {
    let mut app = replaying();
    app.on_event(&DebateEvent::QuestionSet { question: QUESTION.into() });
    assert!(screen(&mut app, 200, 40).contains(&format!("Next question set: {QUESTION}")));
    app.on_event(&DebateEvent::RoundsAdded { rounds: 2 });
    assert!(screen(&mut app, 200, 40).contains("2 more rounds added by the person at the keyboard"));
    assert!(press(&mut app, KeyCode::Char('x')).is_empty());
    assert!(press(&mut app, KeyCode::Char('a')).is_empty());
    assert!(app.modal.is_none());
}
