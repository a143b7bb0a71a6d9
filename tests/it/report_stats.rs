//! `heat report --tournament` and `--tag` from the binary, on the mock of
//! `tournament.rs`: a tournament of 3 models over 5 propositions, sides
//! swapped, counted three ways (`heat stats --json`, the page, the CSV
//! export) that must agree — each model's rating, its interval's ends, its
//! games won and lost, the debates counted and who won each; the page
//! offline (its CSP, no script, its SVG charts); a tag's page written to
//! the data dir's reports/; an unknown tournament one sentence, nothing
//! written.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::support;
use crate::tournament::{heat, server};

const FILE: &str = r#"
propositions = [
    "Night trains beat short-haul flights",
    "Cities should ban cars from their centres",
    "Homework does more harm than good",
    "Remote work is here to stay",
    "Museums should be free to enter",
]
models = ["openai:mock-a", "openai:mock-b", "openai:mock-c"]
judge = "openai:mock-j"
rounds = 1
seed = 29
concurrency = 4
"#;

/// Runs `heat ARGS` against the mock; its output.
async fn run(data: &Path, server: &support::mock_llm::MockLlm, args: &[&str]) -> std::process::Output {
    let mut cmd = heat(data, server);
    cmd.args(args);
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

/// Rows of a CSV file as header → value maps (quoted fields, doubled quotes
/// and quoted line breaks read as RFC 4180 writes them).
fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut records: Vec<Vec<String>> = vec![Vec::new()];
    let (mut field, mut quoted, mut chars) = (String::new(), false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => records.last_mut().unwrap().push(std::mem::take(&mut field)),
            ('\n', false) => {
                let done = std::mem::take(&mut field);
                records.last_mut().unwrap().push(done.trim_end_matches('\r').to_string());
                records.push(Vec::new());
            }
            _ => field.push(c),
        }
    }
    records.retain(|r| !r.is_empty());
    let header = records.remove(0);
    records.into_iter().map(|r| header.iter().cloned().zip(r).collect()).collect()
}

/// The page's debates: session → (winning model, its side), as the page
/// prints them (`openai:mock-c (for)`; "even" and "undecided" as they are).
fn page_winners(page: &str) -> BTreeMap<String, String> {
    page.split("<tr class=\"debate\">")
        .skip(1)
        .map(|row| {
            let session = row.split("<code>heat report ").nth(1).unwrap().split("</code>").next().unwrap().to_string();
            let winner = row.split("<td class=\"winner").nth(1).unwrap().split('>').nth(1).unwrap();
            let winner =
                winner.trim_end_matches("</td").replace(" (for)", " advocate").replace(" (against)", " skeptic");
            (session, winner)
        })
        .collect()
}

/// Every number the page and `heat stats --json` must share, for each rated
/// model: its ratings row as the page prints it.
fn assert_ratings_agree(stats: &serde_json::Value, page: &str) {
    let summary = &stats["summary"];
    let rated = summary["ratings"]["models"].as_array().unwrap();
    assert!(!rated.is_empty(), "{stats}");
    assert_eq!(page.matches("<tr class=\"rated\">").count(), rated.len(), "a row per rated model");
    for r in rated {
        let model = r["model"].as_str().unwrap();
        let record = summary["models"].as_array().unwrap().iter().find(|m| m["model"] == model).unwrap();
        let overall = &record["overall"];
        let num = |v: &serde_json::Value| format!("<td class=\"num\">{}</td>", v.as_u64().unwrap());
        let row = format!(
            "<tr class=\"rated\"><td>{model}</td><td class=\"num\">{:.0}</td><td class=\"num\">{:.0}</td><td class=\"num\">{:.0}</td>{}{}{}",
            r["rating"].as_f64().unwrap(),
            r["low"].as_f64().unwrap(),
            r["high"].as_f64().unwrap(),
            num(&overall["games"]),
            num(&overall["wins"]),
            num(&overall["losses"]),
        );
        assert!(page.contains(&row), "{row} not in the page's ratings");
    }
    let debates = stats["debates"].as_u64().unwrap();
    assert!(page.contains(&format!("<dt>Debates counted</dt><dd>{debates}</dd>")));
    assert_eq!(page.matches("<tr class=\"debate\">").count() as u64, debates, "a row per debate counted");
}

/// Offline: the CSP of the session report, no script, the charts inline.
fn assert_offline(page: &str) {
    assert!(page.contains(&format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">", heat::report::CSP)));
    assert!(!page.to_lowercase().contains("<script"));
    assert!(page.contains("<figure class=\"chart\" id=\"ratings-chart\">\n<svg "), "the ratings chart");
    assert!(page.contains("<figure class=\"chart\" id=\"side-bias-chart\">\n<svg "), "the side bias chart");
    // No address but the SVG namespace's: nothing to fetch.
    let addresses = page.matches("http://").count() + page.matches("https://").count();
    assert_eq!(addresses, page.matches("xmlns=\"http://www.w3.org/2000/svg\"").count(), "no address to fetch");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_stats_the_page_and_the_export_of_a_tournament_agree() {
    let server = server(Duration::ZERO).await;
    let data = tempfile::tempdir().unwrap();
    let dir = data.path();
    std::fs::write(dir.join("t.toml"), FILE).unwrap();
    let out = run(dir, &server, &["tournament", dir.join("t.toml").to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let id = heat::store::tournaments::Tournaments::open(dir).unwrap().resolve(None, false).unwrap();

    let out = run(dir, &server, &["stats", &id, "--json"]).await;
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["debates"], 30, "5 propositions × 3 pairs × both sides");
    let page_file = dir.join("page.html");
    let out = run(dir, &server, &["report", "--tournament", &id, "-o", page_file.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    assert_eq!(support::binary::stdout(&out).trim_end(), page_file.display().to_string(), "it says where");
    let csv_file = dir.join("debates.csv");
    let out = run(dir, &server, &["stats", &id, "--export", csv_file.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", support::binary::stderr(&out));

    let page = std::fs::read_to_string(&page_file).unwrap();
    assert_ratings_agree(&stats, &page);
    assert_offline(&page);
    assert!(page.contains(&format!("<h1>tournament {id}</h1>")));
    // mock-c beats mock-b beats mock-a, whichever side each argues: the matrix says so.
    assert!(page.contains("<td class=\"cell\" title=\"openai:mock-c against openai:mock-a: 10 won, 0 lost, 0 even\""));
    assert!(page.contains("No swap checks recorded."), "a section with nothing says so");
    // The export: a row per debate counted, each won by the model the page names.
    let rows = csv_rows(&std::fs::read_to_string(&csv_file).unwrap());
    let winners = page_winners(&page);
    assert_eq!(rows.len(), 30);
    assert_eq!(winners.len(), 30, "30 distinct sessions on the page");
    for row in &rows {
        let exported = format!("{} {}", row["winner_model"], row["winner_side"]);
        assert_eq!(winners.get(&row["session"]), Some(&exported), "{row:?}");
    }
    let won_in_csv = |model: &str| rows.iter().filter(|r| r["winner_model"] == model).count() as u64;
    for model in stats["summary"]["models"].as_array().unwrap() {
        let name = model["model"].as_str().unwrap();
        assert_eq!(Some(won_in_csv(name)), model["overall"]["wins"].as_u64(), "{name}");
    }

    // Written again: refused without --force, replaced with it.
    let out = run(dir, &server, &["report", "--tournament", &id, "-o", page_file.to_str().unwrap()]).await;
    assert!(!out.status.success());
    assert!(support::binary::stderr(&out).contains("already exists"), "{}", support::binary::stderr(&out));
    let out = run(dir, &server, &["report", "--tournament", "-o", page_file.to_str().unwrap(), "--force"]).await;
    assert!(out.status.success(), "no id: the newest, {}", support::binary::stderr(&out));
    assert_eq!(std::fs::read_to_string(&page_file).unwrap(), page, "the same seed, the same page");

    // A tag on two of its debates: its own page, in the data dir's reports/.
    let tagged: Vec<&String> = winners.keys().take(2).collect();
    for session in &tagged {
        let out = run(dir, &server, &["sessions", "tag", session, "picked"]).await;
        assert!(out.status.success(), "{}", support::binary::stderr(&out));
    }
    let out = run(dir, &server, &["stats", "--tag", "picked", "--json"]).await;
    let tag_stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(tag_stats["debates"], 2, "{tag_stats}");
    let out = run(dir, &server, &["report", "--tag", "picked"]).await;
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let written = support::binary::stdout(&out).trim_end().to_string();
    assert!(written.ends_with("reports/tag-picked.html"), "{written}");
    let tag_page = std::fs::read_to_string(&written).unwrap();
    assert_ratings_agree(&tag_stats, &tag_page);
    assert!(tag_page.contains("<h1>the debates tagged #picked</h1>"));
    assert_eq!(page_winners(&tag_page).keys().collect::<Vec<_>>(), tagged);

    // An unknown tournament: one sentence, nothing written.
    let missing = dir.join("missing.html");
    let out = run(dir, &server, &["report", "--tournament", "zzzz", "-o", missing.to_str().unwrap()]).await;
    assert!(!out.status.success());
    assert_eq!(
        support::binary::stderr(&out),
        format!("heat: no tournament has an id starting with \"zzzz\"; the newest is {id}\n")
    );
    assert!(!missing.exists());
    let reports: Vec<_> = std::fs::read_dir(Path::new(&written).parent().unwrap()).unwrap().collect();
    assert_eq!(reports.len(), 1, "only the tag's page in reports/");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tournament_page_conflicts_with_a_session_and_the_demo() {
    let server = server(Duration::ZERO).await;
    let data = tempfile::tempdir().unwrap();
    for args in [
        &["report", "abc", "--tournament", "t"][..],
        &["report", "--demo", "--tag", "x"],
        &["report", "--summary", "--tournament"],
        &["report", "--tag", "x", "--tournament", "t"],
    ] {
        let out = run(data.path(), &server, args).await;
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", support::binary::stderr(&out));
        assert!(support::binary::stderr(&out).contains("cannot be used with"), "{args:?}");
    }
    assert!(!data.path().join("reports").exists(), "nothing written");
}
