//! Peak memory of an offline debate in every built-in format: the real
//! `heat run` on the embedded model, 2 rounds each, in a data dir of its
//! own, its peak resident set (`VmHWM`) against the goal of 500 MB for a
//! `panel` debate. Every seat shares one loaded model; each lane keeps one
//! KV cache (see `provider::local`).
//! `cargo bench --bench offline_memory` (needs the model: `heat model install`).

#[path = "support/offline_run.rs"]
mod offline_run;

use heat::debate::{DebateEvent, DebateState};

/// The goal for a `panel` debate, in MB.
const GOAL_MB: u64 = 500;

const PROPOSITION: &str = "Cities should ban cars from their centres";

/// A short proposal for the `review` format to attack.
const DESIGN: &str = "# Car-free centre\n\nClose the old town to private cars from 2027.\n\n\
    ## Deliveries\n\nVans may enter from 6 to 10 in the morning.\n\n\
    ## Access\n\nResidents with a disability keep a permit.\n";

fn main() {
    let Some(model) = offline_run::model_path() else {
        eprintln!("SKIPPED: no offline model (heat model install, or HEAT_TEST_MODEL)");
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let design = dir.path().join("design.md");
    std::fs::write(&design, DESIGN).expect("write the design");
    let design = design.to_str().expect("a UTF-8 path").to_string();
    let runs: [(&str, Vec<&str>); 5] = [
        ("duel", vec![PROPOSITION]),
        ("vote", vec![PROPOSITION, "--format", "vote"]),
        ("panel", vec![PROPOSITION, "--format", "panel"]),
        ("oxford", vec![PROPOSITION, "--format", "oxford"]),
        ("review", vec!["--source", &design, "--format", "review"]),
    ];
    println!("| format | seats | rounds | wall | peak RSS |");
    println!("|---|---|---|---|---|");
    let mut panel_peak = None;
    for (name, args) in runs {
        let args: Vec<&str> = args.into_iter().chain(["--max-rounds", "2"]).collect();
        let run = offline_run::run(&model, "", &args);
        let state = DebateState::from_events(&run.events);
        let calls = run.events.iter().filter(|e| matches!(e, DebateEvent::TurnCompleted { .. })).count();
        let outcome = state.finish.as_ref().map_or_else(|| "no finish".into(), |f| f.outcome.describe());
        println!(
            "| {name} | {} | {} ({calls} turns, {outcome}) | {:.1} s | {} MB |",
            state.seats().len(),
            state.rounds.len(),
            run.time.as_secs_f64(),
            run.peak_mb
        );
        if name == "panel" {
            panel_peak = Some(run.peak_mb);
        }
    }
    if let Some(peak) = panel_peak {
        let met = if peak <= GOAL_MB { "met" } else { "NOT met" };
        println!("\npanel peak {peak} MB against the goal of {GOAL_MB} MB: {met}");
    }
}
