//! A small model on a server whose grammar holds its answer to the
//! verdict's schema writes the `verdict` string on until its token limit
//! cuts the JSON: the shape is kept, the object never closes, and no
//! verdict can be read. Played byte-exact by a mock that behaves as
//! llama.cpp's server does with such a model: a string the schema caps is
//! closed at its cap; an uncapped one runs to the limit. heat caps the
//! strings once it has seen that (any server), or from the first request on
//! a server whose `/props` says it is llama.cpp's.
#![allow(clippy::unwrap_used)]

use crate::support;

use heat::debate::Role;
use support::mock_llm::{MockLlm, Recorded, Reply, openai_stream};
use support::turns::role_of;

const RAMBLE: &str = "The advocate argued that tabs let every reader choose a width and the skeptic \
                      answered that spaces render alike everywhere, and the advocate then said again that ";

const LATER: &str = "On onboarding the skeptic showed that spaces need no editor option while the advocate \
                     held that one option set once costs nothing, and neither side moved on whether ";

/// The cap the request's verdict schema puts on `verdict`, if any.
fn verdict_cap(request: &Recorded) -> Option<usize> {
    let schema = &request.body["response_format"]["json_schema"]["schema"];
    schema["properties"]["verdict"]["maxLength"].as_u64().map(|n| usize::try_from(n).unwrap())
}

/// Whether `request` asks for a verdict (of the judge, the chair or a panel judge).
fn judging(request: &Recorded) -> bool {
    request.body.get("response_format").is_some()
}

/// A grammar server with a model that never stops on its own inside a string.
fn grammar_server(request: &Recorded) -> Reply {
    if request.path == "/props" {
        return Reply::error(404, r#"{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}"#);
    }
    let role = role_of(request);
    if !judging(request) {
        let later = !request.last_message().contains("Round 1 of");
        let point = match (role == Role::Advocate, later) {
            (true, false) => "Tabs let every reader choose a width, and the file stays the same for everyone.",
            (false, false) => "Spaces render alike in every diff, review tool and terminal, with nothing to set up.",
            (true, true) => "A newcomer sets one editor option once; after that tabs cost nobody anything.",
            (false, true) => "Onboarding with spaces needs no option at all: what you see is what is saved.",
        };
        return Reply::sse(&openai_stream("smollm", &[point], Some("stop")), 4096);
    }
    let round_two = request.last_message().contains("Round 2 of");
    let endless = if round_two { LATER } else { RAMBLE }.repeat(40);
    let Some(cap) = verdict_cap(request) else {
        let cut = format!(r#"{{"resolved": false, "verdict": "{endless}"#);
        return Reply::sse(&openai_stream("smollm", &[cut.as_str()], Some("length")), 4096);
    };
    let resolved = round_two;
    let verdict: String = endless.chars().take(cap).collect();
    let closed = format!(
        r#"{{"resolved": {resolved}, "verdict": "{verdict}", "ahead": "advocate", "conceded": "none", "topic": "What about onboarding?", "heat": 0.6}}"#
    );
    Reply::sse(&openai_stream("smollm", &[closed.as_str()], Some("stop")), 4096)
}

/// `heat run` against `server` (OpenAI's wire at a custom base URL);
/// whether it succeeded, stdout, stderr and the session log.
async fn heat_run(server: &MockLlm, extra: &[&str]) -> (bool, String, String, String) {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = support::binary::heat(data.path(), "[network]\nmax_retries = 1\n");
    cmd.env("OPENAI_BASE_URL", format!("{}/v1", server.base_url)).env("HEAT_PROVIDER", "openai");
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "2"]).args(extra);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let mut logs = String::new();
    for entry in std::fs::read_dir(data.path().join("sessions")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            logs.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr), logs)
}

fn judge_requests(server: &MockLlm) -> Vec<Recorded> {
    server.requests().into_iter().filter(|r| r.path != "/props" && judging(r)).collect()
}

#[tokio::test]
async fn a_verdict_that_runs_to_its_limit_inside_its_schema_caps_the_strings_and_the_debate_reads_every_verdict_after()
{
    let server = MockLlm::with_handler(grammar_server).await;
    let (ok, stdout, stderr, logs) = heat_run(&server, &[]).await;
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    let judged = judge_requests(&server);
    assert_eq!(verdict_cap(&judged[0]), None, "nothing is capped before the server shows it is needed");
    assert!(judged.len() >= 3, "round 1's verdict asked again, then round 2's: {}", judged.len());
    assert!(judged[1..].iter().all(|r| verdict_cap(r) == Some(600)), "every later verdict is capped");
    assert!(stdout.contains("capped in length from now on"), "said once:\n{stdout}");
    assert_eq!(logs.matches(r#""kind":"capped_strings""#).count(), 1, "{logs}");
    assert_eq!(logs.matches(r#""type":"verdict_reached""#).count(), 2, "both rounds' verdicts read:\n{logs}");
    assert_eq!(stdout.matches("could not be read").count(), 1, "only the first, uncapped verdict:\n{stdout}");
    assert!(stdout.contains("On onboarding the skeptic showed"), "round 2's verdict is shown:\n{stdout}");
}

#[tokio::test]
async fn a_panel_on_a_llama_cpp_server_is_capped_from_its_first_request_and_every_vote_is_read() {
    // The same server, saying at /props that it is llama.cpp's.
    let server = MockLlm::with_handler(|request| {
        if request.path == "/props" {
            return Reply::error(200, r#"{"default_generation_settings":{"n_ctx":8192},"total_slots":4}"#);
        }
        grammar_server(request)
    })
    .await;
    let (ok, stdout, stderr, logs) = heat_run(&server, &["--format", "oxford"]).await;
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    let judged = judge_requests(&server);
    assert!(judged.len() >= 6, "a panel of three judges, two rounds: {}", judged.len());
    assert!(judged.iter().all(|r| verdict_cap(r) == Some(600)), "capped from the first request");
    assert!(!logs.contains("capped_strings"), "nothing had to be learnt");
    assert!(!logs.contains("panel_vote_failed"), "every vote read:\n{logs}");
    assert!(!logs.contains("verdict_invalid"), "every verdict read:\n{logs}");
}

#[test]
fn the_caps_sent_fit_the_answers_room_after_fitting_and_hold_lists_too_on_either_wire() {
    use heat::debate::scores;
    use heat::provider::{ResponseSchema, StructuredOutput};
    let schema = scores::with_scores(heat::debate::verdict::schema());
    let capped = ResponseSchema { capped: true, ..ResponseSchema::new("verdict", schema.clone()) };
    // A prompt fitted to a small context leaves the answer 256 tokens: the caps shrink with it.
    let mut request = support::turns::request();
    request.max_tokens = 256;
    request.response_schema = Some(capped.clone());
    let openai = heat::provider::openai::body(&request);
    let sent = &openai["response_format"]["json_schema"]["schema"]["properties"];
    assert_eq!(sent["verdict"]["maxLength"], 192);
    assert_eq!(sent["topic"]["maxLength"], 192);
    assert_eq!(sent["scores"]["properties"]["advocate"]["maxItems"], 6, "a list of scores ends too");
    assert!(sent["ahead"].get("maxLength").is_none(), "a fixed set of values needs none");
    // A forced tool call through an Anthropic-format gateway carries the same caps.
    request.response_schema = Some(ResponseSchema { form: StructuredOutput::Json, ..capped });
    let anthropic = heat::provider::anthropic::body(&request);
    assert_eq!(anthropic["tools"][0]["input_schema"]["properties"]["verdict"]["maxLength"], 192);
    // Uncapped, the schema goes as it is.
    request.response_schema = Some(ResponseSchema::new("verdict", schema));
    let plain = heat::provider::openai::body(&request);
    assert!(plain["response_format"]["json_schema"]["schema"]["properties"]["verdict"].get("maxLength").is_none());
}

// A judge that cannot write a verdict, on a server that holds schemas.

const POINT: &str = "Tabs let every reader choose a width, and the file stays the same for everyone.";
const COUNTER: &str = "Spaces render alike in every diff, review tool and terminal, with nothing to set up.";

/// llama.cpp's server (it answers `/props`) with a tiny model: its written
/// verdicts close but only copy an argument; held to a schema of choices,
/// it picks the first of each.
fn tiny_judge_server(request: &Recorded) -> Reply {
    if request.path == "/props" {
        return Reply::error(200, r#"{"default_generation_settings":{"n_ctx":8192},"total_slots":2}"#);
    }
    if !judging(request) {
        let later = !request.last_message().contains("Round 1 of");
        let point = match (role_of(request) == Role::Advocate, later) {
            (true, false) => POINT,
            (false, false) => COUNTER,
            (true, true) => "A newcomer sets one editor option once; after that tabs cost nobody anything.",
            (false, true) => "Onboarding with spaces needs no option at all: what you see is what is saved.",
        };
        return Reply::sse(&openai_stream("smollm", &[point], Some("stop")), 4096);
    }
    let properties = &request.body["response_format"]["json_schema"]["schema"]["properties"];
    let answer = match properties.as_object() {
        Some(fields) if fields.keys().any(|k| k.ends_with("_best")) => {
            let mut chosen = serde_json::Map::new();
            for (field, rule) in fields {
                if let Some(first) = rule["enum"].get(0) {
                    chosen.insert(field.clone(), first.clone());
                } else if field == "next_question" {
                    chosen.insert(field.clone(), "Why do tabs win?".into());
                }
            }
            serde_json::Value::Object(chosen).to_string()
        }
        _ => format!(
            r#"{{"resolved": false, "verdict": "{POINT}", "ahead": "advocate", "conceded": "none", "topic": "Why do tabs win?", "heat": 0.6}}"#
        ),
    };
    Reply::sse(&openai_stream("smollm", &[answer.as_str()], Some("stop")), 4096)
}

#[tokio::test]
async fn a_judge_that_cannot_write_a_verdict_on_a_grammar_server_chooses_its_verdicts_from_then_on() {
    let server = MockLlm::with_handler(tiny_judge_server).await;
    let (ok, stdout, stderr, logs) = heat_run(&server, &[]).await;
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(logs.matches(r#""kind":"chosen_verdicts""#).count(), 1, "learnt once:\n{logs}");
    assert!(stdout.contains("chooses each side's strongest sentence"), "said:\n{stdout}");
    let judged = judge_requests(&server);
    let chooses =
        |r: &Recorded| r.body["response_format"]["json_schema"]["schema"]["properties"].get("advocate_best").is_some();
    assert!(!chooses(&judged[0]) && !chooses(&judged[1]), "round 1 and its repair were asked for a written verdict");
    assert!(judged[2..].iter().all(chooses), "every later verdict is chosen");
    // The last round's verdict, the synthesis, is read: it quotes each side's chosen sentence.
    assert!(logs.contains(r#""type":"verdict_reached""#), "{logs}");
    assert!(
        stdout.contains("The debate's strongest points: the advocate's “A newcomer sets one editor option once"),
        "{stdout}"
    );
    assert!(!stdout.contains("no synthesis"), "{stdout}");
}
