//! `heat run --source FOLDER`: a library the debaters read from, end to end
//! through the binary against the mock Anthropic server: the passages each
//! seat is given, citations by file and line checked, what the session and
//! the export record, a resume that says what changed, and bad input.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use heat::debate::grounding::{Cited, Mark};
use heat::debate::{DebateEvent, DebateState, Role};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

const QUEUE: &str = "# The job queue\n\
    The current queue runs on Redis and loses jobs\n\
    when a node restarts during a deploy.\n\
    \n\
    ## Postgres\n\
    Postgres gives us transactions, so a job is enqueued\n\
    in the same commit as the row that caused it.\n";

const BILLING: &str = "# Billing\nInvoices are sent on the first of the month.\n";

/// The advocate cites the library by file and quotes it; the skeptic cites
/// a file that is not there and a line with no file.
fn library_reply(request: &Recorded) -> Reply {
    let system = request.system();
    let text = if system.contains("You are the JUDGE") {
        r#"{"resolved": true, "verdict": "The advocate's citations hold.", "topic": "t", "heat": 0.3}"#
    } else if system.contains("You are the ADVOCATE") {
        "Postgres wins: [notes/queue.md:L6–L7] says \"a job is enqueued in the same commit\"."
    } else {
        "Redis is fine, see [notes/redis.md:L3] and [L2]."
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}

fn heat(data: &Path, server: &MockLlm) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, "[network]\nmax_retries = 1\n");
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url);
    cmd
}

async fn output(mut cmd: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

/// A folder `notes/` of two Markdown files, a hidden one and an ignored
/// log, beside a loose file; the folder's path.
fn library(dir: &Path) -> std::path::PathBuf {
    let notes = dir.join("notes");
    std::fs::create_dir_all(notes.join(".drafts")).unwrap();
    std::fs::write(notes.join("queue.md"), QUEUE).unwrap();
    std::fs::write(notes.join("billing.md"), BILLING).unwrap();
    std::fs::write(notes.join(".drafts/secret.md"), "# Secret\nnot for the debate\n").unwrap();
    std::fs::write(notes.join("run.log"), "a log\n").unwrap();
    std::fs::write(notes.join(".gitignore"), "*.log\n").unwrap();
    notes
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_over_a_folder_reads_its_passages_and_checks_citations_by_file() {
    let server = MockLlm::with_handler(library_reply).await;
    let data = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let notes = library(work.path());
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "--max-rounds", "1", "--source"]).arg(&notes).arg("Move the job queue to Postgres");
    let out = output(cmd).await;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains(&format!("library   {} (2 files)", notes.display())), "{stdout}");
    assert!(stdout.contains("advocate reads notes/queue.md:L5–L7"), "{stdout}");
    assert!(
        stdout.contains("advocate's citations: ✓ [notes/queue.md:L6–L7] · ✓ “a job is enqueued in the same commit” (notes/queue.md:L6–L7)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("skeptic's citations: ✗ [notes/redis.md:L3] (no such file or lines in the library) · ✗ [L2] (names no file of the library)"),
        "{stdout}"
    );

    // Every request names the library's files; a debater's turn opens with its passages, numbered.
    for request in server.requests() {
        let system = request.system();
        assert!(system.contains("a library of 2 files: notes/billing.md, notes/queue.md."), "{system}");
        assert!(!system.contains("secret") && !system.contains("run.log"), "hidden and ignored files stay out");
    }
    let advocate = server.requests().into_iter().find(|r| r.system().contains("You are the ADVOCATE")).unwrap();
    let prompt = advocate.last_message();
    assert!(prompt.starts_with("Passages from the library that bear on this round"), "{prompt}");
    assert!(prompt.contains("[notes/queue.md:L5–L7]\nL5: ## Postgres\nL6: Postgres gives us transactions"), "{prompt}");

    // The judge weighs the cited lines themselves, as the library has them.
    let judge = server.requests().into_iter().find(|r| r.system().contains("You are the JUDGE")).unwrap();
    let asked = judge.last_message();
    assert!(asked.contains("Citations and quotes, checked against the library:"), "{asked}");
    assert!(
        asked.contains("The library's lines they cited, as it has them:\n[notes/queue.md:L6–L7]\nL6: Postgres gives us transactions, so a job is enqueued\nL7: in the same commit"),
        "{asked}"
    );

    // The session records what was read (names, sizes, hashes) and each seat's passages.
    let store = Store::open(data.path()).unwrap();
    let id = store.list()[0].id.clone();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let record = events
        .iter()
        .find_map(|e| match e {
            DebateEvent::Grounded { library: Some(library), .. } => Some(library.clone()),
            _ => None,
        })
        .expect("the library is recorded");
    let names: Vec<(&str, u64)> = record.files.iter().map(|f| (f.name.as_str(), f.size)).collect();
    assert_eq!(names, [("notes/billing.md", BILLING.len() as u64), ("notes/queue.md", QUEUE.len() as u64)]);
    assert!(record.files.iter().all(|f| f.sha256.len() == 64));
    let state = DebateState::from_events(&events);
    let read = &state.rounds[0].readings[&Role::Advocate];
    assert_eq!(read[0].label(), "notes/queue.md:L5–L7");
    let checks = &state.rounds[0].turn(Role::Advocate).unwrap().checks;
    assert_eq!(checks[0].cited, Cited::Passage { file: "notes/queue.md".into(), start: 6, end: 7 });
    assert_eq!(checks[0].mark, Mark::Verified);

    // The export says what each seat read and what its citations came to.
    let mut export = heat(data.path(), &server);
    export.args(["export", &id]);
    let md = String::from_utf8_lossy(&output(export).await.stdout).into_owned();
    assert!(md.contains("*Read from the library:* `notes/queue.md:L5–L7`"), "{md}");
    assert!(md.contains("*Checked against the library:* ✓ [notes/queue.md:L6–L7]"), "{md}");

    // The report's evidence opens each citation's lines.
    let file = data.path().join("report.html");
    let mut report = heat(data.path(), &server);
    report.args(["report", &id, "-o"]).arg(&file);
    let made = output(report).await;
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.contains("what the debaters cited, checked against the library</h2>"), "{html}");
    assert!(
        html.contains("<details><summary>the lines</summary><pre>L6: Postgres gives us transactions, so a job is enqueued\nL7: in the same commit as the row that caused it.</pre></details>"),
        "{html}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_resumed_debate_over_a_library_says_what_changed() {
    let server = MockLlm::with_handler(library_reply).await;
    let data = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let notes = library(work.path());
    let extra = work.path().join("extra.md");
    std::fs::write(&extra, "# Extra\nOne more note.\n").unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "--max-rounds", "1", "--source"]).arg(&notes).arg("--source").arg(&extra).arg("Queue on Postgres");
    let out = output(cmd).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("(3 files)"));
    std::fs::write(notes.join("billing.md"), "# Billing\nInvoices go out weekly now.\n").unwrap();
    std::fs::remove_file(&extra).unwrap();
    let id = Store::open(data.path()).unwrap().list()[0].id.clone();
    let mut resume = heat(data.path(), &server);
    resume.args(["resume", &id, "--more", "1"]);
    let out = output(resume).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the library cannot be opened again (the source ")
            && stderr.contains("extra.md does not exist)"),
        "a path given that is gone is said: {stderr}"
    );
    std::fs::write(&extra, "# Extra\nOne more note.\n").unwrap();
    let mut resume = heat(data.path(), &server);
    resume.args(["resume", &id, "--more", "1"]);
    let out = output(resume).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("the library has changed since this debate began: 1 changed (notes/billing.md)"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_library_that_cannot_be_read_is_refused_in_one_sentence_and_nothing_is_stored() {
    let server = MockLlm::with_handler(library_reply).await;
    let data = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let empty = work.path().join("images");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("a.png"), b"PNG\0\0\x01").unwrap();
    std::fs::write(empty.join("b.pdf"), b"%PDF-1.7\n").unwrap();
    let notes = library(work.path());
    let pdf = empty.join("b.pdf").display().to_string();
    let folder = empty.display().to_string();
    let notes = notes.display().to_string();
    let cases: [(Vec<&str>, String); 4] = [
        (
            vec!["--source", &folder],
            format!("the folder {folder} holds nothing heat can read (1 binary, 1 unreadable PDF)"),
        ),
        (vec!["--source", &notes, "--source", &pdf], format!("the source {pdf} is a PDF heat cannot open (")),
        (vec!["--source", &notes, "--source", "-"], "standard input (-) can only be the one source".into()),
        (vec!["--source", &notes, "--section", "Postgres"], "--section takes one file".into()),
    ];
    for (args, said) in cases {
        let mut cmd = heat(data.path(), &server);
        cmd.arg("run").args(&args).arg("Queue on Postgres");
        let out = output(cmd).await;
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(&said), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "one sentence: {stderr}");
    }
    assert!(Store::open(data.path()).unwrap().list().is_empty(), "nothing stored");
    assert!(server.requests().is_empty(), "nothing asked");
}

/// The advocate looks things up first (a search and a read in one answer,
/// their arguments in pieces), then argues; everyone else argues at once.
fn looking_up_reply(request: &Recorded) -> Reply {
    use support::bodies::{CallParts, anthropic_tools_sse, openai_tools_sse};
    if request.path.ends_with("/models") {
        return Reply::error(200, r#"{"object":"list","data":[{"id":"gpt-4.1-mini","object":"model"}]}"#);
    }
    let openai = request.path.ends_with("/chat/completions");
    let advocate = request.system().contains("You are the ADVOCATE");
    if advocate && request.body.get("tools").is_some() && !request.has_tool_answers() {
        let calls = [
            CallParts { id: "call_1", name: "search", parts: &["{\"query\": ", "\"transactions commit\"}"] },
            CallParts {
                id: "call_2",
                name: "read",
                parts: &["{\"path\": \"queue.md\",", " \"start\": 5, \"end\": 7}"],
            },
        ];
        let body = if openai { openai_tools_sse("", &calls) } else { anthropic_tools_sse("Let me check.", &calls) };
        return Reply::sse(&body, 41);
    }
    if openai {
        let text = if request.system().contains("You are the JUDGE") {
            r#"{"resolved": true, "verdict": "The advocate's citations hold.", "topic": "t", "heat": 0.3}"#
        } else if advocate {
            "Postgres wins: [notes/queue.md:L6–L7] says \"a job is enqueued in the same commit\"."
        } else {
            "Redis is fine."
        };
        return Reply::sse(&support::bodies::openai_stream("gpt-4o", &[text], Some("stop")), 64);
    }
    library_reply(request)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debater_looks_things_up_through_heat_run_on_both_wires() {
    for wire in ["anthropic", "openai"] {
        let server = MockLlm::with_handler(looking_up_reply).await;
        let data = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        let notes = library(work.path());
        let mut cmd = support::binary::heat(data.path(), "[network]\nmax_retries = 1\n");
        if wire == "openai" {
            cmd.env("OPENAI_API_KEY", "sk-test-openai").env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
        } else {
            cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url);
        }
        cmd.args(["run", "--max-rounds", "1", "--source"]).arg(&notes).arg("Move the job queue to Postgres");
        let out = output(cmd).await;
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{wire}: {stderr}");
        assert!(
            stdout.contains("advocate looks up: search \"transactions commit\" → "),
            "{wire}: every call is shown: {stdout}"
        );
        assert!(stdout.contains("advocate looks up: read queue.md L5–L7 → 3 lines"), "{wire}: {stdout}");
        assert!(stdout.contains("advocate's citations: ✓ [notes/queue.md:L6–L7]"), "{wire}: {stdout}");

        // The answers reach the advocate's next request, as the wire writes them.
        let chats: Vec<Recorded> = server.requests().into_iter().filter(|r| r.body["messages"].is_array()).collect();
        let next = chats.iter().find(|r| r.has_tool_answers()).expect("the turn is asked on with the answers");
        let answers = next.body["messages"].to_string();
        assert!(
            answers.contains("[notes/queue.md:L5–L7] of 7 lines\\nL5: ## Postgres\\nL6: Postgres gives us"),
            "{wire}: {answers}"
        );

        // The session records each call and its answer; the argument is what came after them.
        let store = Store::open(data.path()).unwrap();
        let id = store.list()[0].id.clone();
        let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
        let answered = events.iter().filter(|e| matches!(e, DebateEvent::ToolAnswered { failed: false, .. })).count();
        assert_eq!(answered, 2, "{wire}");
        let state = DebateState::from_events(&events);
        let turn = state.rounds[0].turn(Role::Advocate).unwrap();
        assert!(turn.text.starts_with("Postgres wins"), "{wire}: {}", turn.text);
        assert_eq!(turn.tools[0].calls.len(), 2);

        // The export lists what each turn looked up.
        let mut export = support::binary::heat(data.path(), "");
        export.args(["export", &id]);
        let md = String::from_utf8_lossy(&output(export).await.stdout).into_owned();
        assert!(md.contains("*Looked up:* `search \"transactions commit\"` → "), "{wire}: {md}");
        assert!(md.contains(" · `read queue.md L5–L7` → 3 lines"), "{wire}: {md}");
    }
}

/// The advocate cites the PDF's second page by line and quotes the HTML
/// page's words; the skeptic quotes what neither says.
fn papers_reply(request: &Recorded) -> Reply {
    let system = request.system();
    let text = if system.contains("You are the JUDGE") {
        r#"{"resolved": true, "verdict": "The advocate's sources hold.", "topic": "t", "heat": 0.3}"#
    } else if system.contains("You are the ADVOCATE") {
        "Fares carry the track: [papers/night-trains.pdf:L12–L13] says \"Track access charges make up about a third of the fare\", and \"a TGV to Bordeaux leaves forty minutes after the night train arrives\"."
    } else {
        "Night trains are \"always late by three hours\"."
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_over_pdfs_and_html_checks_their_citations_and_keeps_their_index() {
    let server = MockLlm::with_handler(papers_reply).await;
    let data = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/library");
    let papers = work.path().join("papers");
    std::fs::create_dir_all(&papers).unwrap();
    for name in ["night-trains.pdf", "timetable.html", "scan.pdf"] {
        std::fs::copy(fixtures.join(name), papers.join(name)).unwrap();
    }
    let run = || {
        let mut cmd = heat(data.path(), &server);
        cmd.args(["run", "--max-rounds", "1", "--source"])
            .arg(&papers)
            .arg("Night trains should replace short flights");
        cmd
    };
    let out = output(run()).await;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("papers (2 files, 1 left out)"), "{stdout}");
    assert!(
        stdout.contains("advocate's citations: ✓ [papers/night-trains.pdf:L12–L13] · ✓ “Track access charges make up about a third of the fare” (papers/night-trains.pdf:L12–L13) · ✓ “a TGV to Bordeaux leaves forty minutes after the night trai…” (papers/timetable.html:L9)"),
        "{stdout}"
    );
    assert!(stdout.contains("skeptic's citations: ✗ “always late by three hours” (not in the library)"), "{stdout}");
    let advocate = server.requests().into_iter().find(|r| r.system().contains("You are the ADVOCATE")).unwrap();
    assert!(
        advocate.last_message().contains("[papers/night-trains.pdf:L9–L13]\nL9: ## Page 2"),
        "{}",
        advocate.last_message()
    );

    // The index is kept in the data dir, and a second debate over the same folder reads it unchanged.
    let kept: Vec<_> = std::fs::read_dir(data.path().join("library")).unwrap().flatten().collect();
    assert_eq!(kept.len(), 1, "one kept index: {kept:?}");
    let written = std::fs::metadata(kept[0].path()).unwrap().modified().unwrap();
    let again = output(run()).await;
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("advocate's citations: ✓ [papers/night-trains.pdf:L12–L13]")
    );
    assert_eq!(
        std::fs::metadata(kept[0].path()).unwrap().modified().unwrap(),
        written,
        "nothing changed, nothing kept again"
    );
}

/// Over heat's own `docs/` and `src/`: the advocate searches, reads the
/// first lines of `src/library/kept.rs` and cites them; the skeptic cites a
/// file heat does not have.
fn own_tree_reply(request: &Recorded) -> Reply {
    use support::bodies::{CallParts, anthropic_tools_sse, openai_tools_sse};
    if request.path.ends_with("/models") {
        return Reply::error(200, r#"{"object":"list","data":[{"id":"gpt-4.1-mini","object":"model"}]}"#);
    }
    let openai = request.path.ends_with("/chat/completions");
    let system = request.system();
    let advocate = system.contains("You are the ADVOCATE");
    if advocate && request.body.get("tools").is_some() && !request.has_tool_answers() {
        let calls = [
            CallParts { id: "call_1", name: "search", parts: &["{\"query\": \"index kept ", "between debates\"}"] },
            CallParts {
                id: "call_2",
                name: "read",
                parts: &["{\"path\": \"src/library/kept.rs\",", " \"start\": 1, \"end\": 2}"],
            },
        ];
        let body = if openai { openai_tools_sse("", &calls) } else { anthropic_tools_sse("Looking.", &calls) };
        return Reply::sse(&body, 41);
    }
    let text = if system.contains("You are the JUDGE") {
        r#"{"resolved": true, "verdict": "The advocate cites the code.", "topic": "t", "heat": 0.3}"#
    } else if advocate {
        "Keep it: [src/library/kept.rs:L1] says \"A library's index kept between debates\"."
    } else {
        "Rebuild it: [src/library/cache.rs:L1] says so."
    };
    if openai {
        return Reply::sse(&support::bodies::openai_stream("gpt-4o", &[text], Some("stop")), 64);
    }
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_over_heats_own_docs_and_src_looks_things_up_and_checks_citations_on_both_wires() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for wire in ["anthropic", "openai"] {
        let server = MockLlm::with_handler(own_tree_reply).await;
        let data = tempfile::tempdir().unwrap();
        let mut cmd = support::binary::heat(data.path(), "[network]\nmax_retries = 1\n");
        if wire == "openai" {
            cmd.env("OPENAI_API_KEY", "sk-test-openai").env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
        } else {
            cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url);
        }
        cmd.args(["run", "--max-rounds", "1", "--source"])
            .arg(root.join("docs"))
            .arg("--source")
            .arg(root.join("src"))
            .arg("Keep the library's index between debates");
        let out = output(cmd).await;
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{wire}: {stderr}");
        assert!(stdout.contains("advocate looks up: search \"index kept between debates\" → "), "{wire}: {stdout}");
        assert!(stdout.contains("advocate looks up: read src/library/kept.rs L1–L2 → 2 lines"), "{wire}: {stdout}");
        assert!(
            stdout.contains(
                "advocate's citations: ✓ [src/library/kept.rs:L1] · ✓ “A library's index kept between debates”"
            ),
            "{wire}: {stdout}"
        );
        assert!(
            stdout.contains("skeptic's citations: ✗ [src/library/cache.rs:L1] (no such file or lines in the library)"),
            "{wire}: {stdout}"
        );
        let store = Store::open(data.path()).unwrap();
        let id = store.list()[0].id.clone();
        let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
        let answered = events.iter().filter(|e| matches!(e, DebateEvent::ToolAnswered { failed: false, .. })).count();
        assert_eq!(answered, 2, "{wire}: each call logged with its answer");
    }
}
