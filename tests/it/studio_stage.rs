//! The studio staged for a room: presenter mode sets the debaters side by
//! side over a strip that always shows the judge's latest verdict, the
//! heat large and the next question, with no key bar; `Z` gives the
//! focused pane the whole screen; a round's verdict card stands over the
//! panes in presenter mode and in a watch (never otherwise) until its time
//! is up or a key takes it down, and that key does nothing else.

use crate::studio_support;

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::{DebateEvent, Heat, Role, TurnPurpose, Verdict};
use heat::tui::App;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) -> Vec<heat::tui::effect::Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

const VERDICT: &str = "The skeptic's point on mentoring held. The advocate's numbers were thin.";
const NEXT: &str = "Who teaches the juniors when nobody sits beside them?";

/// Round 1 argued and judged, not resolved: the skeptic ahead, heat 0.90 → 0.60.
fn judged(app: &mut App) {
    let completed = |role| DebateEvent::TurnCompleted {
        round: 0,
        role,
        text: format!("{role:?} argues."),
        usage: None,
        truncated_at: None,
        possibly_cut: false,
    };
    let verdict = Verdict {
        resolved: false,
        verdict: VERDICT.into(),
        ahead: Some(heat::debate::verdict::sides::Ahead::Skeptic),
        topic: NEXT.into(),
        heat: Heat::new(0.6),
        ..Verdict::default()
    };
    let purpose = TurnPurpose::Judge;
    feed(
        app,
        &[
            completed(Role::Advocate),
            completed(Role::Skeptic),
            DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose, temperature: Some(0.2) },
            completed(Role::Judge),
            DebateEvent::VerdictReached { round: 0, verdict },
        ],
    );
}

fn presenting() -> App {
    mid_stream_with(|options| {
        options.present = true;
        options.card_for = Duration::from_secs(4);
    })
}

#[test]
fn advice_for_the_operator_stays_off_the_rooms_screen() {
    let mut app = presenting();
    let advice = "The judge sits on the same model as the advocate and the skeptic: --seat judge=PROVIDER:MODEL seats it on another";
    app.staged().status.notice = Some(advice.into());
    let shown = screen(&mut app, 100, 30);
    assert!(!shown.contains("The judge sits on the same model"), "not on the projector:\n{shown}");
    app.staged().stage.present = false;
    let plain = screen(&mut app, 100, 30);
    assert!(plain.contains("The judge sits on the same model"), "the operator's studio still says it:\n{plain}");
}

#[test]
fn the_strip_shows_the_rooms_vote_on_the_round() {
    let mut app = presenting();
    judged(&mut app);
    let ballot = |n: u8, side| heat::debate::ballot::Ballot { voter: format!("{n:012x}"), side };
    let ballots = vec![ballot(1, Some(Role::Advocate)), ballot(2, Some(Role::Skeptic)), ballot(3, Some(Role::Skeptic))];
    feed(&mut app, &[DebateEvent::AudienceVoted { round: 0, ballots }]);
    press(&mut app, KeyCode::Char('x'));
    let text = screen(&mut app, 100, 30);
    assert!(text.contains("The room: Advocate 1 · Skeptic 2"), "{text}");
    assert!(text.contains("Next: Who teaches"), "{text}");
}

#[test]
fn after_the_end_the_strip_offers_no_next_question_but_the_outcome() {
    let mut app = presenting();
    judged(&mut app);
    feed(
        &mut app,
        &[DebateEvent::Finished { outcome: heat::debate::Outcome::MaxRounds, synthesis: Some("Even.".into()) }],
    );
    press(&mut app, KeyCode::Char('x'));
    let text = screen(&mut app, 100, 30);
    assert!(!text.contains("Next: Who teaches"), "no round follows:\n{text}");
    assert!(text.contains("Over: "), "{text}");
}

#[test]
fn presenter_mode_shows_the_judges_latest_verdict_under_the_debaters_without_a_key_bar() {
    let mut app = presenting();
    let before = screen(&mut app, 100, 30);
    assert!(before.contains("The judge's verdict shows here once the debaters have argued a round"), "{before}");
    assert!(before.contains("Advocate") && before.contains("Skeptic"), "both debaters side by side:\n{before}");
    assert!(!before.contains("? help"), "no key bar in presenter mode:\n{before}");
    judged(&mut app);
    press(&mut app, KeyCode::Char('x'));
    let after = screen(&mut app, 100, 30);
    assert!(after.contains("Round 1: not resolved · skeptic ahead · heat 0.90 → 0.60"), "{after}");
    assert!(after.contains("Next: Who teaches the juniors"), "{after}");
    assert!(after.contains('▰'), "the heat's gauge:\n{after}");
    insta::assert_snapshot!("present_judged_100x30", after);
    // At 80 columns too; below, one pane at a time as without presenter mode.
    assert!(screen(&mut app, 80, 24).contains("Next: Who teaches"), "{}", screen(&mut app, 80, 24));
}

#[test]
fn a_rounds_verdict_card_stands_in_presenter_mode_and_a_key_takes_it_down_doing_nothing_else() {
    let mut app = presenting();
    judged(&mut app);
    let card = screen(&mut app, 100, 30);
    assert!(card.contains("Round 1 · the verdict") && card.contains("any key goes on"), "{card}");
    assert!(card.contains("The skeptic's point on mentoring held.") && !card.contains("numbers were thin"), "{card}");
    assert!(card.contains('→'), "the heat from → to:\n{card}");
    insta::assert_snapshot!("present_card_100x30", card);
    assert!(app.animating(), "the loop redraws until the card's time is up");
    let effects = press(&mut app, KeyCode::Char(' '));
    assert!(effects.is_empty(), "the key that takes the card down does not pause: {effects:?}");
    assert!(app.stage.card.is_none());
    assert!(!screen(&mut app, 100, 30).contains("any key goes on"));
}

#[test]
fn no_card_goes_up_in_the_plain_studio_and_a_watch_shows_one_unasked() {
    let mut plain = mid_stream_with(|options| options.card_for = Duration::from_secs(4));
    judged(&mut plain);
    assert!(plain.stage.card.is_none() && !screen(&mut plain, 120, 40).contains("any key goes on"));
    // A watch opens showing cards (as `heat watch` opens one).
    let mut watch = mid_stream_with(|options| {
        options.mode = heat::tui::app::Mode::Watch;
        options.card_for = Duration::from_secs(4);
    });
    watch.watch(true, false);
    judged(&mut watch);
    assert!(screen(&mut watch, 120, 40).contains("Round 1 · the verdict"));
    // The end takes the card down; the results show the outcome and synthesis, in a watch too.
    let synthesis = Some("Mentoring decides it.".to_string());
    feed(&mut watch, &[DebateEvent::Finished { outcome: heat::debate::Outcome::Resolved, synthesis }]);
    assert!(watch.stage.card.is_none());
    assert!(matches!(watch.modal, Some(heat::tui::modal::Modal::Results(_))), "the results opened");
    assert!(screen(&mut watch, 120, 40).contains("Mentoring decides it."));
}

#[test]
fn zoom_gives_the_focused_pane_the_whole_screen_and_back() {
    let mut app = mid_stream();
    let wide = screen(&mut app, 160, 40);
    assert!(wide.contains("Skeptic") && wide.contains("Judge"), "{wide}");
    press(&mut app, KeyCode::Char('Z'));
    let zoomed = screen(&mut app, 160, 40);
    assert!(zoomed.contains("Advocate") && !zoomed.contains("╭ Skeptic") && !zoomed.contains("╭ Judge"), "{zoomed}");
    press(&mut app, KeyCode::Char('Z'));
    assert!(screen(&mut app, 160, 40).contains("Skeptic openai"), "back to three panes");
}

#[test]
fn p_toggles_presenter_mode_and_says_so() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('p'));
    assert!(app.stage.present);
    let text = screen(&mut app, 100, 30);
    assert!(text.contains("Presenter mode: the debaters side by side"), "{text}");
    press(&mut app, KeyCode::Char('p'));
    assert!(!app.stage.present && screen(&mut app, 100, 30).contains("? help"));
}

#[test]
fn a_card_on_a_narrow_screen_wraps_its_sentences_inside_it() {
    let mut app = presenting();
    judged(&mut app);
    for width in [60, 70] {
        let text = screen(&mut app, width, 24);
        assert!(text.contains("Round 1 · the verdict"), "{text}");
        // Wrapped to the card's own width, the question ends inside it rather than under its border.
        assert!(text.contains("them?"), "{text}");
    }
}

#[test]
fn under_the_strip_the_focus_stays_on_a_pane_the_room_sees() {
    let mut app = presenting();
    judged(&mut app);
    press(&mut app, KeyCode::Esc);
    let purpose = TurnPurpose::Judge;
    feed(&mut app, &[DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose, temperature: None }]);
    assert_eq!(app.panes.focus, Role::Judge.position(), "focus follows the judge as it speaks");
    let text = screen(&mut app, 100, 30);
    assert_eq!(app.panes.focus, Role::Advocate.position(), "the judge's pane is hidden under the strip");
    assert!(text.contains("┏ Advocate"), "the focused pane is drawn as focused:\n{text}");
}

#[test]
fn the_plain_studio_keeps_the_latest_verdict_in_view_under_the_one_pane_a_narrow_screen_shows() {
    let mut app = mid_stream();
    let before = screen(&mut app, 100, 30);
    assert!(!before.contains("▌ Judge"), "no band before the first verdict:\n{before}");
    judged(&mut app);
    // Round 2 begins: the focus follows the advocate, and the judge's pane is hidden.
    feed(
        &mut app,
        &[DebateEvent::RoundStarted { round: 1, topic: NEXT.into(), heat: Heat::new(0.6), injected: vec![] }],
    );
    for (w, h) in [(100, 30), (80, 24)] {
        let text = screen(&mut app, w, h);
        assert!(text.contains("┏ Advocate"), "the advocate's pane shows at {w}x{h}:\n{text}");
        assert!(
            text.contains("▌ Judge · Round 1: not resolved · skeptic ahead · heat 0.90 → 0.60"),
            "the verdict's head at {w}x{h}:\n{text}"
        );
        assert!(text.contains("▌ The skeptic's point on mentoring held."), "the verdict at {w}x{h}:\n{text}");
    }
    insta::assert_snapshot!("plain_band_100x30", screen(&mut app, 100, 30));
    // A short screen keeps the head alone; the judge's own pane, or panes side by side, need no band.
    let short = screen(&mut app, 100, 16);
    assert!(short.contains("▌ Judge · Round 1") && !short.contains("▌ The skeptic's point"), "{short}");
    assert!(!screen(&mut app, 120, 40).contains("▌ Judge"), "{}", screen(&mut app, 120, 40));
    let seats = app.seats();
    app.staged().panes.cycle_focus(&seats, false);
    let on_judge = screen(&mut app, 100, 30);
    assert!(on_judge.contains("┏ Judge") && !on_judge.contains("▌ Judge"), "{on_judge}");
}
