//! Which files a library holds: each path given is a file, or a folder
//! walked as git would (what its `.gitignore`s and git's own excludes name
//! and hidden files left out, links not followed), in a stable order.

use std::path::{Path, PathBuf};

/// A file found, with the name citations give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub name: String,
    pub path: PathBuf,
    /// Whether it was named itself (not found in a folder): one that cannot
    /// be read is then an error, not a file left out.
    pub named: bool,
}

/// Why a path given cannot be walked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    #[error("the source {0} does not exist")]
    Missing(String),
    #[error("the folder {0} could not be walked: {1}")]
    Unwalkable(String, String),
}

/// Every file under `roots`, in order: a root's files sorted by path, roots
/// in the order given; a file reached twice is listed once.
pub fn files(roots: &[String]) -> Result<Vec<Found>, WalkError> {
    let mut found: Vec<Found> = Vec::new();
    for root in roots {
        let path = Path::new(root);
        let meta = std::fs::metadata(path).map_err(|_| WalkError::Missing(root.clone()))?;
        if !meta.is_dir() {
            let name = display_name(root);
            found.push(Found { name, path: path.to_path_buf(), named: true });
            continue;
        }
        let base = folder_name(path);
        let mut here = Vec::new();
        let walker = ignore::WalkBuilder::new(path).hidden(true).require_git(false).follow_links(false).build();
        for entry in walker {
            let entry = entry.map_err(|e| WalkError::Unwalkable(root.clone(), e.to_string()))?;
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let below = entry.path().strip_prefix(path).unwrap_or(entry.path());
            let name = join(&base, below);
            here.push(Found { name, path: entry.path().to_path_buf(), named: false });
        }
        here.sort_by(|a, b| a.name.cmp(&b.name));
        found.extend(here);
    }
    let mut seen = std::collections::HashSet::new();
    found.retain(|f| seen.insert(std::fs::canonicalize(&f.path).unwrap_or_else(|_| f.path.clone())));
    Ok(found)
}

/// A file named itself is cited by the path given, without `./`.
fn display_name(root: &str) -> String {
    let trimmed = root.strip_prefix("./").unwrap_or(root);
    trimmed.replace('\\', "/")
}

/// A folder's name in citations: its last part (`docs` for `../heat/docs/`),
/// or empty for `.` and `/`, whose files are named by their paths below.
fn folder_name(path: &Path) -> String {
    let full = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let given_is_here = matches!(path.to_str(), Some("." | "./"));
    if given_is_here {
        return String::new();
    }
    full.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

fn join(base: &str, below: &Path) -> String {
    let below = below.to_string_lossy().replace('\\', "/");
    if base.is_empty() { below } else { format!("{base}/{below}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_walked_as_git_would_and_named_under_its_own_name() {
        let dir = tempfile::tempdir().expect("dir");
        let docs = dir.path().join("docs");
        std::fs::create_dir_all(docs.join("deep")).expect("mkdir");
        std::fs::create_dir_all(docs.join(".hidden")).expect("mkdir");
        std::fs::write(docs.join("b.md"), "b").expect("write");
        std::fs::write(docs.join("deep/a.md"), "a").expect("write");
        std::fs::write(docs.join(".hidden/c.md"), "c").expect("write");
        std::fs::write(docs.join("skip.log"), "log").expect("write");
        std::fs::write(docs.join(".gitignore"), "*.log\n").expect("write");
        let root = docs.display().to_string();
        let found = files(&[root.clone(), format!("{root}/b.md")]).expect("walked");
        let names: Vec<&str> = found.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["docs/b.md", "docs/deep/a.md"], "hidden, ignored and repeated files are left out");
        assert!(found.iter().all(|f| !f.named));
        let missing = files(&[format!("{root}/nope")]).expect_err("missing");
        assert_eq!(missing.to_string(), format!("the source {root}/nope does not exist"));
    }
}
