//! Agent CLIs in the seats, the real ones: Claude Code, Codex CLI and
//! Gemini CLI as npm installs them, each pointed at a mock server of its
//! own API on 127.0.0.1 (no network, no account), play a whole duel through
//! the `heat` binary. The servers answer each seat by the role heat's
//! prompt gives it, and keep every request: heat's prompt reached the
//! model through the CLI, and the CLI offered its model no tool that edits,
//! runs or fetches.
//!
//! The CLIs are looked for on the PATH, then in `$HEAT_AGENT_CLIS` (a
//! folder of their bin links, e.g. `node_modules/.bin`). A missing one skips
//! the test, and says so, unless `HEAT_REQUIRE_AGENT_CLIS=1` (CI, which
//! installs them) makes that a failure.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use heat::debate::{DebateEvent, DebateState, Role};
use heat::store::Store;
use serde_json::{Value, json};

use crate::support;
use support::bodies::{anthropic_sse_text, anthropic_tool_sse, split_text};
use support::cli_bodies::{gemini_sse, responses_sse};
use support::mock_llm::{MockLlm, Recorded, Reply};

const TOPIC: &str = "Tabs beat spaces";
/// Each side's argument by round: a seat that says the same thing twice is asked again.
const ADVOCATE: [&str; 3] = [
    "Tabs let every reader choose a width.",
    "One tab per level keeps indentation a matter of structure, not of taste.",
    "Screen readers announce one tab where they would count four spaces.",
];
const SKEPTIC: [&str; 3] = [
    "Spaces render the same everywhere.",
    "Alignment past the indent breaks the moment two widths meet.",
    "Every formatter and style guide already settled on spaces.",
];
const OPEN: &str = r#"{"resolved": false, "verdict": "Both sides opened well.", "ahead": "even", "conceded": "none", "topic": "What about onboarding?", "heat": 0.6}"#;
const SETTLED: &str = r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "ahead": "advocate", "conceded": "none", "topic": "Tabs beat spaces", "heat": 0.3}"#;

/// Which CLI sits where: (seat, CLI, model).
type Seats = [(Role, &'static str, &'static str); 3];

#[tokio::test(flavor = "multi_thread")]
async fn real_agent_clis_debate_against_local_servers_with_their_tools_off() {
    let Some(clis) = clis_or_skip("real_agent_clis_debate_against_local_servers_with_their_tools_off") else {
        return;
    };
    duel(
        &clis,
        [
            (Role::Advocate, "gemini", "gemini-2.5-pro"),
            (Role::Skeptic, "codex", "gpt-5.5"),
            (Role::Judge, "claude", "sonnet"),
        ],
    )
    .await;
}

/// The same CLIs in the other seats: Claude Code argues (its request offers
/// no tool at all) and Codex judges.
#[tokio::test(flavor = "multi_thread")]
async fn real_agent_clis_trade_seats() {
    let Some(clis) = clis_or_skip("real_agent_clis_trade_seats") else { return };
    duel(
        &clis,
        [
            (Role::Advocate, "claude", "sonnet"),
            (Role::Skeptic, "gemini", "gemini-2.5-pro"),
            (Role::Judge, "codex", "gpt-5.5"),
        ],
    )
    .await;
}

async fn duel(clis: &Clis, seats: Seats) {
    let dir = tempfile::tempdir().unwrap();
    let anthropic = MockLlm::with_handler(anthropic).await;
    let openai = MockLlm::with_handler(responses).await;
    let google = MockLlm::with_handler(gemini).await;
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let mut cmd = heat(dir.path(), &data, clis, [&anthropic.base_url, &openai.base_url, &google.base_url]);
    cmd.args(["run", TOPIC, "--max-rounds", "3"]);
    for (role, cli, model) in seats {
        cmd.arg("--seat").arg(format!("{}={cli}:{model}", seat_word(role)));
    }
    let started = Instant::now();
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let took = started.elapsed();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    let requests = |server: &MockLlm| {
        server.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect::<Vec<_>>().join(", ")
    };
    assert!(
        out.status.success(),
        "{stdout}\n{stderr}\nrequests: anthropic [{}] openai [{}] gemini [{}]",
        requests(&anthropic),
        requests(&openai),
        requests(&google)
    );
    let _ = writeln!(std::io::stderr(), "a duel of real agent CLIs ({seats:?}) took {took:.1?}");

    // Both rounds' arguments and the verdicts, as the CLIs passed them on.
    for (round, (advocate, skeptic)) in ADVOCATE.iter().zip(SKEPTIC).take(2).enumerate() {
        assert!(stdout.contains(&format!("▌ Advocate\n{advocate}\n")), "round {}: {stdout}\n{stderr}", round + 1);
        assert!(stdout.contains(&format!("▌ Skeptic\n{skeptic}\n")), "round {}: {stdout}\n{stderr}", round + 1);
    }
    assert!(stdout.contains("not resolved: Both sides opened well."), "{stdout}");
    assert!(stdout.contains("Tabs win on accessibility."), "{stdout}");
    assert!(!stdout.contains(ADVOCATE[2]), "the judge settled it after round 2: {stdout}");

    // The log: each seat on its CLI, the version that CLI gives.
    let events = stored(&data);
    let DebateEvent::Started { participants, .. } = &events[0] else { panic!("{:?}", events[0]) };
    for (role, cli, model) in seats {
        let seat = participants.iter().find(|p| p.role == role).unwrap();
        assert_eq!((seat.provider.as_str(), seat.model.as_str()), (cli, model), "{seat:?}");
        let agent = format!("{} {}", title(cli), clis.version(cli));
        assert_eq!(seat.agent.as_deref(), Some(agent.as_str()), "{seat:?}");
    }
    let state = DebateState::from_events(events.iter());
    let finish = state.finish.as_ref().expect("the debate ended");
    assert!(finish.synthesis.as_deref().is_some_and(|s| s.contains("Tabs win on accessibility")), "{finish:?}");

    // Each server saw only its seat's prompts, heat's whole prompt, and no tool to act with.
    for (role, cli, _) in seats {
        let server = match cli {
            "claude" => &anthropic,
            "codex" => &openai,
            _ => &google,
        };
        let calls: Vec<Recorded> = server.requests().into_iter().filter(|r| asks_the_model(cli, r)).collect();
        // Two rounds: a debater is asked twice, the judge twice (a CLI retries nothing here).
        assert_eq!(calls.len(), 2, "{cli} as {role:?}: {}", requests(server));
        for call in &calls {
            let prompt =
                prompt_of(call).unwrap_or_else(|| panic!("heat's prompt is not in {cli}'s request: {}", call.body));
            let line = format!("You are the {}", seat_word(role).to_uppercase());
            assert!(prompt.contains(&line) && prompt.contains(TOPIC), "{cli} as {role:?}: {prompt}");
            let offered = tools(cli, call);
            assert!(tools_allowed(cli, role, &offered), "{cli} as {role:?} offers: {}", call.body["tools"]);
            if (cli, role) == ("codex", Role::Judge) {
                // `--output-schema`: Codex holds its model to the verdict's schema.
                let format = &call.body["text"]["format"];
                assert_eq!(format["type"], "json_schema", "{}", call.body["text"]);
                assert!(format["schema"]["properties"]["resolved"].is_object(), "{format}");
            }
        }
        if cli == "claude" {
            // heat's brief stands where Claude Code's own system prompt would.
            let system = calls[0].system();
            assert!(system.contains(heat::provider::agent::CLAUDE_SYSTEM), "{system}");
        }
    }
}

/// Whether `offered` (sorted names) is what the CLI in `role` may offer
/// its model: Claude Code nothing, bar the `StructuredOutput` tool
/// `--json-schema` adds for a judge; Gemini CLI nothing (its admin policy
/// denies every tool). Codex CLI 0.171 still offers `apply_patch`: no
/// switch or setting of its own removes it (only a model catalog of one's
/// own does), and the read-only sandbox heat runs it in refuses any edit it
/// asks for. Nothing besides.
fn tools_allowed(cli: &str, role: Role, offered: &[String]) -> bool {
    match (cli, role) {
        ("claude", Role::Judge) => offered == ["StructuredOutput"],
        ("codex", _) => offered.iter().all(|name| name == "apply_patch"),
        _ => offered.is_empty(),
    }
}

/// The names of the tools a request offers, sorted.
fn tools(cli: &str, request: &Recorded) -> Vec<String> {
    let listed = request.body["tools"].as_array().cloned().unwrap_or_default();
    let mut names: Vec<String> = match cli {
        // Gemini lists declarations inside each tool (`[{"functionDeclarations": []}]`); any other key
        // of a tool (`googleSearch`, `codeExecution`) is a tool too.
        "gemini" => listed
            .iter()
            .flat_map(|tool| {
                let object = tool.as_object().cloned().unwrap_or_default();
                object.into_iter().flat_map(|(key, value)| match (key.as_str(), value) {
                    ("functionDeclarations", Value::Array(declared)) => {
                        declared.iter().map(|d| d["name"].as_str().unwrap_or("?").to_string()).collect::<Vec<_>>()
                    }
                    _ => vec![key],
                })
            })
            .collect(),
        // Anthropic's tools by `name`; the Responses API's by `name`, or by `type` for a built-in (`web_search`).
        _ => listed.iter().map(|t| t["name"].as_str().or(t["type"].as_str()).unwrap_or("?").to_string()).collect(),
    };
    names.sort();
    names
}

/// Whether `request` asks the model for a turn (not a preflight or a count of tokens).
fn asks_the_model(cli: &str, request: &Recorded) -> bool {
    let path = request.path.split('?').next().unwrap_or_default();
    request.method == "POST"
        && match cli {
            "claude" => path == "/v1/messages",
            "codex" => path == "/v1/responses",
            _ => path.ends_with(":streamGenerateContent") || path.ends_with(":generateContent"),
        }
}

fn seat_word(role: Role) -> &'static str {
    match role {
        Role::Advocate => "advocate",
        Role::Skeptic => "skeptic",
        _ => "judge",
    }
}

fn title(cli: &str) -> &'static str {
    heat::provider::agent::preset(cli).unwrap().title
}

// ---------------------------------------------------------------- the servers

/// heat's prompt as the CLI passed it on: the text in the request that
/// holds heat's brief (a message's content, a part, an input item).
fn prompt_of(request: &Recorded) -> Option<String> {
    fn find(value: &Value) -> Option<&str> {
        match value {
            Value::String(s) if s.contains("# Your brief") => Some(s),
            Value::Array(items) => items.iter().find_map(find),
            Value::Object(fields) => fields.values().find_map(find),
            _ => None,
        }
    }
    find(&request.body).map(str::to_string)
}

/// What a seat says to `prompt`: the judge's verdict (open after round 1,
/// settled after), a debater's argument for the round; `None` for a prompt
/// that names no seat.
fn answer(prompt: &str) -> Option<String> {
    // The turn asked for comes last, after `# Now`.
    let now = prompt.rsplit_once("# Now").map_or(prompt, |(_, now)| now);
    let round = round_of(now).clamp(1, 3) - 1;
    if prompt.contains("You are the JUDGE") {
        Some(if round == 0 { OPEN } else { SETTLED }.to_string())
    } else if prompt.contains("You are the ADVOCATE") {
        Some(ADVOCATE[round].to_string())
    } else if prompt.contains("You are the SKEPTIC") {
        Some(SKEPTIC[round].to_string())
    } else {
        None
    }
}

/// The round a turn asks for (`Round 2 of 3.`); 1 if it names none.
fn round_of(now: &str) -> usize {
    now.match_indices("Round ")
        .find_map(|(at, word)| {
            let rest = &now[at + word.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            rest[digits.len()..].starts_with(" of").then(|| digits.parse().ok()).flatten()
        })
        .unwrap_or(1)
}

fn not_found() -> Reply {
    Reply::error(404, r#"{"error":{"code":404,"message":"not found (heat's mock server)"}}"#)
}

fn unknown_prompt() -> Reply {
    Reply::error(400, r#"{"error":{"code":400,"message":"the mock server found no seat's prompt in this request"}}"#)
}

/// A preflight `HEAD` (Claude Code sends one to its base URL): no body.
fn head() -> Reply {
    Reply { pieces: Vec::new(), ..Reply::error(404, "") }
}

/// The Anthropic Messages API, as Claude Code calls it (`/v1/messages?beta=true`).
fn anthropic(request: &Recorded) -> Reply {
    let path = request.path.split('?').next().unwrap_or_default();
    match (request.method.as_str(), path) {
        ("HEAD", _) => return head(),
        ("POST", "/v1/messages/count_tokens") => {
            return Reply::error(200, r#"{"input_tokens":123}"#);
        }
        ("POST", "/v1/messages") => {}
        _ => return not_found(),
    }
    let Some(said) = prompt_of(request).as_deref().and_then(answer) else { return unknown_prompt() };
    let offered = request.body["tools"].as_array().is_some_and(|t| t.iter().any(|t| t["name"] == "StructuredOutput"));
    if offered {
        // `--json-schema`: the verdict comes as the StructuredOutput tool's input.
        let parts = split_text(&said, 3);
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        Reply::sse(&anthropic_tool_sse("StructuredOutput", &parts), 64)
    } else {
        Reply::sse(&anthropic_sse_text(&said, 4), 64)
    }
}

/// OpenAI's Responses API, as Codex CLI calls it (`/v1/responses`).
fn responses(request: &Recorded) -> Reply {
    if request.method == "HEAD" {
        return head();
    }
    if request.method != "POST" || request.path.split('?').next() != Some("/v1/responses") {
        return not_found();
    }
    let Some(said) = prompt_of(request).as_deref().and_then(answer) else { return unknown_prompt() };
    Reply::sse(&responses_sse(&said, 3, request.body["model"].as_str().unwrap_or("gpt-5.5")), 64)
}

/// Gemini's API, as Gemini CLI calls it (`/v1beta/models/M:streamGenerateContent?alt=sse`).
fn gemini(request: &Recorded) -> Reply {
    if request.method == "HEAD" {
        return head();
    }
    let path = request.path.split('?').next().unwrap_or_default();
    let model = path.rsplit("/models/").next().and_then(|m| m.split(':').next()).unwrap_or("gemini");
    if request.method != "POST" {
        return not_found();
    }
    if path.ends_with(":countTokens") {
        return Reply::error(200, r#"{"totalTokens":123}"#);
    }
    let streamed = path.ends_with(":streamGenerateContent");
    if !streamed && !path.ends_with(":generateContent") {
        return not_found();
    }
    let Some(said) = prompt_of(request).as_deref().and_then(answer) else { return unknown_prompt() };
    if streamed {
        return Reply::sse(&gemini_sse(&said, 4, model), 64);
    }
    let whole = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": said}]}, "finishReason": "STOP", "index": 0}], "usageMetadata": {"promptTokenCount": 1234, "candidatesTokenCount": 56, "totalTokenCount": 1290}, "modelVersion": model});
    Reply::error(200, &whole.to_string())
}

// ---------------------------------------------------------------- the CLIs

const CLIS: [&str; 3] = ["claude", "codex", "gemini"];

/// The real CLIs, linked into one folder heat finds first on its PATH.
struct Clis {
    _dir: tempfile::TempDir,
    bin: PathBuf,
    /// (CLI, the first line its `--version` printed).
    versions: Vec<(&'static str, String)>,
}

impl Clis {
    fn version(&self, cli: &str) -> &str {
        self.versions.iter().find(|(name, _)| *name == cli).map(|(_, v)| v.as_str()).unwrap()
    }
}

fn required() -> bool {
    std::env::var("HEAT_REQUIRE_AGENT_CLIS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `name`'s program: the first on the PATH, else the one in `$HEAT_AGENT_CLIS`.
fn locate(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.extend(std::env::var_os("HEAT_AGENT_CLIS").filter(|d| !d.is_empty()).map(PathBuf::from));
    dirs.into_iter().map(|dir| dir.join(name)).find(|program| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(program).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// The first line `program --version` prints, within 30 s, run with a
/// fresh home; `None` if it fails or takes longer.
fn version_of(program: &Path) -> Option<String> {
    let home = tempfile::tempdir().ok()?;
    let mut child = std::process::Command::new(program)
        .arg("--version")
        .env("HOME", home.path())
        .env("TMPDIR", home.path())
        .env("CODEX_HOME", home.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().ok()? {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut out).ok()?;
    status.success().then(|| out.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_string)).flatten()
}

/// The three CLIs, or `None` after saying why the test is skipped (a
/// failure under `HEAT_REQUIRE_AGENT_CLIS=1`). The line goes to stderr past
/// the test harness's capture, so it shows even when the test passes.
fn clis_or_skip(test: &str) -> Option<Clis> {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let (mut versions, mut missing) = (Vec::new(), Vec::new());
    for name in CLIS {
        let found = locate(name);
        match found.as_deref().and_then(|program| Some((program, version_of(program)?))) {
            Some((program, version)) => {
                std::os::unix::fs::symlink(program, bin.join(name)).unwrap();
                versions.push((name, version));
            }
            None if found.is_some() => missing.push(format!("{name} (its --version failed)")),
            None => missing.push(name.to_string()),
        }
    }
    if missing.is_empty() {
        return Some(Clis { _dir: dir, bin, versions });
    }
    let install = "npm install --prefix DIR @anthropic-ai/claude-code @openai/codex @google/gemini-cli, then \
                   HEAT_AGENT_CLIS=DIR/node_modules/.bin";
    assert!(
        !required(),
        "HEAT_REQUIRE_AGENT_CLIS is set but these agent CLIs were not found on the PATH or in \
         $HEAT_AGENT_CLIS: {} (install them: {install})",
        missing.join(", ")
    );
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: agent CLIs not found on the PATH or in $HEAT_AGENT_CLIS: {}. Install them ({install}) \
         or set HEAT_REQUIRE_AGENT_CLIS=1 to fail instead.",
        missing.join(", ")
    );
    None
}

/// heat, set up so each CLI it starts calls its mock server
/// (`[anthropic, openai, gemini]`'s base URLs) and nothing else of the
/// machine's: a fresh home and temp folder, the servers' addresses and
/// made-up keys, no proxy, none of the variables that point a CLI at an
/// account or a config of the user's.
fn heat(dir: &Path, data: &Path, clis: &Clis, [anthropic, openai, google]: [&String; 3]) -> assert_cmd::Command {
    // `codex exec --ignore-user-config` reads no config.toml: its provider comes as arguments added to
    // the preset's (`args`), so a Codex judge is still held to the verdict's schema by `--output-schema`.
    let provider = format!(
        "model_providers.local={{name=\"local\",base_url=\"{openai}/v1\",env_key=\"LOCAL_KEY\",wire_api=\"responses\",\
         request_max_retries=0,stream_max_retries=0}}"
    );
    let words: Vec<String> = ["-c".to_string(), "model_provider=\"local\"".into(), "-c".into(), provider]
        .iter()
        .map(|w| serde_json::to_string(w).unwrap())
        .collect();
    let config = format!("[network]\nmax_retries = 0\n\n[providers.codex]\nargs = [{}]\n", words.join(", "));
    let mut cmd = support::binary::heat(data, &config);

    let (home, tmp, codex_home) = (dir.join("home"), dir.join("tmp"), dir.join("codex-home"));
    // Gemini CLI takes a gateway's base URL for a login it refuses headless unless a key is chosen.
    let settings = json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false, "maxAttempts": 2},
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false}
    });
    for folder in [&home.join(".gemini"), &tmp, &codex_home] {
        std::fs::create_dir_all(folder).unwrap();
    }
    std::fs::write(home.join(".gemini/settings.json"), settings.to_string()).unwrap();

    for name in [
        "CLAUDE_CONFIG_DIR",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_MODEL",
        "CLAUDE_CODE_USE_BEDROCK",
        "CLAUDE_CODE_USE_VERTEX",
        "GEMINI_CLI_HOME",
        "GOOGLE_API_KEY",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "CODEX_API_KEY",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        cmd.env_remove(name);
    }
    let path = format!("{}:{}", clis.bin.display(), std::env::var("PATH").unwrap_or_default());
    cmd.env("PATH", path)
        .env("HOME", &home)
        .env("TMPDIR", &tmp)
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost")
        // Claude Code
        .env("ANTHROPIC_BASE_URL", anthropic)
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        // Gemini CLI
        .env("GOOGLE_GEMINI_BASE_URL", google)
        .env("GEMINI_API_KEY", "test-key")
        // Codex CLI
        .env("LOCAL_KEY", "test-key")
        .env("CODEX_HOME", &codex_home)
        .timeout(Duration::from_secs(150));
    cmd
}

fn stored(data: &Path) -> Vec<DebateEvent> {
    let store = Store::open(data).unwrap();
    let id = store.resolve(None).unwrap();
    store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect()
}

/// The line-up people ask for: Claude Code for, Codex against, Gemini CLI
/// judging (its verdict's schema in the prompt alone: it has no option).
#[tokio::test(flavor = "multi_thread")]
async fn claude_argues_for_codex_against_and_gemini_judges() {
    let Some(clis) = clis_or_skip("claude_argues_for_codex_against_and_gemini_judges") else { return };
    duel(
        &clis,
        [
            (Role::Advocate, "claude", "sonnet"),
            (Role::Skeptic, "codex", "gpt-5.5"),
            (Role::Judge, "gemini", "gemini-2.5-pro"),
        ],
    )
    .await;
}
