//! The argument map's keys in a format file (`map`, `consensus`,
//! `[[criteria]]`) and a structured turn's `sections`: their shape, their
//! checks, and the spec they give the record.

use serde::Deserialize;
use toml::Spanned;

use super::place::Place;
use crate::debate::format::{Criterion, MapSpec};

/// The map's keys as a format file gives them.
#[derive(Debug, Clone, Copy)]
pub(super) struct MapKeys<'f> {
    pub(super) map: bool,
    pub(super) consensus: bool,
    pub(super) criteria: &'f [Spanned<CriterionFile>],
    /// The format seats one "pro" and one "con" debater.
    pub(super) two_sided: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CriterionFile {
    name: Spanned<String>,
    #[serde(default)]
    weight: Option<Spanned<u32>>,
}

/// The most criteria a scorecard has, and the heaviest weight one takes.
const MOST_CRITERIA: usize = 8;
const HEAVIEST: u32 = 10;

/// A turn's sections: 2 to 6, each named once in a word or two of letters.
pub(super) fn check_sections(place: &Place<'_>, sections: &[Spanned<String>]) -> anyhow::Result<()> {
    if sections.len() == 1 || sections.len() > 6 {
        let at = sections.get(6).or(sections.first()).map(Spanned::span);
        let said =
            format!("sections names {}; a structured turn has 2 to 6 sections, or leave sections out", sections.len());
        return Err(place.error(at, &said));
    }
    let mut seen: Vec<String> = Vec::new();
    for section in sections {
        let name = section.get_ref().trim();
        let words = name.split_whitespace().count();
        let letters = name.chars().all(|c| c.is_alphabetic() || c == ' ');
        if !(1..=2).contains(&words) || !letters || seen.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            let said = format!(
                "section {name:?}: name each section once, in a word or two of letters (\"Claim\", \"Evidence\")"
            );
            return Err(place.error(Some(section.span()), &said));
        }
        seen.push(name.to_string());
    }
    Ok(())
}

/// The argument map's spec: the file's criteria, or the standard four.
pub(super) fn map_spec(criteria: &[Spanned<CriterionFile>]) -> MapSpec {
    if criteria.is_empty() {
        return MapSpec::standard();
    }
    let criteria = criteria
        .iter()
        .map(|c| Criterion {
            name: c.get_ref().name.get_ref().trim().to_ascii_lowercase(),
            weight: c.get_ref().weight.as_ref().map_or(1, |w| *w.get_ref()),
        })
        .collect();
    MapSpec { criteria, consensus: false }
}

/// `map = true` is for two sides; its criteria are named once each, in a
/// word, and weigh 1 to 10.
pub(super) fn check_map(place: &Place<'_>, keys: &MapKeys<'_>) -> anyhow::Result<()> {
    let MapKeys { map, consensus, criteria, two_sided } = *keys;
    if !map {
        if consensus {
            return Err(place.error(None, "consensus = true resolves on claims the argument map keeps: add map = true"));
        }
        if let Some(first) = criteria.first() {
            return Err(place
                .error(Some(first.span()), "[[criteria]] score an argument map: add map = true, or leave them out"));
        }
        return Ok(());
    }
    if !two_sided {
        return Err(place
            .error(None, "map = true: the argument map is between one \"pro\" and one \"con\" seat; leave map out"));
    }
    if criteria.len() > MOST_CRITERIA {
        let said = format!("{} [[criteria]] are too many; a scorecard has 1 to {MOST_CRITERIA}", criteria.len());
        return Err(place.error(Some(criteria[MOST_CRITERIA].span()), &said));
    }
    let mut seen: Vec<String> = Vec::new();
    for criterion in criteria {
        let name = criterion.get_ref().name.get_ref().trim().to_ascii_lowercase();
        let word = !name.is_empty() && name.len() <= 20 && name.chars().all(|c| c.is_ascii_lowercase() || c == '_');
        if !word || seen.contains(&name) {
            let said = format!(
                "criteria name {name:?} {}; name each criterion once, in one word of letters (\"logic\", \"evidence\")",
                if word { "is named twice" } else { "is not a word" }
            );
            return Err(place.error(Some(criterion.get_ref().name.span()), &said));
        }
        seen.push(name);
        if let Some(weight) = &criterion.get_ref().weight
            && !(1..=HEAVIEST).contains(weight.get_ref())
        {
            let said = format!("weight = {} is out of range; a criterion weighs 1 to {HEAVIEST}", weight.get_ref());
            return Err(place.error(Some(weight.span()), &said));
        }
    }
    Ok(())
}
