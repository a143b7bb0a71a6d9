//! Whether offline debates make sense: the real binary on the embedded
//! model, 8 propositions × 3 rounds, fixed seeds, and what a person watching
//! would judge, counted by stated rules:
//! - **on side**: an argument whose text after heat's given opening (the
//!   side's claim) shares a content word with the proposition and never
//!   states the other side ("I disagree…", "is wrong", "is not true"… in
//!   the advocate's; "I agree…", "is right", "is true"… in the skeptic's);
//! - **usable topic**: a next topic the engine accepted (not set aside) that
//!   is one line of 3–30 words, ends in a letter or `?`, and shares a content
//!   word with the proposition; every accepted topic is printed to be read;
//! - **sane verdict**: a verdict that names both sides and quotes or names
//!   something from this round's arguments (a content word of either);
//! - **heats**: the distinct heats the verdicts set, and how often the heat
//!   went up and down from one round to the next.
//!
//! Prints every argument's first words, every verdict and topic, then the
//! totals, time per debate and the peak memory of `heat run`.
//! `cargo bench --bench offline_quality` (needs the model: `heat model install`).

#[path = "support/offline_run.rs"]
mod offline_run;

use std::collections::BTreeSet;
use std::time::Duration;

use heat::debate::{DebateEvent, DebateState, Role};

const PROPOSITIONS: [&str; 8] = [
    "Cities should ban cars from their centres",
    "Remote work beats working in the office",
    "Homework should be abolished in primary schools",
    "Nuclear power is the best way to cut carbon emissions",
    "Social media does more harm than good",
    "A four-day work week makes companies more productive",
    "Tea is better than coffee",
    "Public transport should be free for everyone",
];

const STOP: [&str; 40] = [
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "for", "with", "is", "are", "be", "should", "does",
    "do", "more", "than", "that", "this", "it", "its", "best", "way", "from", "their", "all", "every", "everyone",
    "makes", "make", "good", "better", "harm", "at", "by", "as", "we",
];

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().trim_end_matches('s').to_string())
        .collect()
}

fn content(text: &str) -> BTreeSet<String> {
    words(text).into_iter().filter(|w| w.len() > 2 && !STOP.contains(&w.as_str())).collect()
}

fn shares_content(a: &str, b: &str) -> bool {
    !content(a).is_disjoint(&content(b))
}

const AGAINST: [&str; 6] = ["i disagree", "is wrong", "is not true", "isn't true", "is false", "i am against"];
const FOR: [&str; 6] = ["i agree", "is right", "is true", "i support", "is correct", "i am in favour"];

/// The argument after heat's given opening (the side's claim and the
/// words that lead into the first reason).
fn continuation(text: &str) -> &str {
    for lead in ["My first reason is that", "My first objection is that", "point fails because"] {
        if let Some(at) = text.find(lead) {
            return &text[at + lead.len()..];
        }
    }
    text
}

fn on_side(role: Role, proposition: &str, argument: &str) -> bool {
    let rest = continuation(argument).to_lowercase();
    let flips = match role {
        Role::Advocate => AGAINST.iter().any(|m| rest.contains(m)),
        _ => FOR.iter().any(|m| rest.contains(m) && !rest.contains(&format!("dis{}", m.trim_start_matches("i ")))),
    };
    shares_content(&rest, proposition) && !flips
}

fn usable_topic(topic: &str, proposition: &str) -> bool {
    let count = topic.split_whitespace().count();
    let ends = topic.trim_end().chars().last().is_some_and(|c| c.is_alphabetic() || c == '?');
    !topic.contains('\n') && (3..=30).contains(&count) && ends && shares_content(topic, proposition)
}

fn sane_verdict(verdict: &str, advocate: &str, skeptic: &str) -> bool {
    let lower = verdict.to_lowercase();
    let names_sides = lower.contains("advocate") && lower.contains("skeptic");
    names_sides && (shares_content(verdict, advocate) || shares_content(verdict, skeptic))
}

/// Runs one debate; returns its events, wall time and peak RSS in MB.
fn debate(model: &std::path::Path, proposition: &str, seed: u32) -> (Vec<DebateEvent>, Duration, u64) {
    let config = format!("[providers.local]\nseed = {seed}\n");
    let run = offline_run::run(model, &config, &[proposition, "--max-rounds", "3"]);
    (run.events, run.time, run.peak_mb)
}

#[derive(Default)]
struct Totals {
    arguments: usize,
    on_side: usize,
    topics_accepted: usize,
    topics_usable: usize,
    topics_set_aside: usize,
    verdicts: usize,
    sane: usize,
    heats: BTreeSet<String>,
    ups: usize,
    downs: usize,
    failed: usize,
}

/// Counts one debate's arguments, verdicts, topics and heats, printing each.
fn tally(totals: &mut Totals, proposition: &str, state: &DebateState) {
    let mut last_heat = None;
    for round in &state.rounds {
        let advocate = round.argument(Role::Advocate).unwrap_or_default();
        let skeptic = round.argument(Role::Skeptic).unwrap_or_default();
        for (role, text) in [(Role::Advocate, advocate), (Role::Skeptic, skeptic)] {
            if text.trim().is_empty() {
                continue;
            }
            totals.arguments += 1;
            let ok = on_side(role, proposition, text);
            totals.on_side += usize::from(ok);
            let head: String = continuation(text).split_whitespace().take(24).collect::<Vec<_>>().join(" ");
            println!("  r{} {:<8} {} {head}", round.number + 1, role.key(), if ok { "on " } else { "OFF" });
        }
        if let Some(verdict) = round.verdict() {
            let apart = heat::debate::extractive::distance(proposition, advocate, skeptic);
            println!("  r{} distance {apart:.2} → heat {:.2}", round.number + 1, verdict.heat);
            totals.verdicts += 1;
            let sane = sane_verdict(&verdict.verdict, advocate, skeptic);
            totals.sane += usize::from(sane);
            println!("  r{} verdict  {} {}", round.number + 1, if sane { "ok " } else { "BAD" }, verdict.verdict);
            let is_last = state.rounds.last().is_some_and(|r| r.number == round.number);
            if !is_last || !verdict.resolved {
                totals.heats.insert(format!("{:.2}", verdict.heat));
                if let Some(previous) = last_heat {
                    totals.ups += usize::from(verdict.heat > previous);
                    totals.downs += usize::from(verdict.heat < previous);
                }
                last_heat = Some(verdict.heat);
            }
            if verdict.topic.trim() != round.topic.trim() && !verdict.resolved {
                totals.topics_accepted += 1;
                let usable = usable_topic(&verdict.topic, proposition);
                totals.topics_usable += usize::from(usable);
                println!("  r{} topic    {} {}", round.number + 1, if usable { "ok " } else { "BAD" }, verdict.topic);
            }
        }
    }
    for notice in state.notices.iter().filter(|n| n.contains("was set aside")) {
        totals.topics_set_aside += 1;
        println!("  notice   {notice}");
    }
    if let Some(finish) = &state.finish {
        println!("  outcome  {}", finish.outcome.describe());
        totals.failed += usize::from(matches!(finish.outcome, heat::debate::Outcome::Failed(_)));
    }
}

fn main() {
    let Some(model) = offline_run::model_path() else {
        eprintln!("SKIPPED: no offline model (heat model install, or HEAT_TEST_MODEL)");
        return;
    };
    let mut totals = Totals::default();
    let mut times = Vec::new();
    let mut peaks = Vec::new();
    // `HEAT_QUALITY_DEBATES=3` runs the first three only (while tuning).
    let count = std::env::var("HEAT_QUALITY_DEBATES").ok().and_then(|n| n.parse().ok()).unwrap_or(PROPOSITIONS.len());
    for (i, proposition) in PROPOSITIONS.iter().take(count).enumerate() {
        let seed = 1000 + i as u32;
        let (events, time, peak) = debate(&model, proposition, seed);
        times.push(time);
        peaks.push(peak);
        let state = DebateState::from_events(&events);
        println!("\n## {proposition} (seed {seed}, {time:.1?}, peak {peak} MB)");
        tally(&mut totals, proposition, &state);
    }
    times.sort();
    peaks.sort_unstable();
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    println!("\n# Totals over {count} debates");
    println!(
        "arguments on their side: {}/{} ({:.0} %)",
        totals.on_side,
        totals.arguments,
        pct(totals.on_side, totals.arguments)
    );
    println!(
        "next topics: {} accepted, {} usable ({:.0} %), {} set aside by the guard",
        totals.topics_accepted,
        totals.topics_usable,
        pct(totals.topics_usable, totals.topics_accepted),
        totals.topics_set_aside
    );
    println!(
        "verdicts about the arguments: {}/{} ({:.0} %)",
        totals.sane,
        totals.verdicts,
        pct(totals.sane, totals.verdicts)
    );
    println!(
        "heats set: {} distinct ({}); rose {} times, fell {} times",
        totals.heats.len(),
        totals.heats.iter().cloned().collect::<Vec<_>>().join(", "),
        totals.ups,
        totals.downs
    );
    println!("failed debates: {}", totals.failed);
    println!(
        "time per debate: median {:.1?} (fastest {:.1?}, slowest {:.1?}); peak RSS median {} MB, max {} MB",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        peaks[peaks.len() / 2],
        peaks[peaks.len() - 1]
    );
}
