//! What a debate's log keeps of the format it runs (`DebateEvent::Formatted`):
//! the format's name, the names its seats go by, how many arguments the
//! opening asks for, whether the judge may end it early, and its phases.
//! The duel (heat's default) writes no such event, so a duel's log is what
//! it always was; a log without one is a duel.

use serde::{Deserialize, Serialize};

use super::seat::Role;
use super::seat::Side;

/// The name of the format a log without a `Formatted` event ran.
pub const DUEL: &str = "duel";

/// The duel's one sentence on who argues and who decides.
pub const DUEL_TAGLINE: &str = "An advocate and a skeptic argue; a judge weighs each round and sets the heat.";

/// A format as the debate runs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormatRecord {
    pub name: String,
    /// The seats' names, by row of [`super::seat::SEATS`] (the side for,
    /// the side against, the judge, then any third to sixth debater).
    pub labels: Vec<String>,
    /// How many debaters sit: the duel's two, or up to six (filling
    /// [`Role::DEBATER_SEATS`] in order).
    #[serde(default = "two", skip_serializing_if = "is_two")]
    pub debaters: u32,
    /// Each seat's side, by row of [`super::seat::SEATS`]; empty keeps the
    /// duel's (for, against, judge).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Side>,
    /// Debaters end each turn with a `Final answer:` line, compared each
    /// round (`debate::vote`): a format without a judge always asks for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convergence: Option<Convergence>,
    /// How many separate arguments each debater makes in the first round.
    #[serde(default = "one")]
    pub opening_arguments: u32,
    /// The judge may end the debate before its last round; when false every
    /// round is argued and the last verdict decides.
    #[serde(default = "yes")]
    pub resolve_early: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Phase>,
    /// The judge scores each argument from −3 to +3; the totals are a
    /// tug-of-war between the sides.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scores: bool,
    /// The critics raise issues and the judge rules on each
    /// (`debate::issues`): the `review` format.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub issues: bool,
    /// The judge keeps an argument map (`debate::argument_map`): each
    /// round's claims with their standing, and each side scored on the
    /// criteria.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<MapSpec>,
    /// The sections each debater's turn is written in (`debate::sections`);
    /// empty: a turn is free prose.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
    /// Each seat's brief, by position, in full: the log needs no file to
    /// resume. `None` keeps the prompts heat is run with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub briefs: Option<Vec<String>>,
    /// How many judges sit: none (the debaters' final answers decide by
    /// vote), 1 (the chair alone) or a panel of up to 5 that decides by
    /// majority (`debate::panel`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub judges: u32,
    /// The models a panel's other judges are asked on (judge 2 first), on
    /// the judges' provider; a judge with none takes the chair's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panel_models: Vec<String>,
    /// The providers a panel's other judges are asked on (judge 2 first);
    /// a judge with none, or an empty name, is asked on the judges' provider.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panel_providers: Vec<String>,
}

/// What an argument map scores each side on (`map = true` in a format
/// file, with `[[criteria]]` of its own or the four every debate knows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapSpec {
    pub criteria: Vec<Criterion>,
    /// The judge may resolve only on claims both sides accept, each with
    /// its evidence (`consensus = true`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub consensus: bool,
}

/// One criterion of a scorecard, and how much it counts toward a side's total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Criterion {
    pub name: String,
    pub weight: u32,
}

impl MapSpec {
    /// The criteria a scorecard has unless its format names its own.
    pub const CRITERIA: [&'static str; 4] = ["logic", "evidence", "rebuttal", "clarity"];

    /// The four criteria, each counting once.
    pub fn standard() -> Self {
        let criteria = Self::CRITERIA.iter().map(|name| Criterion { name: (*name).to_string(), weight: 1 }).collect();
        MapSpec { criteria, consensus: false }
    }
}

/// When the debaters' final answers count as one (`[convergence]` in a
/// format file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Convergence {
    /// Two final answers agree at or above this word likeness, in percent
    /// (100: only answers that are the same once normalised).
    pub threshold: u32,
    /// A round where every debater agrees ends the debate (outcome
    /// `converged`); when false every round is argued and the meter only shows.
    #[serde(default = "yes")]
    pub stop: bool,
}

fn one() -> u32 {
    1
}

fn two() -> u32 {
    2
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_two(n: &u32) -> bool {
    *n == 2
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_one(n: &u32) -> bool {
    *n == 1
}

fn yes() -> bool {
    true
}

/// A stretch of rounds with its own instruction to the debaters
/// (Oxford's opening, rebuttal and closing).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    pub name: String,
    /// How many rounds it lasts; `None` takes the rounds the others leave.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    pub instruction: String,
}

/// The longest seat name a format may give, in characters.
const LABEL_CHARS: usize = 24;

/// A seat name from a user's file as it is drawn: no control characters,
/// at most [`LABEL_CHARS`] characters.
pub fn clean_label(label: &str) -> String {
    crate::sanitize::clean(label).chars().take(LABEL_CHARS).collect()
}

impl FormatRecord {
    /// A seat's brief in this format, if it brings its own.
    pub fn brief(&self, role: Role) -> Option<&str> {
        self.briefs.as_ref().and_then(|b| b.get(role.position())).map(String::as_str)
    }

    /// The name a seat goes by in this format ("Proposition"); a seat the
    /// record does not name keeps heat's.
    pub fn label(&self, role: Role) -> &str {
        self.labels.get(role.position()).map_or(role.label(), String::as_str)
    }

    /// The side a seat takes in this format.
    pub fn side(&self, role: Role) -> Side {
        self.sides.get(role.position()).copied().unwrap_or(role.side())
    }

    /// The debaters' seats, in order.
    pub fn debater_seats(&self) -> &'static [Role] {
        let n = usize::try_from(self.debaters).unwrap_or(usize::MAX).clamp(1, Role::DEBATER_SEATS.len());
        &Role::DEBATER_SEATS[..n]
    }

    /// The seats that sit, in screen order: the debaters, then the judge
    /// if one sits.
    pub fn seats(&self) -> Vec<Role> {
        let judge = (self.judges > 0).then_some(Role::Judge);
        self.debater_seats().iter().copied().chain(judge).collect()
    }

    /// The seats of a debate in `format` (`None`: the duel's three).
    pub fn seats_of(format: Option<&FormatRecord>) -> Vec<Role> {
        format.map_or_else(|| Role::DUEL.to_vec(), FormatRecord::seats)
    }

    /// Debaters end each turn with a final answer, compared each round.
    pub fn final_answers(&self) -> bool {
        self.convergence.is_some() || self.judges == 0
    }

    /// Who debates, in words: "Proposition vs Opposition" for two sides,
    /// "Analyst, Pragmatist and Contrarian" for free seats.
    pub fn lineup(&self) -> String {
        let names: Vec<String> = self.debater_seats().iter().map(|&r| clean_label(self.label(r))).collect();
        match names.as_slice() {
            [pro, con] if self.side(Role::Advocate) != Side::Free => format!("{pro} vs {con}"),
            [pro, cons @ ..] if self.side(Role::Advocate) != Side::Free => match cons {
                [rest @ .., last] => format!("{pro} vs {} and {last}", rest.join(", ")),
                [] => pro.clone(),
            },
            [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// Who argues and who decides, in one sentence: the duel's for a format
    /// of two sides and one judge, else said from its seats.
    pub fn tagline(&self) -> String {
        let lineup = self.lineup();
        let free = self.side(Role::Advocate) == Side::Free;
        match (free, self.judges) {
            (true, 0) => format!("{lineup} answer on their own; a vote of their answers decides."),
            (true, 1) => format!("{lineup} answer; a judge weighs each round and sets the heat."),
            (true, n) => format!("{lineup} answer; a panel of {n} judges weighs each round and sets the heat."),
            (false, 1) if self.debaters == 2 && self.name == DUEL => DUEL_TAGLINE.to_string(),
            (false, 1) => format!("{lineup}; a judge weighs each round and sets the heat."),
            (false, n) => format!("{lineup}; a panel of {n} judges weighs each round and sets the heat."),
        }
    }

    /// Who judges, in words: "Chair judging", "Chair and 2 more judges judging".
    pub fn judging(&self) -> String {
        let chair = clean_label(self.label(Role::Judge));
        match self.judges {
            0 => "no judge".into(),
            1 => format!("{chair} judging"),
            2 => format!("{chair} and 1 more judge judging"),
            n => format!("{chair} and {} more judges judging", n - 1),
        }
    }

    /// The phase round `round` (from 0) falls in, of a debate of
    /// `max_rounds`: phases with a length take theirs in order, and the one
    /// without takes the rounds left between them. `None` past the phases.
    pub fn phase(&self, round: u32, max_rounds: u32) -> Option<&Phase> {
        // Saturating: a damaged log's lengths must not overflow.
        let fixed = self.phases.iter().filter_map(|p| p.rounds).fold(0u32, u32::saturating_add);
        let rest = max_rounds.saturating_sub(fixed);
        let mut start = 0u32;
        for phase in &self.phases {
            let end = start.saturating_add(phase.rounds.unwrap_or(rest));
            if round < end {
                return Some(phase);
            }
            start = end;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oxford() -> FormatRecord {
        let phase = |name: &str, rounds| Phase { name: name.into(), rounds, instruction: format!("{name}.") };
        FormatRecord {
            name: "oxford".into(),
            labels: ["Proposition", "Opposition", "Chair"].map(String::from).to_vec(),
            debaters: 2,
            sides: Vec::new(),
            convergence: None,
            opening_arguments: 3,
            resolve_early: false,
            phases: vec![phase("Opening", Some(1)), phase("Rebuttal", None), phase("Closing", Some(1))],
            briefs: None,
            scores: true,
            judges: 3,
            panel_models: Vec::new(),
            panel_providers: Vec::new(),
            issues: false,
            map: None,
            sections: Vec::new(),
        }
    }

    #[test]
    fn the_open_phase_takes_the_rounds_between_the_fixed_ones() {
        let format = oxford();
        let names = |max| (0..max).map(|r| format.phase(r, max).map(|p| p.name.as_str())).collect::<Vec<_>>();
        assert_eq!(names(3), [Some("Opening"), Some("Rebuttal"), Some("Closing")]);
        assert_eq!(names(5), [Some("Opening"), Some("Rebuttal"), Some("Rebuttal"), Some("Rebuttal"), Some("Closing")]);
        assert_eq!(names(2), [Some("Opening"), Some("Closing")], "no round is left for the rebuttal");
        assert_eq!(format.phase(7, 3), None);
    }

    #[test]
    fn a_record_reads_back_as_written_and_old_fields_default() {
        let format = oxford();
        let json = serde_json::to_string(&format).unwrap_or_default();
        assert_eq!(serde_json::from_str::<FormatRecord>(&json).ok(), Some(format));
        let bare: FormatRecord =
            serde_json::from_str(r#"{"name":"x","labels":["A","B","J"]}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((bare.opening_arguments, bare.resolve_early, bare.phases.len(), bare.briefs), (1, true, 0, None));
        assert_eq!(bare.judges, 1, "a log from before panels has its one judge");
        let chair = FormatRecord { judges: 1, ..oxford() };
        assert!(!serde_json::to_string(&chair).unwrap_or_default().contains("judges"), "one judge is not written");
    }
}
