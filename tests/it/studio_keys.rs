//! Each key in the studio produces the right command for the engine (or
//! none, with a sentence saying why).

use crate::studio_support;
use crate::support::log::completed;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::Heat;
use heat::debate::{Command, DebateEvent, Role};
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

fn send(command: Command) -> Vec<Effect> {
    vec![Effect::Send(command)]
}

#[test]
fn space_pauses_and_resumes_at_once() {
    let mut app = mid_stream();
    assert_eq!(press(&mut app, KeyCode::Char(' ')), send(Command::Pause));
    assert!(app.paused(), "the view pauses before the engine confirms");
    assert!(screen(&mut app, 120, 40).contains("PAUSED"));
    app.on_event(&DebateEvent::Paused);
    assert_eq!(press(&mut app, KeyCode::Char(' ')), send(Command::Resume));
    assert!(!app.paused());
}

#[test]
fn i_injects_the_typed_topic() {
    let mut app = mid_stream();
    assert!(press(&mut app, KeyCode::Char('i')).is_empty());
    typed(&mut app, "What about juniors?");
    // Alt-Enter breaks the line; Enter sends both lines.
    assert!(app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT)).is_empty());
    typed(&mut app, "And trust?");
    assert_eq!(press(&mut app, KeyCode::Enter), send(Command::InjectTopic("What about juniors?\nAnd trust?".into())));
    assert!(app.modal.is_none());
}

#[test]
fn an_injection_in_the_last_round_says_the_synthesis_considers_it() {
    let mut app = mid_stream();
    app.staged().debate.max_rounds = 1;
    press(&mut app, KeyCode::Char('i'));
    typed(&mut app, "Juniors?");
    assert_eq!(press(&mut app, KeyCode::Enter), send(Command::InjectTopic("Juniors?".into())));
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("this is the last round, so the judge's final synthesis considers it"), "{text}");
}

#[test]
fn an_empty_injection_says_what_is_missing_and_stays_open() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('i'));
    typed(&mut app, "   ");
    assert!(press(&mut app, KeyCode::Enter).is_empty(), "nothing is sent");
    assert!(app.modal.is_some(), "the dialog stays open");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Type the topic to inject first, or Esc to cancel"), "{text}");
}

#[test]
fn esc_cancels_an_injection_and_ctrl_s_sends() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('i'));
    typed(&mut app, "never mind");
    assert!(press(&mut app, KeyCode::Esc).is_empty());
    assert!(app.modal.is_none());
    press(&mut app, KeyCode::Char('i'));
    typed(&mut app, "x");
    assert_eq!(
        app.on_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
        send(Command::InjectTopic("x".into()))
    );
}

#[test]
fn t_pins_by_arrows_or_typed_value_and_capital_t_releases() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('t'));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(press(&mut app, KeyCode::Enter), send(Command::PinTemperature(Heat::new(0.8))));

    press(&mut app, KeyCode::Char('t'));
    typed(&mut app, "0.45");
    assert_eq!(press(&mut app, KeyCode::Enter), send(Command::PinTemperature(Heat::new(0.45))));

    // Out of range: the dialog stays open and says why.
    press(&mut app, KeyCode::Char('t'));
    typed(&mut app, "2");
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    assert!(screen(&mut app, 120, 40).contains("2 is out of range: type 0.30 to 1.00"));
    press(&mut app, KeyCode::Esc);

    // `-1` is minus one, not a step down and then 1 (which pinned 1.00).
    press(&mut app, KeyCode::Char('t'));
    typed(&mut app, "-1");
    assert!(press(&mut app, KeyCode::Enter).is_empty(), "nothing is pinned");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("-1 is out of range: type 0.30 to 1.00"), "{text}");
    press(&mut app, KeyCode::Esc);

    // Text is refused as it is typed, and the gauge shows that nothing would be pinned.
    press(&mut app, KeyCode::Char('t'));
    typed(&mut app, "abc");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("\"abc\" is not a number: type 0.30 to 1.00"), "said before Enter:\n{text}");
    assert!(!text.contains('█'), "an empty gauge:\n{text}");
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    press(&mut app, KeyCode::Esc);

    // A typed value moves the gauge with it.
    press(&mut app, KeyCode::Char('t'));
    typed(&mut app, "1");
    let full = screen(&mut app, 120, 40).matches('█').count();
    press(&mut app, KeyCode::Backspace);
    typed(&mut app, "0.3");
    assert!(screen(&mut app, 120, 40).matches('█').count() < full, "the gauge follows the typed value");
    press(&mut app, KeyCode::Esc);

    // Arrows stop at the range's ends.
    press(&mut app, KeyCode::Char('t'));
    for _ in 0..30 {
        press(&mut app, KeyCode::Up);
    }
    assert_eq!(press(&mut app, KeyCode::Enter), send(Command::PinTemperature(Heat::new(1.0))));

    assert!(press(&mut app, KeyCode::Char('T')).is_empty(), "nothing pinned yet in the state");
    app.on_event(&DebateEvent::TemperaturePinned { heat: Heat::new(1.0) });
    assert_eq!(press(&mut app, KeyCode::Char('T')), send(Command::ReleaseTemperature));
}

#[test]
fn r_forces_only_after_confirming() {
    let mut app = mid_stream();
    assert!(press(&mut app, KeyCode::Char('r')).is_empty());
    let asked = screen(&mut app, 120, 40);
    assert!(asked.contains("Force a resolution?"), "{asked}");
    // It says what happens: the round under way is not cut off (it used to say "now").
    assert!(asked.contains("The turns under way finish; then the judge writes its"), "{asked}");
    assert!(!asked.contains("synthesis now"), "{asked}");
    assert!(press(&mut app, KeyCode::Char('n')).is_empty());
    assert!(app.modal.is_none());
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(press(&mut app, KeyCode::Char('y')), send(Command::ForceResolution));
}

#[test]
fn c_cancels_streaming_turns() {
    let mut app = mid_stream();
    assert_eq!(press(&mut app, KeyCode::Char('c')), send(Command::CancelTurn));
    let mut ended = resolved();
    assert!(press(&mut ended, KeyCode::Char('c')).is_empty());
}

#[test]
fn q_confirms_while_streaming_and_not_after() {
    let mut app = mid_stream();
    assert!(press(&mut app, KeyCode::Char('q')).is_empty());
    assert!(screen(&mut app, 120, 40).contains("Quit while the debate streams?"));
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Quit]);
    let mut ended = resolved();
    assert_eq!(press(&mut ended, KeyCode::Char('q')), vec![Effect::Quit]);
}

/// Paused, a running debate is asked about whether or not its turns have
/// finished in the background: the person cannot see which.
#[test]
fn q_asks_about_a_running_debate_whether_or_not_its_turns_have_finished() {
    let mut app = mid_stream();
    feed(&mut app, &[DebateEvent::Paused]);
    assert!(press(&mut app, KeyCode::Char('q')).is_empty(), "turns open: asked");
    assert!(screen(&mut app, 120, 40).contains("Quit while the debate is paused?"));
    press(&mut app, KeyCode::Esc);
    feed(&mut app, &[completed(0, Role::Advocate, "Focus wins."), completed(0, Role::Skeptic, "Hallways win.")]);
    assert!(!app.streaming(), "the turns finished while paused");
    assert!(press(&mut app, KeyCode::Char('q')).is_empty(), "turns done: asked all the same");
    assert!(screen(&mut app, 120, 40).contains("Quit while the debate is paused?"));
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Quit]);
}

#[test]
fn ctrl_c_quits_and_a_second_quits_hard() {
    let mut app = mid_stream();
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(app.on_key(ctrl_c), vec![Effect::Quit]);
    assert_eq!(app.on_key(ctrl_c), vec![Effect::HardQuit]);
}

#[test]
fn n_starts_a_new_debate_and_e_exports() {
    let mut app = resolved();
    press(&mut app, KeyCode::Char('n'));
    typed(&mut app, "Tabs beat spaces");
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Start("Tabs beat spaces".into())]);
    assert_eq!(press(&mut app, KeyCode::Char('e')), vec![Effect::Export]);
}

#[test]
fn n_during_a_live_debate_asks_before_stopping_it() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('n'));
    typed(&mut app, "Tabs beat spaces");
    assert!(press(&mut app, KeyCode::Enter).is_empty(), "nothing stops before the answer");
    assert!(screen(&mut app, 120, 40).contains("Stop the running debate?"));
    assert!(press(&mut app, KeyCode::Esc).is_empty(), "no keeps it running");
    assert!(app.modal.is_none());
    press(&mut app, KeyCode::Char('n'));
    typed(&mut app, "Tabs beat spaces");
    press(&mut app, KeyCode::Enter);
    assert_eq!(press(&mut app, KeyCode::Char('y')), vec![Effect::Start("Tabs beat spaces".into())]);
}

#[test]
fn opening_another_debate_from_the_browser_asks_first_too() {
    let mut app = mid_stream();
    app.open(heat::tui::modal::Modal::Sessions(heat::tui::browser::Browser::new(vec![
        heat::store::index::IndexEntry {
            id: "20261120-090000-aaaa".into(),
            topic: "Older".into(),
            created_ms: 0,
            updated_ms: 0,
            rounds: 1,
            outcome: None,
            models: vec![],
            rematch_of: None,
            branch_of: None,
            branch_round: None,
            format: None,
            ..Default::default()
        },
    ])));
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    assert!(screen(&mut app, 120, 40).contains("Stop the running debate?"));
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Open("20261120-090000-aaaa".into())]);
}

#[test]
fn steering_an_ended_debate_says_so() {
    let mut app = resolved();
    for key in [' ', 'i', 't', 'T', 'r', 'c'] {
        assert!(press(&mut app, KeyCode::Char(key)).is_empty(), "{key:?}");
        assert!(app.modal.is_none(), "{key:?} opened a dialog on an ended debate");
    }
    assert!(screen(&mut app, 120, 40).contains("The debate has ended"));
}

#[test]
fn start_screen_needs_a_topic() {
    let mut app = start_screen();
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    assert!(screen(&mut app, 80, 24).contains("Type a proposition first"));
    typed(&mut app, "Cats beat dogs");
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Start("Cats beat dogs".into())]);
    assert_eq!(press(&mut app, KeyCode::Esc), vec![Effect::Quit]);
}

#[test]
fn focus_and_scroll_keys_move_the_view() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.panes.focus, 1);
    press(&mut app, KeyCode::BackTab);
    press(&mut app, KeyCode::BackTab);
    assert_eq!(app.panes.focus, 2);
    app.focus(heat::debate::Role::Advocate);
    screen(&mut app, 80, 12);
    press(&mut app, KeyCode::Up);
    assert!(!app.panes[0].scroll.follow, "scrolling up stops following");
    press(&mut app, KeyCode::Char('G'));
    assert!(app.panes[0].scroll.follow, "G follows again");
}

#[test]
fn configured_keys_replace_defaults() {
    let keys = heat::tui::keymap::KeyMap::with_overrides(|name| (name == "pause").then(|| "p".into())).expect("keys");
    let mut app = mid_stream_with(|options| options.keymap = keys);
    assert!(press(&mut app, KeyCode::Char(' ')).is_empty());
    assert_eq!(press(&mut app, KeyCode::Char('p')), send(Command::Pause));
}

#[test]
fn ctrl_o_installs_the_offline_model_only_while_it_is_offered() {
    use heat::model_store::Progress;
    use heat::tui::install::InstallState;
    let ctrl_o = KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL);
    let mut app = start_screen();
    assert!(app.on_key(ctrl_o).is_empty(), "nothing to install: Ctrl-O does nothing");
    app.staged().start.install = Some(InstallState::Offered);
    assert_eq!(app.on_key(ctrl_o), vec![Effect::InstallModel]);
    app.staged().start.install = Some(InstallState::Running(Progress::new("downloading", 1, Some(2))));
    assert!(app.on_key(ctrl_o).is_empty(), "one install at a time");
    app.staged().start.install = Some(InstallState::Failed("the package index is unreachable".into()));
    assert_eq!(app.on_key(ctrl_o), vec![Effect::InstallModel], "a failed install can be tried again");
    // Enter with a proposition still asks to start; the loop installs first.
    typed(&mut app, "Trains beat planes");
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Start("Trains beat planes".into())]);
}

#[test]
fn what_a_key_did_leaves_the_status_line_once_it_is_done() {
    use heat::debate::Role;
    let shows = |app: &mut App, text: &str| screen(app, 120, 40).contains(text);
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('c'));
    assert!(shows(&mut app, "Cancelling the streaming turns"));
    app.on_event(&DebateEvent::TurnCancelled { round: 0, role: Role::Advocate });
    assert!(shows(&mut app, "Cancelling the streaming turns"), "the skeptic still streams");
    app.on_event(&DebateEvent::TurnCancelled { round: 0, role: Role::Skeptic });
    assert!(!shows(&mut app, "Cancelling"), "both turns are cancelled: the cancel is done");

    // An injection is acknowledged until the round that carries it starts.
    press(&mut app, KeyCode::Char('i'));
    typed(&mut app, "Juniors?");
    press(&mut app, KeyCode::Enter);
    app.on_event(&DebateEvent::TopicInjected { text: "Juniors?".into() });
    assert!(shows(&mut app, "Topic injected"));
    let round = DebateEvent::RoundStarted {
        round: 1,
        topic: "T".into(),
        heat: Heat::new(0.8),
        injected: vec!["Juniors?".into()],
    };
    app.on_event(&round);
    assert!(!shows(&mut app, "Topic injected"), "the next round carries it");

    // The pause note stands while the debate is paused, and goes when it resumes.
    press(&mut app, KeyCode::Char(' '));
    app.on_event(&DebateEvent::Paused);
    app.on_event(&DebateEvent::Delta { round: 1, role: Role::Advocate, text: "late".into() });
    assert!(shows(&mut app, "Paused: space resumes"));
    app.on_event(&DebateEvent::Resumed);
    assert!(!shows(&mut app, "Paused: space resumes"));

    // An error is not an acknowledgement: it stands until something newer is said.
    app.on_event(&DebateEvent::TurnFailed { round: 1, role: Role::Skeptic, error: "refused (401)".into() });
    app.on_event(&DebateEvent::RoundStarted { round: 2, topic: "T".into(), heat: Heat::new(0.8), injected: vec![] });
    assert!(shows(&mut app, "Skeptic failed: refused (401)"));
}

#[test]
fn a_replay_refuses_steering_and_new_debates_but_exports_and_opens_others() {
    let mut app = replaying();
    for key in ['i', 't', 'T', 'r', 'c'] {
        assert!(press(&mut app, KeyCode::Char(key)).is_empty(), "{key:?}");
        assert!(app.modal.is_none(), "{key:?} opened a dialog in a replay");
    }
    assert!(screen(&mut app, 120, 40).contains("This is a replay: steering works in a live debate"));
    assert!(press(&mut app, KeyCode::Char('n')).is_empty());
    assert!(app.modal.is_none(), "n opened an editor for a debate this studio cannot start");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("This studio plays stored debates back; `heat` starts a new one"), "{text}");
    assert!(!text.contains("steering"), "n is not steering:\n{text}");
    assert_eq!(press(&mut app, KeyCode::Char('e')), vec![Effect::Export]);
    assert_eq!(press(&mut app, KeyCode::Char('s')), vec![Effect::Sessions]);
    assert_eq!(press(&mut app, KeyCode::Char(' ')), send(Command::Pause));
    assert!(screen(&mut app, 120, 40).contains("REPLAY PAUSED"));
    // The replayed debate's ending offers what a replay studio can do.
    app.on_event(&DebateEvent::Finished { outcome: heat::debate::Outcome::Forced, synthesis: None });
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Debate over: resolution forced. o results · s sessions · e export · q quit"), "{text}");
}

#[test]
fn a_replay_that_has_shown_everything_says_it_ended() {
    let mut app = replaying();
    app.played_out();
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("REPLAY · ended"), "{text}");
    assert!(!text.contains("pause replay") && text.contains("e export"), "{text}");
    assert!(press(&mut app, KeyCode::Char(' ')).is_empty(), "nothing left to pause");
    assert!(screen(&mut app, 80, 24).contains("The replay has ended; s opens another debate, q quits"));
}

#[test]
fn help_in_a_replay_leaves_out_what_only_a_live_debate_does() {
    let mut app = replaying();
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("pause or resume the replay") && text.contains("export the debate as Markdown"), "{text}");
    for live_only in ["inject a topic", "pin the heat", "force a resolution", "cancel the streaming", "start a new"] {
        assert!(!text.contains(live_only), "{live_only:?} listed in a replay:\n{text}");
    }
    assert!(text.contains("Steering (i, t, T, r, c, a, C, R, u, M, x) works in a live debate"), "{text}");
}

#[test]
fn the_start_screen_tab_moves_to_the_recent_debates_and_enter_opens_one() {
    let mut app = start_screen();
    assert!(press(&mut app, KeyCode::Tab).is_empty());
    assert_eq!(app.start.recent_chosen, Some(0), "Tab moves to the recent debates");
    assert!(screen(&mut app, 80, 24).contains("Enter open"), "the footer says how to open one");
    press(&mut app, KeyCode::Down);
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Open("20261119-090000-cd34".into())]);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.start.recent_chosen, None, "↑ past the first goes back to the proposition");
    typed(&mut app, "Cats");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::BackTab);
    typed(&mut app, " win");
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Start("Cats win".into())], "Tab typed nothing");
    // ↓ on the proposition's last line goes on to the list; typing there goes back.
    press(&mut app, KeyCode::Down);
    assert_eq!(app.start.recent_chosen, Some(0));
    typed(&mut app, "!");
    assert_eq!(app.start.recent_chosen, None);
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Start("Cats win!".into())]);
    assert!(screen(&mut app, 80, 24).contains("Tab recent debates"), "the footer offers the list");
}

#[test]
fn help_opens_on_the_start_screen() {
    let mut app = start_screen();
    press(&mut app, KeyCode::F(1));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("On the start screen") && text.contains("open a recent debate"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.modal.is_none());
    press(&mut app, KeyCode::Char('?'));
    assert!(app.modal.is_some(), "? opens help while nothing is typed");
    press(&mut app, KeyCode::Esc);
    // Once a proposition is begun, ? is part of it; F1 still opens help.
    typed(&mut app, "Is remote work better?");
    assert!(app.modal.is_none());
    press(&mut app, KeyCode::F(1));
    assert!(app.modal.is_some());
    press(&mut app, KeyCode::Esc);
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Start("Is remote work better?".into())]);
}

#[test]
fn the_browser_refuses_to_delete_the_debate_on_screen_before_asking() {
    use crossterm::event::KeyModifiers;
    let mut app = mid_stream();
    let entry = |id: &str| heat::store::index::IndexEntry {
        id: id.into(),
        topic: TOPIC.into(),
        created_ms: 0,
        updated_ms: 0,
        rounds: 1,
        outcome: None,
        models: vec![],
        rematch_of: None,
        branch_of: None,
        branch_round: None,
        format: None,
        ..Default::default()
    };
    let shown = app.session.clone();
    let entries = vec![entry(shown.as_deref().unwrap_or_default()), entry("20261120-090000-aaaa")];
    app.open(heat::tui::modal::Modal::Sessions(heat::tui::browser::Browser::new(entries).showing(shown)));
    assert!(app.on_key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)).is_empty());
    let text = screen(&mut app, 120, 40);
    assert!(!text.contains("Delete "), "no question for a debate that cannot be deleted:\n{text}");
    assert!(text.contains("That debate is on screen; open another before deleting it"), "{text}");
    assert!(press(&mut app, KeyCode::Char('y')).is_empty(), "a yes deletes nothing");
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Down);
    app.on_key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL));
    assert!(screen(&mut app, 120, 40).contains("Delete 20261120-090000-aaaa?"), "another debate is asked about");
}

#[test]
fn v_gives_the_persons_verdict_and_can_end_the_debate() {
    let mut app = mid_stream();
    assert!(press(&mut app, KeyCode::Char('v')).is_empty());
    assert!(matches!(app.modal, Some(heat::tui::modal::Modal::Verdict(_))), "the form opens");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("Your verdict") && text.contains("‹ even ›") && text.contains("50%"), "{text}");
    assert!(text.contains("end the debate here"), "a live debate offers to end it:\n{text}");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    typed(&mut app, "focus wins");
    assert!(app.on_key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::CONTROL)).is_empty());
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("‹ advocate ›") && text.contains("60%") && text.contains("[x] end the debate"), "{text}");
    assert_eq!(
        press(&mut app, KeyCode::Enter),
        send(Command::HumanVerdict {
            ahead: Some(heat::debate::Role::Advocate),
            confidence: 60,
            note: "focus wins".into(),
            ends: true
        })
    );
    assert!(app.modal.is_none());

    // After the end the studio records it itself, and the judge's pane shows it.
    let mut app = resolved();
    press(&mut app, KeyCode::Char('v'));
    let text = screen(&mut app, 80, 24);
    assert!(!text.contains("end the debate here"), "an ended debate is not ended again:\n{text}");
    press(&mut app, KeyCode::Right);
    let effects = press(&mut app, KeyCode::Enter);
    let event = DebateEvent::HumanVerdict {
        round: 0,
        ahead: Some(heat::debate::Role::Skeptic),
        confidence: 50,
        note: String::new(),
        ends: false,
    };
    assert_eq!(effects, vec![Effect::Record(event.clone())]);
    app.on_event(&event);
    app.focus(heat::debate::Role::Judge);
    assert!(screen(&mut app, 120, 40).contains("You, round 1: skeptic ahead, 50% sure"));
}

#[test]
fn b_branches_after_a_finished_round_with_the_changes_chosen() {
    use heat::debate::{Role, TurnPurpose, Verdict};
    use heat::tui::effect::BranchRequest;
    let mut app = mid_stream();
    assert!(press(&mut app, KeyCode::Char('b')).is_empty());
    assert!(app.modal.is_none(), "no round has finished");
    assert!(screen(&mut app, 120, 40).contains("No round has finished and left the debate open"));

    let verdict = Verdict {
        resolved: false,
        verdict: "Open.".into(),
        topic: "Juniors?".into(),
        heat: Heat::new(0.6),
        ahead: None,
        conceded: None,
        scores: None,
        ..Verdict::default()
    };
    let done = |role, text: &str| completed(0, role, text);
    feed(
        &mut app,
        &[
            done(Role::Advocate, ADVOCATE),
            done(Role::Skeptic, SKEPTIC),
            DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
            done(Role::Judge, "{}"),
            DebateEvent::VerdictReached { round: 0, verdict },
            DebateEvent::RoundStarted { round: 1, topic: "Juniors?".into(), heat: Heat::new(0.6), injected: vec![] },
        ],
    );
    assert!(press(&mut app, KeyCode::Char('b')).is_empty());
    assert!(matches!(app.modal, Some(heat::tui::modal::Modal::Branch(_))), "the form opens");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("Branch 20261123-120000-ab12") && text.contains("round 1"), "{text}");
    assert!(text.contains("0.60, as the judge set it") && text.contains("as they were"), "{text}");
    assert!(text.contains("The running debate stops and is saved"), "{text}");
    assert!(app.on_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)).is_empty());
    press(&mut app, KeyCode::Up);
    typed(&mut app, "What of juniors?");
    assert!(app.on_key(KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL)).is_empty());
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("swapped: each model argues the other side") && text.contains("0.65, set here"), "{text}");
    assert!(text.contains("The next round's question"), "{text}");
    assert!(text.contains("shares round 1") && text.contains("Enter branch · Esc"), "nothing is cut at 80×24:\n{text}");
    let request = BranchRequest {
        from: "20261123-120000-ab12".into(),
        round: 1,
        swap_sides: true,
        heat: Some(Heat::new(0.65)),
        question: Some("What of juniors?".into()),
        note: None,
    };
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Branch(request)]);
    assert!(app.modal.is_none());

    // The demo is not stored: nothing to branch from.
    let mut demo = replaying();
    demo.staged().session = Some("demo".into());
    assert!(press(&mut demo, KeyCode::Char('b')).is_empty());
    assert!(screen(&mut demo, 120, 40).contains("The demo is not stored"));
}

#[test]
fn the_branch_form_says_the_parents_pin_and_notes_the_branch_keeps() {
    use heat::debate::{Role, TurnPurpose, Verdict};
    let mut app = mid_stream();
    let verdict = Verdict {
        resolved: false,
        verdict: "Open.".into(),
        topic: "Juniors?".into(),
        heat: Heat::new(0.5),
        ..Verdict::default()
    };
    let done = |role, text: &str| completed(0, role, text);
    feed(
        &mut app,
        &[
            DebateEvent::TemperaturePinned { heat: Heat::new(0.8) },
            DebateEvent::TopicInjected { text: "Mind the juniors".into() },
            done(Role::Advocate, ADVOCATE),
            done(Role::Skeptic, SKEPTIC),
            DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
            done(Role::Judge, "{}"),
            DebateEvent::VerdictReached { round: 0, verdict },
        ],
    );
    press(&mut app, KeyCode::Char('b'));
    let text = screen(&mut app, 80, 24);
    // The heat the branch runs at, not the judge's 0.50 it would not use.
    assert!(text.contains("0.80, pinned in the parent (the judge set 0.50)"), "{text}");
    assert!(text.contains("Carries   the parent's note \u{201c}Mind the juniors\u{201d}"), "{text}");
    assert!(text.contains("Enter branch · Esc"), "nothing is cut at 80×24:\n{text}");
    // ↑ steps from the heat in use, and says the pin goes.
    press(&mut app, KeyCode::Up);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("0.85, set here (the parent's pin released)"), "{text}");
}
