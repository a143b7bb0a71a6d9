//! The argument map as the report shows it: the ledger drawn as a graph
//! (each side's claims in a column, in the order made, each box coloured by
//! where the claim stands, an arrow from a claim to the one it answers),
//! the ledger's rows, the scorecard table (each side's score on each
//! criterion, round by round, with its weighted total) and the turning
//! points. Taken from the debate's facts, as every presenter's are.

use std::fmt::Write as _;

use crate::debate::argument_map::{self, Claim, ClaimStatus, DebateMap};
use crate::debate::facts::{self, DebateFacts};
use crate::debate::{DebateState, Role};
use crate::sanitize::clean;

/// The map's part of the report.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportMap {
    /// The graph, as an inline SVG document (every text escaped).
    pub graph: String,
    pub claims: Vec<ClaimRow>,
    /// The criteria, in the format's order, and each scored round's rows.
    pub criteria: Vec<String>,
    pub scorecard: Vec<ScoreRow>,
    /// Each side's weighted total per round, for the chart: (round, side, total).
    pub totals: Vec<(u32, Role, f32)>,
    pub turning: Vec<String>,
}

/// One claim of the ledger, as its table row says it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimRow {
    pub id: String,
    pub side: String,
    pub role: Role,
    pub claim: String,
    pub status: &'static str,
    /// What it answers and what answers it: "answers A1 · answered by S2".
    pub links: String,
    pub round: u32,
}

/// One side's scorecard in one round.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreRow {
    pub round: u32,
    pub side: String,
    pub role: Role,
    /// Each criterion's score, "–" where none was given.
    pub scores: Vec<String>,
    pub total: String,
}

/// The report's map, in a format that keeps one.
pub fn of(state: &DebateState) -> Option<ReportMap> {
    let DebateFacts { scores: _, issues: _, panel: _, swap: _, vote: _, room: _, map } = facts::of_debate(state);
    let (map, spec) = (map?, state.map()?);
    let claims = argument_map::in_map_order(&map.ledger).into_iter().map(|c| row(state, &map, c)).collect();
    let mut scorecard = Vec::new();
    let mut totals = Vec::new();
    for (round, card) in argument_map::scorecards(state) {
        for role in [Role::Advocate, Role::Skeptic] {
            let given = card.of(role).cloned().unwrap_or_default();
            let total = argument_map::weighted(&card, role, spec);
            if let Some(total) = total {
                totals.push((round + 1, role, total));
            }
            scorecard.push(ScoreRow {
                round: round + 1,
                side: clean(state.label(role)),
                role,
                scores: spec.criteria.iter().map(|c| given.get(&c.name).map_or("–".into(), u8::to_string)).collect(),
                total: total.map_or_else(|| "–".to_string(), |t| format!("{t:.1}")),
            });
        }
    }
    Some(ReportMap {
        graph: graph(state, &map),
        claims,
        criteria: spec
            .criteria
            .iter()
            .map(|c| if c.weight == 1 { c.name.clone() } else { format!("{} ×{}", c.name, c.weight) })
            .collect(),
        scorecard,
        totals,
        turning: map.turning_points.iter().map(|t| turned(state, t)).collect(),
    })
}

/// A turning point as the report lists it: "Round 2: the Opposition went ahead (S1)".
fn turned(state: &DebateState, point: &argument_map::TurningPoint) -> String {
    let said = argument_map::turning_line(state, point);
    let said = said.strip_prefix("turning point: ").unwrap_or(&said);
    clean(&format!("Round {}: {said}", point.round + 1))
}

fn row(state: &DebateState, map: &DebateMap, claim: &Claim) -> ClaimRow {
    let links = argument_map::links(&map.ledger, claim);
    ClaimRow {
        id: claim.id.clone(),
        side: clean(state.label(claim.by)),
        role: claim.by,
        claim: clean(&claim.claim),
        status: claim.status.name(),
        links: links.join(" · "),
        round: claim.round + 1,
    }
}

/// The graph's geometry: two columns of boxes.
const WIDTH: u32 = 900;
const BOX_WIDTH: u32 = 380;
const BOX_HEIGHT: u32 = 58;
const GAP: u32 = 18;
const MARGIN: u32 = 20;
/// How many characters of a claim a box line holds.
const LINE_CHARS: usize = 52;

/// The ledger as an SVG graph.
fn graph(state: &DebateState, map: &DebateMap) -> String {
    let column = |role: Role| -> Vec<&Claim> { map.ledger.by(role).collect() };
    let (pro, con) = (column(Role::Advocate), column(Role::Skeptic));
    let rows = pro.len().max(con.len()).max(1) as u32;
    let height = MARGIN * 2 + 28 + rows * (BOX_HEIGHT + GAP);
    let x_of = |role: Role| if role == Role::Advocate { MARGIN } else { WIDTH - MARGIN - BOX_WIDTH };
    let place = |claim: &Claim| -> (u32, u32) {
        let list = if claim.by == Role::Advocate { &pro } else { &con };
        let i = list.iter().position(|c| c.id == claim.id).unwrap_or(0) as u32;
        (x_of(claim.by), MARGIN + 28 + i * (BOX_HEIGHT + GAP))
    };
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" aria-label="The argument map"><defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8a8f98"/></marker></defs>"##
    );
    for role in [Role::Advocate, Role::Skeptic] {
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" font-weight="bold" fill="{}">{}</text>"#,
            x_of(role),
            MARGIN + 12,
            seat_hex(role),
            escape(&clean(state.label(role)))
        );
    }
    for claim in &map.ledger.claims {
        let Some(target) = claim.answers.as_deref().and_then(|t| map.ledger.get(t)) else { continue };
        let ((fx, fy), (tx, ty)) = (place(claim), place(target));
        // From the answering box's inner edge to the answered box's.
        let (x1, x2) = if claim.by == Role::Advocate { (fx + BOX_WIDTH, tx) } else { (fx, tx + BOX_WIDTH) };
        let _ = write!(
            svg,
            r##"<line x1="{x1}" y1="{}" x2="{x2}" y2="{}" stroke="#8a8f98" stroke-width="2" marker-end="url(#arrow)"/>"##,
            fy + BOX_HEIGHT / 2,
            ty + BOX_HEIGHT / 2
        );
    }
    for claim in &map.ledger.claims {
        let (x, y) = place(claim);
        let text = clean(&claim.claim);
        let (first, rest) = split_line(&text);
        let _ = write!(
            svg,
            r#"<g class="claim {status}"><rect x="{x}" y="{y}" width="{BOX_WIDTH}" height="{BOX_HEIGHT}" rx="6" fill="{fill}" fill-opacity="0.14" stroke="{fill}" stroke-width="2"/><text x="{}" y="{}" font-size="13"><tspan font-weight="bold">{} · {status}</tspan></text><text x="{}" y="{}" font-size="13">{}</text><text x="{}" y="{}" font-size="13">{}</text></g>"#,
            x + 8,
            y + 17,
            escape(&claim.id),
            x + 8,
            y + 34,
            escape(&first),
            x + 8,
            y + 50,
            escape(&rest),
            status = claim.status.name(),
            fill = status_hex(claim.status),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// A claim cut at a word into a box's two lines, the second ending in `…`
/// when the claim is longer.
fn split_line(text: &str) -> (String, String) {
    let cut = |text: &str| -> usize {
        if text.chars().count() <= LINE_CHARS {
            return text.len();
        }
        let limit = text.char_indices().nth(LINE_CHARS).map_or(text.len(), |(i, _)| i);
        text[..limit].rfind(' ').unwrap_or(limit)
    };
    let at = cut(text);
    let rest = text[at..].trim_start();
    let end = cut(rest);
    let second = if end < rest.len() { format!("{}…", rest[..end].trim_end()) } else { rest.to_string() };
    (text[..at].trim_end().to_string(), second)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn seat_hex(role: Role) -> String {
    super::palette::hex(super::palette::seat_colour(role))
}

/// A claim's colour by where it stands.
fn status_hex(status: ClaimStatus) -> &'static str {
    match status {
        ClaimStatus::Standing => "#2f7bd8",
        ClaimStatus::Defended | ClaimStatus::Agreed => "#1f9e89",
        ClaimStatus::Attacked => "#c99a06",
        ClaimStatus::Conceded => "#d6336c",
        ClaimStatus::Withdrawn => "#8a8f98",
    }
}
