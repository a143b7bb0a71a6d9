//! `heat sessions` from the binary: naming and tagging a stored debate
//! (kept beside its log, so a rebuilt index and a running debate keep it),
//! the list fitted to a terminal and whole when piped, its columns holding
//! for every age, and its counts said with the right noun.

use std::path::Path;

use crate::support;
use crate::support::binary::{stderr, stdout};
use crate::support::log::Log;

use heat::debate::{DebateEvent, Outcome, Role};
use heat::store::{Recorder, Store};

fn heat(data: &Path) -> assert_cmd::Command {
    support::binary::heat(data, "")
}

fn sessions(data: &Path, args: &[&str]) -> std::process::Output {
    heat(data).arg("sessions").args(args).output().expect("heat runs")
}

/// A stored debate on `topic`: one round argued; the recorder still holds
/// its log (drop it to close the session).
pub fn record(data: &Path, topic: &str) -> Recorder {
    let store = Store::open(data).expect("store opens");
    let mut recorder = store.create().expect("session created");
    let log = Log::new(topic, 3, 0.7).seats(&[Role::Advocate, Role::Skeptic, Role::Judge], "anthropic", "m").round(0);
    for event in log.both_argue(0).events() {
        assert!(recorder.record(event).is_none());
    }
    recorder
}

/// [`record`], closed: stopped after its first round.
pub fn stored(data: &Path, topic: &str) -> String {
    let mut recorder = record(data, topic);
    recorder.record(&DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    recorder.id().to_string()
}

fn listed(data: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let out = sessions(data, &[&["--json"], args].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON").as_array().expect("a list").clone()
}

#[test]
fn a_named_and_tagged_debate_is_listed_searched_and_filtered_by_them() {
    let data = tempfile::tempdir().unwrap();
    let tabs = stored(data.path(), "Tabs beat spaces");
    let _cats = stored(data.path(), "Cats beat dogs");

    let named = sessions(data.path(), &["rename", &tabs, "The  whitespace\nwar"]);
    assert!(named.status.success(), "{}", stderr(&named));
    assert!(
        stderr(&named).contains(&format!("session {tabs} is now named \"The whitespace war\"")),
        "{}",
        stderr(&named)
    );
    let tagged = sessions(data.path(), &["tag", &tabs, "#style", "Later", "style"]);
    assert!(tagged.status.success(), "{}", stderr(&tagged));
    assert!(stderr(&tagged).contains("#style #Later"), "{}", stderr(&tagged));

    let all = listed(data.path(), &[]);
    let entry = all.iter().find(|e| e["id"] == tabs.as_str()).unwrap();
    assert_eq!(entry["name"], "The whitespace war");
    assert_eq!(entry["topic"], "Tabs beat spaces", "the topic stays the topic");
    assert_eq!(entry["tags"], serde_json::json!(["style", "Later"]));

    let text = stdout(&sessions(data.path(), &[]));
    let row = text.lines().find(|l| l.starts_with(&tabs)).unwrap();
    assert!(row.ends_with("The whitespace war #style #Later — Tabs beat spaces"), "{text}");

    for (args, found) in [
        (&["--search", "WHITESPACE"][..], 1),
        (&["--search", "later"], 1),
        (&["--tag", "LATER"], 1),
        (&["--tag", "#style"], 1),
        (&["--tag", "sty"], 0),
    ] {
        let hits = listed(data.path(), args);
        assert_eq!(hits.len(), found, "{args:?}");
        assert!(hits.iter().all(|e| e["id"] == tabs.as_str()), "{args:?}");
    }

    let untagged = sessions(data.path(), &["untag", &tabs, "STYLE"]);
    assert!(untagged.status.success(), "{}", stderr(&untagged));
    let all = listed(data.path(), &[]);
    assert_eq!(all.iter().find(|e| e["id"] == tabs.as_str()).unwrap()["tags"], serde_json::json!(["Later"]));
}

#[test]
fn a_damaged_log_is_named_and_a_good_one_put_back_is_listed_at_once() {
    let data = tempfile::tempdir().unwrap();
    let tabs = stored(data.path(), "Tabs beat spaces");
    let cats = stored(data.path(), "Cats beat dogs");
    let dir = data.path().join("sessions");
    let log = dir.join(format!("{tabs}.jsonl"));
    let good = std::fs::read(&log).unwrap();
    std::fs::write(&log, b"{\"not\": \"a header\"}\n").unwrap();
    std::fs::remove_file(dir.join("index.json")).unwrap();
    let out = sessions(data.path(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!("heat: {tabs}.jsonl is not listed: the session log ")),
        "a damaged log is named: {}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains(&tabs) && stdout(&out).contains(&cats), "{}", stdout(&out));

    // Put back whole, it is listed at once: nothing has to rebuild the index first.
    std::fs::write(&log, &good).unwrap();
    let out = sessions(data.path(), &[]);
    assert!(stdout(&out).contains(&tabs) && stdout(&out).contains(&cats), "{}", stdout(&out));
    assert_eq!(stderr(&out), "", "nothing is damaged now");
    // And a log that is gone is no longer listed.
    std::fs::remove_file(dir.join(format!("{cats}.jsonl"))).unwrap();
    let ids: Vec<String> = listed(data.path(), &[]).iter().map(|e| e["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(ids, [tabs]);
}

#[test]
fn a_label_outlives_a_rebuilt_index_and_goes_with_its_debate() {
    let data = tempfile::tempdir().unwrap();
    let tabs = stored(data.path(), "Tabs beat spaces");
    assert!(sessions(data.path(), &["rename", &tabs, "Whitespace"]).status.success());
    assert!(sessions(data.path(), &["tag", &tabs, "style"]).status.success());
    std::fs::remove_file(data.path().join("sessions/index.json")).unwrap();
    let all = listed(data.path(), &[]);
    assert_eq!((all[0]["name"].as_str(), all[0]["tags"][0].as_str()), (Some("Whitespace"), Some("style")));

    let cleared = sessions(data.path(), &["rename", &tabs, "--clear"]);
    assert!(cleared.status.success(), "{}", stderr(&cleared));
    assert!(listed(data.path(), &[])[0].get("name").is_none());
    assert!(sessions(data.path(), &["rm", &tabs, "--yes"]).status.success());
    let left: Vec<_> =
        std::fs::read_dir(data.path().join("sessions")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(!left.iter().any(|f| f.to_string_lossy().starts_with(&tabs)), "{left:?}");
}

#[test]
fn a_running_debate_is_named_without_touching_its_log() {
    let data = tempfile::tempdir().unwrap();
    let mut live = record(data.path(), "Remote work beats the office");
    let id = live.id().to_string();
    let before = std::fs::read(live.path()).unwrap();
    let named = sessions(data.path(), &["rename", &id, "Office wars"]);
    assert!(named.status.success(), "a running debate can be named: {}", stderr(&named));
    assert_eq!(std::fs::read(live.path()).unwrap(), before, "the log is not written by another heat");

    // The running debate goes on writing its log and the index; the name stays.
    live.record(&DebateEvent::RoundStarted {
        round: 1,
        topic: "And juniors?".into(),
        heat: heat::debate::Heat::new(0.6),
        injected: vec![],
    });
    let store = Store::open(data.path()).unwrap();
    assert_eq!(store.list()[0].name.as_deref(), Some("Office wars"));
    assert_eq!(store.list()[0].rounds, 2);
    drop(live);
    let loaded = store.load(&id).unwrap();
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
}

#[test]
fn bad_names_tags_and_ids_get_one_sentence() {
    let data = tempfile::tempdir().unwrap();
    let tabs = stored(data.path(), "Tabs beat spaces");
    for (args, said) in [
        (vec!["rename", &tabs, "   "], "a name needs at least one character that is not a space"),
        (vec!["rename", "nope", "A title"], "no session has an id starting with \"nope\""),
        (vec!["tag", &tabs, "two words"], "a tag is one word"),
        (vec!["tag", "nope", "x"], "no session has an id starting with \"nope\""),
        (vec!["untag", &tabs, "never"], "has no tag #never"),
    ] {
        let out = sessions(data.path(), &args);
        assert!(!out.status.success(), "{args:?}");
        let text = stderr(&out);
        assert!(text.contains(said), "{args:?}: {text}");
        assert_eq!(text.trim().lines().count(), 1, "{args:?}: {text}");
    }
}

/// A proposition of about 5,000 characters.
fn long_topic() -> String {
    let sentence = "Remote work beats the office for teams that ship software across many time zones, once \
                    onboarding, mentoring and the hallway conversations are counted honestly. ";
    sentence.repeat(5000 / sentence.len() + 1).trim_end().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_terminal_each_row_fits_its_width_and_piped_the_topic_is_whole() {
    use unicode_width::UnicodeWidthStr;
    let data = tempfile::tempdir().unwrap();
    let topic = long_topic();
    let long = stored(data.path(), &topic);
    let short = stored(data.path(), "Tabs beat spaces");

    let piped = sessions(data.path(), &[]);
    assert!(stdout(&piped).lines().any(|l| l.starts_with(&long) && l.ends_with(&topic)), "scripts get it whole");

    let mut terminal = crate::studio_support::pty::spawn_heat(data.path(), data.path(), None, &["sessions"], &[]);
    assert!(terminal.wait_exit().await.success(), "{}", terminal.text());
    let text = terminal.text();
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(rows.len(), 3, "a header and a row a debate:\n{text}");
    for row in &rows {
        assert!(row.width() <= 120, "{} columns: {row}", row.width());
    }
    let cut = rows.iter().find(|r| r.starts_with(&long)).unwrap();
    assert!(cut.ends_with('…'), "{cut}");
    let kept = cut.rsplit("  ").next().unwrap().trim_end_matches('…');
    assert!(topic.starts_with(kept) && topic[kept.len()..].starts_with(' '), "cut between words: {cut}");
    assert!(rows.iter().any(|r| r.starts_with(&short) && r.ends_with("Tabs beat spaces")), "{text}");
}

#[test]
fn counts_and_spans_are_said_with_their_nouns() {
    let data = tempfile::tempdir().unwrap();
    let mut ended = record(data.path(), "Tabs beat spaces");
    ended.record(&DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: None });
    drop(ended);
    let none = sessions(data.path(), &["--tag", "nothing"]);
    assert!(stdout(&none).contains("No session matches; 1 debate stored"), "{}", stdout(&none));
    for (span, said) in [("30d", "30 days"), ("36h", "1 day 12 hours"), ("1h 1m", "1 hour 1 minute")] {
        let kept = sessions(data.path(), &["prune", "--older-than", span, "--yes"]);
        assert!(stderr(&kept).contains(&format!("no stored debate is older than {said}")), "{}", stderr(&kept));
    }
    let resume = heat(data.path()).args(["resume"]).output().unwrap();
    assert!(stderr(&resume).contains("of 1 stored debate, none can go on"), "{}", stderr(&resume));
    let doctor = heat(data.path()).arg("doctor").output().unwrap();
    assert!(stdout(&doctor).contains("writable; 1 stored debate)"), "{}", stdout(&doctor));
}

/// The start screen's recent debates read as `heat sessions` lists them:
/// a named debate shows its name and tags before its topic.
#[tokio::test(flavor = "multi_thread")]
async fn the_start_screens_recent_debates_show_their_names() {
    let server =
        crate::support::mock_llm::MockLlm::with_handler(|_| crate::support::mock_llm::Reply::error(500, "{}")).await;
    let data = tempfile::tempdir().expect("temp dir");
    let id = stored(data.path(), "Tabs beat spaces");
    assert!(sessions(data.path(), &["rename", &id, "The whitespace war"]).status.success());
    assert!(sessions(data.path(), &["tag", &id, "style"]).status.success());
    let mut studio = crate::studio_support::pty::spawn_heat(
        data.path(),
        data.path(),
        Some((&server.base_url, "sk-ant-test-2b7e")),
        &[],
        &[],
    );
    studio.wait_for("the recent debates", |screen| screen.contains("Tabs beat spaces")).await;
    let screen = studio.text();
    assert!(screen.contains("The whitespace war #style — Tabs beat spaces"), "{screen}");
    studio.keys("\x1b");
    let _ = studio.child.kill();
}

/// A debate's name and tags travel with it: the Markdown and JSON exports
/// and the report page carry them.
#[test]
fn an_export_and_a_report_carry_the_name_and_tags() {
    let data = tempfile::tempdir().expect("temp dir");
    let id = stored(data.path(), "Tabs beat spaces");
    assert!(sessions(data.path(), &["rename", &id, "The whitespace war"]).status.success());
    assert!(sessions(data.path(), &["tag", &id, "style", "later"]).status.success());
    let md = heat(data.path()).args(["export", &id]).output().expect("heat runs");
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.starts_with("# Tabs beat spaces\n\n- Name: The whitespace war\n- Tags: #style #later\n"), "{md}");
    let json = heat(data.path()).args(["export", &id, "--format", "json"]).output().expect("heat runs");
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(json["session"]["name"], "The whitespace war");
    assert_eq!(json["session"]["tags"], serde_json::json!(["style", "later"]));
    let page = data.path().join("page.html");
    let out = heat(data.path()).args(["report", &id, "-o"]).arg(&page).output().expect("heat runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(
        html.contains("<dt>Name</dt><dd>The whitespace war</dd>") && html.contains("<dd>#style #later</dd>"),
        "{html}"
    );
}

/// A stored debate whose skeptic said `said` in round 1.
fn stored_saying(data: &Path, topic: &str, said: &str) -> String {
    let store = Store::open(data).expect("store opens");
    let mut recorder = store.create().expect("session created");
    let log = Log::new(topic, 3, 0.7)
        .seats(&[Role::Advocate, Role::Skeptic, Role::Judge], "anthropic", "m")
        .round(0)
        .argues(0, Role::Advocate)
        .starts(0, Role::Skeptic, heat::debate::TurnPurpose::Argue)
        .completes(0, Role::Skeptic, said);
    for event in log.events() {
        assert!(recorder.record(event).is_none());
    }
    recorder.record(&DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    recorder.id().to_string()
}

#[test]
fn a_debate_is_found_by_its_words_and_the_list_says_where() {
    let data = tempfile::tempdir().unwrap();
    let trains = stored_saying(
        data.path(),
        "Night trains beat flights",
        "A budget airline undercuts the sleeper by a wide margin on every route from Vienna to Paris.",
    );
    let _cats = stored(data.path(), "Cats beat dogs");

    let hits = listed(data.path(), &["--search", "SLEEPER vienna"]);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0]["id"], trains.as_str());
    assert_eq!(hits[0]["found"]["round"], 1);
    assert_eq!(hits[0]["found"]["who"], "the skeptic");
    assert!(hits[0]["found"]["excerpt"].as_str().unwrap().contains("undercuts the sleeper by a wide margin"));

    let text = stdout(&sessions(data.path(), &["--search", "sleeper vienna"]));
    let row = text.lines().position(|l| l.starts_with(&trains)).expect("listed");
    let under = text.lines().nth(row + 1).unwrap_or_default();
    assert!(under.trim_start().starts_with("round 1, the skeptic: “A budget airline undercuts the sleeper"), "{text}");

    // Words in two different turns are not one match; a topic's words still find it, with no line under it.
    assert!(listed(data.path(), &["--search", "sleeper argues"]).is_empty());
    let by_topic = listed(data.path(), &["--search", "cats"]);
    assert_eq!(by_topic.len(), 1);
    assert!(by_topic[0].get("found").is_none());
}
