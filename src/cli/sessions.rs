//! `heat sessions` and `heat export`: the stored debates, newest first (read
//! from the index), filtered or as JSON; deleting them by id or by age
//! (asking first unless told not to); and one of them written out.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};

use crate::report::export::{self, Format};
use crate::store::index::IndexEntry;
use crate::store::{self, Store};

/// Which stored debates `heat sessions` lists.
#[derive(Debug, Default)]
pub struct Filter {
    /// Topic or id contains this, in any case.
    pub search: Option<String>,
    /// Only those `heat resume` can go on with.
    pub continuable: bool,
}

impl Filter {
    fn keeps(&self, entry: &IndexEntry) -> bool {
        let found = self.search.as_deref().is_none_or(|text| {
            let text = text.to_lowercase();
            entry.topic.to_lowercase().contains(&text) || entry.id.to_lowercase().contains(&text)
        });
        found && (!self.continuable || entry.continuable())
    }
}

pub fn list(filter: &Filter, json: bool) -> anyhow::Result<()> {
    let store = Store::open(&store::data_dir()?)?;
    let all = store.list();
    let entries: Vec<IndexEntry> = all.iter().filter(|e| filter.keeps(e)).cloned().collect();
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &entries)?;
        writeln!(out)?;
        return Ok(());
    }
    if all.is_empty() {
        writeln!(out, "No sessions yet. Start one with: heat run \"Remote work beats the office\"")?;
        return Ok(());
    }
    if entries.is_empty() {
        writeln!(out, "No session matches; {} stored (`heat sessions` lists them all).", all.len())?;
        return Ok(());
    }
    let now = store::now_ms();
    writeln!(out, "{:<22} {:>6}  {:<26} {:>9}  TOPIC", "ID", "ROUNDS", "OUTCOME", "AGE")?;
    for (depth, e) in crate::store::index::tree(&entries).into_iter().map(|(d, i)| (d, &entries[i])) {
        let outcome = fit(e.outcome.as_deref().unwrap_or("unfinished (heat resume)"), 26);
        // A branch sits under the debate it branches.
        let topic = format!("{}{}", crate::store::index::indent(depth), e.listed_topic());
        writeln!(
            out,
            "{:<22} {:>6}  {:<26} {:>9}  {topic}",
            e.id,
            e.rounds,
            outcome,
            age(now.saturating_sub(e.updated_ms))
        )?;
    }
    Ok(())
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
        say!("heat: no stored debate is older than {}", humantime::format_duration(span));
        return Ok(ExitCode::SUCCESS);
    }
    delete(&store, &old, yes)
}

/// Deletes `ids` once the person agreed (or `yes`); a debate another heat
/// has open is left alone and said so.
fn delete(store: &Store, ids: &[String], yes: bool) -> anyhow::Result<ExitCode> {
    let what = if ids.len() == 1 { format!("session {}", ids[0]) } else { format!("{} sessions", ids.len()) };
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
    say!("heat: deleted {deleted} session{}", if deleted == 1 { "" } else { "s" });
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
/// unless `no_images`.
pub fn export(
    id: Option<&str>,
    format: Format,
    output: Option<&Path>,
    force: bool,
    no_images: bool,
) -> anyhow::Result<()> {
    let store = Store::open(&store::data_dir()?)?;
    let id = store.resolve(id)?;
    let loaded = store.load(&id)?;
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    let Some(path) = output else {
        let text = export::render_with(format, &loaded.header, &loaded.records, None);
        std::io::stdout().lock().write_all(text.as_bytes())?;
        return Ok(());
    };
    let images = (format == Format::Md && !no_images).then(|| chart_names(path));
    let dir = path.parent().unwrap_or_else(|| Path::new(""));
    let mut wanted = vec![(path.to_path_buf(), None)];
    if let Some(images) = &images {
        wanted.extend([&images.heat, &images.words].map(|name| (dir.join(name), Some(path))));
    }
    // Every file is claimed before any is written: a refusal leaves none.
    let mut files = claim(&wanted, force)?;
    if images.is_some() {
        let report = crate::report::Report::build(&loaded.header, &loaded.records, &crate::report::Context::default());
        let charts = [crate::report::charts::heat(&report)?, crate::report::charts::words(&report)?];
        for ((file, (chart, _)), svg) in files.iter_mut().skip(1).zip(&wanted[1..]).zip(&charts) {
            write_to(file, chart, svg)?;
        }
    }
    let text = export::render_with(format, &loaded.header, &loaded.records, images.as_ref());
    write_to(&mut files[0], path, &text)?;
    say!("heat: wrote {}", path.display());
    Ok(())
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
        match open(path, force) {
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
                    _ => anyhow::Error::new(e).context(format!("could not write {}", path.display())),
                });
            }
        }
    }
    Ok(files)
}

fn open(path: &Path, force: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    options.open(path)
}

fn write_to(file: &mut std::fs::File, path: &Path, text: &str) -> anyhow::Result<()> {
    file.write_all(text.as_bytes()).with_context(|| format!("could not write {}", path.display()))
}

/// Writes an export to `path`; over an existing file only with `force`.
pub(super) fn write_file(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    let mut files = claim(&[(path.to_path_buf(), None)], force)?;
    write_to(&mut files[0], path, text)
}

/// `text` cut to `width` characters, ending in `…` when cut.
pub(super) fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

/// A short, human age: `12 s`, `4 min`, `3 h`, `2 d`.
pub fn age(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0..60 => format!("{s} s ago"),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} h ago", s / 3600),
        _ => format!("{} d ago", s / 86_400),
    }
}
