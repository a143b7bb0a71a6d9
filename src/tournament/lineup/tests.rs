//! Line-up and panel files: what the file alone refuses, how a format's seat
//! names seat a line-up, and the debates a line-up file plans (exact keys
//! and seats).
#![allow(clippy::unwrap_used)]

use std::path::Path;

use super::*;
use crate::tournament::file::TournamentFile;
use crate::tournament::plan::{self, calls_per_debate};

fn parse(text: &str) -> anyhow::Result<TournamentFile> {
    TournamentFile::parse("t.toml", text, Path::new("."))
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

/// Oxford's seats as `--seat` reads them.
fn oxford(name: &str) -> Option<Role> {
    match name.to_ascii_lowercase().as_str() {
        "proposition" | "advocate" => Some(Role::Advocate),
        "opposition" | "skeptic" => Some(Role::Skeptic),
        "chair" | "judge" => Some(Role::Judge),
        _ => None,
    }
}

fn seated(text: &str) -> anyhow::Result<TournamentFile> {
    let mut file = parse(text)?;
    let name_of = |role: Role| if role == Role::Advocate { "proposition" } else { "opposition" }.to_string();
    let debaters = [Role::Advocate, Role::Skeptic];
    let seating = Seating {
        format: "oxford",
        named: &oxford,
        debaters: &debaters,
        accepted: "proposition, opposition (or advocate, skeptic)",
        name_of: &name_of,
    };
    seat("t.toml", &mut file.lineups, &seating)?;
    Ok(file)
}

const LINEUPS: &str = r#"propositions = ["Night trains beat short-haul flights", "Cities should ban cars"]
lineups = [
  { proposition = "openai:a", opposition = "anthropic:b" },
  { skeptic = "openai:c", advocate = "openai:a" },
]
judge = ["openai:j1", "anthropic:j2", "openai:j3"]
"#;

#[test]
fn a_lineup_file_plans_each_lineup_on_each_proposition_both_ways_with_keys_of_its_own() {
    let file = seated(LINEUPS).unwrap();
    assert_eq!(
        file.judges.iter().map(|j| (j.text.as_str(), j.line)).collect::<Vec<_>>(),
        [("openai:j1", 6), ("anthropic:j2", 6), ("openai:j3", 6)]
    );
    assert_eq!(file.judge().text, "openai:j1");
    assert_eq!(file.lineups[1].line, 4);
    let mut planned = plan::plan(&file, 3);
    planned.sort_by(|a, b| a.key.cmp(&b.key));
    let rows: Vec<(&str, &str, &str, &str)> = planned
        .iter()
        .map(|p| (p.key.as_str(), &p.proposition[..6], p.advocate.as_str(), p.skeptic.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            ("p0-l0-r0", "Night ", "openai:a", "anthropic:b"),
            ("p0-l0s-r0", "Night ", "anthropic:b", "openai:a"),
            ("p0-l1-r0", "Night ", "openai:a", "openai:c"),
            ("p0-l1s-r0", "Night ", "openai:c", "openai:a"),
            ("p1-l0-r0", "Cities", "openai:a", "anthropic:b"),
            ("p1-l0s-r0", "Cities", "anthropic:b", "openai:a"),
            ("p1-l1-r0", "Cities", "openai:a", "openai:c"),
            ("p1-l1s-r0", "Cities", "openai:c", "openai:a"),
        ]
    );
    let swapped = planned.iter().find(|p| p.key == "p1-l0s-r0").unwrap();
    assert_eq!(
        plan::seats(&file, swapped),
        [(Role::Advocate, "anthropic:b".to_string()), (Role::Skeptic, "openai:a".to_string())]
    );
    let one_way = seated(&format!("{LINEUPS}swap_sides = false\nrepeats = 2\n")).unwrap();
    let mut keys: Vec<String> = plan::plan(&one_way, 1).into_iter().map(|p| p.key).collect();
    keys.sort();
    assert_eq!(keys, ["p0-l0-r0", "p0-l0-r1", "p0-l1-r0", "p0-l1-r1", "p1-l0-r0", "p1-l0-r1", "p1-l1-r0", "p1-l1-r1"]);
    // Each round: two turns and three votes; then the chair's synthesis.
    assert_eq!(calls_per_debate(2, 3), 11);
    assert_eq!(calls_per_debate(2, 1), 7);
}

#[test]
fn a_models_file_keeps_its_keys() {
    let file = parse("propositions = [\"p\"]\nmodels = [\"a:x\", \"b:y\", \"c:z\"]\njudge = \"j:k\"\n").unwrap();
    let mut keys: Vec<String> = plan::plan(&file, 5).into_iter().map(|p| p.key).collect();
    keys.sort();
    assert_eq!(keys, ["p0-m0vm1-r0", "p0-m0vm2-r0", "p0-m1vm0-r0", "p0-m1vm2-r0", "p0-m2vm0-r0", "p0-m2vm1-r0"]);
    let planned = plan::plan(&file, 5).into_iter().find(|p| p.key == "p0-m2vm0-r0").unwrap();
    assert_eq!(plan::seats(&file, &planned), [(Role::Advocate, "c:z".to_string()), (Role::Skeptic, "a:x".to_string())]);
    assert_eq!(file.judges.len(), 1);
}

#[test]
fn bad_lineups_and_panels_are_refused_with_their_line() {
    let head = "propositions = [\"p\"]\njudge = \"openai:j\"\n";
    let one = err(&format!("{head}lineups = [\n  {{ advocate = \"openai:a\" }},\n]\n"));
    assert_eq!(
        one,
        "t.toml line 4: a line-up needs a model on each side, and this one names the advocate only: add the other side's seat"
    );
    let both =
        err(&format!("{head}models = [\"a:a\", \"a:b\"]\nlineups = [{{ advocate = \"a:a\", skeptic = \"a:b\" }}]\n"));
    assert!(both.starts_with("t.toml line 4: gives both models and lineups"), "{both}");
    let none = err(&format!("{head}lineups = []\n"));
    assert!(none.starts_with("t.toml line 3: lineups names no line-up"), "{none}");
    let empty = err(&format!("{head}lineups = [{{ advocate = \"a:a\", skeptic = \" \" }}]\n"));
    assert_eq!(empty, "t.toml line 3: the line-up's skeptic names no model");
    let written_twice = err(&format!("{head}lineups = [{{ advocate = \"a:a\", advocate = \"a:b\" }}]\n"));
    assert!(written_twice.starts_with("t.toml line 3:"), "{written_twice}");

    let unknown = seated(&format!("{head}lineups = [\n{{ advocate = \"a:a\", skeptic = \"a:b\" }},\n{{ proposition = \"a:a\", chair = \"a:b\" }}]\n"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        unknown,
        "t.toml line 5: a line-up names the seat \"chair\", which format oxford has not for a debater: its seats are \
         proposition, opposition (or advocate, skeptic)"
    );
    let twice = seated(&format!("{head}lineups = [{{ proposition = \"a:a\", advocate = \"a:b\" }}]\n")).unwrap_err();
    assert_eq!(
        twice.to_string(),
        "t.toml line 3: a line-up gives the proposition seat twice (as \"proposition\" and \"advocate\"); give each seat one model"
    );
    let lopsided = seated(&format!("{head}lineups = [{{ proposition = \"a:a\", third = \"a:b\" }}]\n")).unwrap_err();
    assert!(lopsided.to_string().contains("the seat \"third\", which format oxford has not"), "{lopsided}");

    let panel =
        |judges: &str| err(&format!("propositions = [\"p\"]\nmodels = [\"a:a\", \"a:b\"]\n\njudge = {judges}\n"));
    assert_eq!(
        panel("[]"),
        "t.toml line 4: judge names a panel of 0 judges; a panel seats 1 to 5 judges, the chair first"
    );
    assert_eq!(
        panel("[\"a:1\", \"a:2\", \"a:3\", \"a:4\", \"a:5\", \"a:6\"]"),
        "t.toml line 4: judge names a panel of 6 judges; a panel seats 1 to 5 judges, the chair first"
    );
    assert_eq!(panel("[\"a:1\",\n \" \"]"), "t.toml line 5: a judge is empty");
    let number = panel("3");
    assert!(number.starts_with("t.toml line 4: invalid type: integer `3`, expected a model"), "{number}");
}
