//! The report's charts as inline SVG, drawn with plotters' SVG backend (pure
//! Rust: text is left to the browser, no font is read). Colours are ones that
//! read on a light and a dark page; the page's CSS colours the text.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf32;
use plotters::prelude::*;

use super::model::{HeatSetBy, Report};
use super::palette::{JUDGE, PERSON, seat_colour};
use crate::debate::Heat;
use crate::debate::Role;

const HEAT_MIN: f32 = Heat::MIN.get();
const HEAT_MAX: f32 = Heat::MAX.get();

const AXIS: RGBColor = RGBColor(0x8a, 0x8f, 0x98);

const WIDTH: u32 = 760;
const HEIGHT: u32 = 280;

/// Heat per round: one circle per round (filled purple where the judge set
/// it, pink where the person pinned it, hollow for the initial heat), with
/// the person's steering marked in the round it happened.
pub fn heat(report: &Report) -> anyhow::Result<String> {
    let rounds = report.heat.len().max(1) as f32;
    draw(|root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(44)
            .build_cartesian_2d(0.5f32..rounds + 0.5, (HEAT_MIN - 0.05)..(HEAT_MAX + 0.12))?;
        axes(&mut chart, report.heat.len(), "heat", &|y| format!("{y:.1}"))?;
        let points: Vec<(f32, f32)> = report.heat.iter().map(|p| (p.round as f32, p.heat.get())).collect();
        chart.draw_series(LineSeries::new(points.iter().copied(), JUDGE.mix(0.6).stroke_width(2)))?;
        chart.draw_series(report.heat.iter().map(|p| {
            let style = match p.set_by {
                HeatSetBy::Start => JUDGE.stroke_width(2),
                HeatSetBy::Judge => JUDGE.filled(),
                HeatSetBy::Person => PERSON.filled(),
            };
            Circle::new((p.round as f32, p.heat.get()), 5, style)
        }))?;
        // Steering, where it happened: a tick at the top of its round, labelled.
        let mut per_round: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for steer in &report.steering {
            let stacked = per_round.entry(steer.round).or_default();
            let x = steer.round.max(1) as f32 + 0.12;
            let y = HEAT_MAX + 0.09 - *stacked as f32 * 0.045;
            *stacked += 1;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x - 0.04, y), (x - 0.04, HEAT_MIN - 0.05)],
                PERSON.mix(0.35).stroke_width(1),
            )))?;
            chart.draw_series(std::iter::once(Text::new(
                steer.kind.short(),
                (x, y + 0.012),
                ("sans-serif", 15).into_font().color(&PERSON),
            )))?;
        }
        Ok(())
    })
}

/// Words per debater per round, side by side (judges favour the longer side).
pub fn words(report: &Report) -> anyhow::Result<String> {
    let rounds = report.effort.len().max(1) as f32;
    let seats: Vec<Role> = report.debaters.iter().map(|(r, _)| *r).collect();
    let most = report.effort.iter().flat_map(|e| seats.iter().map(|&r| e.words(r))).max().unwrap_or(0).max(10) as f32;
    // The round's width (0.72) shared by its debaters' bars, side by side.
    let width = 0.72 / seats.len().max(1) as f32;
    draw(|root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(52)
            .build_cartesian_2d(0.5f32..rounds + 0.5, 0f32..most * 1.1)?;
        axes(&mut chart, report.effort.len(), "words", &|y| format!("{y:.0}"))?;
        for (i, &role) in seats.iter().enumerate() {
            let offset = -0.36 + i as f32 * width;
            chart.draw_series(report.effort.iter().map(|e| {
                let x = e.round as f32 + offset;
                Rectangle::new([(x, 0.0), (x + width * 0.94, e.words(role) as f32)], seat_colour(role).filled())
            }))?;
        }
        Ok(())
    })
}

/// Each side's scorecard per round, weighted, out of 10: a line each, in
/// its seat's colour. `None` where no round was scored.
pub fn scorecards(report: &Report) -> anyhow::Result<Option<String>> {
    let Some(map) = report.map.as_ref().filter(|m| !m.totals.is_empty()) else { return Ok(None) };
    let rounds = map.totals.iter().map(|(r, _, _)| *r).max().unwrap_or(1) as f32;
    draw(|root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(44)
            .build_cartesian_2d(0.5f32..rounds + 0.5, 0f32..10.5)?;
        axes(&mut chart, rounds as usize, "scorecard", &|y| format!("{y:.0}"))?;
        for role in [Role::Advocate, Role::Skeptic] {
            let points: Vec<(f32, f32)> =
                map.totals.iter().filter(|(_, r, _)| *r == role).map(|(round, _, t)| (*round as f32, *t)).collect();
            chart.draw_series(LineSeries::new(points.iter().copied(), seat_colour(role).stroke_width(2)))?;
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 5, seat_colour(role).filled())))?;
        }
        Ok(())
    })
    .map(Some)
}

type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf32, RangedCoordf32>>;

/// Both charts' axes: a round per label along the bottom, `y` up the side,
/// a faint grid.
fn axes(chart: &mut Plot<'_, '_>, rounds: usize, y: &str, y_label: &dyn Fn(&f32) -> String) -> anyhow::Result<()> {
    chart
        .configure_mesh()
        .x_labels(rounds.clamp(1, 30))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(8)
        .y_label_formatter(y_label)
        .x_desc("round")
        .y_desc(y)
        .axis_style(AXIS)
        .bold_line_style(AXIS.mix(0.25))
        .light_line_style(TRANSPARENT)
        .label_style(("sans-serif", 16).into_font().color(&AXIS))
        .draw()?;
    Ok(())
}

/// Draws on an SVG canvas and returns the document.
fn draw(paint: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> anyhow::Result<()>) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        paint(&root)?;
        root.present().map_err(|e| anyhow::anyhow!("could not draw a chart: {e}"))?;
    }
    Ok(svg)
}
