//! `heat sessions` and `heat export`: the stored debates, newest first (read
//! from the index), filtered or as JSON; naming and tagging them; deleting
//! them by id or by age (asking first unless told not to); and one of them
//! written out.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use unicode_width::UnicodeWidthStr;

use super::args::SessionsAction;
use crate::report::export::{self, ExportKind};
use crate::store::index::IndexEntry;
use crate::store::search::Found;
use crate::store::{self, Store};
use crate::words::count;
use crate::words::cut_words;

/// Which stored debates `heat sessions` lists.
#[derive(Debug, Default)]
pub struct Filter {
    /// Topic, id, name or a tag contains this, in any case.
    pub search: Option<String>,
    /// Only those `heat resume` can go on with.
    pub continuable: bool,
    /// Only those with this tag, in any case.
    pub tag: Option<String>,
}

impl Filter {
    fn keeps(&self, entry: &IndexEntry) -> bool {
        let found = self.search.as_deref().is_none_or(|text| entry.mentions(&text.to_lowercase()));
        found && self.keeps_but_search(entry)
    }

    /// Whether the tag and the continuable filter keep it.
    fn keeps_but_search(&self, entry: &IndexEntry) -> bool {
        let tagged = self.tag.as_deref().is_none_or(|tag| entry.has_tag(tag));
        tagged && (!self.continuable || entry.continuable())
    }

    /// The search's words, lowercase.
    fn words(&self) -> Vec<String> {
        self.search.as_deref().map(|t| t.split_whitespace().map(str::to_lowercase).collect()).unwrap_or_default()
    }
}

/// Each stored debate the filter keeps: by its topic, id, name or tags, or
/// by its words, and then where they are.
pub(super) fn kept(store: &Store, all: &[IndexEntry], filter: &Filter) -> Vec<(IndexEntry, Option<Found>)> {
    let words = filter.words();
    all.iter()
        .filter_map(|entry| {
            if filter.keeps(entry) {
                return Some((entry.clone(), None));
            }
            let by_words = filter.keeps_but_search(entry).then(|| store.find_words(&entry.id, &words)).flatten()?;
            Some((entry.clone(), Some(by_words)))
        })
        .collect()
}

/// `heat sessions` and its actions.
pub fn sessions(action: Option<SessionsAction>, filter: &Filter, json: bool) -> anyhow::Result<ExitCode> {
    match action {
        None => list(filter, json).map(|()| ExitCode::SUCCESS),
        Some(SessionsAction::Rm { ids, yes }) => remove(&ids, yes),
        Some(SessionsAction::Prune { older_than, yes }) => prune(older_than.into(), yes),
        Some(SessionsAction::Rename { id, name, clear: _ }) => rename(&id, name.as_deref()),
        Some(SessionsAction::Tag { id, tags }) => tag(&id, &tags, true),
        Some(SessionsAction::Untag { id, tags }) => tag(&id, &tags, false),
    }
}

pub fn list(filter: &Filter, json: bool) -> anyhow::Result<()> {
    let store = Store::open(&store::data_dir()?)?;
    let (all, unreadable) = store.listing();
    // A log that cannot be read is named, never dropped without a word.
    for (file, why) in &unreadable {
        eprintln!("heat: {file} is not listed: {}", crate::sanitize::clean(why));
    }
    let kept = kept(&store, &all, filter);
    let mut out = std::io::stdout().lock();
    if json {
        // Each entry as the index has it, and where its words were found when they were.
        let listed: Vec<serde_json::Value> = kept
            .iter()
            .map(|(entry, found)| {
                let mut value = serde_json::to_value(entry).unwrap_or_default();
                if let (Some(found), Some(map)) = (found, value.as_object_mut()) {
                    map.insert("found".into(), serde_json::to_value(found).unwrap_or_default());
                }
                value
            })
            .collect();
        serde_json::to_writer_pretty(&mut out, &listed)?;
        writeln!(out)?;
        return Ok(());
    }
    let entries: Vec<IndexEntry> = kept.iter().map(|(e, _)| e.clone()).collect();
    if all.is_empty() {
        writeln!(out, "No sessions yet. Start one with: heat run \"Remote work beats the office\"")?;
        return Ok(());
    }
    if entries.is_empty() {
        let stored = count(all.len(), "debate");
        writeln!(out, "No session matches; {stored} stored (`heat sessions` lists them all).")?;
        return Ok(());
    }
    // On a terminal a row is one line; piped, the topic is whole (scripts read it).
    let width = std::io::stdout().is_terminal().then(crossterm::terminal::size).and_then(Result::ok);
    // Under a debate found by its words: where they are (a row starts with its id).
    let found: std::collections::HashMap<&str, &Found> =
        kept.iter().filter_map(|(e, f)| Some((e.id.as_str(), f.as_ref()?))).collect();
    for line in table(&entries, store::now_ms(), width.map(|(columns, _)| usize::from(columns))) {
        writeln!(out, "{line}")?;
        if let Some(found) = line.split_whitespace().next().and_then(|id| found.get(id)) {
            let place = found.round.map_or_else(String::new, |r| format!("round {r}, "));
            writeln!(out, "{:22} {place}{}: “{}”", "", found.who, crate::sanitize::clean(&found.excerpt))?;
        }
    }
    Ok(())
}

/// The widest age (`59 min ago`): every age form fits the AGE column.
const AGE: usize = 10;
/// The OUTCOME column, and the least it is narrowed to on a narrow terminal.
const OUTCOME: (usize, usize) = (26, 12);
/// The topic's room on a terminal, before the OUTCOME column gives any up.
const TOPIC: usize = 24;
/// The fewest columns a topic keeps, however narrow the terminal.
const MIN_TOPIC: usize = 6;
/// What a row sets before its outcome and around its age.
const FIXED: usize = 22 + 1 + 6 + 2 + 1 + AGE + 2;

/// The list's header and rows, each debate's branches under it. With a
/// terminal's `width`, each row is fitted to it: the OUTCOME column
/// narrows first, then the topic ends in `…` between words.
fn table(entries: &[IndexEntry], now: u64, width: Option<usize>) -> Vec<String> {
    let outcome_width = width.map_or(OUTCOME.0, |w| w.saturating_sub(FIXED + TOPIC).clamp(OUTCOME.1, OUTCOME.0));
    let row = |id: &str, rounds: &str, outcome: &str, age: &str| {
        format!("{id:<22} {rounds:>6}  {outcome:<outcome_width$} {age:>AGE$}  ")
    };
    let mut lines = vec![format!("{}TOPIC", row("ID", "ROUNDS", "OUTCOME", "AGE"))];
    for (depth, e) in crate::store::index::tree(entries).into_iter().map(|(d, i)| (d, &entries[i])) {
        let outcome = cut_words(e.outcome.as_deref().unwrap_or("unfinished (heat resume)"), outcome_width);
        let age = crate::store::index::age(now.saturating_sub(e.updated_ms));
        let start = row(&e.id, &e.rounds.to_string(), &outcome, &age);
        // A branch sits under the debate it branches.
        let mut topic = format!("{}{}", crate::store::index::indent(depth), e.listed_topic());
        if let Some(width) = width {
            // Down to a word's room on a narrow terminal, where the row still fits.
            topic = cut_words(&topic, width.saturating_sub(start.width()).max(MIN_TOPIC));
        }
        lines.push(format!("{start}{topic}"));
    }
    lines
}

/// `heat sessions rename ID NAME` (or `--clear`, `name` `None`): names a
/// stored debate, even one a running heat is writing.
pub fn rename(id: &str, name: Option<&str>) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let name = name.map(store::label::name).transpose()?;
    let id = store.resolve(Some(id))?;
    let label = store.relabel(&id, |label| {
        label.name.clone_from(&name);
        Ok(())
    })?;
    if let Some(name) = label.name {
        say!("heat: session {id} is now named {name:?}");
    } else {
        say!("heat: session {id} has no name now");
    }
    Ok(ExitCode::SUCCESS)
}

/// `heat sessions tag ID TAG…` (`add`) and `untag ID TAG…`.
pub fn tag(id: &str, tags: &[String], add: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let tags = tags.iter().map(|t| store::label::tag(t)).collect::<anyhow::Result<Vec<_>>>()?;
    let id = store.resolve(Some(id))?;
    let label = store.relabel(&id, |label| {
        if add {
            label.add_tags(&tags);
            return Ok(());
        }
        if let Some(missing) = tags.iter().find(|t| !label.has_tag(t)) {
            let has = if label.tags.is_empty() { "it has none".to_string() } else { store::label::hashed(&label.tags) };
            bail!("session {id} has no tag #{missing} ({has})");
        }
        label.remove_tags(&tags);
        Ok(())
    })?;
    if label.tags.is_empty() {
        say!("heat: session {id} has no tags now");
    } else {
        say!("heat: session {id} is tagged {}", store::label::hashed(&label.tags));
    }
    Ok(ExitCode::SUCCESS)
}

/// `heat sessions rm ID…`: deletes the named debates, after asking.
pub fn remove(ids: &[String], yes: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let mut chosen = Vec::new();
    for id in ids {
        let id = store.resolve(Some(id))?;
        if !chosen.contains(&id) {
            chosen.push(id);
        }
    }
    delete(&store, &chosen, yes)
}

/// `heat sessions prune --older-than SPAN`: deletes the debates last changed
/// longer ago than `span`, after asking.
pub fn prune(span: Duration, yes: bool) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let cutoff = store::now_ms().saturating_sub(u64::try_from(span.as_millis()).unwrap_or(u64::MAX));
    let old: Vec<String> = store.list().into_iter().filter(|e| e.updated_ms < cutoff).map(|e| e.id).collect();
    if old.is_empty() {
        say!("heat: no stored debate is older than {}", crate::words::span(span));
        return Ok(ExitCode::SUCCESS);
    }
    delete(&store, &old, yes)
}

/// Deletes `ids` once the person agreed (or `yes`); a debate another heat
/// has open is left alone and said so.
fn delete(store: &Store, ids: &[String], yes: bool) -> anyhow::Result<ExitCode> {
    let what = if ids.len() == 1 { format!("session {}", ids[0]) } else { count(ids.len(), "session") };
    if !yes && !agreed(&format!("Delete {what}? This cannot be undone. [y/N] "))? {
        say!("heat: nothing deleted");
        return Ok(ExitCode::FAILURE);
    }
    let mut refused = 0;
    // Branches before the debates they branch, so both can go in one call.
    let listed = store.list();
    let mut ordered: Vec<&String> = crate::store::index::tree(&listed)
        .into_iter()
        .rev()
        .filter_map(|(_, i)| ids.iter().find(|id| **id == listed[i].id))
        .collect();
    ordered.extend(ids.iter().filter(|id| !listed.iter().any(|e| e.id == **id)));
    for id in ordered {
        // A log another heat is writing holds its lock, and a branch needs its parent: both stay.
        if let Err(e) = store.remove(id) {
            say!("heat: {id} not deleted: {e:#}");
            refused += 1;
        }
    }
    let deleted = ids.len() - refused;
    say!("heat: deleted {}", count(deleted, "session"));
    Ok(if refused == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Asks on the terminal; without one, says how to delete without asking.
fn agreed(question: &str) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        bail!("deleting asks first, and there is no terminal to ask on: pass --yes to delete without asking");
    }
    let mut stderr = std::io::stderr();
    write!(stderr, "{question}")?;
    stderr.flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}

/// `heat export`: one session as Markdown or JSON, to stdout or a file; an
/// existing file is replaced only with `force`. Markdown to a file has its
/// charts written beside it as SVG (`<stem>-heat.svg`, `<stem>-words.svg`)
/// unless `no_images`; with `requests`, what each turn was sent follows the
/// transcript.
pub fn export(
    id: Option<&str>,
    format: ExportKind,
    output: Option<&Path>,
    force: bool,
    wanted: Wanted,
) -> anyhow::Result<()> {
    let Wanted { no_images, requests } = wanted;
    if requests && format == ExportKind::Json {
        anyhow::bail!(
            "--requests adds to the Markdown export; the JSON export holds every request already (each turn's `sent`)"
        );
    }
    let store = Store::open(&store::data_dir()?)?;
    let id = store.resolve(id)?;
    let loaded = store.load(&id)?;
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    let render = |images: Option<&export::Images>| {
        let mut text = export::render_with(format, &loaded.header, &loaded.records, images, &store.label(&id));
        if requests {
            let state = crate::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event));
            text.push('\n');
            text.push_str(&crate::report::requests::section(&state));
        }
        text
    };
    let Some(path) = output else {
        let text = render(None);
        std::io::stdout().lock().write_all(text.as_bytes())?;
        return Ok(());
    };
    let images = (format == ExportKind::Md && !no_images).then(|| chart_names(path));
    let dir = path.parent().unwrap_or_else(|| Path::new(""));
    let mut wanted = vec![(path.to_path_buf(), None)];
    if let Some(images) = &images {
        wanted.extend([&images.heat, &images.words].map(|name| (dir.join(name), Some(path))));
    }
    // Everything is drawn first, then every file claimed, then written: a
    // refusal or a failed chart leaves no file new or emptied.
    let charts = match &images {
        Some(_) => {
            let report =
                crate::report::Report::build(&loaded.header, &loaded.records, &crate::report::Context::default());
            vec![crate::report::charts::heat(&report)?, crate::report::charts::words(&report)?]
        }
        None => Vec::new(),
    };
    let mut files = claim(&wanted, force)?;
    for ((file, (chart, _)), svg) in files.iter_mut().skip(1).zip(&wanted[1..]).zip(&charts) {
        write_to(file, chart, svg)?;
    }
    let text = render(images.as_ref());
    write_to(&mut files[0], path, &text)?;
    say!("heat: wrote {}", path.display());
    Ok(())
}

/// What `heat export` adds or leaves out besides its format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Wanted {
    /// Markdown to a file: the charts drawn as text, no SVG files beside it.
    pub no_images: bool,
    /// What each turn was sent, after the transcript.
    pub requests: bool,
}

impl From<(bool, bool)> for Wanted {
    /// `(no_images, requests)`, as the flags give them.
    fn from((no_images, requests): (bool, bool)) -> Self {
        Self { no_images, requests }
    }
}

/// The chart files a Markdown export to `path` writes beside it.
fn chart_names(path: &Path) -> export::Images {
    let stem = path.file_stem().map_or_else(|| "heat".into(), |s| s.to_string_lossy().into_owned());
    export::Images { heat: format!("{stem}-heat.svg"), words: format!("{stem}-words.svg") }
}

/// Opens each file for writing; over an existing one only with `force`
/// (the check and the create are one step, so no file is lost to a race).
/// Each comes with the file it belongs to, if any (a chart, beside its
/// export), which the refusal names. When one is refused, the ones this
/// call created are removed again: a refused export writes nothing new.
fn claim(wanted: &[(PathBuf, Option<&Path>)], force: bool) -> anyhow::Result<Vec<std::fs::File>> {
    let mut files = Vec::with_capacity(wanted.len());
    let mut made = Vec::new();
    for (path, of) in wanted {
        let existed = path.exists();
        let opened = if path.is_dir() {
            Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "a directory"))
        } else {
            open(path, force)
        };
        match opened {
            Ok(file) => {
                files.push(file);
                if !existed {
                    made.push(path);
                }
            }
            Err(e) => {
                drop(files);
                for path in made {
                    let _ = std::fs::remove_file(path);
                }
                return Err(match (e.kind(), of) {
                    (std::io::ErrorKind::AlreadyExists, None) => {
                        anyhow::anyhow!(
                            "{} already exists; pass --force to replace it, or name another file",
                            path.display()
                        )
                    }
                    (std::io::ErrorKind::AlreadyExists, Some(of)) => anyhow::anyhow!(
                        "{} already exists (a chart of {}); pass --force to replace it, --no-images to leave the charts \
                         out, or name another file",
                        path.display(),
                        of.display()
                    ),
                    (std::io::ErrorKind::IsADirectory, _) => anyhow::anyhow!(
                        "{} is a directory: name a file, e.g. {}",
                        path.display(),
                        path.join("debate.md").display()
                    ),
                    _ => anyhow::Error::new(e).context(format!("could not write {}", path.display())),
                });
            }
        }
    }
    Ok(files)
}

/// Opens a file to write; an existing one (with `force`) keeps its bytes
/// until [`write_to`] replaces them, once every file of the export is claimed.
fn open(path: &Path, force: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        #[allow(clippy::suspicious_open_options)] // emptied in write_to, after every file is claimed
        options.create(true).truncate(false);
    } else {
        options.create_new(true);
    }
    options.open(path)
}

fn write_to(file: &mut std::fs::File, path: &Path, text: &str) -> anyhow::Result<()> {
    file.set_len(0)
        .and_then(|()| file.write_all(text.as_bytes()))
        .with_context(|| format!("could not write {}", path.display()))
}

/// Writes an export to `path`; over an existing file only with `force`.
pub(super) fn write_file(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    let mut files = claim(&[(path.to_path_buf(), None)], force)?;
    write_to(&mut files[0], path, text)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn entry(id: &str, topic: &str, age_ms: u64, now: u64) -> IndexEntry {
        IndexEntry { id: id.into(), topic: topic.into(), updated_ms: now - age_ms, rounds: 2, ..IndexEntry::default() }
    }

    #[test]
    fn the_columns_hold_for_every_age() {
        let now = 10_000_000_000_000;
        let (s, min, h, d) = (1000, 60_000, 3_600_000, 86_400_000);
        let ages = [
            (5 * s, "5 s ago"),
            (16 * min, "16 min ago"),
            (59 * min, "59 min ago"),
            (3 * h, "3 h ago"),
            (12 * d, "12 d ago"),
            (65 * d, "2 mo ago"),
            (364 * d, "11 mo ago"),
            (3 * 365 * d, "3 y ago"),
        ];
        let entries: Vec<IndexEntry> = ages
            .iter()
            .enumerate()
            .map(|(i, (ms, _))| entry(&format!("2026112{i}-120000-ab12"), "Tabs", *ms, now))
            .collect();
        let lines = table(&entries, now, None);
        let column = |line: &str, text: &str| line[..line.find(text).unwrap()].chars().count();
        let topic = column(&lines[0], "TOPIC");
        for (line, (_, age)) in lines[1..].iter().zip(ages) {
            assert!(line.contains(&format!(" {age}  Tabs")), "{age} is said so: {line}");
            assert_eq!(column(line, "Tabs"), topic, "the topic column slips:\n{}", lines.join("\n"));
        }
    }

    #[test]
    fn on_a_terminal_a_row_fits_its_width_by_display_columns() {
        let now = 10_000_000_000_000;
        let wide = "東京と大阪の オフィスは 在宅勤務に 勝る ".repeat(200);
        let entries =
            [entry("20261120-120000-ab12", &wide, 1000, now), entry("20261121-120000-ab12", "Tabs", 1000, now)];
        for width in [62, 80, 120, 200] {
            let lines = table(&entries, now, Some(width));
            for line in &lines {
                assert!(line.width() <= width, "{} > {width}: {line}", line.width());
            }
            assert!(lines[1].ends_with('…') && lines[2].ends_with("Tabs"), "{}", lines.join("\n"));
        }
        assert!(table(&entries, now, None)[1].ends_with(wide.trim_end()), "piped, the topic is whole");
    }
}
