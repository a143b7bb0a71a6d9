//! The standings page as HTML: the askama template
//! `assets/report/standings.html` (checked when heat compiles; every value
//! HTML-escaped), its charts inline, in the session report's page
//! (`page.html`: its head, styles and Content-Security-Policy: no script,
//! no request to a network).

use askama::Template;

use super::charts;
use super::matrix::MATRIX_MODELS;
use super::model::Standings;
use crate::tournament::stats::Summary;

#[derive(Template)]
#[template(path = "standings.html", config = "assets/report/askama.toml")]
struct Page<'a> {
    s: &'a Standings,
    ratings_svg: Option<String>,
    side_svg: Option<String>,
    matrix_models: usize,
    csp: &'static str,
    version: &'static str,
}

/// Renders the page of `standings`, its charts drawn from `summary`.
pub fn render(standings: &Standings, summary: &Summary) -> anyhow::Result<String> {
    let page = Page {
        s: standings,
        ratings_svg: charts::ratings(summary)?,
        side_svg: charts::side_bias(summary)?,
        matrix_models: MATRIX_MODELS,
        csp: crate::report::CSP,
        version: env!("CARGO_PKG_VERSION"),
    };
    Ok(page.render()?)
}
