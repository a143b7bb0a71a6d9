//! A whole debate on the real embedded model, through the binary: 2 rounds,
//! fixed seed. Asserts structure, not wording: every turn non-empty, every
//! verdict parsed, heat in range, a proper ending, and a session log that
//! loads and folds to the same state.
#![cfg(feature = "local")]
#![allow(clippy::unwrap_used)]

use crate::model_support;

use assert_cmd::Command;
use heat::cli::json_lines::read_json_line;
use heat::debate::state::{TurnStatus, VerdictStatus};
use heat::debate::{DebateEvent, DebateState, Outcome, Role};
use heat::store::Store;

/// `heat run` on the embedded model with `model`, the data dir and config
/// given, and no API key in reach; the caller adds the debate's arguments.
fn offline_heat(data: &std::path::Path, config: &std::path::Path, model: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("heat").unwrap();
    cmd.args(["run", "--provider", "local", "--config"])
        .arg(config)
        .env("HEAT_DATA_DIR", data)
        .env("HEAT_MODEL_PATH", model)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .timeout(std::time::Duration::from_secs(900));
    cmd
}

#[test]
fn a_two_round_offline_debate_runs_end_to_end() {
    let Some(model) = model_support::model_path() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[providers.local]\nthreads = 1\nseed = 7\nmax_tokens = 160\n").unwrap();
    let output = offline_heat(data.path(), &config, &model)
        .args(["Cities should ban cars from their centres", "--json", "--max-rounds", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "heat run failed: {stderr}");
    let events: Vec<DebateEvent> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| read_json_line(l).unwrap()).collect();
    let state = DebateState::from_events(&events);

    assert!(matches!(state.participant(Role::Judge), Some(p) if p.provider == "local"));
    assert!((1..=2).contains(&state.rounds.len()), "{} rounds", state.rounds.len());
    for round in &state.rounds {
        assert!((0.3..=1.0).contains(&round.heat.get()), "heat {} out of range", round.heat);
        for role in Role::DEBATERS {
            let turn = round.turn(role).unwrap();
            assert_eq!(turn.status, TurnStatus::Done);
            assert!(!turn.text.trim().is_empty(), "round {} {} said nothing", round.number + 1, role.key());
        }
        let judge = round.turn(Role::Judge).unwrap();
        match &judge.verdict {
            Some(VerdictStatus::Parsed { verdict }) => assert!((0.3..=1.0).contains(&verdict.heat.get())),
            other => panic!("round {}: the verdict did not parse: {other:?}\n{}", round.number + 1, judge.text),
        }
    }
    let finish = state.finish.clone().unwrap();
    assert!(matches!(finish.outcome, Outcome::Resolved | Outcome::MaxRounds), "{:?}", finish.outcome);
    assert!(finish.synthesis.is_some_and(|s| !s.trim().is_empty()));

    // The session log loads and folds to what was streamed.
    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let loaded = store.load(&id).unwrap();
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert_eq!(DebateState::from_events(loaded.records.iter().map(|r| &r.event)), state);
    assert!(stderr.contains(&format!("saved as session {id}")), "{stderr}");
}

/// Sends SIGINT to `pid`, as Ctrl-C in its terminal would.
fn interrupt(pid: u32) {
    let sent = std::process::Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap();
    assert!(sent.success());
}

/// Starts `command` with SIGINT at its default action, as from a terminal:
/// a test run as a background job inherits SIGINT ignored (a shell ignores
/// it for `&` jobs, and exec keeps it), and heat, started that way, rightly
/// goes on ignoring it until it watches for Ctrl-C itself.
#[allow(unsafe_code)] // the one way to set a child's signal disposition before it runs
fn default_sigint(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: `signal` is async-signal-safe, as `pre_exec` requires.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
}

/// Two Ctrl-Cs quit at once whatever the model is doing (loading, reading
/// the prompt, generating), and cleanly: a crash shows as death by SIGSEGV
/// or SIGABRT.
#[test]
fn a_hard_quit_while_the_model_works_exits_with_130() {
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    let Some(model) = model_support::model_path() else { return };
    // (what to wait for on stdout before the two Ctrl-Cs, extra delay)
    let moments = [(None, 150), (Some("\"turn_started\""), 0), (Some("\"delta\""), 0), (Some("\"delta\""), 700)];
    for (wait_for, delay_ms) in moments {
        let data = tempfile::tempdir().unwrap();
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("heat"));
        default_sigint(&mut command);
        let mut child = command
            .args(["run", "Cities should ban cars from their centres", "--json", "--provider", "local"])
            .env("HEAT_DATA_DIR", data.path())
            .env("HEAT_MODEL_PATH", &model)
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(data.path().join("stderr")).unwrap())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        if let Some(needle) = wait_for {
            let seen = lines.by_ref().map_while(Result::ok).any(|line| line.contains(needle));
            assert!(seen, "the debate ended before {needle}");
        }
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        interrupt(child.id());
        std::thread::sleep(std::time::Duration::from_millis(100));
        interrupt(child.id());
        // Keep reading so the child never blocks on a full pipe.
        let drain = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
        let status = child.wait().unwrap();
        let rest = drain.join().unwrap();
        // Before heat watches for Ctrl-C (while it starts), SIGINT's default
        // ends it; that is a clean death too. A crash is any other signal.
        let clean = status.code() == Some(130) || status.signal() == Some(2);
        let stderr = std::fs::read_to_string(data.path().join("stderr")).unwrap_or_default();
        let last = rest.last().map(String::as_str).unwrap_or_default();
        assert!(clean, "after {wait_for:?} + {delay_ms} ms: {status}; stderr: {stderr}; last event: {last}");
    }
}

/// A GGUF without a chat template of its own still debates, and heat says
/// which template it used instead.
#[test]
fn a_model_file_without_a_chat_template_debates_in_chatml_and_says_so() {
    use candle_core::quantized::gguf_file;
    let Some(model) = model_support::model_path() else { return };
    let data = tempfile::tempdir().unwrap();
    let mut reader = std::fs::File::open(&model).unwrap();
    let mut content = gguf_file::Content::read(&mut reader).unwrap();
    assert!(content.metadata.remove("tokenizer.chat_template").is_some(), "the default model has a template");
    let tensors: Vec<(String, candle_core::quantized::QTensor)> = content
        .tensor_infos
        .keys()
        .map(|name| (name.clone(), content.tensor(&mut reader, name, &candle_core::Device::Cpu).unwrap()))
        .collect();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[providers.local]\nmax_tokens = 48\n").unwrap();
    let bare = data.path().join("bare.gguf");
    let metadata: Vec<(&str, &gguf_file::Value)> = content.metadata.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let tensors: Vec<(&str, &candle_core::quantized::QTensor)> = tensors.iter().map(|(k, v)| (k.as_str(), v)).collect();
    gguf_file::write(&mut std::fs::File::create(&bare).unwrap(), &metadata, &tensors).unwrap();
    let output = offline_heat(data.path(), &config, &bare)
        .args(["Tabs beat spaces", "--json", "--max-rounds", "1"])
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("bare has no chat template of its own: heat formats its prompts as ChatML"), "{stderr}");
}

/// A small document debated on the embedded model: it fits the context,
/// every role reads it, the arguments are checked against it, and a source
/// too big for the 2,048-token context is refused before anything starts.
#[test]
fn a_small_document_is_debated_offline_and_a_big_one_is_refused() {
    let Some(model) = model_support::model_path() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[providers.local]\nthreads = 1\nseed = 7\nmax_tokens = 96\n").unwrap();
    let doc = data.path().join("bikes.md");
    std::fs::write(
        &doc,
        "# The city should build protected bike lanes\n\
         Protected lanes cut cyclist injuries by half in the pilot streets.\n\
         They cost 2 million a kilometre and remove parking spaces.\n",
    )
    .unwrap();
    let heat = |source: &std::path::Path| {
        offline_heat(data.path(), &config, &model)
            .args(["--json", "--max-rounds", "1", "--source"])
            .arg(source)
            .output()
            .unwrap()
    };
    let output = heat(&doc);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "heat run failed: {stderr}");
    let events: Vec<DebateEvent> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| read_json_line(l).unwrap()).collect();
    let state = DebateState::from_events(&events);
    assert_eq!(state.topic, "The city should build protected bike lanes");
    assert!(state.source.as_ref().is_some_and(|s| s.line_count() == 3));
    assert!(state.date.is_some());
    let checked = events.iter().filter(|e| matches!(e, DebateEvent::QuotesChecked { .. })).count();
    assert_eq!(checked, 2, "both arguments were checked");
    assert!(state.finish.is_some());

    let big = data.path().join("big.md");
    std::fs::write(&big, "A line of a long design document that goes on.\n".repeat(1_000)).unwrap();
    let sessions = Store::open(data.path()).unwrap().list().len();
    let output = heat(&big);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("more than the advocate's model can read: its context is 2048 tokens"), "{stderr}");
    assert_eq!(Store::open(data.path()).unwrap().list().len(), sessions, "nothing stored for the refused source");
}

/// One round of `topic` in `format` on the embedded model (one thread,
/// seed 7, `max_tokens` a turn), as `heat run --json` prints it; `None`
/// when no model is installed.
fn one_round_in(format: &str, topic: &str, max_tokens: u32) -> Option<Vec<DebateEvent>> {
    let model = model_support::model_path()?;
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, format!("[providers.local]\nthreads = 1\nseed = 7\nmax_tokens = {max_tokens}\n")).unwrap();
    let output = offline_heat(data.path(), &config, &model)
        .args([topic, "--json", "--format", format, "--max-rounds", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "heat run failed: {stderr}");
    Some(String::from_utf8(output.stdout).unwrap().lines().map(|l| read_json_line(l).unwrap()).collect())
}

#[test]
fn an_oxford_debate_runs_offline_under_its_names_scored_by_rule_and_its_panel_votes_as_one() {
    let Some(events) = one_round_in("oxford", "This house prefers tabs", 80) else { return };
    let state = DebateState::from_events(&events);
    assert_eq!(state.label(Role::Advocate), "Proposition");
    let notices: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Notice { message } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    let unscored = "The embedded judge gives no scores";
    assert_eq!(notices.iter().filter(|n| n.starts_with(unscored)).count(), 1, "{notices:?}");
    let as_one = "Every panel judge is the embedded model";
    assert_eq!(notices.iter().filter(|n| n.starts_with(as_one)).count(), 1, "{notices:?}");
    // The embedded judge's chosen verdict names the sides as the format does.
    let verdict = state.rounds[0].verdict().map(|v| v.verdict.clone()).unwrap_or_default();
    assert!(verdict.contains("the proposition's") && verdict.contains("the opposition's"), "{verdict}");
    assert_eq!(heat::debate::scores::tug(&state), 0);
    // Oxford's panel: the two other judges answer on the same embedded model, for the last word.
    let votes = events.iter().filter(|e| matches!(e, DebateEvent::PanelVoted { .. })).count();
    assert_eq!(votes, 2, "{events:?}");
    // Its argument map holds each side's chosen sentence as its claim where it reads as one, at most one a side.
    let ledger = heat::debate::argument_map::ledger(&state);
    for role in Role::DEBATERS {
        let claims: Vec<&str> = ledger.by(role).map(|c| c.claim.as_str()).collect();
        assert!(claims.len() <= 1, "{ledger:?}");
        for claim in claims {
            // A claim longer than a line is kept cut, with `…`.
            let shown = claim.trim_end_matches('\u{2026}').trim_end();
            assert!(verdict.contains(shown), "the claim is the sentence the judge chose: {claim} / {verdict}");
            if shown == claim {
                assert_eq!(heat::debate::extractive::claim::refused(claim, &state.topic), None, "{claim}");
            }
        }
    }
    // And a scorecard counted by rule, said in the verdict and in the notice: the opening round has no rebuttal.
    let cards = heat::debate::argument_map::scorecards(&state);
    assert_eq!(cards.len(), 1, "{cards:?}");
    for side in [&cards[0].1.advocate, &cards[0].1.skeptic] {
        assert_eq!(side.keys().map(String::as_str).collect::<Vec<_>>(), ["clarity", "evidence", "logic"], "{cards:?}");
        assert!(side.values().all(|score| (1..=10).contains(score)), "{cards:?}");
    }
    assert!(verdict.ends_with("Scores are counted by rule (logic, evidence, clarity), not judged."), "{verdict}");
    assert!(notices.iter().any(|n| n.contains("with a scorecard counted by rule")), "{notices:?}");
}

#[test]
fn an_offline_review_puts_each_critics_issue_on_the_board() {
    let Some(events) = one_round_in("review", "Store API keys in environment variables", 120) else { return };
    let state = DebateState::from_events(&events);
    let board = heat::debate::issues::board(&state);
    let raised: Vec<(&str, Role)> = board.iter().map(|row| (row.issue.id.as_str(), row.by)).collect();
    assert_eq!(raised, [("L1", Role::Skeptic), ("O1", Role::Third)], "{board:?}");
    assert!(board.iter().all(|row| row.issue.claim.ends_with('.') && row.issue.evidence.is_some()), "{board:?}");
}

/// Offline over a library (the fixtures' papers: a PDF and an HTML page):
/// each debater's turn opens with its one search, written by the model
/// under its grammar, answered from the library and shown; then it argues.
#[test]
fn an_offline_debate_over_a_library_searches_it_once_a_turn() {
    let Some(model) = model_support::model_path() else { return };
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[providers.local]\nthreads = 1\nseed = 7\nmax_tokens = 80\n").unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/library");
    let papers = data.path().join("papers");
    std::fs::create_dir_all(&papers).unwrap();
    for name in ["night-trains.pdf", "timetable.html"] {
        std::fs::copy(fixtures.join(name), papers.join(name)).unwrap();
    }
    let output = offline_heat(data.path(), &config, &model)
        .args(["Night trains should replace short flights", "--max-rounds", "1", "--source"])
        .arg(&papers)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "heat run failed: {stderr}");
    for seat in ["advocate", "skeptic"] {
        assert!(stdout.contains(&format!("{seat} looks up: search \"")), "{seat}:\n{stdout}");
    }
    assert!(!stdout.contains("Tools:"), "no seat is said to take no tools: {stdout}");

    let store = Store::open(data.path()).unwrap();
    let id = store.list()[0].id.clone();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let state = DebateState::from_events(&events);
    for role in Role::DEBATERS {
        let turn = state.rounds[0].turn(role).unwrap();
        assert_eq!(turn.tools.len(), 1, "one search: {:?}", turn.tools);
        assert!(turn.tools[0].calls[0].answer.is_some());
        assert!(!turn.text.trim().is_empty());
        assert!(!turn.text.contains("search:"), "the call is not part of the argument: {}", turn.text);
    }
}
