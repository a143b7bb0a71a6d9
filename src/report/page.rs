//! The report as one HTML page: the askama template in `assets/report/`
//! (checked when heat compiles; every value is HTML-escaped), the charts
//! inline, and a Content-Security-Policy that forbids scripts and any
//! request to a network.

use askama::Template;

use super::model::Report;
use super::transcript::Entry;
use crate::debate::Role;

/// No script, no fetch, no frame, no form: styles inline and images inline only.
pub const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

#[derive(Template)]
#[template(path = "report.html", config = "assets/report/askama.toml")]
struct Page<'a> {
    r: &'a Report,
    heat_svg: String,
    words_svg: String,
    csp: &'static str,
    version: &'static str,
}

/// Renders the page.
pub fn render(report: &Report) -> anyhow::Result<String> {
    let page = Page {
        r: report,
        heat_svg: super::charts::heat(report)?,
        words_svg: super::charts::words(report)?,
        csp: CSP,
        version: env!("CARGO_PKG_VERSION"),
    };
    Ok(page.render()?)
}

impl Page<'_> {
    fn tokens(&self) -> String {
        match self.r.tokens {
            None => "not reported".into(),
            Some((input, output)) if self.r.cached > 0 => {
                format!("{input} in ({} read from the cache) · {output} out", self.r.cached)
            }
            Some((input, output)) => format!("{input} in · {output} out"),
        }
    }

    /// A turn's or the synthesis's text: its Markdown as inert HTML.
    #[allow(clippy::unused_self)] // the template reaches its helpers through `self`
    fn markdown(&self, text: &str) -> String {
        super::markdown::to_html(text)
    }

    fn cost(&self) -> Option<String> {
        self.r.cost.map(|dollars| format!("${dollars:.4} (at the prices in heat.toml)"))
    }

    /// How far apart the sides' lengths are: judges favour the longer side.
    fn parity(&self) -> String {
        let (a, s) = (self.r.total_words(Role::Advocate), self.r.total_words(Role::Skeptic));
        if a == 0 || s == 0 {
            return format!("{a} words against {s}");
        }
        let (long, short, who) = if a >= s { (a, s, "advocate") } else { (s, a, "skeptic") };
        let ratio = long as f64 / short as f64;
        let flag = if ratio > 1.5 { " — over 1.5×: judges tend to favour the longer side" } else { "" };
        format!("{a} words against {s}; the {who} wrote {ratio:.2}× as much{flag}")
    }

    /// Round, advocate words and time, skeptic words and time, judge time,
    /// how alike the two arguments are.
    fn effort_rows(&self) -> Vec<Vec<String>> {
        let seconds = |s: Option<f64>| s.map_or("–".to_string(), |s| format!("{s:.1} s"));
        self.r
            .effort
            .iter()
            .map(|e| {
                let of = |role: Role| {
                    e.seats.iter().find(|(r, _)| *r == role).map(|(_, effort)| *effort).unwrap_or_default()
                };
                let (a, s, j) = (of(Role::Advocate), of(Role::Skeptic), of(Role::Judge));
                vec![
                    e.round.to_string(),
                    a.words.to_string(),
                    seconds(a.seconds),
                    s.words.to_string(),
                    seconds(s.seconds),
                    seconds(j.seconds),
                    e.alike.map_or("–".to_string(), |x| format!("{:.0}%", x * 100.0)),
                ]
            })
            .collect()
    }
}
