//! `--seat NAME=MODEL`: another model for one seat, named as the debate's
//! format names it (`opposition=…`) or by its role (`skeptic=…`), as a
//! config flag on that role's model.

use anyhow::bail;

use crate::config::FlagValue;
use crate::debate::Role;

/// The flags `--seat` values set. `named` finds the seat a name means;
/// `accepted` lists the names for the error.
pub fn flags(seats: &[String], named: impl Fn(&str) -> Option<Role>, accepted: &str) -> anyhow::Result<Vec<FlagValue>> {
    let mut flags = Vec::new();
    for seat in seats {
        let Some((name, model)) = seat.split_once('=') else {
            bail!("--seat takes NAME=MODEL, e.g. --seat judge=claude-sonnet-4-5; got {seat:?}")
        };
        let Some(role) = named(name.trim()) else { bail!("--seat names a seat: {accepted}; got {:?}", name.trim()) };
        if model.trim().is_empty() {
            bail!(
                "--seat {} names no model; give one after the =, e.g. --seat {}=claude-sonnet-4-5",
                name.trim(),
                name.trim()
            );
        }
        flags.push(FlagValue {
            key: format!("roles.{}.model", role.key()),
            raw: model.trim().into(),
            flag: "--seat".into(),
        });
    }
    Ok(flags)
}

/// The names a seat goes by: the format's seat ids, then the roles' own
/// where they differ ("proposition, opposition, judge (or advocate, skeptic)").
pub fn accepted(ids: &[String], seats: &[Role]) -> String {
    let own: Vec<&str> = seats.iter().map(|r| r.key()).filter(|k| !ids.iter().any(|id| id == k)).collect();
    let list = seats.iter().map(|r| ids[r.position()].as_str()).collect::<Vec<_>>().join(", ");
    if own.is_empty() { list } else { format!("{list} (or {})", own.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role_named(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.key() == name)
    }

    #[test]
    fn a_seat_sets_its_roles_model_and_bad_ones_say_why() {
        let set = flags(&["skeptic = m1".into()], role_named, "advocate, skeptic, judge").map(|f| f[0].key.clone());
        assert_eq!(set.ok().as_deref(), Some("roles.skeptic.model"));
        let e = |s: &str| {
            flags(&[s.into()], role_named, "advocate, skeptic, judge").map(|_| ()).err().map(|e| e.to_string())
        };
        assert_eq!(
            e("judge").as_deref(),
            Some("--seat takes NAME=MODEL, e.g. --seat judge=claude-sonnet-4-5; got \"judge\"")
        );
        assert_eq!(e("chair=m").as_deref(), Some("--seat names a seat: advocate, skeptic, judge; got \"chair\""));
        assert!(e("judge=").is_some_and(|m| m.contains("names no model")));
    }

    #[test]
    fn the_accepted_names_put_the_formats_first() {
        let duel = [Role::Advocate, Role::Skeptic, Role::Judge];
        let ids = ["proposition", "opposition", "judge"].map(String::from);
        assert_eq!(accepted(&ids, &duel), "proposition, opposition, judge (or advocate, skeptic)");
        assert_eq!(accepted(&["advocate", "skeptic", "judge"].map(String::from), &duel), "advocate, skeptic, judge");
        let vote = ["analyst", "pragmatist", "judge", "contrarian"].map(String::from);
        let seats = [Role::Advocate, Role::Skeptic, Role::Third];
        assert_eq!(accepted(&vote, &seats), "analyst, pragmatist, contrarian (or advocate, skeptic, third)");
    }
}
