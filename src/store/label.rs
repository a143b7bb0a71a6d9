//! A stored debate's label: the name and tags a person gave it (`heat
//! sessions rename`, `tag`, the browser's keys), kept in a small sidecar file
//! beside its log, `<id>.label.json`.
//!
//! Why a sidecar and not an event in the log: the log is the debate, an
//! append-only record of what happened in it, held by one writer at a time
//! (a running studio holds its lock for hours), replayed, spliced into its
//! branches and folded by every presenter. A label is about the stored file,
//! not the debate: it must be changeable while a studio writes the log (no
//! second writer may append to it, and a rename must not wait for the debate
//! to end), it must not be inherited by a branch that shares the log's first
//! rounds, and it changes no fold, replay or export. The sidecar is replaced
//! atomically (a temp file renamed over it), so a reader sees the old label
//! or the new one, and the log is never opened. The index copies the label,
//! and a rebuilt index reads it again from here, so it survives the index.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

/// The longest name, in characters: a label, not a second topic.
pub const NAME_MAX: usize = 100;
/// The longest tag, in characters.
pub const TAG_MAX: usize = 32;

/// A name and tags.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// One change to a label, applied to the label as stored (under the index
/// lock), so a change made elsewhere meanwhile to the other part is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The new name, or none.
    Name(Option<String>),
    /// The whole new set of tags.
    Tags(Vec<String>),
}

impl Change {
    pub fn apply(self, label: &mut Label) {
        match self {
            Change::Name(name) => label.name = name,
            Change::Tags(tags) => label.tags = tags,
        }
    }
}

impl Label {
    /// Whether it says nothing (then no file is kept).
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.tags.is_empty()
    }

    /// Adds tags it does not have yet (in any case), in the order given.
    pub fn add_tags(&mut self, tags: &[String]) {
        for tag in tags {
            if !self.has_tag(tag) {
                self.tags.push(tag.clone());
            }
        }
    }

    /// Whether it has `tag`, in any case.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| same_tag(t, tag))
    }

    /// Takes off the tags it has among `tags`, in any case.
    pub fn remove_tags(&mut self, tags: &[String]) {
        self.tags.retain(|t| !tags.iter().any(|gone| same_tag(t, gone)));
    }
}

/// Whether two tags are the same, in any case and with or without a `#`.
pub fn same_tag(a: &str, b: &str) -> bool {
    a.trim_start_matches('#').to_lowercase() == b.trim_start_matches('#').to_lowercase()
}

/// A name as typed, made one clean line: control characters dropped, runs of
/// spaces and line breaks made one space, the ends trimmed. Empty or too long
/// is refused with one sentence.
pub fn name(typed: &str) -> anyhow::Result<String> {
    let name = crate::sanitize::one_line(typed);
    if name.is_empty() {
        bail!("a name needs at least one character that is not a space; `--clear` removes a name");
    }
    let count = name.chars().count();
    if count > NAME_MAX {
        bail!("a name is at most {NAME_MAX} characters and this one has {count}; the topic keeps the proposition");
    }
    Ok(name)
}

/// A tag as typed: one word (no spaces or commas), a leading `#` dropped,
/// up to [`TAG_MAX`] characters; anything else is refused with one sentence.
pub fn tag(typed: &str) -> anyhow::Result<String> {
    let tag = typed.trim().trim_start_matches('#');
    if tag.is_empty() {
        bail!("a tag needs at least one letter or digit");
    }
    if tag.chars().any(|c| c.is_whitespace() || c == ',' || c.is_control()) {
        bail!("a tag is one word without spaces or commas ({typed:?} is not); give several tags as several words");
    }
    // Two tags that look alike must be alike: no character that draws nothing
    // (a zero-width space, a direction mark) or that the terminal would drop.
    let invisible = |c: char| unicode_width::UnicodeWidthChar::width(c) == Some(0) && !c.is_alphanumeric();
    if tag.chars().any(invisible) || crate::sanitize::clean(tag) != tag {
        bail!("a tag is characters you can see, and {typed:?} holds one that draws nothing");
    }
    let count = tag.chars().count();
    if count > TAG_MAX {
        bail!("a tag is at most {TAG_MAX} characters and {tag:?} has {count}");
    }
    Ok(tag.to_string())
}

/// Tags as typed in one line (the browser's box): each word a tag.
pub fn tags(typed: &str) -> anyhow::Result<Vec<String>> {
    let mut label = Label::default();
    for word in typed.split([' ', ',']).filter(|w| !w.trim().is_empty()) {
        label.add_tags(&[tag(word)?]);
    }
    Ok(label.tags)
}

/// Tags as shown: `#work #later`, each cleaned for a terminal.
pub fn hashed(tags: &[String]) -> String {
    tags.iter().map(|t| format!("#{}", crate::sanitize::clean(t))).collect::<Vec<_>>().join(" ")
}

/// Where a session's label is kept.
pub fn path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.label.json"))
}

/// A session's label; an empty one when it has none (or the file cannot be
/// read: a label is never worth refusing a debate for).
pub fn read(dir: &Path, id: &str) -> Label {
    std::fs::read(path(dir, id)).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
}

/// Tags a session just created, before the index holds it: its label file
/// alone, which the index reads when it first lists the session
/// ([`super::Store::relabel`] would rewrite the whole index for nothing).
pub fn tag_new(dir: &Path, id: &str, tags: &[String]) -> anyhow::Result<()> {
    let mut label = read(dir, id);
    label.add_tags(tags);
    write(dir, id, &label)
}

/// Replaces a session's label atomically; an empty label removes the file.
pub fn write(dir: &Path, id: &str, label: &Label) -> anyhow::Result<()> {
    let target = path(dir, id);
    if label.is_empty() {
        return match std::fs::remove_file(&target) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("could not remove {}", target.display()))
            }
            _ => Ok(()),
        };
    }
    let mut tmp = tempfile::NamedTempFile::new_in(dir).context("could not write the session's label")?;
    serde_json::to_writer(&mut tmp, label)?;
    tmp.as_file().sync_data()?;
    tmp.persist(&target).with_context(|| format!("could not replace {}", target.display()))?;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_with_a_character_that_draws_nothing_is_refused() {
        for typed in ["wo\u{200b}rk", "work\u{202e}", "\u{2066}work"] {
            assert!(tag(typed).is_err(), "{typed:?}");
        }
        assert_eq!(tag("#café").unwrap(), "café");
    }

    #[test]
    fn a_change_touches_only_the_part_it_edits() {
        // Named elsewhere after the browser opened: a tag edit keeps that name.
        let mut stored = Label { name: Some("Set elsewhere".into()), tags: vec!["x".into()] };
        Change::Tags(vec!["y".into()]).apply(&mut stored);
        assert_eq!(stored, Label { name: Some("Set elsewhere".into()), tags: vec!["y".into()] });
        Change::Name(None).apply(&mut stored);
        assert_eq!(stored, Label { name: None, tags: vec!["y".into()] });
    }

    #[test]
    fn names_are_one_clean_line_and_empty_ones_are_refused() {
        assert_eq!(name("  Tabs,\n  once\tand for all \u{1b}[31m").unwrap(), "Tabs, once and for all");
        assert!(name(" \n ").unwrap_err().to_string().contains("--clear"));
        assert!(name(&"x".repeat(NAME_MAX + 1)).unwrap_err().to_string().contains("at most 100"));
    }

    #[test]
    fn tags_are_single_words_kept_once_in_any_case() {
        assert_eq!(tags("#work, later  Work").unwrap(), ["work", "later"]);
        assert!(tag("two words").unwrap_err().to_string().contains("one word"));
        assert!(tag("#").is_err());
    }

    #[test]
    fn an_empty_label_keeps_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let label = Label { name: Some("A".into()), tags: vec!["t".into()] };
        write(dir.path(), "x", &label).unwrap();
        assert_eq!(read(dir.path(), "x"), label);
        write(dir.path(), "x", &Label::default()).unwrap();
        assert!(!path(dir.path(), "x").exists());
        assert_eq!(read(dir.path(), "x"), Label::default());
    }
}
