//! The standings page's charts as inline SVG (plotters' SVG backend, as the
//! session report draws): a row per model or judge, its value a point and
//! its 95 % interval a bar across it, against a line where nothing leans
//! (a rating of 1000, an advocate's share of 50 %). Text is left to the
//! page's CSS, so the charts read on a light and a dark page.

use std::ops::Range;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::palette::{ADVOCATE, JUDGE};
use super::cells::{chart_name, percent};
use crate::tournament::stats::{Rate, Summary};

const AXIS: RGBColor = RGBColor(0x8a, 0x8f, 0x98);
const WIDTH: u32 = 760;
/// Each row's height, in pixels.
const ROW: u32 = 34;

/// One row of a chart: a label, a value and its interval.
struct Interval {
    label: String,
    value: f64,
    low: f64,
    high: f64,
}

impl Interval {
    fn of_rate(label: String, rate: &Rate) -> Self {
        Interval { label, value: rate.share, low: rate.low, high: rate.high }
    }
}

/// Each rated model's rating with its bootstrap interval, highest first,
/// 1000 (the geometric mean) marked; `None` when no model is rated.
pub fn ratings(summary: &Summary) -> anyhow::Result<Option<String>> {
    let rows: Vec<Interval> = summary
        .ratings
        .models
        .iter()
        .map(|r| Interval { label: chart_name(&r.model), value: r.rating, low: r.low, high: r.high })
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let lowest = rows.iter().map(|r| r.low).fold(1000.0, f64::min);
    let highest = rows.iter().map(|r| r.high).fold(1000.0, f64::max);
    let pad = ((highest - lowest) * 0.06).max(20.0);
    let forest = Forest {
        rows: &rows,
        x: (lowest - pad)..(highest + pad),
        mark: (1000.0, "1000"),
        x_desc: "rating, with its 95 % bootstrap interval",
        colour: ADVOCATE,
    };
    forest.draw(&|x| format!("{x:.0}")).map(Some)
}

/// The advocate's share of decisive verdicts with its Wilson interval,
/// over all judges and (with several) judge by judge, 50 % marked; `None`
/// without a decisive verdict.
pub fn side_bias(summary: &Summary) -> anyhow::Result<Option<String>> {
    let bias = &summary.side_bias;
    let Some(overall) = &bias.overall else { return Ok(None) };
    let mut rows = vec![Interval::of_rate("all judges".into(), overall)];
    if bias.by_judge.len() > 1 {
        for judge in &bias.by_judge {
            if let Some(rate) = &judge.advocate_wins {
                rows.push(Interval::of_rate(chart_name(&judge.judge), rate));
            }
        }
    }
    let forest = Forest {
        rows: &rows,
        x: -0.02..1.02,
        mark: (0.5, "50 %"),
        x_desc: "the advocate's share of decisive verdicts, with its 95 % interval",
        colour: JUDGE,
    };
    forest.draw(&|x| percent(*x)).map(Some)
}

/// A forest plot: the rows top to bottom, the x axis along the bottom.
struct Forest<'a> {
    rows: &'a [Interval],
    x: Range<f64>,
    /// Where nothing leans, and its label.
    mark: (f64, &'a str),
    x_desc: &'a str,
    colour: RGBColor,
}

impl Forest<'_> {
    fn draw(&self, x_label: &dyn Fn(&f64) -> String) -> anyhow::Result<String> {
        let n = self.rows.len();
        let height = 76 + ROW * u32::try_from(n).unwrap_or(u32::MAX / ROW).min(200);
        let longest = self.rows.iter().map(|r| r.label.chars().count()).max().unwrap_or(0);
        let label_width = u32::try_from(longest * 8 + 20).unwrap_or(u32::MAX).clamp(90, 300);
        let label_style = ("sans-serif", 15).into_font().color(&AXIS);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            let top = n as f64;
            let mut chart = ChartBuilder::on(&root)
                .margin(12)
                .margin_top(26)
                .x_label_area_size(42)
                .y_label_area_size(label_width)
                .build_cartesian_2d(self.x.clone(), 0f64..top)?;
            chart
                .configure_mesh()
                .x_labels(8)
                .x_label_formatter(x_label)
                .y_labels(0)
                .disable_y_mesh()
                .x_desc(self.x_desc)
                .axis_style(AXIS)
                .bold_line_style(AXIS.mix(0.25))
                .light_line_style(TRANSPARENT)
                .label_style(("sans-serif", 15).into_font().color(&AXIS))
                .draw()?;
            let (mark, mark_label) = self.mark;
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(mark, 0.0), (mark, top)], AXIS.stroke_width(2))))?;
            let (x, y) = chart.backend_coord(&(mark, top));
            let above = label_style.pos(Pos::new(HPos::Center, VPos::Bottom));
            root.draw(&Text::new(mark_label.to_string(), (x, y - 4), above))?;
            for (i, row) in self.rows.iter().enumerate() {
                let y = top - i as f64 - 0.5;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(row.low, y - 0.07), (row.high, y + 0.07)],
                    self.colour.mix(0.55).filled(),
                )))?;
                chart.draw_series(std::iter::once(Circle::new((row.value, y), 6, self.colour.filled())))?;
                let (x, y) = chart.backend_coord(&(self.x.start, y));
                let beside = label_style.pos(Pos::new(HPos::Right, VPos::Center));
                root.draw(&Text::new(row.label.clone(), (x - 10, y), beside))?;
            }
            root.present().map_err(|e| anyhow::anyhow!("could not draw a chart: {e}"))?;
        }
        Ok(svg)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::tournament::stats::{Game, Pick, summarise_with_resamples};

    fn game(advocate: &str, skeptic: &str, judge: &str, winner: Pick) -> Game {
        Game {
            session: "s".into(),
            advocate: advocate.into(),
            skeptic: skeptic.into(),
            judge: judge.into(),
            winner: Some(winner),
            words: [10, 12],
            swap_checks: 0,
            swap_flips: 0,
            person: None,
            room: None,
        }
    }

    fn count(svg: &str, tag: &str) -> usize {
        svg.matches(tag).count()
    }

    #[test]
    fn the_ratings_chart_has_a_point_and_an_interval_per_rated_model_and_1000_marked() {
        let games = [
            game("a", "b", "j", Pick::Advocate),
            game("b", "a", "j", Pick::Advocate),
            game("b", "c", "j", Pick::Skeptic),
            game("c", "a", "j", Pick::Skeptic),
            game("a", "c", "j", Pick::Even),
        ];
        let summary = summarise_with_resamples(&games, 7, 50);
        let svg = ratings(&summary).unwrap().unwrap();
        assert_eq!(count(&svg, "<circle"), 3, "a point per rated model");
        assert_eq!(count(&svg, "<rect"), 3, "an interval per rated model");
        assert!(svg.contains(">\n1000\n</text>") || svg.contains(">1000\n</text>"), "{svg}");
        for model in ["a", "b", "c"] {
            assert!(svg.contains(&format!(">\n{model}\n</text>")) || svg.contains(&format!(">{model}\n</text>")));
        }
        assert!(!svg.contains("<script"));
    }

    #[test]
    fn the_side_bias_chart_has_all_judges_and_each_judge_with_50_percent_marked() {
        let games = [game("a", "b", "j1", Pick::Advocate), game("b", "a", "j2", Pick::Skeptic)];
        let svg = side_bias(&summarise_with_resamples(&games, 1, 0)).unwrap().unwrap();
        assert_eq!(count(&svg, "<circle"), 3, "all judges, j1 and j2");
        assert!(svg.contains("50 %"));
        let one_judge = [game("a", "b", "j", Pick::Advocate), game("b", "a", "j", Pick::Advocate)];
        let svg = side_bias(&summarise_with_resamples(&one_judge, 1, 0)).unwrap().unwrap();
        assert_eq!(count(&svg, "<circle"), 1, "one judge: all judges is that judge");
    }

    #[test]
    fn nothing_to_chart_is_no_chart() {
        let undecided = Game { winner: None, ..game("a", "b", "j", Pick::Even) };
        let summary = summarise_with_resamples(&[undecided], 1, 0);
        assert!(ratings(&summary).unwrap().is_none());
        assert!(side_bias(&summary).unwrap().is_none());
    }

    #[test]
    fn a_label_is_escaped_in_the_svg() {
        let games = [game("<b>&", "x", "j", Pick::Advocate), game("x", "<b>&", "j", Pick::Skeptic)];
        let svg = ratings(&summarise_with_resamples(&games, 1, 0)).unwrap().unwrap();
        assert!(svg.contains("&lt;b&gt;&amp;") && !svg.contains("<b>"), "{svg}");
    }
}
