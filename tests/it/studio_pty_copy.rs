//! `y` in the real binary: the terminal receives OSC 52 with the focused
//! turn's text, and the status line says what was copied.
#![allow(clippy::unwrap_used)]

use crate::studio_support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use studio_support::pty::spawn_heat;

#[tokio::test(flavor = "multi_thread")]
async fn y_puts_the_focused_turn_on_the_terminals_clipboard() {
    let data = tempfile::tempdir().unwrap();
    let mut studio = spawn_heat(data.path(), data.path(), None, &["replay", "--demo", "--instant"], &[]);
    studio.wait_for("the end of the replay", |s| s.contains("DEMO · ended")).await;
    // The advocate's pane, following its stream: its last argument.
    studio.keys("h");
    studio.keys("h");
    studio.keys("y");
    studio.wait_for("the copy's sentence", |s| s.contains("Copied the advocate's round 4 argument")).await;
    let clipboard = studio.screen.lock().unwrap().callbacks().clipboard.clone();
    assert_eq!(clipboard.len(), 1, "one OSC 52 sequence: {clipboard:?}");
    let text = String::from_utf8(STANDARD.decode(&clipboard[0]).unwrap()).unwrap();
    let demo = heat::store::log::parse(include_bytes!("../../assets/demo-session.jsonl")).unwrap();
    let state = heat::debate::DebateState::from_events(demo.records.iter().map(|r| &r.event));
    let argument = state.rounds[3].argument(heat::debate::Role::Advocate).unwrap();
    assert_eq!(text, heat::sanitize::clean(argument));
    let said = format!("{} characters", text.chars().count());
    assert!(studio.text().contains(&said), "the sentence counts the characters:\n{}", studio.text());
    studio.keys("q");
    studio.wait_exit().await;
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn shift_y_puts_the_whole_debate_on_the_clipboard_as_its_markdown_export() {
    let data = tempfile::tempdir().unwrap();
    let mut studio = spawn_heat(data.path(), data.path(), None, &["replay", "--demo", "--instant"], &[]);
    studio.wait_for("the end of the replay", |s| s.contains("DEMO · ended")).await;
    studio.keys("Y");
    studio.wait_for("the copy's sentence", |s| s.contains("Copied the debate as Markdown, 4 rounds")).await;
    let clipboard = studio.screen.lock().unwrap().callbacks().clipboard.clone();
    assert_eq!(clipboard.len(), 1, "one OSC 52 sequence: {clipboard:?}");
    let text = String::from_utf8(STANDARD.decode(&clipboard[0]).unwrap()).unwrap();
    // What `e` and `heat export` write, not a renderer of its own.
    let demo = heat::store::log::parse(include_bytes!("../../assets/demo-session.jsonl")).unwrap();
    let export = heat::report::export::render(heat::report::export::ExportKind::Md, &demo.header, &demo.records);
    assert_eq!(text, export);
    let said = heat::words::count(text.chars().count(), "character");
    assert!(studio.text().contains(&said), "the sentence counts the characters ({said}):\n{}", studio.text());
    studio.keys("q");
    studio.wait_exit().await;
    studio.wait_restored().await;
}
