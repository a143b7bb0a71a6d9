//! The standings page whole, from hand-made games: every section there,
//! each saying so when it has nothing, the debates listed with their
//! propositions, and what a model wrote escaped, never markup.
#![allow(clippy::unwrap_used)]

use super::{Input, html};
use crate::tournament::stats::{Game, Pick, Summary, summarise_with_resamples};

fn game(session: &str, advocate: &str, skeptic: &str, winner: Option<Pick>) -> Game {
    Game::between(session, (advocate, skeptic), "openai:judge", winner)
}

fn page(games: &[Game], propositions: &[String], summary: &Summary) -> String {
    html(&Input { what: "tournament t1", summary, games, propositions }).unwrap()
}

#[test]
fn a_page_of_rated_models_has_its_charts_tables_and_debates() {
    let games = vec![
        game("s1", "openai:a", "openai:b", Some(Pick::Advocate)),
        game("s2", "openai:b", "openai:a", Some(Pick::Skeptic)),
        game("s3", "openai:b", "openai:c", Some(Pick::Advocate)),
        game("s4", "openai:c", "openai:a", None),
    ];
    let propositions: Vec<String> = (1..=4).map(|i| format!("Proposition {i}")).collect();
    let summary = summarise_with_resamples(&games, 3, 20);
    let page = page(&games, &propositions, &summary);
    assert!(page.contains(&format!("content=\"{}\"", crate::report::CSP)));
    assert!(!page.contains("<script"));
    assert_eq!(page.matches("<svg").count(), 2, "the ratings and the side bias");
    assert_eq!(page.matches("<tr class=\"rated\">").count(), summary.ratings.models.len());
    let top = &summary.ratings.models[0];
    assert!(
        page.contains(&format!("<tr class=\"rated\"><td>{}</td><td class=\"num\">{:.0}</td>", top.model, top.rating))
    );
    assert_eq!(page.matches("<tr class=\"debate\">").count(), 4);
    assert!(page.contains("<td>Proposition 3</td>"));
    assert!(page.contains("<td class=\"winner advocate\">openai:a (for)</td>"));
    assert!(page.contains("<td class=\"winner skeptic\">openai:a (against)</td>"));
    assert!(page.contains("<td class=\"winner \">undecided</td>"));
    assert!(page.contains("<code>heat report s4</code>"));
    assert!(page.contains("4 debates, in the order they were counted"));
    assert!(page.contains("<td class=\"cell\""), "the matrix has coloured cells");
    // Nothing recorded for these: each says so.
    for empty in [
        "No swap checks recorded.",
        "No judge's model also debated.",
        "No verdict of a person or of the room recorded.",
    ] {
        assert!(page.contains(empty), "{empty}");
    }
}

#[test]
fn a_page_with_nothing_decided_says_so_in_each_section() {
    let games = vec![game("s1", "openai:a", "openai:b", None)];
    let summary = summarise_with_resamples(&games, 1, 0);
    let page = page(&games, &["P".to_string()], &summary);
    assert!(!page.contains("<svg"), "nothing to chart");
    for empty in [
        "No decided game between two models: nothing to rate.",
        "No decisive verdicts.",
        "No swap checks recorded.",
        "No decisive verdict between sides that wrote different amounts.",
    ] {
        assert!(page.contains(empty), "{empty}");
    }
    assert!(page.contains("Not rated, no decided game against another model: openai:a, openai:b."));
}

#[test]
fn what_a_model_or_a_person_wrote_is_escaped_and_cleaned() {
    let evil = "openai:<script>alert(1)</script>";
    let games =
        vec![game("s1", evil, "openai:b", Some(Pick::Advocate)), game("s2", "openai:b", evil, Some(Pick::Advocate))];
    let propositions = vec!["Night \u{1b}[31mtrains</td>\nwin".to_string(), "x".to_string()];
    let summary = summarise_with_resamples(&games, 1, 5);
    let page = page(&games, &propositions, &summary);
    assert!(!page.contains("<script"), "escaped everywhere, the SVG's labels too");
    assert!(page.contains("openai:&#60;script&#62;") || page.contains("openai:&lt;script&gt;"));
    assert!(page.contains("Night trains&#60;/td&#62; win") || page.contains("Night trains&lt;/td&gt; win"));
    assert!(!page.contains('\u{1b}'));
}
