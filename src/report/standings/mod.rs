//! `heat report --tournament [ID]` and `--tag TAG`: the statistics `heat
//! stats` prints of a set of debates (one `tournament::stats::Summary`) as one
//! self-contained HTML page that works offline — the overview, ratings
//! with their intervals as a chart, win rates, the pairwise matrix, side
//! bias as a chart, the judges' swap checks, length bias, self-preference
//! and agreement, and the debates counted. `model` turns the summary into
//! cleaned text, `matrix` and `judging` build their sections, `charts`
//! draws, `page` lays it out.

mod cells;
mod charts;
mod judging;
mod matrix;
mod model;
mod page;

#[cfg(test)]
mod tests;

pub use model::Input;

/// The page of `input`'s summary and games.
pub fn html(input: &Input<'_>) -> anyhow::Result<String> {
    page::render(&model::Standings::build(input), input.summary)
}
