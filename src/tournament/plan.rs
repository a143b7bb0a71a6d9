//! The debates a tournament file plans: every pair of its models (or each of
//! its line-ups) on every proposition, each argued both ways round (unless
//! the file says otherwise), as many times as it repeats; each with a key
//! that names it from the file alone, so a resumed tournament knows which it
//! has run, and the seats it sits. The order they run in is drawn from the
//! seed.

use serde::{Deserialize, Serialize};

use super::file::TournamentFile;
use crate::debate::Role;

/// One planned debate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Planned {
    /// Names the debate from the file alone: `p2-m0vm1-r0` (the third
    /// proposition, model 0 for and model 1 against, the first time), or
    /// for a file of line-ups `p2-l1-r0` (line-up 1 as written) and
    /// `p2-l1s-r0` (line-up 1, its sides swapped).
    pub key: String,
    pub proposition: String,
    /// The model arguing for, and against.
    pub advocate: String,
    pub skeptic: String,
    /// Which time this pairing argues this proposition, from 0.
    pub repeat: u32,
}

/// Every debate `file` plans, in the order `seed` draws. A file's line-ups
/// are seated first (`lineup::seat`), so each names its advocate and skeptic.
pub fn plan(file: &TournamentFile, seed: u64) -> Vec<Planned> {
    let mut planned = if file.lineups.is_empty() { pairs(file) } else { lineups(file) };
    fastrand::Rng::with_seed(seed).shuffle(&mut planned);
    planned
}

/// Each line-up on each proposition, as written and swapped.
fn lineups(file: &TournamentFile) -> Vec<Planned> {
    let mut planned = Vec::new();
    for repeat in 0..file.repeats {
        for (p, proposition) in file.propositions.iter().enumerate() {
            for (l, lineup) in file.lineups.iter().enumerate() {
                let ways: &[bool] = if file.swap_sides { &[false, true] } else { &[false] };
                for &swapped in ways {
                    let seats = lineup.seated(swapped);
                    let model = |role: Role| seats.iter().find(|(r, _)| *r == role).map(|(_, m)| m.clone());
                    planned.push(Planned {
                        key: format!("p{p}-l{l}{}-r{repeat}", if swapped { "s" } else { "" }),
                        proposition: proposition.clone(),
                        advocate: model(Role::Advocate).unwrap_or_default(),
                        skeptic: model(Role::Skeptic).unwrap_or_default(),
                        repeat,
                    });
                }
            }
        }
    }
    planned
}

/// Every pair of the file's models on each proposition, both ways round.
fn pairs(file: &TournamentFile) -> Vec<Planned> {
    let mut planned = Vec::new();
    let count = file.models.len();
    for repeat in 0..file.repeats {
        for (p, proposition) in file.propositions.iter().enumerate() {
            for a in 0..count {
                for b in (a + 1)..count {
                    let ways: &[(usize, usize)] = if file.swap_sides { &[(a, b), (b, a)] } else { &[(a, b)] };
                    for &(advocate, skeptic) in ways {
                        planned.push(Planned {
                            key: format!("p{p}-m{advocate}vm{skeptic}-r{repeat}"),
                            proposition: proposition.clone(),
                            advocate: file.models[advocate].text.clone(),
                            skeptic: file.models[skeptic].text.clone(),
                            repeat,
                        });
                    }
                }
            }
        }
    }
    planned
}

/// The debater seats `planned` sits, each with its model: the advocate and
/// the skeptic, and for a line-up any other seat it names (its key says
/// which line-up, and whether swapped).
pub fn seats(file: &TournamentFile, planned: &Planned) -> Vec<(Role, String)> {
    let lineup = planned.key.split('-').nth(1).and_then(|part| {
        let number = part.strip_prefix('l')?;
        let (number, swapped) = number.strip_suffix('s').map_or((number, false), |n| (n, true));
        Some((file.lineups.get(number.parse::<usize>().ok()?)?, swapped))
    });
    match lineup {
        Some((lineup, swapped)) => lineup.seated(swapped),
        None => vec![(Role::Advocate, planned.advocate.clone()), (Role::Skeptic, planned.skeptic.clone())],
    }
}

/// The model calls a debate of `rounds` rounds judged by `judges` makes at
/// most: each round a turn from each debater and a verdict from each judge,
/// then the chair's synthesis.
pub fn calls_per_debate(rounds: u32, judges: u32) -> u32 {
    rounds * (2 + judges.max(1)) + 1
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::*;

    fn file(text: &str) -> TournamentFile {
        TournamentFile::parse("t.toml", text, Path::new(".")).unwrap()
    }

    const SMALLEST: &str = r#"
propositions = ["Night trains beat short-haul flights", "Cities should ban cars from their centres"]
models = ["openai:mock-a", "openai:mock-b"]
judge = "openai:mock-j"
rounds = 2
"#;

    #[test]
    fn the_smallest_file_plans_four_debates_each_pair_on_each_side() {
        let planned = plan(&file(SMALLEST), 7);
        assert_eq!(planned.len(), 4);
        let ways: BTreeSet<(String, String, String)> =
            planned.iter().map(|p| (p.proposition.clone(), p.advocate.clone(), p.skeptic.clone())).collect();
        assert_eq!(ways.len(), 4, "no debate planned twice: {planned:?}");
        for p in &planned {
            let swapped = (p.proposition.clone(), p.skeptic.clone(), p.advocate.clone());
            assert!(ways.contains(&swapped), "each pairing is argued both ways round: {p:?}");
        }
    }

    #[test]
    fn three_models_five_propositions_swapped_plan_thirty_with_keys_of_their_own() {
        let props: Vec<String> = (0..5).map(|i| format!("\"Proposition {i}\"")).collect();
        let text = format!(
            "propositions = [{}]\nmodels = [\"a:x\", \"b:y\", \"c:z\"]\njudge = \"j:k\"\nrepeats = 2\n",
            props.join(", ")
        );
        let planned = plan(&file(&text), 1);
        assert_eq!(planned.len(), 3 * 5 * 2 * 2);
        let keys: BTreeSet<&str> = planned.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys.len(), planned.len());
        let one_way = plan(&file(&format!("{text}swap_sides = false\n")), 1);
        assert_eq!(one_way.len(), 3 * 5 * 2);
    }

    #[test]
    fn the_seed_draws_the_order_and_the_same_seed_the_same_order() {
        let text = SMALLEST.replace("rounds = 2", "repeats = 5");
        let (a, b, c) = (plan(&file(&text), 1), plan(&file(&text), 1), plan(&file(&text), 2));
        assert_eq!(a, b);
        assert_ne!(a, c, "another seed, another order");
        let (mut ka, mut kc): (Vec<_>, Vec<_>) =
            (a.iter().map(|p| &p.key).collect(), c.iter().map(|p| &p.key).collect());
        ka.sort();
        kc.sort();
        assert_eq!(ka, kc, "the same debates");
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let err = |text: &str| TournamentFile::parse("t.toml", text, Path::new(".")).unwrap_err().to_string();
        let one = err("propositions = [\"p\"]\nmodels = [\"openai:a\"]\njudge = \"openai:j\"\n");
        assert_eq!(one, "t.toml line 2: models names 1 model; a tournament pairs at least two");
        let none = err("models = [\"openai:a\", \"openai:b\"]\njudge = \"openai:j\"\n");
        assert!(none.starts_with("t.toml: names no propositions;"), "{none}");
        let empty = err("propositions = [\" \"]\nmodels = [\"a:a\", \"a:b\"]\njudge = \"j\"\n");
        assert_eq!(empty, "t.toml line 1: names no propositions: give at least one");
        let rounds = err("propositions = [\"p\"]\nmodels = [\"a:a\", \"a:b\"]\njudge = \"j\"\n\nrounds = 0\n");
        assert_eq!(rounds, "t.toml line 5: rounds is a whole number from 1 to 50");
        let twice = err("propositions = [\"p\"]\nmodels = [\"a:a\",\n \"a:a\"]\njudge = \"j\"\n");
        assert!(twice.contains("names a:a twice (first on line 2)"), "{twice}");
        let unknown = err("propositions = [\"p\"]\nmodels = [\"a:a\", \"a:b\"]\njudge = \"j\"\njudges = 3\n");
        assert!(unknown.starts_with("t.toml line 4: unknown field `judges`"), "{unknown}");
        let no_judge = err("propositions = [\"p\"]\nmodels = [\"a:a\", \"a:b\"]\n");
        assert!(no_judge.starts_with("t.toml: names no judge"), "{no_judge}");
    }

    #[test]
    fn propositions_come_from_a_file_of_one_a_line() {
        let dir = std::env::temp_dir().join(format!("heat-tournament-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("props.txt"), "First one\n\n# a comment\nSecond one\nFirst one\n").unwrap();
        let text = "propositions = \"props.txt\"\nmodels = [\"a:a\", \"a:b\"]\njudge = \"j\"\n";
        let read = TournamentFile::parse("t.toml", text, &dir).unwrap();
        assert_eq!(read.propositions, ["First one", "Second one"]);
        let missing = TournamentFile::parse("t.toml", &text.replace("props", "nope"), &dir).unwrap_err().to_string();
        assert!(missing.starts_with("t.toml line 1: cannot read the propositions file"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
