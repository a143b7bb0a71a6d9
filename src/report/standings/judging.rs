//! The standings page's sections on the judges, as `heat stats` counts
//! them: the advocate's share of decisive verdicts overall and by judge,
//! each judge's swap-check flips, the length bias, self-preference, and
//! the agreement of judge, person and room. An empty list is a section
//! with nothing to show, which the page says in words.

use super::cells::{name, rate, rate_of};
use crate::tournament::stats::Summary;

/// What the judges' sections show.
pub struct Judging {
    /// ("all judges" or a judge, the advocate's share); empty without a
    /// decisive verdict. Judge by judge only when there are several.
    pub side_bias: Vec<(String, String)>,
    /// Each judge's swap checks; empty when none was recorded.
    pub swaps: Vec<SwapRow>,
    /// The share the side that wrote more won, or `None`.
    pub length_bias: Option<String>,
    pub self_preference: Vec<SelfRow>,
    /// (which two, how often they agreed); empty with no person's or room's pick.
    pub agreement: Vec<(&'static str, String)>,
}

pub struct SwapRow {
    pub judge: String,
    pub checks: u64,
    pub flips: u64,
    pub rate: String,
}

pub struct SelfRow {
    pub model: String,
    pub by_itself: String,
    pub by_others: String,
}

impl Judging {
    pub fn build(summary: &Summary) -> Self {
        let bias = &summary.side_bias;
        let mut side_bias = Vec::new();
        if bias.overall.is_some() {
            side_bias.push(("all judges".to_string(), rate_of(bias.overall.as_ref())));
            if bias.by_judge.len() > 1 {
                side_bias.extend(bias.by_judge.iter().map(|j| (name(&j.judge), rate_of(j.advocate_wins.as_ref()))));
            }
        }
        let swaps = if summary.swap_flips.iter().all(|j| j.checks == 0) {
            Vec::new()
        } else {
            summary
                .swap_flips
                .iter()
                .map(|j| SwapRow {
                    judge: name(&j.judge),
                    checks: j.checks,
                    flips: j.flips,
                    rate: j.rate.as_ref().map_or_else(|| "no checks".to_string(), |r| rate(Some(r))),
                })
                .collect()
        };
        let agreement = &summary.agreement;
        let mut agreed = vec![
            ("judge and person", rate_of(agreement.judge_person.as_ref())),
            ("judge and room", rate_of(agreement.judge_room.as_ref())),
            ("person and room", rate_of(agreement.person_room.as_ref())),
        ];
        if [&agreement.judge_person, &agreement.judge_room, &agreement.person_room].iter().all(|r| r.is_none()) {
            agreed.clear();
        }
        Judging {
            side_bias,
            swaps,
            length_bias: summary.length_bias.as_ref().map(|r| rate_of(Some(r))),
            self_preference: summary
                .self_preference
                .iter()
                .map(|m| SelfRow {
                    model: name(&m.model),
                    by_itself: rate_of(m.by_itself.as_ref()),
                    by_others: rate_of(m.by_others.as_ref()),
                })
                .collect(),
            agreement: agreed,
        }
    }
}
