//! An MCP server heat starts and calls: spawned from its command, spoken to
//! over its standard input and output (rmcp's child-process transport),
//! its tools listed once at the start, each call bounded in time and
//! answered as text. The server's standard error is kept (its last lines)
//! to say why it would not start, and never reaches the terminal. Dropping
//! the server ends its process.

use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ContentBlock};
use rmcp::service::{RoleClient, RunningService, ServiceExt};
use rmcp::transport::TokioChildProcess;
use tokio::io::AsyncReadExt;

/// How long a server may take to start and list its tools.
pub const START_WITHIN: Duration = Duration::from_secs(60);
/// The most of a server's standard error kept to explain a failure.
const STDERR_KEPT: usize = 2_000;

/// A server as heat.toml names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpSetting {
    /// Its name in heat.toml (`[mcp.NAME]`), the prefix of its tools' names.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Variables set for it.
    pub env: Vec<(String, String)>,
    /// How long one call may take.
    pub call_within: Duration,
}

/// A tool a server offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpTool {
    pub name: String,
    pub description: String,
    /// Its arguments' JSON schema.
    pub schema: serde_json::Value,
}

/// What a call answered, as text; `failed` when the server said the tool
/// failed, refused the call, or did not answer in time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    pub failed: bool,
}

/// Why a server could not be used, in one sentence.
#[derive(Debug, thiserror::Error)]
#[error("the MCP server `{name}` {why}")]
pub struct McpError {
    name: String,
    why: String,
}

/// A running server and the tools it listed.
pub struct McpServer {
    pub name: String,
    pub tools: Vec<McpTool>,
    call_within: Duration,
    service: RunningService<RoleClient, ()>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer").field("name", &self.name).field("tools", &self.tools.len()).finish_non_exhaustive()
    }
}

impl McpServer {
    /// Starts the server, shakes hands and lists its tools, within [`START_WITHIN`].
    pub async fn start(setting: &McpSetting) -> Result<McpServer, McpError> {
        let fail = |why: String| McpError { name: setting.name.clone(), why };
        let Some((program, args)) = setting.command.split_first() else {
            return Err(fail("has no command (mcp.NAME.command)".into()));
        };
        let mut command = tokio::process::Command::new(program);
        command.args(args).envs(setting.env.iter().map(|(k, v)| (k, v))).kill_on_drop(true);
        let (transport, stderr) = TokioChildProcess::builder(command).stderr(Stdio::piped()).spawn().map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                fail(format!("could not be started: `{program}` was not found"))
            } else {
                fail(format!("could not be started: {e}"))
            }
        })?;
        let said = Arc::new(Mutex::new(String::new()));
        if let Some(mut stderr) = stderr {
            let said = Arc::clone(&said);
            tokio::spawn(async move {
                let mut buf = [0u8; 1024];
                while let Ok(n) = stderr.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    let mut kept = said.lock().unwrap_or_else(PoisonError::into_inner);
                    kept.push_str(&String::from_utf8_lossy(&buf[..n]));
                    if kept.len() > STDERR_KEPT {
                        let mut cut = kept.len() - STDERR_KEPT;
                        while !kept.is_char_boundary(cut) {
                            cut += 1;
                        }
                        kept.drain(..cut);
                    }
                }
            });
        }
        let last_words = || {
            let kept = said.lock().unwrap_or_else(PoisonError::into_inner);
            let last = kept.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default().trim().to_string();
            if last.is_empty() { String::new() } else { format!(" (it said: {})", crate::sanitize::one_line(&last)) }
        };
        let started = tokio::time::timeout(START_WITHIN, async {
            let service = ().serve(transport).await.map_err(|e| format!("did not complete MCP's handshake: {e}"))?;
            let tools = service.list_all_tools().await.map_err(|e| format!("did not list its tools: {e}"))?;
            Ok::<_, String>((service, tools))
        })
        .await;
        let (service, listed) = match started {
            Err(_) => return Err(fail(format!("did not start within {} s{}", START_WITHIN.as_secs(), last_words()))),
            Ok(Err(why)) => return Err(fail(format!("{why}{}", last_words()))),
            Ok(Ok(started)) => started,
        };
        let tools = listed
            .into_iter()
            .map(|tool| McpTool {
                name: tool.name.to_string(),
                description: tool.description.as_deref().unwrap_or_default().to_string(),
                schema: serde_json::Value::Object((*tool.input_schema).clone()),
            })
            .collect();
        Ok(McpServer { name: setting.name.clone(), tools, call_within: setting.call_within, service })
    }

    /// Calls `tool` with `arguments` (a JSON object), within the server's time.
    pub async fn call(&self, tool: &str, arguments: serde_json::Value) -> Answer {
        let arguments = match arguments {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        match tokio::time::timeout(self.call_within, self.service.call_tool(params)).await {
            Err(_) => Answer {
                text: format!("the MCP server `{}` did not answer within {} s", self.name, self.call_within.as_secs()),
                failed: true,
            },
            Ok(Err(e)) => {
                Answer { text: format!("the MCP server `{}` refused the call: {e}", self.name), failed: true }
            }
            Ok(Ok(result)) => {
                let text: Vec<String> = result.content.iter().map(block_text).collect();
                Answer { text: text.join("\n"), failed: result.is_error == Some(true) }
            }
        }
    }
}

/// One block of an answer as text: text as it is, anything else named.
fn block_text(block: &ContentBlock) -> String {
    match block {
        ContentBlock::Text(text) => text.text.clone(),
        ContentBlock::Image(image) => format!("[an image, {}]", image.mime_type),
        ContentBlock::Audio(audio) => format!("[audio, {}]", audio.mime_type),
        ContentBlock::Resource(_) => "[an embedded resource]".into(),
        ContentBlock::ResourceLink(link) => format!("[a resource: {}]", link.uri),
        _ => "[a kind of content heat does not read]".into(),
    }
}
