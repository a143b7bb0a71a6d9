//! The report as one HTML page: the askama template in `assets/report/`
//! (`report.html` in the page `page.html` frames, as the standings page is;
//! checked when heat compiles; every value is HTML-escaped), the charts
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
    /// The scorecards' chart, in a format that keeps an argument map.
    scores_svg: Option<String>,
    csp: &'static str,
    version: &'static str,
}

/// Renders the page.
pub fn render(report: &Report) -> anyhow::Result<String> {
    let page = Page {
        r: report,
        heat_svg: super::charts::heat(report)?,
        words_svg: super::charts::words(report)?,
        scores_svg: super::charts::scorecards(report)?,
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

    /// A turn's or the synthesis's text: its Markdown as inert HTML, its
    /// headings below the page's heading it sits under (`<h2>` for the
    /// summary and synthesis, `<h3>` for a round's turns).
    #[allow(clippy::unused_self)] // the template reaches its helpers through `self`
    fn markdown(&self, text: &str, under: usize) -> String {
        super::markdown::to_html(text, under)
    }

    fn cost(&self) -> Option<String> {
        self.r.cost.map(|dollars| format!("${dollars:.4} (at the prices in heat.toml)"))
    }

    /// The words chart's key: each debater's colour and name.
    fn words_key(&self) -> Vec<(String, String)> {
        self.r
            .debaters
            .iter()
            .map(|(role, label)| (super::palette::hex(super::palette::seat_colour(*role)), label.to_lowercase()))
            .collect()
    }

    /// How far apart the sides' lengths are: judges favour the longer side.
    /// More than two debaters: each one's words.
    fn parity(&self) -> String {
        if self.r.debaters.len() != 2 {
            let each: Vec<String> =
                self.r.debaters.iter().map(|(role, label)| format!("{label} {}", self.r.total_words(*role))).collect();
            return format!("words: {}", each.join(", "));
        }
        let (a, s) = (self.r.total_words(Role::Advocate), self.r.total_words(Role::Skeptic));
        if a == 0 || s == 0 {
            return format!("{} against {s}", crate::words::count(a, "word"));
        }
        let (long, short, who) = if a >= s { (a, s, "advocate") } else { (s, a, "skeptic") };
        let ratio = long as f64 / short as f64;
        let flag = if ratio > 1.5 { " — over 1.5×: judges tend to favour the longer side" } else { "" };
        format!("{} against {s}; the {who} wrote {ratio:.2}× as much{flag}", crate::words::count(a, "word"))
    }

    /// The effort table's headings: the round, each debater's words and
    /// time, the judge's time where one sat, and how alike two sides are.
    fn effort_headers(&self) -> Vec<String> {
        let mut headers = vec!["Round".to_string()];
        for (_, label) in &self.r.debaters {
            headers.extend([format!("{label} words"), "time".into()]);
        }
        if self.r.judged {
            headers.push("Judge time".into());
        }
        if self.r.debaters.len() == 2 {
            headers.push("Alike".into());
        }
        headers
    }

    /// Round, each debater's words and time, the judge's time, how alike
    /// the two arguments are (see [`Self::effort_headers`]).
    fn effort_rows(&self) -> Vec<Vec<String>> {
        let seconds = |s: Option<f64>| s.map_or("–".to_string(), |s| format!("{s:.1} s"));
        self.r
            .effort
            .iter()
            .map(|e| {
                let of = |role: Role| {
                    e.seats.iter().find(|(r, _)| *r == role).map(|(_, effort)| *effort).unwrap_or_default()
                };
                let mut row = vec![e.round.to_string()];
                for (role, _) in &self.r.debaters {
                    let effort = of(*role);
                    row.extend([effort.words.to_string(), seconds(effort.seconds)]);
                }
                if self.r.judged {
                    row.push(seconds(of(Role::Judge).seconds));
                }
                if self.r.debaters.len() == 2 {
                    row.push(e.alike.map_or("–".to_string(), |x| format!("{:.0}%", x * 100.0)));
                }
                row
            })
            .collect()
    }
}
