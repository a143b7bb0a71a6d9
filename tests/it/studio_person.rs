//! A person in a seat, in the studio: when the debate asks the person's
//! seat, its pane opens as an editor (the verdict form for the judge's
//! seat), Esc steps out with the draft kept and Enter goes back, and what
//! the person sends is what the seat's model answers; a turn given up
//! closes the editor. The studio's `App` fed events and keys, with the
//! person's model (`provider::person`) read as the engine reads it.

use crate::studio_support;
use crate::support::log::Log;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use futures::StreamExt;
use heat::debate::{Participant, Role, TurnPurpose};
use heat::provider::person::{Desk, Person};
use heat::provider::{ChatModel, ChatRequest, Chunk, ChunkStream};
use heat::tui::App;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// A duel in round 1 with a person in `person`'s seat, whose turn has begun.
fn seated(person: Role) -> App {
    let seats = DUEL.map(|role| {
        let (provider, model) = if role == person { ("human", "you") } else { ("openai", "gpt-4.1-mini") };
        Participant::new(role, provider, model)
    });
    let mut log = Log::new(TOPIC, 3, 0.9).seated(seats.to_vec()).round(0);
    for role in DUEL {
        log = log.starts(0, role, if role.is_judge() { TurnPurpose::Judge } else { TurnPurpose::Argue });
    }
    let mut app = new_app();
    app.begin("20261128-060000-ab12".into());
    feed(&mut app, &log.into_events());
    app
}

fn request() -> ChatRequest {
    ChatRequest { model: "you".into(), max_tokens: 512, ..ChatRequest::default() }
}

/// The person's seat asked, as the engine asks it; the ask handed to the studio.
fn ask(app: &mut App, seat: Role) -> ChunkStream {
    ask_with(app, seat, request())
}

fn ask_with(app: &mut App, seat: Role, request: ChatRequest) -> ChunkStream {
    let desk = Desk::new();
    let mut asks = desk.take_asks().expect("the desk's asks");
    let stream = Person::new(seat.key(), desk).stream(request);
    app.person_asked(asks.try_recv().expect("the seat was asked"));
    stream
}

async fn answer(stream: ChunkStream) -> String {
    let chunks: Vec<Chunk> = stream.map(|c| c.expect("answered")).collect().await;
    chunks.into_iter().find_map(|c| if let Chunk::Text(text) = c { Some(text) } else { None }).expect("text")
}

#[tokio::test]
async fn the_persons_pane_opens_as_an_editor_and_what_they_send_is_the_seats_answer() {
    let mut app = seated(Role::Skeptic);
    let stream = ask(&mut app, Role::Skeptic);
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("Your turn as the skeptic · round 1"), "{text}");
    assert!(text.contains(&format!("Question: {TOPIC}")), "{text}");
    typed(&mut app, "Offices teach juniors by osmosis.");
    // Esc steps out to steer: the draft and the turn wait; the pane says so.
    press(&mut app, KeyCode::Esc);
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("your turn: Enter writes it"), "{text}");
    assert!(text.contains("Your turn as the skeptic waits for you: Enter goes back to it"), "{text}");
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 80, 24).contains("Offices teach juniors by osmosis."), "the draft came back");
    press(&mut app, KeyCode::Enter);
    assert!(app.person.is_none() && app.modal.is_none());
    assert_eq!(answer(stream).await, "Offices teach juniors by osmosis.");
}

#[tokio::test]
async fn a_person_judging_gives_the_verdict_the_next_question_and_the_heat() {
    let mut app = seated(Role::Judge);
    let stream = ask(&mut app, Role::Judge);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Your verdict on round 1, as the judge"), "{text}");
    // Enter with no verdict is refused, and the form stays.
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 120, 40).contains("Write your verdict first"));
    typed(&mut app, "The skeptic's mentoring point stands.");
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Tab);
    typed(&mut app, "Who mentors a remote junior?");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert!(app.person.is_none() && app.modal.is_none());
    let given = answer(stream).await;
    let verdict = heat::debate::verdict::parse(&given, TOPIC, heat::debate::Heat::new(0.9)).expect("a verdict");
    assert!(!verdict.resolved);
    assert_eq!(verdict.verdict, "The skeptic's mentoring point stands.");
    assert_eq!(verdict.topic, "Who mentors a remote junior?", "typing replaced the round's question");
    assert_eq!(verdict.ahead.and_then(heat::debate::standing::Ahead::side), Some(Role::Skeptic));
    assert!((verdict.heat.get() - 0.85).abs() < 1e-6, "one step down from 0.90: {}", verdict.heat.get());
}

#[tokio::test]
async fn asked_for_the_final_synthesis_a_person_judging_gives_it_alone_and_it_ends_the_debate() {
    let mut app = seated(Role::Judge);
    let stream = ask_with(&mut app, Role::Judge, ChatRequest { closing: true, ..request() });
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Your final synthesis, as the judge"), "{text}");
    assert!(text.contains("This is the debate's last word") && !text.contains("Next question"), "{text}");
    typed(&mut app, "Remote work wins on focus; offices keep the edge for juniors.");
    // Nothing to resolve or to ask next: Ctrl-E and Tab change nothing.
    app.on_key(crossterm::event::KeyEvent::new(KeyCode::Char('e'), crossterm::event::KeyModifiers::CONTROL));
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    assert!(app.person.is_none() && app.modal.is_none(), "given with no question");
    let given = answer(stream).await;
    let verdict = heat::debate::verdict::parse(&given, TOPIC, heat::debate::Heat::new(0.9)).expect("a verdict");
    assert!(verdict.resolved, "the last word settles it");
    assert_eq!(verdict.verdict, "Remote work wins on focus; offices keep the edge for juniors.");
    assert_eq!(verdict.ahead.and_then(heat::debate::standing::Ahead::side), Some(Role::Advocate));
}

#[tokio::test]
async fn a_turn_the_debate_gives_up_closes_its_editor() {
    let mut app = seated(Role::Skeptic);
    let stream = ask(&mut app, Role::Skeptic);
    assert!(app.modal.is_some());
    drop(stream);
    app.drop_given_up_turn();
    assert!(app.person.is_none() && app.modal.is_none());
    assert!(screen(&mut app, 160, 40).contains("Your turn was given up"));
}

#[tokio::test]
async fn ctrl_g_hands_the_draft_to_the_persons_editor_and_takes_back_what_it_left() {
    let mut app = seated(Role::Skeptic);
    let stream = ask(&mut app, Role::Skeptic);
    typed(&mut app, "First line.");
    let asked = app.on_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::CONTROL));
    assert_eq!(asked, vec![heat::tui::effect::Effect::EditTurn]);
    let turn = app.person.as_ref().expect("the turn waits while the editor runs");
    assert_eq!(turn.draft_text(), "First line.");
    // What the loop does once the editor returns: the file's text is the draft, the pane's editor again.
    app.turn_edited("First line.\n\nA second paragraph.\n\u{1b}[31m");
    press(&mut app, KeyCode::Enter);
    assert_eq!(answer(stream).await, "First line.\n\nA second paragraph.", "escapes cleaned, trailing lines trimmed");
}

#[test]
fn a_watch_of_a_persons_seat_waits_for_the_person_rather_than_saying_your_turn() {
    let mut app = seated(Role::Skeptic);
    let here = screen(&mut app, 160, 40);
    assert!(here.contains("your turn"), "{here}");
    app.watch(true, false);
    let watched = screen(&mut app, 160, 40);
    assert!(watched.contains("waiting for the person"), "{watched}");
    assert!(!watched.contains("your turn"), "a watcher is not the one at the keyboard: {watched}");
}

#[tokio::test]
async fn esc_on_the_judges_form_keeps_what_was_given_and_enter_brings_it_back() {
    let mut app = seated(Role::Judge);
    let stream = ask(&mut app, Role::Judge);
    typed(&mut app, "Mentoring decides it.");
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Esc);
    assert!(app.modal.is_none() && app.person.is_some(), "the turn waits");
    assert!(screen(&mut app, 120, 40).contains("Your verdict waits for you: Enter goes back to it"));
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 120, 40).contains("Mentoring decides it."), "the verdict came back as typed");
    press(&mut app, KeyCode::Enter);
    let verdict = heat::debate::verdict::parse(&answer(stream).await, TOPIC, heat::debate::Heat::new(0.9)).unwrap();
    assert_eq!(verdict.verdict, "Mentoring decides it.");
    assert_eq!(verdict.ahead.and_then(heat::debate::standing::Ahead::side), Some(Role::Skeptic), "who is ahead too");
}
