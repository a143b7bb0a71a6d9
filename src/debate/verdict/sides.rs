//! Who the judge says is ahead after a round and which side conceded a
//! point: the verdict's two side fields, the names the judge gives the sides
//! in its answer (`advocate`/`skeptic`, or `A`/`B` when the swap check hides
//! them), and reading those names back into sides.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::debate::seat::Role;

/// The side ahead after a round, as the judge sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ahead {
    Advocate,
    Skeptic,
    Even,
}

impl Ahead {
    /// The debater ahead; `None`: even.
    pub fn side(self) -> Option<Role> {
        match self {
            Ahead::Advocate => Some(Role::Advocate),
            Ahead::Skeptic => Some(Role::Skeptic),
            Ahead::Even => None,
        }
    }

    pub(super) fn of(side: Role) -> Self {
        if side == Role::Advocate { Ahead::Advocate } else { Ahead::Skeptic }
    }
}

/// Which side conceded a point in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Conceded {
    /// Neither side did.
    #[serde(rename = "none")]
    Neither,
    Advocate,
    Skeptic,
    Both,
}

impl Conceded {
    /// Whether `side` conceded a point.
    pub fn by(self, side: Role) -> bool {
        match self {
            Conceded::Neither => false,
            Conceded::Both => side.is_debater(),
            Conceded::Advocate => side == Role::Advocate,
            Conceded::Skeptic => side == Role::Skeptic,
        }
    }

    /// The debaters that conceded, in seat order.
    pub fn sides(self) -> Vec<Role> {
        Role::DEBATERS.into_iter().filter(|&side| self.by(side)).collect()
    }

    /// The flag a turn that conceded carries, the side by the name its
    /// format gives it: "⚑ skeptic conceded a point".
    pub fn flag(name: &str) -> String {
        format!("⚑ {name} conceded a point")
    }
}

/// What the judge calls each debater in its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideNames {
    pub advocate: &'static str,
    pub skeptic: &'static str,
    /// The debater the judge reads first.
    pub first: Role,
}

impl SideNames {
    /// The debaters by their role names, the advocate first (every verdict).
    pub const PLAIN: SideNames = SideNames { advocate: "advocate", skeptic: "skeptic", first: Role::Advocate };
    /// The swap check: the skeptic first as Debater A, the advocate as Debater B.
    pub const SWAPPED: SideNames = SideNames { advocate: "B", skeptic: "A", first: Role::Skeptic };

    /// The names in the order the judge reads the arguments.
    pub fn in_order(self) -> [&'static str; 2] {
        match self.first {
            Role::Skeptic => [self.skeptic, self.advocate],
            _ => [self.advocate, self.skeptic],
        }
    }

    /// The values `ahead` may take, in the schema's order.
    pub fn ahead_values(self) -> Vec<&'static str> {
        let [first, second] = self.in_order();
        vec![first, second, "even"]
    }

    /// The values `conceded` may take, in the schema's order.
    pub fn conceded_values(self) -> Vec<&'static str> {
        let [first, second] = self.in_order();
        vec!["none", first, second, "both"]
    }

    /// The side a name stands for: the name itself, "the advocate", or
    /// "Debater A" for `A`, in any case.
    pub fn side(self, name: &str) -> Option<Role> {
        let name = name.trim().to_ascii_lowercase();
        let name = name.strip_prefix("the ").unwrap_or(&name);
        let name = name.strip_prefix("debater ").unwrap_or(name).trim();
        [(self.advocate, Role::Advocate), (self.skeptic, Role::Skeptic)]
            .into_iter()
            .find(|(given, _)| given.eq_ignore_ascii_case(name))
            .map(|(_, side)| side)
    }

    /// Reads `ahead`: a side's name or "even"; anything else (missing, a
    /// number, a name it does not know) is `None`, never an error.
    pub fn ahead(self, value: Option<&Value>) -> Option<Ahead> {
        let text = value?.as_str()?;
        if text.trim().eq_ignore_ascii_case("even") {
            return Some(Ahead::Even);
        }
        self.side(text).map(Ahead::of)
    }

    /// Reads `conceded`: "none", a side's name or "both"; anything else is `None`.
    pub fn conceded(self, value: Option<&Value>) -> Option<Conceded> {
        let text = value?.as_str()?.trim();
        if text.eq_ignore_ascii_case("none") {
            return Some(Conceded::Neither);
        }
        if text.eq_ignore_ascii_case("both") {
            return Some(Conceded::Both);
        }
        self.side(text).map(|side| if side == Role::Advocate { Conceded::Advocate } else { Conceded::Skeptic })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn plain_names_read_back_as_sides_and_unknown_ones_as_nothing() {
        let names = SideNames::PLAIN;
        assert_eq!(names.ahead(Some(&json!("Skeptic"))), Some(Ahead::Skeptic));
        assert_eq!(names.ahead(Some(&json!("the advocate"))), Some(Ahead::Advocate));
        assert_eq!(names.ahead(Some(&json!("even"))), Some(Ahead::Even));
        assert_eq!(names.ahead(Some(&json!("the judge"))), None);
        assert_eq!(names.ahead(Some(&json!(3))), None);
        assert_eq!(names.ahead(None), None);
        assert_eq!(names.conceded(Some(&json!("none"))), Some(Conceded::Neither));
        assert_eq!(names.conceded(Some(&json!("both"))), Some(Conceded::Both));
        assert_eq!(names.conceded(Some(&json!("advocate"))), Some(Conceded::Advocate));
    }

    #[test]
    fn swapped_names_map_a_to_the_skeptic_and_b_to_the_advocate() {
        let names = SideNames::SWAPPED;
        assert_eq!(names.ahead(Some(&json!("A"))), Some(Ahead::Skeptic));
        assert_eq!(names.ahead(Some(&json!("Debater B"))), Some(Ahead::Advocate));
        assert_eq!(names.ahead(Some(&json!("advocate"))), None, "the role names are not the swap check's");
        assert_eq!(names.conceded(Some(&json!("b"))), Some(Conceded::Advocate));
        assert_eq!(names.ahead_values(), vec!["A", "B", "even"]);
        assert_eq!(SideNames::PLAIN.conceded_values(), vec!["none", "advocate", "skeptic", "both"]);
    }

    #[test]
    fn both_concede_for_each_debater_and_neither_for_none() {
        assert_eq!(Conceded::Both.sides(), vec![Role::Advocate, Role::Skeptic]);
        assert!(Conceded::Neither.sides().is_empty());
        assert_eq!(Conceded::flag("skeptic"), "⚑ skeptic conceded a point");
    }
}
