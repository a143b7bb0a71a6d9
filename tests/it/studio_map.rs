//! The argument map in the studio (`m`): an Oxford debate whose chair
//! named claims over two rounds (one attacked, then defended) and scored
//! each side. The map lists each side's claims with their standing and
//! links, the scorecards and the turning point, stacked at 80×24 and side
//! by side on a wide screen; it follows the debate; a duel says it keeps no
//! map.
#![allow(clippy::unwrap_used)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::verdict::{Ahead, ClaimStatus, NamedClaim, Scorecard, Verdict};
use heat::debate::{DebateEvent, Heat, Role, TurnPurpose};
use heat::tui::app::App;
use heat::tui::modal::Modal;

use crate::studio_support::{self, feed, screen};

fn press(app: &mut App, code: KeyCode) {
    let _ = app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn claim(id: &str, by: Role, claim: &str, status: ClaimStatus, answers: Option<&str>) -> NamedClaim {
    NamedClaim { id: id.into(), by, claim: claim.into(), status, answers: answers.map(String::from), evidence: None }
}

fn card(pro: [u8; 4], con: [u8; 4]) -> Scorecard {
    let side = |s: [u8; 4]| {
        ["logic", "evidence", "rebuttal", "clarity"].iter().zip(s).map(|(k, v)| ((*k).to_string(), v)).collect()
    };
    Scorecard { advocate: side(pro), skeptic: side(con) }
}

/// One judged round: both speeches, then the chair's verdict.
fn round(round: u32, verdict: Verdict) -> Vec<DebateEvent> {
    let mut events = Vec::new();
    if round > 0 {
        let heat = Heat::new(0.7);
        events.push(DebateEvent::RoundStarted {
            round,
            topic: "Who carries the night?".into(),
            heat,
            injected: vec![],
        });
    }
    for role in [Role::Advocate, Role::Skeptic] {
        events.push(DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: None });
        events.push(DebateEvent::TurnCompleted {
            round,
            role,
            text: format!("{role:?}'s speech in round {}.", round + 1),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        });
    }
    events.push(DebateEvent::TurnStarted { round, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None });
    events.push(DebateEvent::TurnCompleted {
        round,
        role: Role::Judge,
        text: "{}".into(),
        usage: None,
        truncated_at: None,
        possibly_cut: false,
    });
    events.push(DebateEvent::VerdictReached { round, verdict });
    events
}

/// Two rounds of an Oxford debate with an argument map.
fn mapped() -> App {
    use ClaimStatus::{Attacked, Defended, Standing};
    use Role::{Advocate, Skeptic};
    let mut app = studio_support::new_app();
    app.begin("20261207-080000-0a0b".into());
    let catalog = heat::format::Catalog::load(None);
    let record = catalog.find("oxford").ok().and_then(heat::format::Format::log_record).unwrap();
    let mut events = studio_support::started_events(3);
    events.insert(1, DebateEvent::Formatted { format: Box::new(record) });
    feed(&mut app, &events);
    let first = Verdict {
        verdict: "The proposition's cost point landed; the opposition's comfort point stands unanswered.".into(),
        topic: "Who carries the night?".into(),
        heat: Heat::new(0.7),
        ahead: Some(Ahead::Advocate),
        claims: vec![
            claim("A1", Advocate, "A sleeper saves a hotel night, so the trip costs less", Standing, None),
            claim("S1", Skeptic, "Most short-haul routes have no night train at all", Standing, None),
        ],
        scorecard: Some(Box::new(card([8, 6, 5, 7], [6, 7, 4, 6]))),
        ..Verdict::default()
    };
    let second = Verdict {
        verdict: "The opposition answered the cost point; the proposition held it with fares.".into(),
        topic: "Does the network reach far enough?".into(),
        heat: Heat::new(0.5),
        ahead: Some(Ahead::Skeptic),
        claims: vec![
            claim("S2", Skeptic, "Sleeper fares cost more than a flight and a hotel", Standing, Some("A1")),
            claim("A1", Advocate, "A sleeper saves a hotel night, so the trip costs less", Defended, None),
            claim("A2", Advocate, "New routes open every year", Attacked, None),
        ],
        scorecard: Some(Box::new(card([6, 6, 7, 7], [8, 8, 6, 7]))),
        ..Verdict::default()
    };
    feed(&mut app, &round(0, first));
    feed(&mut app, &round(1, second));
    press(&mut app, KeyCode::Char('m'));
    app
}

#[test]
fn the_map_lists_each_sides_claims_with_their_standing_scorecards_and_turning_points() {
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&mut mapped(), w, h);
        for needle in ["Argument map · 4 claims", "Proposition · 2 claims", "Opposition · 2 claims", "A1", "defended"]
        {
            assert!(text.contains(needle), "{w}x{h} lacks {needle:?}:\n{text}");
        }
        insta::assert_snapshot!(format!("map_{w}x{h}"), text);
    }
    let wide = screen(&mut mapped(), 120, 40);
    assert!(wide.contains("answered by S2"), "{wide}");
    // Each side's scorecard per round as bars out of 10, then its latest: 6.5 and 6.5; 5.8 then 7.2.
    assert!(wide.contains("  Proposition   ▅▅ 6.5") && wide.contains("  Opposition    ▅▆ 7.2"), "{wide}");
    assert!(wide.contains("Round 2  the Opposition went ahead (S2)"), "{wide}");
    assert!(
        wide.contains("Round 1  Proposition 6.5 (logic 8, evidence 6, rebuttal 5, clarity 7) · Opposition 5.8"),
        "{wide}"
    );
    let row = wide.lines().find(|l| l.contains("Proposition · 2 claims")).unwrap();
    assert!(row.contains("Opposition · 2 claims"), "the sides face each other on a wide screen: {row}");
}

#[test]
fn the_map_in_presenter_mode_and_as_the_debate_goes_on() {
    let mut app = mapped();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('p'));
    press(&mut app, KeyCode::Char('m'));
    let text = screen(&mut app, 100, 30);
    assert!(text.contains("Argument map"), "{text}");
    insta::assert_snapshot!("map_present_100x30", text);
    // A third verdict names a claim: the open map shows it at the next frame.
    let third = Verdict {
        verdict: "The proposition conceded the fares.".into(),
        topic: "t".into(),
        heat: Heat::new(0.3),
        claims: vec![claim("A3", Role::Advocate, "Trains emit less per seat", ClaimStatus::Standing, None)],
        ..Verdict::default()
    };
    feed(&mut app, &round(2, third));
    let text = screen(&mut app, 100, 30);
    assert!(text.contains("Argument map · 5 claims") && text.contains("Trains emit less per seat"), "{text}");
}

#[test]
fn a_duel_keeps_no_map_and_says_so() {
    let mut app = studio_support::resolved();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('m'));
    assert!(!matches!(app.modal, Some(Modal::Map(_))));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("This format keeps no argument map"), "{text}");
    assert!(!text.contains("m map"), "not offered where it does nothing: {text}");
}

#[test]
fn from_the_map_a_claim_goes_to_the_other_side_as_the_next_question_or_a_note() {
    use heat::debate::Command;
    use heat::tui::effect::Effect;
    let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
    let mut app = mapped();
    // The side for's A1 and A2, then the side against's S1 and S2.
    let _ = app.on_key(key(KeyCode::Down));
    let sent = app.on_key(key(KeyCode::Enter));
    let question = "The proposition claims (A2): “New routes open every year”. Can the opposition answer it?";
    assert_eq!(sent, vec![Effect::Send(Command::SetQuestion(question.into()))]);
    assert!(app.modal.is_none(), "the map closes once it steered");
    assert!(screen(&mut app, 120, 40).contains("Round 3 asks your question"));

    press(&mut app, KeyCode::Char('m'));
    for _ in 0..5 {
        press(&mut app, KeyCode::Down);
    }
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("▶S2"), "held to the last claim, marked: {text}");
    let sent = app.on_key(key(KeyCode::Char('n')));
    let note = "Answer the opposition's claim S2, which you have not answered: “Sleeper fares cost more than a flight and a hotel”";
    assert_eq!(sent, vec![Effect::Send(Command::NoteToSeats { text: note.into(), seats: vec![Role::Advocate] })]);
    assert!(screen(&mut app, 120, 40).contains("Note sent to the proposition only"));

    // An ended debate is read, not steered.
    feed(&mut app, &[DebateEvent::Finished { outcome: heat::debate::Outcome::Cancelled, synthesis: None }]);
    app.close();
    press(&mut app, KeyCode::Char('m'));
    assert_eq!(app.on_key(key(KeyCode::Enter)), Vec::<Effect>::new());
    assert!(screen(&mut app, 120, 40).contains("The debate has ended"));
}

#[test]
fn the_round_that_turned_who_is_ahead_is_marked_on_the_heat_sparks() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::style::Modifier;
    let mut app = mapped();
    press(&mut app, KeyCode::Esc);
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    terminal.draw(|frame| heat::tui::render(frame, &mut app, &mut heat::tui::view::Retained::default())).unwrap();
    let buffer = terminal.backend().buffer().clone();
    // The header's second row ends with the two rounds' sparks: round 2 turned (the opposition went ahead).
    let row: Vec<_> = (0..200).map(|x| buffer[(x, 1)].clone()).collect();
    let text: String = row.iter().map(ratatui::buffer::Cell::symbol).collect();
    let cells: Vec<&ratatui::buffer::Cell> =
        row.iter().filter(|c| c.symbol().chars().next().is_some_and(|ch| ('▁'..='█').contains(&ch))).collect();
    assert!(cells.len() >= 2, "{text}");
    let [first, second] = [cells[cells.len() - 2], cells[cells.len() - 1]];
    assert!(!first.modifier.contains(Modifier::UNDERLINED), "round 1 turned nothing");
    assert!(second.modifier.contains(Modifier::UNDERLINED), "round 2 turned who is ahead: {text}");
    assert_eq!(second.fg, app.theme.role(Role::Skeptic), "in the colour of the side that went ahead");
}
