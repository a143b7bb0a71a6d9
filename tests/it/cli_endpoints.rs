//! Endpoints heat.toml defines (`[providers.NAME]` with a `kind`), from the
//! binary: three seats on three endpoints in one debate, two mock servers
//! on two ports (one on OpenAI's wire, one on Anthropic's) and the embedded
//! model. Each seat's requests reach only its endpoint, with that
//! endpoint's own key and headers; the log records which endpoint each seat
//! argued on; and `heat resume` asks the same endpoints, though a flag
//! seated one of them.
#![allow(clippy::unwrap_used)]

use crate::{model_support, support};

use std::path::Path;

use heat::debate::{DebateState, Role};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse, openai_sse_text};

const KEY_A: &str = "key-a-7f01";
const KEY_B: &str = "key-b-93c2";

/// A round's argument, new each round (a repeated one is asked for again).
fn argument(request: &Recorded, round_1: &str, round_2: &str) -> String {
    if request.last_message().contains("Round 1 of") { round_1 } else { round_2 }.to_string()
}

fn box_a(request: &Recorded) -> Reply {
    let text = argument(request, "Tabs let every reader choose a width.", "Alignment survives any indent width too.");
    Reply::sse(&openai_sse_text(&text, 6), 64)
}

fn box_b(request: &Recorded) -> Reply {
    let text = argument(request, "Spaces render the same everywhere.", "Mixed files break review tools daily.");
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}

fn config(a: &MockLlm, b: &MockLlm, model: &Path) -> String {
    format!(
        "[roles.advocate]\nprovider = \"box-a\"\n\n[roles.judge]\nprovider = \"local\"\n\n\
         [providers.box-a]\nkind = \"openai\"\nbase_url = \"{}/v1\"\napi_key_env = \"BOX_A_KEY\"\nmodel = \"alpha-7b\"\n\n\
         [providers.box-a.headers]\nX-Title = \"heat-test\"\n\n\
         [providers.box-b]\nkind = \"anthropic\"\nbase_url = \"{}\"\napi_key_env = \"BOX_B_KEY\"\n\n\
         [providers.local]\nmodel_path = \"{}\"\nthreads = 1\nseed = 7\nmax_tokens = 48\n\n[network]\nmax_retries = 0\n",
        a.base_url,
        b.base_url,
        model.display()
    )
}

fn heat(data: &Path, text: &str) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, text);
    cmd.env("BOX_A_KEY", KEY_A).env("BOX_B_KEY", KEY_B).timeout(std::time::Duration::from_secs(600));
    cmd
}

fn stored(data: &Path) -> DebateState {
    let store = Store::open(data).unwrap();
    let id = store.resolve(None).unwrap();
    DebateState::from_events(store.load(&id).unwrap().records.iter().map(|r| &r.event))
}

/// Every request `server` took is the seat's own: its path, model, key
/// header and role, and none carries the other endpoint's key.
fn only_its_own(server: &MockLlm, path: &str, model: &str, key: (&str, &str), role: &str, other_key: &str) -> usize {
    let requests = server.requests();
    for request in &requests {
        assert_eq!(request.path, path);
        assert_eq!(request.body["model"], model, "{}", request.body);
        assert_eq!(request.header(key.0), Some(key.1));
        assert!(request.system().contains(role), "{}", request.system());
        let headers = format!("{:?}", request.headers);
        assert!(!headers.contains(other_key), "the other endpoint's key reached this one: {headers}");
    }
    requests.len()
}

/// The requests each server took, each checked to be its own seat's.
fn asked(a: &MockLlm, b: &MockLlm) -> (usize, usize) {
    let bearer = format!("Bearer {KEY_A}");
    let at_a =
        only_its_own(a, "/v1/chat/completions", "alpha-7b", ("authorization", &bearer), "You are the ADVOCATE", KEY_B);
    let at_b = only_its_own(b, "/v1/messages", "beta-large", ("x-api-key", KEY_B), "You are the SKEPTIC", KEY_A);
    (at_a, at_b)
}

#[tokio::test(flavor = "multi_thread")]
async fn three_seats_on_three_endpoints_each_reach_only_their_own_and_resume_asks_them_again() {
    let Some(model) = model_support::model_path() else { return };
    let (a, b) = (MockLlm::with_handler(box_a).await, MockLlm::with_handler(box_b).await);
    let data = tempfile::tempdir().unwrap();
    let text = config(&a, &b, &model);
    let args = ["run", "Tabs beat spaces", "--max-rounds", "1", "--seat", "skeptic=box-b:beta-large"];
    let mut run = heat(data.path(), &text);
    run.args(args);
    let out = tokio::task::spawn_blocking(move || run.output().unwrap()).await.unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("box-a/alpha-7b") && stdout.contains("box-b/beta-large"), "{stdout}");

    let (at_a, at_b) = asked(&a, &b);
    assert_eq!((at_a, at_b), (1, 1), "one turn each in one round");
    assert_eq!(a.requests()[0].header("x-title"), Some("heat-test"), "the endpoint's own header");
    assert_eq!(b.requests()[0].header("x-title"), None, "and only there");

    let state = stored(data.path());
    let on = |role: Role| state.participant(role).map(|p| (p.provider.clone(), p.model.clone())).unwrap();
    assert_eq!(on(Role::Advocate), ("box-a".to_string(), "alpha-7b".to_string()));
    assert_eq!(on(Role::Skeptic), ("box-b".to_string(), "beta-large".to_string()));
    assert_eq!(on(Role::Judge).0, "local");
    assert_eq!(state.rounds.len(), 1);
    assert!(state.rounds[0].turn(Role::Judge).is_some(), "the embedded model judged");

    // Resumed without the flag that seated the skeptic: the log seats it.
    let mut resume = heat(data.path(), &text);
    resume.args(["resume", "--more", "1", "--json"]);
    let out = tokio::task::spawn_blocking(move || resume.output().unwrap()).await.unwrap();
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let (at_a, at_b) = asked(&a, &b);
    assert_eq!((at_a, at_b), (2, 2), "round 2 asked the same endpoints");
    assert_eq!(stored(data.path()).rounds.len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_whose_endpoint_is_gone_is_refused_on_resume_not_moved() {
    let server = MockLlm::with_handler(|request| {
        support::duel::reply(request, |_| {
            r#"{"resolved": false, "verdict": "Both held.", "topic": "What about diffs?", "heat": 0.6}"#.into()
        })
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let text = format!(
        "[roles]\nprovider = \"gone-box\"\nmodel = \"m1\"\n\n[providers.gone-box]\nkind = \"anthropic\"\n\
         base_url = \"{}\"\napi_key_env = \"BOX_B_KEY\"\n\n[network]\nmax_retries = 0\n",
        server.base_url
    );
    let mut run = heat(data.path(), &text);
    run.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let out = tokio::task::spawn_blocking(move || run.output().unwrap()).await.unwrap();
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let asked = server.requests().len();
    std::fs::write(data.path().join("heat.toml"), "[roles]\nprovider = \"auto\"\n").unwrap();
    let mut resume = heat(data.path(), "");
    resume.env("ANTHROPIC_API_KEY", "sk-ant-elsewhere").args(["resume", "--more", "1", "--json"]);
    let out = tokio::task::spawn_blocking(move || resume.output().unwrap()).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success(), "resumed on another provider: {stderr}");
    assert!(stderr.contains("argued on `gone-box`, which heat does not know now"), "{stderr}");
    assert_eq!(server.requests().len(), asked, "nothing more was asked");
}

/// OpenRouter's model list as its API serves it (trimmed): prices in
/// dollars a token, as text.
const OPENROUTER_MODELS: &str = r#"{"data":[{"id":"openai/gpt-4.1-mini","name":"OpenAI: GPT-4.1 Mini","pricing":{"prompt":"0.0000004","completion":"0.0000016","request":"0","input_cache_read":"0.0000001"}},{"id":"acme/unpriced","name":"Acme"}]}"#;

fn openrouter(request: &Recorded) -> Reply {
    if request.path == "/api/v1/models" {
        return Reply::error(200, OPENROUTER_MODELS);
    }
    let text = if request.system().contains("You are the JUDGE") {
        r#"{"resolved": false, "verdict": "Both held.", "topic": "What about diffs?", "heat": 0.6}"#.to_string()
    } else {
        argument(request, "Tabs let every reader choose a width.", "Alignment survives any indent width too.")
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&support::mock_llm::openai_sse(&words, None), 64)
}

/// Prices an endpoint's model list carries (OpenRouter's) price the seats
/// that have none of their own, said at the start, and a dollar budget
/// counts them; a model the list does not price stays unknown, and says so.
#[tokio::test(flavor = "multi_thread")]
async fn openrouters_listed_prices_price_its_seats_and_a_model_it_does_not_price_stays_unknown() {
    let server = MockLlm::with_handler(openrouter).await;
    let data = tempfile::tempdir().unwrap();
    let text = format!(
        "[roles]\nprovider = \"openrouter\"\nmodel = \"openai/gpt-4.1-mini\"\n\n[providers.openrouter]\n\
         base_url = \"{}/api/v1\"\n\n[debate]\nbudget_usd = 0.00004\n\n[network]\nmax_retries = 0\n",
        server.base_url
    );
    let mut run = heat(data.path(), &text);
    run.env("OPENROUTER_API_KEY", "sk-or-test").args(["run", "Tabs beat spaces", "--max-rounds", "3"]);
    let out = tokio::task::spawn_blocking(move || run.output().unwrap()).await.unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    let said = "The advocate's price is openrouter's for openai/gpt-4.1-mini: $0.40 in, $1.60 out per million tokens";
    assert!(stderr.contains(said), "{stdout}{stderr}");
    assert!(stderr.contains("heat: stopped at its budget: ") && stderr.contains("(debate.budget_usd)"), "{stderr}");
    assert_eq!(out.status.code(), Some(3), "stopped at the budget the listed prices counted");
    let listed = server.requests().into_iter().filter(|r| r.path == "/api/v1/models").count();
    assert_eq!(listed, 1, "the list is asked once for every seat on it");

    // A model the list carries no price for: unknown, said, and the dollar budget counts nothing.
    let data = tempfile::tempdir().unwrap();
    let text = text.replace("openai/gpt-4.1-mini", "acme/unpriced");
    let mut run = heat(data.path(), &text);
    run.env("OPENROUTER_API_KEY", "sk-or-test").args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let out = tokio::task::spawn_blocking(move || run.output().unwrap()).await.unwrap();
    let said = format!("{}{}", support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{said}");
    assert!(said.contains("openrouter lists no price for acme/unpriced: the advocate's cost stays unknown"), "{said}");
    assert!(said.contains("debate.budget_usd counts nothing"), "{said}");
}

/// The Gemini API preset (`--provider gemini-api`): its key from
/// `GEMINI_API_KEY` as a bearer token, its default model, requests at its
/// OpenAI-compatible base URL's `/chat/completions`; without the key, one
/// sentence naming the variable and nothing asked.
#[tokio::test(flavor = "multi_thread")]
async fn the_gemini_api_preset_sends_its_key_and_default_model_to_its_openai_route() {
    let server = MockLlm::with_handler(|request: &Recorded| {
        if request.path.ends_with("/models") {
            return Reply::error(200, r#"{"object":"list","data":[{"id":"gemini-2.5-flash","object":"model"}]}"#);
        }
        let text = if request.system().contains("You are the JUDGE") {
            r#"{"resolved": true, "verdict": "Both held.", "topic": "t", "heat": 0.4}"#
        } else {
            "Tabs let every reader choose a width."
        };
        let words: Vec<&str> = text.split_inclusive(' ').collect();
        Reply::sse(&support::mock_llm::openai_sse(&words, None), 64)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let text = format!(
        "[providers.gemini-api]\nbase_url = \"{}/v1beta/openai\"\n\n[network]\nmax_retries = 0\n",
        server.base_url
    );
    let mut run = heat(data.path(), &text);
    run.env("GEMINI_API_KEY", "gem-test-key").args([
        "run",
        "--provider",
        "gemini-api",
        "Tabs beat spaces",
        "--max-rounds",
        "1",
    ]);
    let out = tokio::task::spawn_blocking(move || run.output().unwrap()).await.unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("advocate  gemini-api/gemini-2.5-flash"), "{stdout}");
    let chats: Vec<Recorded> = server.requests().into_iter().filter(|r| r.method == "POST").collect();
    assert!(!chats.is_empty());
    for chat in &chats {
        assert_eq!(chat.path, "/v1beta/openai/chat/completions");
        assert_eq!(chat.header("authorization"), Some("Bearer gem-test-key"));
        assert_eq!(chat.body["model"], "gemini-2.5-flash");
    }

    let data = tempfile::tempdir().unwrap();
    let mut run = heat(data.path(), &text);
    run.env_remove("GEMINI_API_KEY").args(["run", "--provider", "gemini-api", "Tabs beat spaces", "--max-rounds", "1"]);
    let asked = server.requests().len();
    let out = tokio::task::spawn_blocking(move || run.output().unwrap()).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("GEMINI_API_KEY"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one sentence: {stderr}");
    assert_eq!(server.requests().len(), asked, "nothing asked without the key");
}
