//! Steering one seat from the studio: Tab in the inject dialog chooses whom
//! a note is for, Tab in the heat dialog pins one debater's heat, `T`
//! releases every pin, and the panes and the header say who is pinned.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::{Command, DebateEvent, Heat, Role, TurnPurpose};
use heat::tui::App;
use heat::tui::effect::Effect;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        assert!(press(app, KeyCode::Char(c)).is_empty(), "typing {c:?} sent something");
    }
}

#[test]
fn tab_in_the_inject_dialog_sends_a_note_to_one_seat_only() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('i'));
    assert!(screen(&mut app, 120, 40).contains("Inject a topic into the next round (every seat)"));
    // Tab: the advocate, then the skeptic.
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("A note to the skeptic only") && text.contains("Tab: to whom"), "{text}");
    typed(&mut app, "Name a team that regretted it");
    let sent = press(&mut app, KeyCode::Enter);
    let note = Command::NoteToSeats { text: "Name a team that regretted it".into(), seats: vec![Role::Skeptic] };
    assert_eq!(sent, vec![Effect::Send(note)]);
    assert!(screen(&mut app, 160, 40).contains("Note sent to the skeptic only: their next request carries it"));
}

#[test]
fn shift_tab_reaches_the_debaters_together_and_every_seat_again() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('i'));
    press(&mut app, KeyCode::BackTab);
    assert!(screen(&mut app, 120, 40).contains("A note to the advocate and the skeptic only"));
    press(&mut app, KeyCode::Tab);
    typed(&mut app, "Everyone");
    // Back at every seat: the topic injected for the next round, as before.
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Send(Command::InjectTopic("Everyone".into()))]);
}

#[test]
fn tab_in_the_heat_dialog_pins_one_debater_and_the_panes_say_so() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('t'));
    assert!(screen(&mut app, 120, 40).contains("Pin the heat (every seat)"));
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Pin the heat for the skeptic only"), "{text}");
    assert!(text.contains("Asked of the skeptic only from the next round"), "{text}");
    typed(&mut app, "0.35");
    let sent = press(&mut app, KeyCode::Enter);
    assert_eq!(sent, vec![Effect::Send(Command::PinSeat { role: Role::Skeptic, heat: Heat::new(0.35) })]);
    app.on_event(&DebateEvent::SeatHeatPinned { role: Role::Skeptic, heat: Heat::new(0.35) });
    assert!(screen(&mut app, 160, 40).contains("skeptic 0.35"), "the header names the pinned seat");
    // The next round: the skeptic's pane says the heat is its own.
    app.on_event(&DebateEvent::RoundStarted { round: 1, topic: TOPIC.into(), heat: Heat::new(0.6), injected: vec![] });
    app.on_event(&DebateEvent::TurnStarted {
        round: 1,
        role: Role::Skeptic,
        purpose: TurnPurpose::Argue,
        temperature: Some(0.35),
    });
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("Round 2 · heat 0.35 · pinned for this seat"), "{text}");
    // `T` releases every pin: here the skeptic's.
    assert_eq!(press(&mut app, KeyCode::Char('T')), vec![Effect::Send(Command::ReleaseSeat(Role::Skeptic))]);
}

#[test]
fn shift_c_cancels_the_focused_seat_alone() {
    let mut app = mid_stream();
    // Focus the skeptic's pane, then cancel it alone.
    press(&mut app, KeyCode::Tab);
    assert_eq!(press(&mut app, KeyCode::Char('C')), vec![Effect::Send(Command::CancelSeat(Role::Skeptic))]);
    assert!(screen(&mut app, 160, 40).contains("Cancelling the skeptic's turn; its text so far stands"));
    // The judge has not begun: nothing to cancel there.
    press(&mut app, KeyCode::Tab);
    assert!(press(&mut app, KeyCode::Char('C')).is_empty());
    assert!(screen(&mut app, 160, 40).contains("The judge is not answering: nothing to cancel"));
}

#[test]
fn shift_r_asks_the_focused_seat_again_until_the_judge_takes_the_round_up() {
    let mut app = mid_stream();
    assert_eq!(press(&mut app, KeyCode::Char('R')), vec![Effect::Send(Command::Reroll(Role::Advocate))]);
    assert!(
        screen(&mut app, 160, 40).contains("Asking the advocate again; its answer is kept in the log as discarded")
    );
    // Once the judge has begun, the debaters' answers stand; the judge (in focus as it speaks) can be asked again.
    let mut app = judging();
    assert_eq!(press(&mut app, KeyCode::Char('R')), vec![Effect::Send(Command::Reroll(Role::Judge))]);
    while app.focused_role() != Role::Advocate {
        press(&mut app, KeyCode::Tab);
    }
    assert!(press(&mut app, KeyCode::Char('R')).is_empty());
    assert!(screen(&mut app, 160, 40).contains("The advocate can be asked again until the judge takes the round up"));
    // The discarded turn leaves the pane; the seat's new answer takes its place.
    let mut app = mid_stream();
    app.on_event(&DebateEvent::TurnDiscarded { round: 0, role: Role::Advocate });
    assert!(app.debate.rounds[0].turn(Role::Advocate).is_none() && app.debate.rounds[0].discarded.len() == 1);
    app.on_event(&DebateEvent::TurnStarted {
        round: 0,
        role: Role::Advocate,
        purpose: TurnPurpose::Argue,
        temperature: Some(0.9),
    });
    app.on_event(&DebateEvent::Delta { round: 0, role: Role::Advocate, text: "A second try.".into() });
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("A second try.") && !text.contains("Focus wins"), "{text}");
}

#[test]
fn a_timed_turn_counts_down_in_its_title_and_a_cut_one_says_time() {
    let mut app = mid_stream_with(|options| options.turn_limit = Some(std::time::Duration::from_secs(30)));
    app.on_event(&DebateEvent::RoundStarted { round: 1, topic: TOPIC.into(), heat: Heat::new(0.6), injected: vec![] });
    app.on_event(&DebateEvent::TurnStarted {
        round: 1,
        role: Role::Advocate,
        purpose: TurnPurpose::Argue,
        temperature: Some(0.6),
    });
    app.on_event(&DebateEvent::Delta { round: 1, role: Role::Advocate, text: "Tabs let readers ".into() });
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("streaming · ⏱ 30 s") || text.contains("streaming · ⏱ 29 s"), "{text}");
    app.on_event(&DebateEvent::TurnTimedOut { round: 1, role: Role::Advocate, seconds: 30 });
    app.on_event(&heat::debate::DebateEvent::TurnCompleted {
        round: 1,
        role: Role::Advocate,
        text: "Tabs let readers ".into(),
        usage: None,
        truncated_at: None,
        possibly_cut: false,
    });
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("done · ✂ time") && text.contains("✂ time: cut at its 30 s limit"), "{text}");
}

#[test]
fn a_budget_reached_pauses_and_says_what_was_spent_until_resumed() {
    let mut app = mid_stream();
    app.on_event(&DebateEvent::BudgetReached {
        spent: "12,340 tokens of the 12,000 budgeted (debate.budget_tokens)".into(),
    });
    app.on_event(&DebateEvent::Paused);
    let text = screen(&mut app, 200, 50);
    assert!(
        text.contains(
            "Budget reached: 12,340 tokens of the 12,000 budgeted (debate.budget_tokens). Paused: space goes on past it"
        ),
        "{text}"
    );
    assert!(app.paused() && text.contains("PAUSED"));
    app.on_event(&DebateEvent::Resumed);
    assert!(!screen(&mut app, 200, 50).contains("Budget reached"));
}
