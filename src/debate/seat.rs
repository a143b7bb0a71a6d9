//! What each seat of a debate is, in one table: its id, its label, the side
//! it takes, its brief's file, and its place on screen (which is also its
//! colour slot). Every per-role decision in heat reads this table instead of
//! matching on [`Role`], so the shape of a debate is written once.

use serde::{Deserialize, Serialize};

/// The side a seat takes on the proposition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Argues that the proposition is right.
    For,
    /// Argues that the proposition is wrong.
    Against,
    /// Weighs the arguments and sets the heat; argues nothing.
    Judge,
    /// Argues a position of its own (a `vote` or `panel` debater): gives
    /// its own answer rather than a side it was handed.
    Free,
}

impl Side {
    /// The instruction that ends a debater's prompt; `None` for the judge.
    pub fn instruction(self) -> Option<&'static str> {
        match self {
            Side::For => Some("Give reasons why this proposition is RIGHT."),
            Side::Against => Some("Give reasons why this proposition is WRONG."),
            Side::Free => Some("Give your own best answer to this question, with your reasons."),
            Side::Judge => None,
        }
    }

    /// The words a debater given its opening starts with: its answer to a
    /// question, the verb of its claim about a statement, and the lead into
    /// its first reason.
    pub fn opening_words(self) -> Option<OpeningWords> {
        match self {
            Side::For => Some(OpeningWords { answer: "Yes.", verb: "agree", first: "My first reason is that" }),
            Side::Against => {
                Some(OpeningWords { answer: "No.", verb: "disagree", first: "My first objection is that" })
            }
            Side::Judge | Side::Free => None,
        }
    }

    /// The side a format file names (`pro`, `con`, `free`).
    pub fn from_name(name: &str) -> Option<Side> {
        match name {
            "pro" | "for" => Some(Side::For),
            "con" | "against" => Some(Side::Against),
            "free" => Some(Side::Free),
            _ => None,
        }
    }
}

/// See [`Side::opening_words`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpeningWords {
    pub answer: &'static str,
    pub verb: &'static str,
    pub first: &'static str,
}

/// One seat at the debate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seat {
    pub role: Role,
    /// The id in logs, config keys (`roles.advocate`) and prompt file names.
    pub id: &'static str,
    pub label: &'static str,
    pub side: Side,
    /// The brief's file name under `prompts/` (and a user's prompt dir).
    pub brief_file: &'static str,
    /// Where its pane stands, left to right; also its colour slot.
    pub position: usize,
    /// The ANSI style of its heading in plain-text output.
    pub ansi: &'static str,
    /// What its pane says before its first turn of a round.
    pub waiting: &'static str,
}

/// Every seat, in the order of [`Role::ALL`]. A format gives the seats it
/// fills their labels and sides; these are the duel's, and the defaults.
pub const SEATS: [Seat; Role::COUNT] = [
    Seat {
        role: Role::Advocate,
        id: "advocate",
        label: "Advocate",
        side: Side::For,
        brief_file: "advocate.md",
        position: 0,
        ansi: "1;32",
        waiting: "Waiting for the round to start.",
    },
    Seat {
        role: Role::Skeptic,
        id: "skeptic",
        label: "Skeptic",
        side: Side::Against,
        brief_file: "skeptic.md",
        position: 1,
        ansi: "1;31",
        waiting: "Waiting for the round to start.",
    },
    Seat {
        role: Role::Judge,
        id: "judge",
        label: "Judge",
        side: Side::Judge,
        brief_file: "judge.md",
        position: 2,
        ansi: "1;35",
        waiting: "The judge speaks when both sides have argued.",
    },
    extra(Role::Third, "third", "Third", 3, "1;36"),
    extra(Role::Fourth, "fourth", "Fourth", 4, "1;33"),
    extra(Role::Fifth, "fifth", "Fifth", 5, "1;34"),
    extra(Role::Sixth, "sixth", "Sixth", 6, "1;37"),
];

/// A seat past the duel's: a free debater a format adds.
const fn extra(role: Role, id: &'static str, label: &'static str, position: usize, ansi: &'static str) -> Seat {
    Seat {
        role,
        id,
        label,
        side: Side::Free,
        brief_file: "debater.md",
        position,
        ansi,
        waiting: "Waiting for the round to start.",
    }
}

/// A seat at the debate: the duel's three (advocate, skeptic, judge), and
/// the seats of the third to sixth debater a format may add. The log names
/// a turn by its seat; a format's record gives each seat its label and side
/// (a `vote` debate's first seat is `advocate` in the log, "Analyst" on screen).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Advocate,
    Skeptic,
    Judge,
    Third,
    Fourth,
    Fifth,
    Sixth,
}

impl Role {
    /// How many seats there are (the rows of [`SEATS`]).
    pub const COUNT: usize = 7;
    /// The duel's two sides, in the order the judge receives them.
    pub const DEBATERS: [Role; 2] = [Role::Advocate, Role::Skeptic];
    /// The duel's seats, in screen order.
    pub const DUEL: [Role; 3] = [Role::Advocate, Role::Skeptic, Role::Judge];
    /// Every debater's seat, in the order a format fills them.
    pub const DEBATER_SEATS: [Role; 6] =
        [Role::Advocate, Role::Skeptic, Role::Third, Role::Fourth, Role::Fifth, Role::Sixth];
    pub const ALL: [Role; Role::COUNT] =
        [Role::Advocate, Role::Skeptic, Role::Judge, Role::Third, Role::Fourth, Role::Fifth, Role::Sixth];

    pub fn label(self) -> &'static str {
        self.seat().label
    }

    /// The role's id: in logs, config keys and prompt file names.
    pub fn key(self) -> &'static str {
        self.seat().id
    }

    /// The debater on the other side; the judge has no opponent.
    pub fn opponent(self) -> Option<Role> {
        let other = match self.side() {
            Side::For => Side::Against,
            Side::Against => Side::For,
            Side::Judge | Side::Free => return None,
        };
        Role::DEBATERS.into_iter().find(|r| r.side() == other)
    }

    /// Its row of [`SEATS`].
    pub fn seat(self) -> &'static Seat {
        // `SEATS` is in declaration order; the test below holds it there.
        &SEATS[self as usize]
    }

    /// Its row in per-seat tables, and its colour slot.
    pub fn position(self) -> usize {
        self.seat().position
    }

    /// The role at a place on screen.
    pub fn at(position: usize) -> Option<Role> {
        SEATS.iter().find(|s| s.position == position).map(|s| s.role)
    }

    pub fn side(self) -> Side {
        self.seat().side
    }

    /// Argues (as opposed to judging).
    pub fn is_debater(self) -> bool {
        self.side() != Side::Judge
    }

    /// Weighs the arguments and sets the heat.
    pub fn is_judge(self) -> bool {
        self.side() == Side::Judge
    }
}

/// A judge of a panel, by number: the chair is judge 1 and sits in the
/// judge's seat ([`Role::Judge`], its turn streamed in the judge's pane);
/// judges 2 to 5 vote beside it, each with its own key (`roles.judge2`,
/// `--seat judge2=…`) and, where a format or the person gives one, its own
/// provider and model. The log keeps it as the number it always was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PanelJudge(pub u32);

impl PanelJudge {
    /// Judge 1, in the judge's seat.
    pub const CHAIR: PanelJudge = PanelJudge(1);
    /// The most judges a panel seats, the chair included.
    pub const MOST: u32 = 5;

    /// The judges beside the chair in a panel of `judges`: 2 up to
    /// `judges`, at most [`Self::MOST`].
    pub fn members(judges: u32) -> impl Iterator<Item = PanelJudge> {
        (2..=judges.min(Self::MOST)).map(PanelJudge)
    }

    pub fn number(self) -> u32 {
        self.0
    }

    pub fn is_chair(self) -> bool {
        self == Self::CHAIR
    }

    /// Its key in heat.toml and `--seat`: `judge2`.
    pub fn key(self) -> String {
        format!("judge{}", self.0)
    }

    /// Where a format's lists of the judges' providers and models
    /// (`judges.providers`, `judges.models`) keep it: judge 2 first; the
    /// chair is in none.
    pub fn index(self) -> Option<usize> {
        usize::try_from(self.0.checked_sub(2)?).ok()
    }
}

impl std::fmt::Display for PanelJudge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_role_finds_its_own_row() {
        for role in Role::ALL {
            assert_eq!(role.seat().role, role);
            assert_eq!(Role::at(role.position()), Some(role));
        }
        assert_eq!(Role::at(Role::COUNT), None);
    }

    #[test]
    fn positions_and_ids_are_unique() {
        let mut positions: Vec<_> = SEATS.iter().map(|s| s.position).collect();
        positions.sort_unstable();
        assert_eq!(positions, (0..Role::COUNT).collect::<Vec<_>>());
        let ids: std::collections::BTreeSet<_> = SEATS.iter().map(|s| s.id).collect();
        assert_eq!(ids.len(), Role::COUNT);
    }

    #[test]
    fn the_ids_are_the_serialised_names() {
        for role in Role::ALL {
            assert_eq!(serde_json::to_string(&role).expect("a role serialises"), format!("\"{}\"", role.seat().id));
        }
    }

    #[test]
    fn debaters_are_the_seats_that_argue() {
        assert_eq!(
            Role::DEBATERS.to_vec(),
            Role::ALL.into_iter().filter(|r| r.is_debater()).take(2).collect::<Vec<_>>()
        );
        assert!(!Role::Judge.is_debater());
        assert_eq!(Role::DEBATER_SEATS.to_vec(), Role::ALL.into_iter().filter(|r| r.is_debater()).collect::<Vec<_>>());
    }

    #[test]
    fn a_panel_seats_judges_two_to_five_beside_the_chair_and_logs_them_as_numbers() {
        assert_eq!(PanelJudge::members(3).collect::<Vec<_>>(), [PanelJudge(2), PanelJudge(3)]);
        assert_eq!(PanelJudge::members(9).count(), 4, "at most five judges, the chair included");
        assert_eq!(PanelJudge::members(1).count(), 0, "a lone judge is the chair");
        assert_eq!((PanelJudge(3).key(), PanelJudge(3).index()), ("judge3".to_string(), Some(1)));
        assert_eq!(PanelJudge::CHAIR.index(), None, "the chair sits in the judge's seat, in no panel list");
        assert_eq!(serde_json::to_string(&PanelJudge(4)).expect("a judge serialises"), "4");
    }
}
