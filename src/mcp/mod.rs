//! The Model Context Protocol, as heat speaks it: the servers heat.toml
//! names (`[mcp.NAME]`) whose tools debaters may call (`client`). Knows
//! nothing of debates or models.

pub mod client;

pub use client::{Answer, McpError, McpServer, McpSetting, McpTool};
