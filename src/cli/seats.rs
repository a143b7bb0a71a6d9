//! `--seat NAME=MODEL`: another model for one seat, named as the debate's
//! format names it (`opposition=…`), by its role (`skeptic=…`), or, for a
//! panel's other judges, `judge2=…` to `judge5=…`; as config flags on that
//! seat's keys. `PROVIDER:MODEL` (`--seat judge3=openai:gpt-4.1-mini`) sets
//! the seat's provider too, and a provider alone (`--seat judge2=local`)
//! takes that provider's own model.

use anyhow::bail;

use crate::config::FlagValue;
use crate::debate::PanelJudge;
use crate::provider::ProviderKind;

/// The flags `--seat` values set. `named` finds the seat a name means, as
/// the segment of its config keys (`skeptic`, `judge2`); `accepted` lists
/// the names for the error.
pub fn flags(
    seats: &[String],
    named: impl Fn(&str) -> Option<String>,
    accepted: &str,
) -> anyhow::Result<Vec<FlagValue>> {
    let mut flags = Vec::new();
    for seat in seats {
        let Some((name, value)) = seat.split_once('=') else {
            bail!("--seat takes NAME=MODEL, e.g. --seat judge=claude-sonnet-4-5; got {seat:?}")
        };
        let name = name.trim();
        let Some(key) = named(name) else { bail!("--seat names a seat: {accepted}; got {name:?}") };
        let (provider, model) = ProviderKind::split_model(value.trim());
        if provider.is_none() && model.is_empty() {
            bail!("--seat {name} names no model; give one after the =, e.g. --seat {name}=claude-sonnet-4-5");
        }
        let flag = |leaf: &str, raw: &str| FlagValue {
            key: format!("roles.{key}.{leaf}"),
            raw: raw.into(),
            flag: "--seat".into(),
        };
        if let Some(provider) = provider {
            flags.push(flag("provider", provider));
        }
        flags.push(flag("model", model));
    }
    Ok(flags)
}

/// The judge of a panel of `judges` a name means: `judge2`, `judge 2`,
/// `judge-2` or `Judge_2` for judges 2 to `judges` (at most 5).
pub fn panel_judge_named(name: &str, judges: u32) -> Option<PanelJudge> {
    let rest = name.trim().get(..5).filter(|h| h.eq_ignore_ascii_case("judge")).map(|_| &name.trim()[5..])?;
    let number: u32 = rest.trim_start_matches([' ', '-', '_']).parse().ok()?;
    PanelJudge::members(judges).find(|judge| judge.number() == number)
}

/// The names a seat goes by: the format's seat ids, then the roles' own
/// where they differ, then a panel's other judges ("proposition,
/// opposition, judge, judge2, judge3 (or advocate, skeptic)").
pub fn accepted(ids: &[String], seats: &[crate::debate::Role], judges: u32) -> String {
    let own: Vec<&str> = seats.iter().map(|r| r.key()).filter(|k| !ids.iter().any(|id| id == k)).collect();
    let mut list: Vec<String> = seats.iter().map(|r| ids[r.position()].clone()).collect();
    list.extend(PanelJudge::members(judges).map(PanelJudge::key));
    let list = list.join(", ");
    if own.is_empty() { list } else { format!("{list} (or {})", own.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Role;

    fn role_named(name: &str) -> Option<String> {
        let role = Role::ALL.into_iter().find(|r| r.key() == name).map(|r| r.key().to_string());
        role.or_else(|| panel_judge_named(name, 3).map(PanelJudge::key))
    }

    fn set(seat: &str) -> Result<Vec<(String, String)>, String> {
        flags(&[seat.into()], role_named, "advocate, skeptic, judge, judge2, judge3")
            .map(|f| f.into_iter().map(|f| (f.key, f.raw)).collect())
            .map_err(|e| e.to_string())
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect()
    }

    #[test]
    fn a_seat_sets_its_roles_model_and_bad_ones_say_why() {
        assert_eq!(set("skeptic = m1"), Ok(pairs(&[("roles.skeptic.model", "m1")])));
        assert_eq!(
            set("judge"),
            Err("--seat takes NAME=MODEL, e.g. --seat judge=claude-sonnet-4-5; got \"judge\"".into())
        );
        assert_eq!(
            set("chair=m"),
            Err("--seat names a seat: advocate, skeptic, judge, judge2, judge3; got \"chair\"".into())
        );
        assert!(set("judge=").is_err_and(|m| m.contains("names no model")));
        assert!(set("judge4=m").is_err_and(|m| m.contains("got \"judge4\"")), "a panel of 3 has no judge 4");
    }

    #[test]
    fn a_provider_before_a_colon_sets_the_seats_provider_and_a_models_own_colons_stay() {
        assert_eq!(
            set("judge2=openai:gpt-4.1-mini"),
            Ok(pairs(&[("roles.judge2.provider", "openai"), ("roles.judge2.model", "gpt-4.1-mini")]))
        );
        assert_eq!(set("Judge 3=local"), Ok(pairs(&[("roles.judge3.provider", "local"), ("roles.judge3.model", "")])));
        assert_eq!(set("advocate=llama3.2:1b"), Ok(pairs(&[("roles.advocate.model", "llama3.2:1b")])));
        assert_eq!(
            set("skeptic=ollama:llama3.2:1b"),
            Ok(pairs(&[("roles.skeptic.provider", "ollama"), ("roles.skeptic.model", "llama3.2:1b")]))
        );
    }

    #[test]
    fn panel_judges_go_by_their_number() {
        assert_eq!(panel_judge_named("judge-2", 3), Some(PanelJudge(2)));
        assert_eq!(panel_judge_named("JUDGE_3", 3), Some(PanelJudge(3)));
        assert_eq!(panel_judge_named("judge1", 3), None, "judge 1 is the chair: `judge`");
        assert_eq!(panel_judge_named("judge3", 2), None);
        assert_eq!(panel_judge_named("judges", 3), None);
    }

    #[test]
    fn the_accepted_names_put_the_formats_first() {
        let duel = [Role::Advocate, Role::Skeptic, Role::Judge];
        let ids = ["proposition", "opposition", "judge"].map(String::from);
        assert_eq!(accepted(&ids, &duel, 3), "proposition, opposition, judge, judge2, judge3 (or advocate, skeptic)");
        assert_eq!(accepted(&["advocate", "skeptic", "judge"].map(String::from), &duel, 1), "advocate, skeptic, judge");
        let vote = ["analyst", "pragmatist", "judge", "contrarian"].map(String::from);
        let seats = [Role::Advocate, Role::Skeptic, Role::Third];
        assert_eq!(accepted(&vote, &seats, 0), "analyst, pragmatist, contrarian (or advocate, skeptic, third)");
    }
}
