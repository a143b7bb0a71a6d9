//! The house's floors, checked: reads every production `use` path (and every
//! `crate::`/`super::`/`self::` path in code) of `src/`, builds the import graph
//! between files, and fails on any import cycle and on any import that runs
//! against a layer rule. Code under `#[cfg(test)]` is left out: tests may
//! reach across floors.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// Folders that one floor must not import from: `(from, forbidden)`.
const LAYER_RULES: &[(&str, &[&str])] = &[
    ("debate", &["tui", "cli", "store", "report", "config", "setup", "format", "logging", "web"]),
    // A model is reached knowing nothing of debates, screens, settings or files of heat's own.
    ("provider", &["debate", "store", "web", "tui", "cli", "config", "setup", "report", "format", "model_store"]),
    ("store", &["tui", "cli", "web", "report"]),
    // The studio is handed what it runs; it sets nothing up and knows no command.
    ("tui", &["cli", "setup"]),
    ("setup", &["tui", "cli"]),
    ("format", &["tui", "cli"]),
    ("report", &["tui", "cli", "web"]),
    ("config", &["tui", "web"]),
    ("web", &["tui", "cli", "report", "config", "provider"]),
    // A library of sources knows files and words, nothing of debates or models.
    (
        "library",
        &["debate", "provider", "tui", "cli", "store", "report", "config", "setup", "format", "logging", "web"],
    ),
    // MCP servers are spoken to knowing nothing of debates or models.
    (
        "mcp",
        &[
            "debate", "provider", "library", "tui", "cli", "store", "report", "config", "setup", "format", "logging",
            "web",
        ],
    ),
    // Tournaments are planned, run and counted knowing nothing of screens, commands, files or models' wires.
    (
        "tournament",
        &["tui", "cli", "web", "store", "report", "config", "setup", "format", "provider", "logging", "library", "mcp"],
    ),
];

#[test]
fn src_has_no_import_cycles() {
    let graph = Graph::of_crate();
    let cycles = graph.cycles();
    let listed: Vec<String> = cycles.iter().map(|c| graph.explain(c)).collect();
    assert!(
        cycles.is_empty(),
        "{} import cycle(s) in src/ ({} files):\n  {}",
        cycles.len(),
        cycles.iter().map(Vec::len).sum::<usize>(),
        listed.join("\n  ")
    );
}

#[test]
fn src_keeps_its_layer_rules() {
    let broken = Graph::of_crate().broken_rules();
    assert!(broken.is_empty(), "imports against the layer rules:\n  {}", broken.join("\n  "));
}

/// The studio's view draws from `&App` and never changes it; `App`'s state
/// is changed only by `App`'s own methods: its fields are private, it lends
/// its state out read-only (no `DerefMut`), its methods live in its own
/// module (`tui/app/`: its state and fold, its keys, what its tasks
/// report), and the test door `staged` is called nowhere in heat.
#[test]
fn the_view_only_reads_the_studio_and_only_app_changes_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut broken = Vec::new();
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("read");
        let rel = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        broken.extend(app_rules(&rel, &text));
    }
    assert!(broken.is_empty(), "the studio's state changed outside App's methods:\n  {}", broken.join("\n  "));
}

/// What `text` (the file `rel` under `src/`) does against the rules above.
fn app_rules(rel: &str, text: &str) -> Vec<String> {
    let file = syn::parse_file(text).expect("parse");
    let mut broken = Vec::new();
    if rel.starts_with("tui/view/") && text.contains("&mut App") {
        broken.push(format!("{rel}: a view function takes &mut App"));
    }
    let is_app =
        |ty: &syn::Type| matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "App"));
    for item in &file.items {
        match item {
            syn::Item::Impl(block) if is_app(&block.self_ty) => match &block.trait_ {
                None if !rel.starts_with("tui/app/") => broken.push(format!("{rel}: impl App outside tui/app/")),
                Some((_, path, _)) if path.segments.last().is_some_and(|s| s.ident == "DerefMut") => {
                    broken.push(format!("{rel}: impl DerefMut for App"));
                }
                _ => {}
            },
            syn::Item::Struct(app)
                if app.ident == "App" && app.fields.iter().any(|f| !matches!(f.vis, syn::Visibility::Inherited)) =>
            {
                broken.push(format!("{rel}: App has a field others can reach"));
            }
            _ => {}
        }
    }
    // A method call `x.staged()` (not a range `..staged()`).
    let door = text
        .match_indices(".staged()")
        .any(|(at, _)| text[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ')'));
    if !rel.starts_with("tui/app/") && door {
        broken.push(format!("{rel}: calls the test door staged()"));
    }
    broken
}

#[test]
fn the_homes_rule_sees_each_way_round_it() {
    let home = "tui/app/mod.rs";
    assert!(app_rules(home, "pub struct App { state: S }\nimpl App { fn f(&self) {} }").is_empty());
    assert!(!app_rules(home, "pub struct App { pub state: S }").is_empty(), "a public field");
    assert!(!app_rules(home, "pub struct App { pub(crate) state: S }").is_empty(), "a crate-wide field");
    assert!(!app_rules(home, "impl std::ops::DerefMut for App {}").is_empty(), "a writable deref");
    assert!(!app_rules("tui/frame.rs", "impl<'a> crate::tui::App { fn f(&self) {} }").is_empty(), "a third home");
    assert!(app_rules("tui/frame.rs", "impl Default for App {}").is_empty(), "a trait's impl is not a home");
    assert!(!app_rules("tui/frame.rs", "fn f(app: &mut App) { app.staged().session = None; }").is_empty());
    assert!(!app_rules("tui/view/x.rs", "fn f(app: &mut App) {}").is_empty(), "a view that writes");
    assert!(app_rules("tui/frame.rs", "impl Apps {}\n// impl App {").is_empty());
    assert!(app_rules("tui/stage.rs", "fn f() -> S { S { a: 1, ..staged() } }").is_empty(), "a range is no call");
}

/// The studio's state holds no interior mutability: the view draws from
/// `&App`, so a `Cell` in it would be a write the view makes (the results'
/// scroll limit once was). Code under `#[cfg(test)]` is left out.
#[test]
fn the_studio_state_has_no_interior_mutability() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in rust_files(&src.join("tui")) {
        let rel = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        found.extend(
            interior_mutability(&std::fs::read_to_string(&file).expect("read"))
                .into_iter()
                .map(|t| format!("{rel}: {t}")),
        );
    }
    assert!(found.is_empty(), "interior mutability in the studio: {found:?}");
}

/// The cell types a file's code (outside `#[cfg(test)]`) names.
fn interior_mutability(text: &str) -> Vec<String> {
    #[derive(Default)]
    struct Cells(Vec<String>);
    impl<'ast> Visit<'ast> for Cells {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            let attrs = match item {
                syn::Item::Mod(m) => &m.attrs,
                syn::Item::Fn(f) => &f.attrs,
                syn::Item::Impl(i) => &i.attrs,
                _ => return syn::visit::visit_item(self, item),
            };
            if !is_test_only(attrs) {
                syn::visit::visit_item(self, item);
            }
        }
        fn visit_path(&mut self, path: &'ast syn::Path) {
            let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            let cell =
                names.last().is_some_and(|n| ["Cell", "RefCell", "OnceCell", "UnsafeCell"].contains(&n.as_str()));
            // ratatui's buffer cell is a cell of the screen, not of state.
            if cell && !names.iter().any(|n| n == "buffer") {
                self.0.push(names.join("::"));
            }
            syn::visit::visit_path(self, path);
        }
    }
    let mut cells = Cells::default();
    cells.visit_file(&syn::parse_file(text).expect("parse"));
    cells.0
}

#[test]
fn the_cell_rule_sees_a_cell_in_state_and_not_in_a_test() {
    let state = "pub struct Results { pub scroll_max: std::cell::Cell<u16> }";
    assert_eq!(interior_mutability(state), ["std::cell::Cell"]);
    let tested = "#[cfg(test)]\nmod tests { fn f() { let _ = std::cell::RefCell::new(1); } }";
    assert!(interior_mutability(tested).is_empty());
    assert!(interior_mutability("fn f() { let _ = ratatui::buffer::Cell::new(\"x\"); }").is_empty());
}

/// Every presenter that takes a round's (or the debate's) facts apart
/// names each one (`debate/facts.rs`): a pattern of `RoundFacts` or
/// `DebateFacts` never ends in `..`, so a new fact is a compile error in
/// each presenter until it decides how to draw it.
#[test]
fn every_presenter_names_each_of_a_rounds_facts() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for file in rust_files(&src) {
        let rel = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        let (patterns, rests) = facts_patterns(&std::fs::read_to_string(&file).expect("read"));
        found.extend(std::iter::repeat_n(rel.clone(), patterns));
        skipped.extend(std::iter::repeat_n(rel, rests));
    }
    assert!(skipped.is_empty(), "RoundFacts or DebateFacts patterns that skip facts with `..`: {skipped:?}");
    // The presenters that take a round's facts apart; a presenter that stops is noticed.
    let presenters: BTreeSet<&str> = found.iter().map(String::as_str).collect();
    for presenter in [
        "cli/print/mod.rs",
        "report/export.rs",
        "report/model.rs",
        "tui/pane_notes.rs",
        "tui/view/results.rs",
        "tui/view/argument_map.rs",
        "web/page.rs",
    ] {
        assert!(presenters.contains(presenter), "{presenter} no longer takes a round's facts apart: {presenters:?}");
    }
}

/// The `RoundFacts { … }` and `DebateFacts { … }` patterns in a file's
/// code, and how many of them end in `..`.
fn facts_patterns(text: &str) -> (usize, usize) {
    #[derive(Default)]
    struct Patterns(usize, usize);
    impl<'ast> Visit<'ast> for Patterns {
        fn visit_pat_struct(&mut self, pattern: &'ast syn::PatStruct) {
            if pattern.path.segments.last().is_some_and(|s| s.ident == "RoundFacts" || s.ident == "DebateFacts") {
                self.0 += 1;
                self.1 += usize::from(pattern.rest.is_some());
            }
            syn::visit::visit_pat_struct(self, pattern);
        }
    }
    let mut patterns = Patterns::default();
    patterns.visit_file(&syn::parse_file(text).expect("parse"));
    (patterns.0, patterns.1)
}

#[test]
fn the_facts_rule_sees_a_pattern_that_skips_a_fact() {
    let named = "fn f(x: RoundFacts) { let RoundFacts { scores, issues: _ } = x; }";
    let skipping = "fn f(x: RoundFacts) { if let Some(facts::RoundFacts { scores, .. }) = Some(x) {} }";
    assert_eq!(facts_patterns(named), (1, 0));
    assert_eq!(facts_patterns(skipping), (1, 1));
    assert_eq!(facts_patterns("fn f(x: Facts) { let Facts { a, .. } = x; }"), (0, 0));
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The graph finds the cycles and broken rules it is meant to: a small tree
/// with one of each, read by the same code.
#[test]
fn the_checker_sees_a_cycle_and_a_broken_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path();
    let write = |rel: &str, text: &str| {
        let path = src.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write("lib.rs", "pub mod debate;\npub mod provider;\npub mod tui;\n");
    write("provider.rs", "use crate::debate::seat::Side;\n");
    write("debate/mod.rs", "pub mod event;\npub mod seat;\npub use event::Event;\n#[cfg(test)]\nmod tests;\n");
    write("debate/event.rs", "use super::seat::Side;\npub struct Event;\n");
    write("debate/seat.rs", "pub enum Side {}\npub fn f() { let _ = crate::debate::event::Event; }\n");
    write("debate/tests.rs", "use crate::tui::App;\n");
    write("tui/mod.rs", "use crate::debate::Event;\npub struct App;\nfn g() { crate::debate::seat::f() }\n");
    write("debate/extra.rs", "use crate::tui::App;\n");
    let graph = Graph::read(src);
    assert_eq!(
        graph.cycles(),
        vec![vec!["debate/event.rs".to_string(), "debate/seat.rs".to_string()]],
        "edges: {:?}",
        graph.edges
    );
    // `debate/extra.rs` is never declared, and `debate/tests.rs` only under
    // `#[cfg(test)]`: neither is read.
    assert!(!graph.edges.contains_key("debate/extra.rs"));
    assert!(!graph.edges.contains_key("debate/tests.rs"));
    // A name is imported from the module the path names, re-export or not:
    // `crate::debate::Event` is an edge to `debate/mod.rs`, and a module's
    // re-export of its own child is no edge at all.
    let tui: Vec<&String> = graph.edges["tui/mod.rs"].iter().collect();
    assert_eq!(tui, ["debate/mod.rs", "debate/seat.rs"]);
    assert!(graph.edges["debate/mod.rs"].is_empty(), "edges: {:?}", graph.edges);
    assert_eq!(graph.broken_rules(), ["provider.rs → debate/seat.rs"]);
}

/// Which floor a file sits on: its folder under `src/`, or its stem for a
/// file directly under `src/` (`logging.rs` is the `logging` floor).
fn floor(file: &str) -> Option<&str> {
    let first = file.split('/').next()?;
    let floor = first.strip_suffix(".rs").unwrap_or(first);
    (floor != "lib").then_some(floor)
}

/// One module of the crate: the file it lives in and the names it declares.
#[derive(Default)]
struct Module {
    file: String,
    /// Child modules, by name, with their module path.
    children: BTreeMap<String, Vec<String>>,
}

struct Graph {
    modules: BTreeMap<Vec<String>, Module>,
    /// file → files it imports from (paths relative to `src/`).
    edges: BTreeMap<String, BTreeSet<String>>,
    /// (from, to) → the first path written in `from` that leads to `to`.
    why: BTreeMap<(String, String), String>,
}

impl Graph {
    fn of_crate() -> Self {
        Self::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
    }

    fn read(src: &Path) -> Self {
        let mut graph = Graph { modules: BTreeMap::new(), edges: BTreeMap::new(), why: BTreeMap::new() };
        let mut parsed = Vec::new();
        graph.discover(src, &src.join("lib.rs"), vec!["crate".into()], &mut parsed);
        for (module, file) in &parsed {
            let mut uses = Uses::default();
            uses.visit_file_items(&file.items);
            let from = graph.modules[module].file.clone();
            let mut targets = BTreeSet::new();
            for path in uses.imports.iter().chain(&uses.paths) {
                if let Some(to) = graph.resolve(module, path)
                    && to != from
                {
                    graph.why.entry((from.clone(), to.clone())).or_insert_with(|| path.join("::"));
                    targets.insert(to);
                }
            }
            graph.edges.entry(from).or_default().extend(targets);
        }
        graph
    }

    /// Reads `file` as module `path`, and every module it declares outside
    /// `#[cfg(test)]`.
    fn discover(&mut self, src: &Path, file: &Path, path: Vec<String>, parsed: &mut Vec<(Vec<String>, syn::File)>) {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rel = file.strip_prefix(src).expect("under src").to_string_lossy().replace('\\', "/");
        // A file's children live in `dir/name/`: `a/mod.rs` and `lib.rs` own
        // their folder, `a/b.rs` owns `a/b/`.
        let stem = file.file_stem().expect("stem").to_string_lossy().to_string();
        let dir: PathBuf = if stem == "mod" || stem == "lib" {
            file.parent().expect("dir").to_path_buf()
        } else {
            file.parent().expect("dir").join(&stem)
        };
        self.declare(src, &dir, &rel, path.clone(), &ast.items, parsed);
        parsed.push((path, ast));
    }

    fn declare(
        &mut self,
        src: &Path,
        dir: &Path,
        rel: &str,
        path: Vec<String>,
        items: &[syn::Item],
        parsed: &mut Vec<(Vec<String>, syn::File)>,
    ) {
        let mut module = Module { file: rel.to_string(), ..Module::default() };
        let mut files = Vec::new();
        for item in items {
            let syn::Item::Mod(m) = item else { continue };
            if is_test_only(&m.attrs) {
                continue;
            }
            let name = m.ident.to_string();
            let mut child = path.clone();
            child.push(name.clone());
            module.children.insert(name.clone(), child.clone());
            if let Some((_, inner)) = &m.content {
                self.declare(src, &dir.join(&name), rel, child, inner, parsed);
            } else {
                let flat = dir.join(format!("{name}.rs"));
                let file = if flat.exists() { flat } else { dir.join(&name).join("mod.rs") };
                files.push((file, child));
            }
        }
        self.modules.insert(path, module);
        for (file, child) in files {
            self.discover(src, &file, child, parsed);
        }
    }

    /// `path` as written in `module`, made absolute (`crate::…`), or `None`
    /// for a path into another crate or a local name.
    fn absolute(&self, module: &[String], path: &[String]) -> Option<Vec<String>> {
        let first = path.first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => return Some(path.to_vec()),
            "self" => module.to_vec(),
            "super" => {
                let mut base = module.to_vec();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                return Some(base);
            }
            name => {
                // A relative path starting at a child module of this one.
                let children = &self.modules.get(module)?.children;
                if !children.contains_key(name) {
                    return None;
                }
                module.to_vec()
            }
        };
        let skip = usize::from(first == "self");
        base.extend(path[skip..].iter().cloned());
        Some(base)
    }

    /// The file `path` (as written in `module`) is imported from: the
    /// longest prefix of it that is a module. A name a module re-exports
    /// is imported from that module, as the code reads.
    fn resolve(&self, module: &[String], path: &[String]) -> Option<String> {
        let abs = self.absolute(module, path)?;
        (1..=abs.len()).rev().find_map(|end| self.modules.get(&abs[..end]).map(|m| m.file.clone()))
    }

    /// Imports that run against [`LAYER_RULES`], as `from → to`.
    fn broken_rules(&self) -> Vec<String> {
        let mut broken = Vec::new();
        for (from, tos) in &self.edges {
            for to in tos {
                let (Some(a), Some(b)) = (floor(from), floor(to)) else { continue };
                let forbidden = LAYER_RULES.iter().filter(|(f, _)| *f == a).any(|(_, never)| never.contains(&b));
                if forbidden {
                    broken.push(format!("{from} → {to}"));
                }
            }
        }
        broken
    }

    /// A cycle's files and the imports among them, one per line.
    fn explain(&self, files: &[String]) -> String {
        let mut lines = vec![files.join(", ")];
        for from in files {
            for to in &self.edges[from] {
                if files.contains(to) {
                    lines.push(format!("    {from} → {to} ({})", self.why[&(from.clone(), to.clone())]));
                }
            }
        }
        lines.join("\n")
    }

    /// Strongly connected groups of more than one file, each sorted, sorted.
    fn cycles(&self) -> Vec<Vec<String>> {
        let nodes: Vec<&String> = self.edges.keys().collect();
        let index: BTreeMap<&String, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let adjacency: Vec<Vec<usize>> =
            nodes.iter().map(|n| self.edges[*n].iter().filter_map(|t| index.get(t).copied()).collect()).collect();
        let mut groups: Vec<Vec<String>> = tarjan(&adjacency)
            .into_iter()
            .filter(|g| g.len() > 1)
            .map(|g| {
                let mut files: Vec<String> = g.into_iter().map(|i| nodes[i].clone()).collect();
                files.sort();
                files
            })
            .collect();
        groups.sort();
        groups
    }
}

/// Tarjan's strongly connected components, iteratively.
fn tarjan(adjacency: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = adjacency.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut groups = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = adjacency[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                groups.push(group);
            }
        }
    }
    groups
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.require_list().is_ok_and(|l| l.tokens.to_string().trim() == "test"))
}

fn is_public(vis: &syn::Visibility) -> bool {
    !matches!(vis, syn::Visibility::Inherited)
}

/// Every path a `use` tree names, with the name it binds (`None` for a glob).
fn flatten(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut prefix = prefix;
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix;
            if name == "self" {
                let bound = path.last().cloned();
                out.push((path, bound));
            } else {
                path.push(name.clone());
                out.push((path, Some(name)));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix;
            path.push(r.ident.to_string());
            out.push((path, Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix, None)),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                flatten(tree, prefix.clone(), out);
            }
        }
    }
}

/// What one file's production code names.
#[derive(Default)]
struct Uses {
    /// Paths of `use` items, but a module's re-exports of its own children.
    imports: Vec<Vec<String>>,
    /// Paths written in code (types, calls, patterns, macros).
    paths: Vec<Vec<String>>,
    /// Every identifier the code mentions outside `use` items.
    idents: BTreeSet<String>,
}

impl Uses {
    fn visit_file_items(&mut self, items: &[syn::Item]) {
        for item in items {
            self.visit_item(item);
        }
    }

    fn tokens(&mut self, tokens: &TokenStream) {
        let flat: Vec<TokenTree> = tokens.clone().into_iter().collect();
        let mut i = 0;
        while i < flat.len() {
            match &flat[i] {
                TokenTree::Group(g) => self.tokens(&g.stream()),
                TokenTree::Ident(id) => {
                    let word = id.to_string();
                    self.idents.insert(word.clone());
                    if matches!(word.as_str(), "crate" | "super" | "self") {
                        let mut path = vec![word];
                        let mut j = i + 1;
                        while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)), Some(TokenTree::Ident(next))) =
                            (flat.get(j), flat.get(j + 1), flat.get(j + 2))
                        {
                            if a.as_char() != ':' || b.as_char() != ':' {
                                break;
                            }
                            path.push(next.to_string());
                            j += 3;
                        }
                        if path.len() > 1 {
                            self.paths.push(path);
                        }
                        i = j;
                        continue;
                    }
                }
                TokenTree::Punct(_) | TokenTree::Literal(_) => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Trait(t) => &t.attrs,
            syn::Item::Macro(m) => &m.attrs,
            _ => &[],
        };
        if is_test_only(attrs) {
            return;
        }
        match item {
            syn::Item::Use(u) => {
                let mut leaves = Vec::new();
                flatten(&u.tree, Vec::new(), &mut leaves);
                // A module re-exporting what its own children define
                // (`pub use chat::ChatRequest` in `provider/mod.rs`) is their
                // index, not their importer; any other `use` imports.
                let index = is_public(&u.vis);
                let own_child = |path: &Vec<String>| !matches!(path[0].as_str(), "crate" | "super" | "self");
                self.imports.extend(leaves.into_iter().map(|(path, _)| path).filter(|p| !(index && own_child(p))));
            }
            // A `mod x;` is a declaration, not an import; an inline module's
            // items are read as this file's.
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    for item in inner {
                        self.visit_item(item);
                    }
                }
            }
            other => syn::visit::visit_item(self, other),
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            self.paths.push(segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
        self.idents.insert(ident.to_string());
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.tokens(&mac.tokens);
    }
}
