//! The MCP servers heat.toml names (`[mcp.NAME]`), read from the config
//! and started before a debate: each with its command, variables, the
//! seat that may call it and the time a call may take. A server that will
//! not start is one sentence, and nothing is started.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;

use crate::config::Config;
use crate::debate::Role;
use crate::debate::engine::ToolServer;
use crate::mcp::{McpServer, McpSetting};

/// How long one call may take unless `mcp.NAME.call_seconds` says otherwise.
const CALL_SECONDS: i64 = 30;

/// Each server's setting, and the seat it is for (`None`: every debater).
pub fn settings(config: &Config) -> anyhow::Result<Vec<(McpSetting, Option<Role>)>> {
    let names: BTreeSet<&str> = config.names_under("mcp").filter_map(|key| key.split('.').next()).collect();
    let mut out = Vec::new();
    for name in names {
        if !crate::config::keys::is_endpoint_name(name) {
            bail!("[mcp.{name}]: a server's name is letters, digits, `-` and `_`");
        }
        let Some(command) = config.words(&format!("mcp.{name}.command")) else {
            bail!(
                "[mcp.{name}] names no command: give one, e.g. command = [\"npx\", \"-y\", \"@modelcontextprotocol/server-filesystem\", \"docs\"]"
            );
        };
        let env_table = format!("mcp.{name}.env");
        let env = config
            .names_under(&env_table)
            .filter_map(|var| Some((var.to_string(), config.text(&format!("{env_table}.{var}"))?.to_string())))
            .collect();
        let seat_key = format!("mcp.{name}.seat");
        let seat = match config.text(&seat_key) {
            None => None,
            Some(key) => match Role::ALL.into_iter().find(|r| r.is_debater() && r.key() == key) {
                Some(role) => Some(role),
                None => bail!("{}: `{seat_key}` names no debater's seat: {key}", config.place(&seat_key)),
            },
        };
        let seconds = config.int(&format!("mcp.{name}.call_seconds")).unwrap_or(CALL_SECONDS);
        let call_within = Duration::from_secs(u64::try_from(seconds).unwrap_or(30));
        out.push((McpSetting { name: name.to_string(), command: command.to_vec(), env, call_within }, seat));
    }
    Ok(out)
}

/// Starts every server heat.toml names, at once; the first that fails
/// fails them all (the others are ended as they drop).
pub async fn start(config: &Config) -> anyhow::Result<Vec<ToolServer>> {
    let settings = settings(config)?;
    let started = futures::future::join_all(settings.iter().map(|(setting, _)| McpServer::start(setting))).await;
    let mut servers = Vec::new();
    for (server, (setting, seat)) in started.into_iter().zip(settings) {
        let key = format!("mcp.{}.command", setting.name);
        let place = config.place(&key);
        let server = server.map_err(|e| anyhow::anyhow!("{e} ({key}, {place})"))?;
        tracing::info!(server = %server.name, tools = server.tools.len(), "MCP server started");
        servers.push(ToolServer { server: Arc::new(server), seat });
    }
    Ok(servers)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The config `toml` gives, and the folder its file stays in while it is read.
    fn config(toml: &str) -> anyhow::Result<(Config, tempfile::TempDir)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("heat.toml");
        std::fs::write(&path, toml).unwrap();
        Ok((Config::load(Some((&path, true)), &|_| None, &[])?, dir))
    }

    #[test]
    fn each_block_is_a_server_with_its_command_variables_seat_and_time() {
        let (config, _file) = config(
            "[mcp.files]\ncommand = [\"npx\", \"-y\", \"fs\", \"docs\"]\nenv.ROOT = \"/x\"\n\n\
             [mcp.web]\ncommand = [\"mcp-server-fetch\", \"--allow-private-ips\"]\nseat = \"skeptic\"\ncall_seconds = 5\n",
        )
        .unwrap();
        let servers = settings(&config).unwrap();
        assert_eq!(servers.len(), 2);
        let (files, everyone) = &servers[0];
        assert_eq!((files.name.as_str(), files.command.len(), *everyone), ("files", 4, None));
        assert_eq!(files.env, [("ROOT".to_string(), "/x".to_string())]);
        assert_eq!(files.call_within, Duration::from_secs(30));
        let (web, seat) = &servers[1];
        assert_eq!(web.command, ["mcp-server-fetch", "--allow-private-ips"]);
        assert_eq!((*seat, web.call_within), (Some(Role::Skeptic), Duration::from_secs(5)));
    }

    #[test]
    fn a_block_without_a_command_or_with_a_seat_that_is_no_debaters_is_one_sentence() {
        let no_command = settings(&config("[mcp.files]\nseat = \"advocate\"\n").unwrap().0).unwrap_err();
        assert!(
            no_command.to_string().starts_with("[mcp.files] names no command: give one, e.g. command = ["),
            "{no_command}"
        );
        let (judging, _file) = config("[mcp.files]\ncommand = [\"x\"]\nseat = \"judge\"\n").unwrap();
        let judge = settings(&judging).unwrap_err();
        assert!(judge.to_string().contains("`mcp.files.seat` names no debater's seat: judge"), "{judge}");
        assert!(judge.to_string().contains("heat.toml line 3"), "{judge}");
        let range = config("[mcp.files]\ncommand = [\"x\"]\ncall_seconds = 0\n").unwrap_err();
        assert!(format!("{range:#}").contains("`mcp.files.call_seconds` must be"), "named as written: {range:#}");
        let words = config("[mcp.files]\ncommand = \"npx fs\"\n").unwrap_err();
        assert!(format!("{words:#}").contains("`mcp.files.command` must be a list of strings"), "{words:#}");
    }
}
