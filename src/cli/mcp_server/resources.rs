//! `heat mcp`'s resources: each stored debate's Markdown and JSON record
//! (`heat://sessions/ID.md`, `heat://sessions/ID.json`), listed, read, and
//! the URIs a client subscribed to, told when a round finishes or the
//! debate ends.

use std::collections::BTreeSet;
use std::sync::Mutex;

use rmcp::model::{Resource, ResourceContents, ResourceTemplate};

use crate::report::export::{self, ExportKind};
use crate::store::Store;

const PREFIX: &str = "heat://sessions/";

/// How many sessions `resources/list` names (the newest).
const LISTED: usize = 200;

/// A session's record as a resource: which session, in which form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uri {
    pub session: String,
    pub kind: ExportKind,
}

impl Uri {
    /// The resource `uri` names, if it is one of heat's.
    pub fn parse(uri: &str) -> Option<Uri> {
        let rest = uri.strip_prefix(PREFIX)?;
        let (session, kind) = match rest.rsplit_once('.')? {
            (session, "md") => (session, ExportKind::Md),
            (session, "json") => (session, ExportKind::Json),
            _ => return None,
        };
        let plain = !session.is_empty() && session.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        plain.then(|| Uri { session: session.to_string(), kind })
    }

    pub fn of(session: &str, kind: ExportKind) -> String {
        let extension = match kind {
            ExportKind::Md => "md",
            ExportKind::Json => "json",
        };
        format!("{PREFIX}{session}.{extension}")
    }
}

/// The stored debates' records, newest first.
pub fn list(store: &Store) -> Vec<Resource> {
    let mut listed = Vec::new();
    for entry in store.list().into_iter().take(LISTED) {
        let topic = crate::sanitize::one_line(&entry.topic);
        for (kind, mime, what) in
            [(ExportKind::Md, "text/markdown", "transcript"), (ExportKind::Json, "application/json", "record")]
        {
            listed.push(
                Resource::new(Uri::of(&entry.id, kind), format!("{}-{what}", entry.id))
                    .with_title(format!("{topic} ({what})"))
                    .with_mime_type(mime),
            );
        }
    }
    listed
}

/// The templates a client fills with a session id.
pub fn templates() -> Vec<ResourceTemplate> {
    [("md", "text/markdown", "transcript"), ("json", "application/json", "record")]
        .into_iter()
        .map(|(extension, mime, what)| {
            let mut template =
                ResourceTemplate::new(format!("{PREFIX}{{session}}.{extension}"), format!("session-{what}"));
            template.description = Some(format!("A stored debate's {what}, by its session id."));
            template.mime_type = Some(mime.to_string());
            template
        })
        .collect()
}

/// The record `uri` names, rendered; or why not, in one sentence.
pub fn read(store: &Store, uri: &str) -> Result<ResourceContents, String> {
    let Some(wanted) = Uri::parse(uri) else {
        return Err(format!(
            "heat has no resource {}; its resources are {PREFIX}ID.md and {PREFIX}ID.json",
            crate::sanitize::one_line(uri)
        ));
    };
    let session = store.resolve(Some(&wanted.session)).map_err(|e| format!("{e:#}"))?;
    let loaded = store.load(&session).map_err(|e| format!("{e:#}"))?;
    let text = export::render_with(wanted.kind, &loaded.header, &loaded.records, None, &store.label(&session));
    let mime = match wanted.kind {
        ExportKind::Md => "text/markdown",
        ExportKind::Json => "application/json",
    };
    Ok(ResourceContents::text(text, uri).with_mime_type(mime))
}

/// The URIs a client asked to be told of.
#[derive(Debug, Default)]
pub struct Subscriptions(Mutex<BTreeSet<String>>);

impl Subscriptions {
    pub fn add(&self, uri: &str) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(uri.to_string());
    }

    pub fn remove(&self, uri: &str) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(uri);
    }

    /// The subscribed URIs of `session`'s records.
    pub fn of(&self, session: &str) -> Vec<String> {
        let subscribed = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        [ExportKind::Md, ExportKind::Json]
            .into_iter()
            .map(|kind| Uri::of(session, kind))
            .filter(|uri| subscribed.contains(uri))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_uri_names_a_session_and_a_form() {
        let uri = Uri::parse("heat://sessions/20261207-abc.md").unwrap();
        assert_eq!((uri.session.as_str(), uri.kind), ("20261207-abc", ExportKind::Md));
        assert_eq!(Uri::of("x1", ExportKind::Json), "heat://sessions/x1.json");
        for bad in
            ["heat://sessions/.md", "heat://sessions/a.txt", "heat://sessions/../../etc/passwd.md", "file:///a.md"]
        {
            assert_eq!(Uri::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn only_subscribed_uris_are_told() {
        let subscriptions = Subscriptions::default();
        subscriptions.add("heat://sessions/s1.json");
        assert_eq!(subscriptions.of("s1"), vec!["heat://sessions/s1.json".to_string()]);
        assert!(subscriptions.of("s2").is_empty());
        subscriptions.remove("heat://sessions/s1.json");
        assert!(subscriptions.of("s1").is_empty());
    }
}
