//! `heat doctor`: checks what a debate needs (the config, the data and log
//! directories, each provider with a live request and a few tokens on the
//! chat path and for the verdict, the offline model and its hash, the
//! terminal) and prints one line per check: what works, and for what does
//! not, the cause and the fix. Exits non-zero when a debate could
//! not run as configured. Keys are named by where they come from, never shown.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use super::probe::Probe;
use crate::config::{Config, Source};
use crate::logging::{self, LogLevel};
use crate::model_store;
use crate::setup::{self, ProviderKind};
use crate::store::{self, Store};
use crate::tui::view::{MIN_HEIGHT, MIN_WIDTH, SIDE_BY_SIDE};

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Ok,
    /// Works, but worth knowing (e.g. not installed yet; installs on first use).
    Note,
    /// Something a debate as configured needs is broken.
    Fail,
}

/// The checks' lines, each printed the moment its check finishes (a live
/// request can take seconds: the ones before it are not held back).
struct Report {
    failed: bool,
}

impl Report {
    fn add(&mut self, mark: Mark, what: &'static str, detail: impl Into<String>) {
        self.failed |= mark == Mark::Fail;
        let sign = match mark {
            Mark::Ok => "ok  ",
            Mark::Note => "note",
            Mark::Fail => "FAIL",
        };
        show!("{sign}  {what:<12} {}", detail.into());
    }
}

/// Runs every check. `config` is the config as loaded, or why it failed.
pub async fn doctor(config: anyhow::Result<Config>, level: LogLevel) -> anyhow::Result<ExitCode> {
    let mut report = Report { failed: false };
    let config = match config {
        Ok(config) => {
            let detail = match &config.file {
                Some((path, true)) => format!("{} (read)", path.display()),
                Some((path, false)) => format!("{} (not present; built-in defaults)", path.display()),
                None => "built-in defaults".into(),
            };
            report.add(Mark::Ok, "config", detail);
            Some(config)
        }
        Err(e) => {
            report.add(Mark::Fail, "config", format!("{e:#}"));
            None
        }
    };
    let data_dir = data_dir_check(&mut report);
    if let Some(dir) = &data_dir {
        let logs = logging::log_dir(dir);
        report.add(Mark::Ok, "log", format!("{} (level {level}; set with --log-level or HEAT_LOG)", logs.display()));
    }
    if let Some(config) = &config {
        formats_check(&mut report, config);
        providers_check(&mut report, config, data_dir.as_deref()).await;
        model_check(&mut report, config, data_dir.as_deref());
    }
    terminal_check(&mut report);

    let mut out = std::io::stdout().lock();
    if report.failed {
        writeln!(out, "\nheat cannot run a debate as configured: fix the FAIL lines above.")?;
        return Ok(ExitCode::FAILURE);
    }
    writeln!(out, "\nheat can run a debate.")?;
    Ok(ExitCode::SUCCESS)
}

fn data_dir_check(report: &mut Report) -> Option<PathBuf> {
    let dir = match store::data_dir() {
        Ok(dir) => dir,
        Err(e) => {
            report.add(Mark::Fail, "data dir", format!("{e:#}"));
            return None;
        }
    };
    match Store::open(&dir).and_then(|store| writable(store.dir()).map(|()| store)) {
        Ok(store) => {
            let sessions = store.list().len();
            report.add(
                Mark::Ok,
                "data dir",
                format!("{} (writable; {})", dir.display(), crate::words::count(sessions, "stored debate")),
            );
            Some(dir)
        }
        // Each of these errors ends in what to do about it.
        Err(e) => {
            report.add(Mark::Fail, "data dir", format!("{e:#}"));
            None
        }
    }
}

/// The format in force, and each user format file that cannot be used.
fn formats_check(report: &mut Report, config: &Config) {
    let catalog = crate::format::Catalog::load(crate::format::layer::user_dir(config).as_deref());
    match crate::format::layer::chosen(config) {
        Ok(format) => {
            let count = catalog.formats.len();
            report.add(
                Mark::Ok,
                "format",
                format!("{} ({}; `heat formats` lists them)", format.name, crate::words::count(count, "format")),
            );
        }
        Err(e) => report.add(Mark::Fail, "format", format!("{e:#}")),
    }
    for problem in &catalog.problems {
        report.add(Mark::Note, "format", format!("not used: {}", crate::sanitize::clean(problem)));
    }
}

fn writable(dir: &Path) -> anyhow::Result<()> {
    tempfile::NamedTempFile::new_in(dir).map(drop).map_err(|e| {
        anyhow::anyhow!(
            "{} is not writable: {e}; make it writable or set HEAT_DATA_DIR to a directory you own",
            dir.display()
        )
    })
}

async fn providers_check(report: &mut Report, config: &Config, data_dir: Option<&Path>) {
    let env = setup::discover(config).await;
    let selection = match setup::select(config, &env) {
        Ok(selection) => selection,
        Err(e) => {
            report.add(Mark::Fail, "providers", format!("{e:#}"));
            return;
        }
    };
    for choice in &selection.roles {
        report.add(Mark::Ok, choice.role.key(), format!("{}/{} ({})", choice.kind, choice.model, choice.why));
    }
    // What the newest debates learnt, read once for every provider's line.
    let learnt = data_dir.and_then(|dir| Store::open(dir).ok()).map(|store| store.learnt(LEARNT_FROM));
    let mut checked = Vec::new();
    for choice in &selection.roles {
        if checked.contains(&choice.kind) {
            continue;
        }
        checked.push(choice.kind);
        let reachable = if choice.kind.is_embedded() {
            Reach::No // the model check below covers it
        } else if choice.kind.is_person() {
            let seats: Vec<&str> =
                selection.roles.iter().filter(|r| r.kind.is_person()).map(|r| r.role.key()).collect();
            let how = "the studio opens an editor in the seat's pane; `heat run` reads standard input";
            report.add(Mark::Ok, "you", format!("a person takes the {} seat: {how}", seats.join(" and ")));
            Reach::No
        } else if choice.kind.is_agent() {
            agent_check(report, config, choice.kind, &choice.model).await;
            Reach::No
        } else if choice.kind == ProviderKind::OLLAMA {
            match &env.ollama {
                Ok(models) => {
                    let base = setup::ollama_base(config);
                    report.add(
                        Mark::Ok,
                        "ollama",
                        format!("{base} answers with {}", crate::words::count(models.len(), "model")),
                    );
                    Reach::Yes
                }
                Err(why) => {
                    report.add(Mark::Fail, "ollama", why.clone());
                    Reach::No
                }
            }
        } else {
            let (mark, detail) = http_check(config, choice.kind).await;
            // A model list the server does not serve matters only if
            // chatting fails too: that line waits for the chat checks.
            if mark == Mark::Ok || !detail.contains("to a model list request") {
                report.add(mark, choice.kind.name(), detail);
                Reach::from(mark == Mark::Ok)
            } else {
                Reach::ChatOnly(mark, detail)
            }
        };
        if let Reach::Yes | Reach::ChatOnly(..) = reachable {
            if choice.kind == ProviderKind::OPENAI {
                limits_check(report, config, env.openai_limits);
            }
            let streams = live_checks(report, config, &selection, choice.kind).await;
            if let Reach::ChatOnly(mark, detail) = reachable {
                report.add(if streams { Mark::Note } else { mark }, choice.kind.name(), detail);
            }
        }
        if let (Some(learnt), Some(endpoint)) =
            (&learnt, setup::http_model(config, choice.kind).and_then(|m| m.endpoint()))
        {
            learnt_check(report, learnt, &endpoint, choice.kind.name());
        }
    }
}

/// Whether a provider's server answered well enough to spend tokens on it.
enum Reach {
    Yes,
    No,
    /// It refused the model list (`Mark` and line held back until the chat
    /// checks say whether that matters).
    ChatOnly(Mark, String),
}

impl From<bool> for Reach {
    fn from(yes: bool) -> Self {
        if yes { Self::Yes } else { Self::No }
    }
}
/// What an OpenAI-compatible server at a custom base URL gives each
/// request, as heat will keep to it: the config's limits, else what the
/// server states (llama.cpp's `/props`), else that it is learnt on the way.
fn limits_check(report: &mut Report, config: &Config, stated: setup::ServerLimits) {
    let Some(base) = config.text("providers.openai.base_url").filter(|b| !b.contains("api.openai.com")) else {
        return;
    };
    let set = |key: &str| config.int(&format!("providers.openai.{key}")).and_then(|n| u32::try_from(n).ok());
    let slots = set("max_concurrent").or(stated.slots);
    let context = set("max_context").or(stated.context);
    let (mark, detail) = match (slots, context) {
        (Some(slots), Some(context)) => (
            Mark::Ok,
            format!(
                "{base}: {slots} at once, {} tokens of context each; heat keeps to both",
                crate::words::thousands(u64::from(context))
            ),
        ),
        (slots, None) => (
            Mark::Note,
            format!(
                "{base} states no context{}: heat learns it from the first prompt it refuses \
                 (providers.openai.max_context sets it)",
                slots.map(|s| format!(" ({s} at once)")).unwrap_or_default()
            ),
        ),
        (None, Some(context)) => (
            Mark::Ok,
            format!(
                "{base}: {} tokens of context each; heat fits its prompts",
                crate::words::thousands(u64::from(context))
            ),
        ),
    };
    report.add(mark, "limits", detail);
}

/// How many of the newest debates are read for what they learnt.
const LEARNT_FROM: usize = 50;

/// What earlier debates learnt about `endpoint` (`provider`'s server), and
/// the setting that would start a debate there: each debate learns on its
/// own, once per server, at the cost of a refused or unreadable answer.
fn learnt_check(report: &mut Report, learnt: &[store::learnt::Learnt], endpoint: &str, provider: &str) {
    use crate::provider::Adaptation;
    let learnt: Vec<_> = learnt.iter().filter(|l| l.endpoint == endpoint).collect();
    let mut debates: Vec<&str> = learnt.iter().map(|l| l.session.as_str()).collect();
    debates.dedup();
    let adaptations = || learnt.iter().map(|l| &l.adaptation);
    let mut lessons = Vec::new();
    if let Some(form) = adaptations()
        .filter_map(|a| if let Adaptation::StructuredOutput { form } = a { Some(*form) } else { None })
        .max()
    {
        let form = form.setting();
        lessons.push(format!("verdicts as {form} (providers.{provider}.structured_output = \"{form}\")"));
    }
    if let Some(tokens) = adaptations()
        .filter_map(|a| if let Adaptation::ContextWindow { tokens } = a { Some(*tokens) } else { None })
        .min()
    {
        let context = crate::words::thousands(u64::from(tokens));
        lessons.push(format!("{context} tokens of context (providers.{provider}.max_context = {tokens})"));
    }
    if adaptations().any(|a| *a == Adaptation::OneAtATime) {
        lessons.push(format!("one request at a time (providers.{provider}.max_concurrent = 1)"));
    }
    if adaptations().any(|a| *a == Adaptation::CappedStrings) {
        lessons.push("verdict text capped in length (learnt again by each debate, at one unreadable verdict)".into());
    }
    if lessons.is_empty() {
        return;
    }
    let server = crate::debate::endpoint_label(endpoint);
    let from = crate::words::count(debates.len(), "earlier debate");
    report.add(Mark::Note, "learnt", format!("{server}, from {from}: {}", lessons.join("; ")));
}

/// Spends a few tokens to check what a debate needs from `kind`: each model
/// the roles use streams on the chat path, and the judge's verdict comes
/// back in a form of structured output the server takes. Whether every
/// model streams.
async fn live_checks(report: &mut Report, config: &Config, selection: &setup::Selection, kind: ProviderKind) -> bool {
    let Some(model) = setup::http_model(config, kind) else { return false };
    let mut models: Vec<&str> = Vec::new();
    for choice in selection.roles.iter().filter(|c| c.kind == kind) {
        if !models.contains(&choice.model.as_str()) {
            models.push(&choice.model);
        }
    }
    let mut streams = true;
    for name in models {
        let probe = super::probe::chat(Arc::clone(&model), name, super::probe::PROBE_TIME).await;
        streams &= !matches!(probe, Probe::Fail(_));
        add_probe(report, "chat", probe);
    }
    let judge = selection.roles.iter().find(|c| c.role == crate::debate::Role::Judge && c.kind == kind);
    if let Some(judge) = judge.filter(|_| streams) {
        let setting = match setup::structured_setting(config, kind) {
            Ok(setting) => setting,
            Err(e) => {
                report.add(Mark::Fail, "verdict", format!("{e:#}"));
                return streams;
            }
        };
        let probe = super::probe::verdict(Arc::clone(&model), &judge.model, setting, super::probe::PROBE_TIME).await;
        add_probe(report, "verdict", probe);
    }
    streams
}

/// An agent CLI a debate would seat: found, with its version (else how to
/// install it), then a one-line probe that says whether it is logged in
/// and answers, as a turn runs it.
async fn agent_check(report: &mut Report, config: &Config, kind: ProviderKind, model: &str) {
    let spec = match setup::agents::spec(config, kind) {
        Ok(Some(spec)) => spec,
        Ok(None) => return,
        Err(e) => {
            report.add(Mark::Fail, kind.name(), format!("{e:#}"));
            return;
        }
    };
    let program = spec.program().to_string();
    let tools = spec
        .reads
        .as_ref()
        .map_or_else(|| "its tools off".to_string(), |dir| format!("it may read {dir} and change nothing"));
    let (title, login, env, login_check) =
        (spec.title.clone(), spec.login.clone(), spec.env.clone(), spec.login_check.clone());
    let agent = match crate::provider::agent::AgentModel::new(spec) {
        Ok(agent) => agent,
        Err(e) => {
            report.add(Mark::Fail, kind.name(), e.sentence(kind.name()));
            return;
        }
    };
    let found = crate::provider::ChatModel::agent(&agent).unwrap_or_default();
    report.add(Mark::Ok, kind.name(), format!("{found} ({program}); {tools}, the prompt on standard input"));
    if let Some(check) = login_check {
        // The CLI's own word on its login, where it has one.
        if let Err(said) = logged_in(&check, &env).await {
            let how = login.map(|how| format!("; {how}")).unwrap_or_default();
            report.add(Mark::Fail, kind.name(), format!("{title} is not logged in: {said}{how}"));
            return;
        }
    }
    let probe = super::probe::chat(Arc::new(agent), model, super::probe::PROBE_TIME).await;
    add_probe(report, kind.name(), probe);
}

/// Runs an agent CLI's login check (`codex login status`): `Err` with its
/// first line when it says it is not logged in; a check that cannot run,
/// or runs past 15 s, says nothing either way.
async fn logged_in(words: &[String], env: &[(String, String)]) -> Result<(), String> {
    let Some((program, rest)) = words.split_first() else { return Ok(()) };
    let mut command = tokio::process::Command::new(program);
    command.args(rest).envs(env.iter().map(|(k, v)| (k, v))).stdin(std::process::Stdio::null()).kill_on_drop(true);
    let Ok(Ok(out)) = tokio::time::timeout(Duration::from_secs(15), command.output()).await else { return Ok(()) };
    if out.status.success() {
        return Ok(());
    }
    let lines: Vec<String> = [&out.stdout, &out.stderr]
        .iter()
        .flat_map(|bytes| String::from_utf8_lossy(bytes).lines().map(str::trim).map(str::to_string).collect::<Vec<_>>())
        .filter(|line| !line.is_empty())
        .collect();
    // Its word on the login, before any warning it prints first.
    let said = lines
        .iter()
        .find(|line| line.to_lowercase().contains("logged"))
        .or_else(|| lines.iter().find(|line| !line.to_lowercase().starts_with("warning")))
        .cloned()
        .unwrap_or_else(|| format!("{program} says so (exit status {})", out.status.code().unwrap_or(-1)));
    Err(crate::sanitize::one_line(&said))
}

fn add_probe(report: &mut Report, what: &'static str, probe: Probe) {
    match probe {
        Probe::Ok(detail) => report.add(Mark::Ok, what, detail),
        Probe::Note(detail) => report.add(Mark::Note, what, detail),
        Probe::Fail(detail) => report.add(Mark::Fail, what, detail),
    }
}

/// Asks the provider for its model list with the configured key: proves the
/// server is reachable and the key is accepted, without spending tokens.
async fn http_check(config: &Config, kind: ProviderKind) -> (Mark, String) {
    let key_key = format!("providers.{kind}.api_key");
    let var = kind.row().key_env.unwrap_or("its API key");
    let base = setup::base_url(config, kind).unwrap_or_default().trim_end_matches('/').to_string();
    let key = config.text(&key_key).map(str::trim);
    let key_from =
        config.get(&key_key).map_or_else(|| "no key".to_string(), |e| format!("key from {}", source(&e.source)));
    let headers = crate::provider::http::header_map(&setup::headers(config, kind));
    let client = match crate::provider::http::client_builder()
        .timeout(Duration::from_secs(5))
        .default_headers(headers)
        .build()
    {
        Ok(client) => client,
        Err(e) => return (Mark::Fail, format!("could not build an HTTP client: {e}")),
    };
    let (url, auth) = setup::models::list_request(config, kind);
    let request = auth.into_iter().fold(client.get(url), |request, (name, value)| request.header(name, value));
    match request.send().await {
        Ok(response) if response.status().is_success() => {
            let accepted = if key.is_some() { format!("accepted the {key_from}") } else { "needs no key".into() };
            (Mark::Ok, format!("{base} answered and {accepted}"))
        }
        Ok(response) if matches!(response.status().as_u16(), 401 | 403) => (
            Mark::Fail,
            format!("{base} refused the {key_from} ({}): check {var} (or the config's {key_key})", response.status()),
        ),
        Ok(response) => (Mark::Fail, format!("{base} answered {} to a model list request", response.status())),
        Err(e) if e.is_timeout() => (Mark::Fail, format!("{base} did not answer within 5 s")),
        Err(_) => (Mark::Fail, format!("cannot reach {base}: is the address right and the network up?")),
    }
}

fn source(source: &Source) -> String {
    match source {
        Source::Env(var) => (*var).to_string(),
        other => other.to_string(),
    }
}

fn model_check(report: &mut Report, config: &Config, data_dir: Option<&Path>) {
    if !cfg!(feature = "local") {
        report.add(Mark::Note, "offline", "this build has no embedded model (cargo feature `local`)");
        return;
    }
    let configured = config.text("providers.local.model_path").map(PathBuf::from);
    let path = match (&configured, data_dir) {
        (Some(path), _) => path.clone(),
        (None, Some(dir)) => model_store::default_model_path(dir),
        (None, None) => return,
    };
    if !path.is_file() {
        match configured {
            Some(_) => report.add(
                Mark::Fail,
                "offline",
                format!(
                    "the model file {} does not exist: fix HEAT_MODEL_PATH or providers.local.model_path",
                    path.display()
                ),
            ),
            None => report.add(
                Mark::Note,
                "offline",
                format!(
                    "{} is not installed yet; the first offline debate installs it (or run `heat model install`)",
                    model_store::DEFAULT_LABEL
                ),
            ),
        }
        return;
    }
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or_default();
    if configured.is_some() {
        report.add(Mark::Ok, "offline", format!("{} ({} MB)", path.display(), size / 1_000_000));
        return;
    }
    match model_store::file_sha256(&path) {
        Ok(hash) if hash == model_store::DEFAULT_SHA256 => {
            report.add(Mark::Ok, "offline", format!("{} ({} MB, sha256 verified)", path.display(), size / 1_000_000));
        }
        Ok(hash) => report.add(
            Mark::Fail,
            "offline",
            format!(
                "{} is damaged (sha256 {}… is not the release's): run `heat model install` again",
                path.display(),
                &hash[..12]
            ),
        ),
        Err(e) => report.add(Mark::Fail, "offline", format!("could not read {}: {e}", path.display())),
    }
}

fn terminal_check(report: &mut Report) {
    if !std::io::stdout().is_terminal() {
        report.add(
            Mark::Note,
            "terminal",
            "stdout is not a terminal: `heat run` prints plain text; the studio needs one",
        );
        return;
    }
    let color = if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) { "NO_COLOR set" } else { "colour" };
    match crossterm::terminal::size() {
        Ok((w, h)) if w < MIN_WIDTH || h < MIN_HEIGHT => report.add(
            Mark::Note,
            "terminal",
            format!("{w}×{h} is too small for the studio (needs {MIN_WIDTH}×{MIN_HEIGHT}); enlarge the window"),
        ),
        Ok((w, h)) => {
            let layout = if w >= SIDE_BY_SIDE { "panes side by side" } else { "one pane at a time, as tabs" };
            report.add(Mark::Ok, "terminal", format!("{w}×{h}, {layout}, {color}"));
        }
        Err(e) => report.add(Mark::Note, "terminal", format!("could not read the terminal size: {e}")),
    }
}
