//! Replay controls in the real binary: `]` skips round by round through the
//! playback and `+` speeds it up, the header following.
#![allow(clippy::unwrap_used)]

use crate::studio_support;

use heat::debate::Role;
use studio_support::pty::spawn_heat;

#[tokio::test(flavor = "multi_thread")]
async fn bracket_skips_rounds_and_plus_speeds_the_replay_up() {
    let data = tempfile::tempdir().unwrap();
    // Slow enough that the demo would take minutes without the keys.
    let mut studio = spawn_heat(data.path(), data.path(), None, &["replay", "--demo", "--speed", "0.5"], &[]);
    studio.wait_for("round 1", |s| s.contains("▶ SCRIPTED DEMO 0.5× · round 1 · 0:")).await;
    studio.keys("]");
    studio.wait_for("round 2", |s| s.contains("round 2 · ")).await;
    studio.keys("+");
    studio.wait_for("1×", |s| s.contains("Replaying at 1×") && s.contains("▶ SCRIPTED DEMO · round 2 · ")).await;
    studio.keys("]");
    studio.wait_for("round 3", |s| s.contains("round 3 · ")).await;
    studio.keys("]");
    studio.wait_for("round 4", |s| s.contains("round 4 · ")).await;
    studio.keys("]");
    studio.wait_for("the end", |s| s.contains("■ SCRIPTED DEMO · ended · round 4 · ")).await;
    let text = studio.text();
    let position = text.split("round 4 · ").nth(1).unwrap().split_whitespace().collect::<Vec<_>>();
    assert_eq!(position[0], position[2], "at the end the position is the length:\n{text}");
    studio.keys("qq");
    studio.wait_exit().await;
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn ui_turn_stats_times_the_replayed_turns_from_their_recorded_times() {
    let data = tempfile::tempdir().unwrap();
    let env = [("HEAT_TURN_STATS", "true")];
    let mut studio = spawn_heat(data.path(), data.path(), None, &["replay", "--demo", "--instant"], &env);
    studio.wait_for("the end of the replay", |s| s.contains("DEMO · ended")).await;
    // What the demo's log says of each role's last turn.
    let demo = heat::store::log::parse(include_bytes!("../../assets/demo-session.jsonl")).unwrap();
    let mut times = heat::tui::turn_stats::TurnTimes::default();
    for record in &demo.records {
        times.record(&record.event, record.ms);
    }
    let text = studio.text();
    // The demo is a duel: its three seats spoke.
    for role in [Role::Advocate, Role::Skeptic, Role::Judge] {
        let shown = times.0[role.position()].unwrap().describe(0);
        assert!(shown.contains("tok/s"), "{shown}");
        assert!(text.contains(&shown), "{shown:?} is not in a title:\n{text}");
    }
    studio.keys("qq");
    studio.wait_exit().await;
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn present_opens_the_replay_in_presenter_mode_with_its_verdict_cards() {
    let data = tempfile::tempdir().unwrap();
    let mut studio =
        spawn_heat(data.path(), data.path(), None, &["replay", "--demo", "--present", "--speed", "8"], &[]);
    // The judge's strip under the debaters, the verdict card after round 1, no key bar.
    studio
        .wait_for("round 1's verdict card", |s| s.contains("Round 1 · the verdict") && s.contains("any key goes on"))
        .await;
    assert!(!studio.text().contains("? help"), "no key bar in presenter mode:\n{}", studio.text());
    studio.keys("x");
    studio.wait_for("the strip", |s| s.contains("Round 1: not resolved") && !s.contains("any key goes on")).await;
    studio.keys("q");
    studio.wait_exit().await;
    studio.wait_restored().await;
}
