//! `heat compare A B`: two stored debates side by side, as text for a
//! terminal: who argued, how each ended, then round by round the heat, each
//! side's words and the judge's word, and the first round where they part.

use std::fmt::Write as _;

use crate::debate::Role;
use crate::report::Context;
use crate::report::model::{Report, Said};
use crate::report::transcript::Entry;
use crate::store::{self, Store};
use crate::words::truncate;

/// Loads both debates and prints the comparison.
pub fn compare(a: &str, b: &str) -> anyhow::Result<()> {
    let store = Store::open(&store::data_dir()?)?;
    let mut reports = Vec::new();
    for wanted in [a, b] {
        let id = store.resolve(Some(wanted))?;
        let loaded = store.load(&id)?;
        for notice in &loaded.notices {
            say!("heat: session {id}: {notice}");
        }
        let context = Context {
            live: store.is_live(&id),
            skipped: loaded.notices.clone(),
            prices: crate::debate::cost::Prices::default(),
            label: store.label(&id),
        };
        reports.push(Report::build(&loaded.header, &loaded.records, &context));
    }
    let text = text(&reports[0], &reports[1]);
    for line in text.trim_end().lines() {
        show!("{}", line.trim_end());
    }
    Ok(())
}

/// The width of a column of one debate's values.
const COLUMN: usize = 38;

/// Where two debates part, in words.
pub fn divergence(a: &Report, b: &Report) -> String {
    if a.topic != b.topic {
        return "They debate different propositions.".into();
    }
    let both = a.transcript.len().min(b.transcript.len());
    for i in 0..both {
        let (ra, rb) = (&a.transcript[i], &b.transcript[i]);
        let round = ra.round;
        if ra.question != rb.question {
            return format!("They part in round {round}: the question differs.");
        }
        if (ra.heat.get() - rb.heat.get()).abs() > f32::EPSILON {
            return format!("They part in round {round}: the heat differs ({:.2} and {:.2}).", ra.heat, rb.heat);
        }
        let said = |r: &Report| {
            r.transcript[i]
                .entries
                .iter()
                .filter_map(|e| match e {
                    Entry::Turn(t) if t.seat_class != Role::Judge.key() => Some(t.text.clone()),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        if said(a) != said(b) {
            return format!("They part in round {round}: the arguments differ.");
        }
        if a.verdicts.get(i).map(|v| (&v.reason, v.said)) != b.verdicts.get(i).map(|v| (&v.reason, v.said)) {
            return format!("They part in round {round}: the judge's verdict differs.");
        }
    }
    match (a.transcript.len(), b.transcript.len()) {
        (x, y) if x == y => format!("They are the same through all {x} rounds."),
        (x, y) => format!("They are the same through round {}; one goes on to round {}.", x.min(y), x.max(y)),
    }
}

/// The comparison as text: a header of facts, a table of rounds, where they part.
pub fn text(a: &Report, b: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "heat compare · A {} · B {}\n", a.session, b.session);
    let row = |out: &mut String, label: &str, left: &str, right: &str| {
        let _ = writeln!(out, "{label:<10} {:<COLUMN$} {}", truncate(left, COLUMN), truncate(right, COLUMN));
    };
    row(&mut out, "", "A", "B");
    if let Some(relation) = relation(a, b) {
        let _ = writeln!(out, "{:<10} {relation}", "relation");
    }
    let same = |x: &str, y: &str| if x == y { "(the same)".to_string() } else { y.to_string() };
    row(&mut out, "topic", &a.topic, &same(&a.topic, &b.topic));
    // The seats either debate sat.
    let either_sat = |role: &Role| a.seats.iter().chain(&b.seats).any(|s| s.seat_class == role.key());
    for role in Role::ALL.into_iter().filter(either_sat) {
        let seat = |r: &Report| {
            r.seats
                .iter()
                .find(|s| s.seat_class == role.key())
                .map_or("–".into(), |s| format!("{}/{}", s.provider, s.model))
        };
        row(&mut out, role.key(), &seat(a), &seat(b));
    }
    row(&mut out, "outcome", &a.outcome, &b.outcome);
    let path = |r: &Report| r.heat.iter().map(|p| format!("{:.2}", p.heat)).collect::<Vec<_>>().join(" → ");
    row(&mut out, "heat", &path(a), &path(b));
    let words = |r: &Report| format!("{} for, {} against", r.total_words(Role::Advocate), r.total_words(Role::Skeptic));
    row(&mut out, "words", &words(a), &words(b));
    let tokens = |r: &Report| r.tokens.map_or("not reported".into(), |(i, o)| format!("{i} in · {o} out"));
    row(&mut out, "tokens", &tokens(a), &tokens(b));

    let _ = writeln!(
        out,
        "\n{:>5}  {:>11}  {:>13}  {:>13}  {:<16} {:<16}",
        "round", "heat A  B", "words A", "words B", "judge A", "judge B"
    );
    let rounds = a.transcript.len().max(b.transcript.len());
    for i in 0..rounds {
        let heat = |r: &Report| r.heat.get(i).map_or("  – ".into(), |p| format!("{:.2}", p.heat));
        let words = |r: &Report| {
            r.effort.get(i).map_or("–".into(), |e| format!("{}/{}", e.words(Role::Advocate), e.words(Role::Skeptic)))
        };
        let judge = |r: &Report| r.verdicts.get(i).map_or("–", |v| said(v.said));
        let _ = writeln!(
            out,
            "{:>5}  {} {}  {:>13}  {:>13}  {:<16} {:<16}",
            i + 1,
            heat(a),
            heat(b),
            words(a),
            words(b),
            judge(a),
            judge(b)
        );
    }
    let _ = writeln!(out, "\n{}", divergence(a, b));
    out
}

/// How one debate was made from the other, when it was: a rematch (`heat
/// rematch`, perhaps with the sides swapped) or a branch (`heat branch`).
/// A swapped rematch argues each side on the other model, so the seats and
/// words below read across, not along.
pub fn relation(a: &Report, b: &Report) -> Option<String> {
    let made = |child: &Report, parent: &Report, child_name: &str, parent_name: &str| {
        if let Some((from, how)) = &child.origin
            && *from == parent.session
        {
            return Some(format!("{child_name} is a rematch of {parent_name}: {how}"));
        }
        match &child.branch {
            Some((from, round, how)) if *from == parent.session => {
                Some(format!("{child_name} branches {parent_name} after round {round}: {how}"))
            }
            _ => None,
        }
    };
    made(b, a, "B", "A").or_else(|| made(a, b, "A", "B"))
}

/// The judge's word in a table cell.
fn said(said: Said) -> &'static str {
    match said {
        Said::Goes => "not resolved",
        Said::Closes => "closed it",
        Said::Unreadable => "unreadable",
        Said::Nothing => "no verdict",
    }
}
