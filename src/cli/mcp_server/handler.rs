//! `heat mcp`'s answers to the protocol: what it is and offers, each tool
//! call run (an unknown tool or arguments outside its schema refused as a
//! protocol error, a tool that could not do its work as a result the
//! client shows), the resources read, and subscriptions kept.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ServerCapabilities, ServerConfig, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::json;

use super::debates::Debates;
use super::reading::{self, Answer};
use super::resources::{self, Subscriptions};
use super::tools::{self, Call, Refused, Until, Wait};

/// How long `wait_for_debate` waits when not told.
const WAIT: Duration = Duration::from_secs(600);

/// The server one `heat mcp` runs.
pub struct Server {
    pub debates: Arc<Debates>,
    pub subscriptions: Arc<Subscriptions>,
    /// The client, once it has called: resource updates go to it.
    pub peer: Arc<Mutex<Option<Peer<RoleServer>>>>,
}

impl Server {
    fn met(&self, peer: &Peer<RoleServer>) {
        let mut kept = self.peer.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.is_none() {
            *kept = Some(peer.clone());
        }
    }

    async fn run(&self, call: Call, context: &RequestContext<RoleServer>) -> Result<Answer, String> {
        match call {
            Call::Start(start) => {
                let started = self.debates.start(start).await?;
                let text = format!(
                    "Started session {}: “{}” ({}, at most {}). It runs on: wait_for_debate follows it; a person can watch it with `heat watch {}`.",
                    started.session,
                    started.proposition,
                    started.format,
                    crate::words::count(started.max_rounds as usize, "round"),
                    started.session
                );
                let value = serde_json::to_value(&started).map_err(|e| e.to_string())?;
                Ok(Answer { text, value })
            }
            Call::Wait(wait) => self.wait(&wait, context).await,
            Call::Read(read) => {
                let session = self.debates.resolve(&read.session)?;
                let store = &self.debates.store;
                let state = || reading::state(store, &session);
                match read.part {
                    tools::Part::Transcript => reading::transcript(store, &session),
                    tools::Part::Verdict => reading::verdict(&session, &state()?, read.round),
                    tools::Part::Synthesis => reading::synthesis(&session, &state()?),
                    tools::Part::Status => {
                        let live = self.debates.follow(&session).map(|p| p.borrow().running());
                        Ok(reading::status(&session, &state()?, live))
                    }
                }
            }
            Call::Steer(steer) => {
                let said = self.debates.steer(&steer)?;
                Ok(Answer {
                    text: format!("Session {}: {said}.", steer.session.trim()),
                    value: json!({ "done": said }),
                })
            }
            Call::List(list) => {
                Ok(reading::list(&self.debates.store, list.search, list.tag, list.limit.unwrap_or(20).clamp(1, 200)))
            }
            Call::Stats(stats) => {
                let (what, games, seed) =
                    crate::cli::stats::gathered(stats.tournament.as_deref(), stats.tag.as_deref())
                        .map_err(|e| format!("{e:#}"))?;
                let summary = crate::tournament::stats::summarise(&games, seed);
                let text = format!(
                    "{what}: {} counted\n{}",
                    crate::words::count(games.len(), "debate"),
                    crate::tournament::stats::text(&summary)
                );
                let value = json!({ "counted": what, "debates": games.len(), "summary": summary });
                Ok(Answer { text, value })
            }
        }
    }

    /// Waits for the next verdict or the end of a debate this server runs,
    /// telling the client how it goes while it waits (when it asked to be
    /// told, with a progress token).
    async fn wait(&self, wait: &Wait, context: &RequestContext<RoleServer>) -> Result<Answer, String> {
        let session = self.debates.resolve(&wait.session)?;
        let store = &self.debates.store;
        let Some(mut progress) = self.debates.follow(&session) else {
            let state = reading::state(store, &session)?;
            if state.finish.is_some() {
                return Ok(reading::status(&session, &state, None));
            }
            return Err(format!(
                "session {session} is not run by this heat mcp, so it cannot be waited on here; read_debate says where it stands, and `heat watch {session}` follows it"
            ));
        };
        let start = progress.borrow().clone();
        let token = context.meta.get_progress_token();
        let deadline = tokio::time::sleep(wait.timeout_seconds.map_or(WAIT, |s| Duration::from_secs(s.clamp(1, 3600))));
        tokio::pin!(deadline);
        let mut told = None;
        let timed_out = loop {
            let now = progress.borrow_and_update().clone();
            if now.ended.is_some() || (wait.until == Until::Verdict && now.verdicts > start.verdicts) {
                break false;
            }
            if let Some(token) = &token
                && told.as_ref() != Some(&now)
            {
                #[allow(clippy::cast_precision_loss)]
                let step = now.steps as f64;
                let note = ProgressNotificationParam::new(token.clone(), step).with_message(now.doing.clone());
                let _ = context.peer.notify_progress(note).await;
                told = Some(now);
            }
            tokio::select! {
                changed = progress.changed() => if changed.is_err() { break false },
                () = &mut deadline => break true,
                () = context.ct.cancelled() => return Err("the wait was cancelled; the debate goes on".into()),
            }
        };
        let state = reading::state(store, &session)?;
        if let Some(crate::debate::state::Finish { outcome: crate::debate::Outcome::Failed(why), .. }) = &state.finish {
            return Err(format!(
                "session {session} failed: {}; `heat resume {session}` tries it again",
                crate::sanitize::one_line(why)
            ));
        }
        let now = progress.borrow().clone();
        let mut answer = reading::status(&session, &state, Some(now.running()));
        answer.value["timed_out"] = json!(timed_out);
        if timed_out {
            answer.text = format!("Still waiting after the time given. {}", answer.text);
        } else if wait.until == Until::Verdict
            && now.verdicts > start.verdicts
            && let Ok(verdict) = reading::verdict(&session, &state, None)
        {
            answer.text = format!("{}\n{}", answer.text, verdict.text);
            answer.value["verdict"] = verdict.value;
        }
        Ok(answer)
    }
}

/// A tool's answer as the protocol carries it: its text, and the value as structured content.
fn result(answer: Result<Answer, String>) -> CallToolResult {
    match answer {
        Ok(Answer { text, value }) => {
            let mut result = CallToolResult::structured(value);
            result.content = vec![ContentBlock::text(text)];
            result
        }
        Err(why) => CallToolResult::error(vec![ContentBlock::text(why)]),
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities =
            ServerCapabilities::builder().enable_tools().enable_resources().enable_resources_subscribe().build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("heat", env!("CARGO_PKG_VERSION")).with_title("heat debate studio"))
            .with_instructions(
                "heat runs debates: start_debate on a proposition, wait_for_debate for each verdict, steer_debate to \
                 steer it, read_debate for the synthesis or transcript. Each debate is a stored session a person can \
                 watch with `heat watch ID`.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.met(&context.peer);
        let call = Call::read(&request.name, request.arguments).map_err(|refused| match refused {
            Refused::UnknownTool(why) | Refused::Arguments(why) => ErrorData::invalid_params(why, None),
        })?;
        Ok(result(self.run(call, &context).await).into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list(&self.debates.store)))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(resources::templates()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = resources::read(&self.debates.store, &request.uri)
            .map_err(|why| ErrorData::resource_not_found(why, Some(json!({ "uri": request.uri }))))?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.met(&context.peer);
        if resources::Uri::parse(&request.uri).is_none() {
            let why = format!("heat has no resource {}", crate::sanitize::one_line(&request.uri));
            return Err(ErrorData::resource_not_found(why, None));
        }
        self.subscriptions.add(&request.uri);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions.remove(&request.uri);
        Ok(())
    }
}
