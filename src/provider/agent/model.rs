//! An agent CLI as a `ChatModel`: each call starts the CLI in a fresh
//! working directory, writes the rendered prompt to its standard input and
//! streams what its output says; the call's end (or its drop: a cancel,
//! the turn clock, a quit) ends the CLI's whole process group, and a
//! paused debate freezes it where it is.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::{mpsc, watch};

use super::dialect::{Decoder, Dialect, Ending};
use super::process::{self, StartError};
use super::prompt::render;
use super::spec::{AgentSpec, SchemaArg};
use crate::provider::chat::{ChatRequest, Chunk, ChunkStream, FinishReason, StructuredOutput};
use crate::provider::error::{AgentFailure, ProviderError};
use crate::provider::model::ChatModel;

/// At most this much of a CLI's standard error is kept for its sentence and the log.
const STDERR_KEPT: usize = 64 * 1024;

/// An agent CLI in a seat.
pub struct AgentModel {
    spec: Arc<AgentSpec>,
    /// The CLI and its version, as `--version` said it when the seat was set.
    version: Option<String>,
}

impl AgentModel {
    /// The CLI `spec` describes, its version asked once (a CLI that is not
    /// installed is said here, before any debate starts).
    pub fn new(spec: AgentSpec) -> Result<Self, ProviderError> {
        let version = version(&spec)?;
        Ok(Self { spec: Arc::new(spec), version })
    }

    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }
}

impl ChatModel for AgentModel {
    fn provider_name(&self) -> &'static str {
        self.spec.name
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        self.stream_held(request, None)
    }

    fn stream_held(&self, request: ChatRequest, held: Option<watch::Receiver<bool>>) -> ChunkStream {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let spec = Arc::clone(&self.spec);
        tokio::spawn(async move {
            tokio::select! {
                () = run(&spec, request, held, &tx) => {}
                // The call was dropped: the running CLI is dropped with `run`, ending its group.
                () = tx.closed() => {}
            }
        });
        Box::pin(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)))
    }

    fn pauses_in_place(&self) -> bool {
        true
    }

    fn takes_temperature(&self) -> bool {
        false
    }

    fn agent(&self) -> Option<String> {
        Some(match &self.version {
            Some(version) => format!("{} {version}", self.spec.title),
            None => self.spec.title.clone(),
        })
    }
}

type Sender = mpsc::UnboundedSender<Result<Chunk, ProviderError>>;

/// One turn of the CLI, its chunks sent to `tx`; the error, if any, last.
async fn run(spec: &AgentSpec, mut request: ChatRequest, held: Option<watch::Receiver<bool>>, tx: &Sender) {
    let send = |item| tx.send(item).is_ok();
    let workdir = match tempfile::Builder::new().prefix("heat-seat-").tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            let message = format!("{}: no working directory could be made for it: {e}", spec.title);
            send(Err(ProviderError::Agent { failure: AgentFailure::Exited, message }));
            return;
        }
    };
    if let Err(e) = lay_out(&spec.files, workdir.path()) {
        let message = format!("{}: its settings could not be written: {e}", spec.title);
        send(Err(ProviderError::Agent { failure: AgentFailure::Exited, message }));
        return;
    }
    let place = |word: &str| word.replace("{workdir}", &workdir.path().to_string_lossy());
    let mut argv: Vec<String> = spec.argv(&request.model).iter().map(|w| place(w)).collect();
    match held_to_schema(spec, &mut request, workdir.path()) {
        Ok(words) => argv.extend(words),
        Err(e) => {
            let message = format!("{}: the verdict's schema could not be written: {e}", spec.title);
            send(Err(ProviderError::Agent { failure: AgentFailure::Exited, message }));
            return;
        }
    }
    let env: Vec<(String, String)> = spec.env.iter().map(|(k, v)| (k.clone(), place(v))).collect();
    tracing::info!(agent = spec.name, program = spec.program(), model = %request.model, "agent turn starts");
    let mut running = match process::start(&argv, &env, workdir.path(), render(&request)) {
        Ok(running) => running,
        Err(StartError::NotFound) => {
            send(Err(spec.not_installed()));
            return;
        }
        Err(StartError::Other(e)) => {
            let message = format!("{} could not be started: {e}", spec.title);
            send(Err(ProviderError::Agent { failure: AgentFailure::Exited, message }));
            return;
        }
    };
    let stderr = running.stderr.take().map(|err| tokio::spawn(read_capped(err)));
    let Some((decoder, answered)) = read_output(spec, &mut running, held, tx).await else { return };
    let stderr = match stderr {
        Some(task) => task.await.unwrap_or_default(),
        None => String::new(),
    };
    conclude(spec, &mut running, decoder, answered, &stderr, tx).await;
}

/// Reads the CLI's standard output to its end, sending the chunks it
/// makes, freezing the CLI while the debate is paused: the decoder and
/// whether any answer text came. `None` once the turn is over already (a
/// time limit, a read that failed, the call dropped).
async fn read_output(
    spec: &AgentSpec,
    running: &mut process::Running,
    mut held: Option<watch::Receiver<bool>>,
    tx: &Sender,
) -> Option<(Decoder, bool)> {
    let send = |item| tx.send(item).is_ok();
    let mut stdout = running.stdout.take()?;
    let mut decoder = Decoder::new(spec.dialect);
    let mut buffer = vec![0_u8; 16 * 1024];
    let (mut begun, mut answered, mut is_held) = (false, false, false);
    loop {
        let limit = if begun { spec.idle } else { spec.first_byte };
        tokio::select! {
            biased;
            now = changed(held.as_mut()) => {
                match now {
                    Some(now) if now != is_held => {
                        is_held = now;
                        running.hold(is_held);
                    }
                    Some(_) => {}
                    None => held = None,
                }
            }
            read = stdout.read(&mut buffer) => {
                let n = match read {
                    Ok(n) => n,
                    Err(e) => {
                        send(Err(ProviderError::Malformed(format!("{}'s output could not be read: {e}", spec.title))));
                        return None;
                    }
                };
                if n == 0 {
                    return Some((decoder, answered));
                }
                begun = true;
                for chunk in decoder.feed(&buffer[..n]) {
                    answered |= matches!(&chunk, Chunk::Text(t) if !t.trim().is_empty());
                    if !send(Ok(chunk)) {
                        return None;
                    }
                }
            }
            () = quiet(limit, is_held) => {
                let seconds = limit.as_secs();
                send(Err(if begun {
                    ProviderError::Timeout(format!("{} went quiet for {seconds} s", spec.title))
                } else {
                    ProviderError::NotStarted(format!("{} wrote nothing in {seconds} s", spec.title))
                }));
                return None;
            }
        }
    }
}

/// The output has ended: its last chunks, then the closing chunk or the
/// one sentence that says why the turn failed (its standard error logged).
async fn conclude(
    spec: &AgentSpec,
    running: &mut process::Running,
    mut decoder: Decoder,
    mut answered: bool,
    stderr: &str,
    tx: &Sender,
) {
    let send = |item| tx.send(item).is_ok();
    let (chunks, ending) = decoder.finish();
    for chunk in chunks {
        answered |= matches!(&chunk, Chunk::Text(t) if !t.trim().is_empty());
        if !send(Ok(chunk)) {
            return;
        }
    }
    let exit = running.exit_code().await.ok().flatten();
    if !stderr.trim().is_empty() {
        tracing::info!(agent = spec.name, exit = ?exit, stderr = %stderr.trim_end(), "agent's standard error");
    }
    let text_done = spec.dialect == Dialect::Text && exit == Some(0);
    let outcome = match ending {
        // The guard could not find the program (it was removed since the seat was set).
        _ if exit == Some(super::guard::NOT_FOUND) && !answered => Err(spec.not_installed()),
        Ending::Done if spec.dialect != Dialect::Text || text_done => {
            if answered {
                Ok(())
            } else {
                let message = format!("{} ended its turn without any text", spec.title);
                Err(ProviderError::Agent { failure: AgentFailure::Exited, message })
            }
        }
        // Held to the schema, the CLI gave up on it (Claude Code's
        // `error_max_structured_output_retries`): asked again with the schema
        // in the prompt alone, as a server that refuses a form is.
        Ending::Failed(said) if said.contains("structured_output") => Err(ProviderError::ParameterRejected {
            param: "json_schema".into(),
            message: format!("{} could not hold its answer to the verdict's schema ({said})", spec.title),
        }),
        Ending::Failed(said) => Err(spec.failed(Some(&said), stderr, exit)),
        Ending::Cut if exit == Some(0) => Err(ProviderError::StreamCut),
        Ending::NotItsDialect(start) if exit == Some(0) => Err(ProviderError::Malformed(format!(
            "{}'s output is not {}; it began {start:?}",
            spec.title,
            decoder.described()
        ))),
        Ending::NotItsDialect(start) => Err(spec.failed(Some(&start), stderr, exit)),
        Ending::Done | Ending::Cut => Err(spec.failed(None, stderr, exit)),
    };
    match outcome {
        Ok(()) => {
            send(Ok(Chunk::Finish(FinishReason::Stop)));
        }
        Err(error) => {
            tracing::warn!(agent = spec.name, exit = ?exit, %error, "agent turn failed");
            send(Err(error));
        }
    }
}

/// The arguments that hold the CLI to the request's schema, where it can
/// be and the request asks the strongest form (a schema file written into
/// `workdir`). Whatever the CLI does with it, the schema also rides in the
/// prompt, and the answer is read and repaired as text.
fn held_to_schema(
    spec: &AgentSpec,
    request: &mut ChatRequest,
    workdir: &std::path::Path,
) -> std::io::Result<Vec<String>> {
    let Some(schema) = request.response_schema.as_mut() else { return Ok(Vec::new()) };
    let asked = schema.form == StructuredOutput::Schema;
    let json = serde_json::to_string(&schema.sent(request.max_tokens)).unwrap_or_default();
    schema.form = StructuredOutput::Off;
    Ok(match spec.schema_arg.filter(|_| asked) {
        Some(SchemaArg::Inline(flag)) => vec![flag.to_string(), json],
        Some(SchemaArg::File(flag)) => {
            let path = workdir.join(".heat").join("verdict-schema.json");
            std::fs::create_dir_all(workdir.join(".heat"))?;
            std::fs::write(&path, json)?;
            vec![flag.to_string(), path.to_string_lossy().into_owned()]
        }
        None => Vec::new(),
    })
}

/// Writes a turn's `files` (path, contents) into its working directory.
fn lay_out(files: &[(String, String)], workdir: &std::path::Path) -> std::io::Result<()> {
    for (path, contents) in files {
        let path = workdir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, contents)?;
    }
    Ok(())
}

/// The pause's next value (`None`: no pause to follow any more); never
/// returns where there is none.
async fn changed(held: Option<&mut watch::Receiver<bool>>) -> Option<bool> {
    let Some(held) = held else { return std::future::pending().await };
    match held.changed().await {
        Ok(()) => Some(*held.borrow_and_update()),
        Err(_) => None,
    }
}

/// Returns once `limit` has passed without output; never while held, and
/// a hold starts the count again.
async fn quiet(limit: Duration, held: bool) {
    if held {
        std::future::pending::<()>().await;
    }
    tokio::time::sleep(limit).await;
}

/// A CLI's standard error, up to [`STDERR_KEPT`] bytes of it (the rest read and dropped).
async fn read_capped(mut stderr: impl AsyncRead + Unpin) -> String {
    let mut kept = Vec::new();
    let mut buffer = [0_u8; 4096];
    while let Ok(n) = stderr.read(&mut buffer).await {
        if n == 0 {
            break;
        }
        let room = STDERR_KEPT.saturating_sub(kept.len());
        kept.extend_from_slice(&buffer[..n.min(room)]);
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// What `PROGRAM --version` prints first, asked with a time limit; `None`
/// when it says nothing useful. A program that is not there is an error.
fn version(spec: &AgentSpec) -> Result<Option<String>, ProviderError> {
    let mut child = match std::process::Command::new(spec.program())
        .arg("--version")
        .envs(spec.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(spec.not_installed()),
        Err(_) => return Ok(None),
    };
    let started = std::time::Instant::now();
    while child.try_wait().ok().flatten().is_none() {
        if started.elapsed() > Duration::from_secs(15) {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
    }
    Ok(out.lines().map(super::dialect::excerpt).find(|l| !l.is_empty()))
}
