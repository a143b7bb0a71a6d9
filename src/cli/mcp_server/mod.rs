//! `heat mcp`: heat as a Model Context Protocol server on standard input
//! and output, so an agent (Claude Code, Codex, Gemini CLI, an IDE) can
//! start a debate, wait on it, steer it and read its synthesis. Every
//! debate it starts is an ordinary session a person can watch meanwhile.
//! Standard output carries only the protocol: everything else goes to the
//! log or standard error.

mod debates;
mod handler;
mod limits;
mod reading;
mod resources;
mod tools;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use rmcp::ServiceExt;
use rmcp::model::ResourceUpdatedNotificationParam;
use tokio::sync::mpsc;

use crate::config::FlagValue;
use crate::store::{self, Store};

/// Serves until the client closes standard input; the debates still
/// running then are stopped and saved (`heat resume` goes on with them).
pub async fn serve(config_file: Option<&PathBuf>, flags: Vec<FlagValue>) -> anyhow::Result<ExitCode> {
    // Its debates' set-ups ask the same servers: each is asked once a minute.
    crate::setup::probed::keep();
    // The settings are checked before the client is answered: a bad heat.toml is one line on stderr.
    let config = crate::cli::load::config(config_file, &flags)?;
    let limits = limits::Limits::of(&config)?;
    // The offline model, when heat.toml's seats need it, is installed first (progress on stderr).
    // Seats that cannot be set up now are not the server's to refuse: each debate says so as it starts.
    if crate::setup::selection(&config).await.is_ok_and(|s| s.needs_configured_model()) {
        crate::cli::model::ensure_installed(&config, None).await?;
    }
    let store = Store::open(&store::data_dir()?)?;
    let (tell, mut told) = mpsc::unbounded_channel();
    let debates = Arc::new(debates::Debates::new(limits, store, (config_file.cloned(), flags), tell));
    let server = handler::Server {
        debates: Arc::clone(&debates),
        subscriptions: Arc::default(),
        peer: Arc::new(Mutex::new(None)),
    };
    let (subscriptions, peer) = (Arc::clone(&server.subscriptions), Arc::clone(&server.peer));
    tokio::spawn(async move {
        while let Some(session) = told.recv().await {
            let client = peer.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
            let Some(client) = client else { continue };
            for uri in subscriptions.of(&session) {
                let _ = client.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri)).await;
            }
        }
    });
    let running = server.serve(rmcp::transport::stdio()).await?;
    let ended = running.waiting().await;
    debates.stop_all().await;
    ended?;
    Ok(ExitCode::SUCCESS)
}
