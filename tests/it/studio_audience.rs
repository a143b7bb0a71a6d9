//! The room's vote in the studio: the judge's pane says each round's count
//! beside the person's verdict, the results say the votes over the debate,
//! and `A` asks the loop to serve the audience page wherever a stored
//! debate is shown.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::audience::Ballot;
use heat::debate::{DebateEvent, Outcome, Role};
use heat::tui::effect::Effect;
use studio_support::*;

fn ballots(sides: &[Option<Role>]) -> Vec<Ballot> {
    sides.iter().enumerate().map(|(n, side)| Ballot { voter: format!("{n:012x}"), side: *side }).collect()
}

#[test]
fn the_judges_pane_and_the_results_show_the_rooms_count() {
    let mut app = resolved();
    let (advocate, skeptic) = (Some(Role::Advocate), Some(Role::Skeptic));
    feed(&mut app, &[DebateEvent::AudienceVoted { round: 0, ballots: ballots(&[advocate, advocate, skeptic, None]) }]);
    app.close();
    let screen_ = screen(&mut app, 160, 45);
    assert!(screen_.contains("The room, round 1: Advocate 2 · Skeptic 1 · even 1"), "{screen_}");
    feed(&mut app, &[DebateEvent::Finished { outcome: Outcome::Resolved, synthesis: None }]);
    if app.modal.is_none() {
        app.on_key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE));
    }
    let results = screen(&mut app, 160, 45);
    assert!(results.contains("the room's votes: Advocate 2 · Skeptic 1 · even 1 over 1 round"), "{results}");
}

#[test]
fn a_asks_for_the_audience_page_of_a_stored_debate_only() {
    let mut app = mid_stream();
    let effects = app.on_key(KeyEvent::new(KeyCode::Char('A'), KeyModifiers::SHIFT));
    assert!(effects.iter().any(|e| matches!(e, Effect::Audience)), "{effects:?}");
    app.staged().session = None;
    let effects = app.on_key(KeyEvent::new(KeyCode::Char('A'), KeyModifiers::SHIFT));
    assert!(!effects.iter().any(|e| matches!(e, Effect::Audience)), "no stored debate to serve: {effects:?}");
}
