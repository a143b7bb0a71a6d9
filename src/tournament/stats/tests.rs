//! The statistics on small hand-counted tournaments.

mod props;
mod report;

use super::*;

/// A game of `advocate` against `skeptic` judged by `judge`, with nothing
/// else recorded: equal words, no swap checks, no person, no room.
pub(super) fn game(advocate: &str, skeptic: &str, judge: &str, winner: Option<Pick>) -> Game {
    Game::between(&format!("{advocate}-{skeptic}"), (advocate, skeptic), judge, winner)
}

const A: Option<Pick> = Some(Pick::Advocate);
const S: Option<Pick> = Some(Pick::Skeptic);
const E: Option<Pick> = Some(Pick::Even);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn records_count_wins_losses_draws_and_the_undecided_by_side() {
    let games = [
        game("x", "y", "j", A),
        game("x", "y", "j", S),
        game("y", "x", "j", E),
        game("y", "x", "j", S),
        game("y", "x", "j", None),
        game("x", "x", "j", A),
    ];
    let summary = summarise_with_resamples(&games, 1, 0);
    let x = summary.models.iter().find(|m| m.model == "x").expect("x");
    assert_eq!((x.overall.games, x.overall.wins, x.overall.losses, x.overall.draws), (5, 2, 1, 1));
    assert_eq!((x.overall.unjudged, x.mirrors), (1, 1));
    assert!(close(x.overall.win_rate.expect("judged").share, 2.5 / 4.0));
    assert_eq!((x.as_advocate.wins, x.as_advocate.losses, x.as_advocate.games), (1, 1, 2));
    assert_eq!((x.as_skeptic.wins, x.as_skeptic.draws, x.as_skeptic.unjudged), (1, 1, 1));
    let y = summary.models.iter().find(|m| m.model == "y").expect("y");
    assert_eq!((y.overall.wins, y.overall.losses, y.overall.draws, y.mirrors), (1, 2, 1, 0));
    assert_eq!((summary.games, summary.judged, summary.draws), (6, 5, 1));
    // x is the stronger, so first.
    assert_eq!(summary.models[0].model, "x");
    let xy = summary.head_to_head.iter().find(|p| p.model == "x" && p.opponent == "y").expect("met");
    assert_eq!((xy.wins, xy.opponent_wins, xy.draws, xy.unjudged), (2, 1, 1, 1));
    let yx = summary.head_to_head.iter().find(|p| p.model == "y" && p.opponent == "x").expect("met");
    assert_eq!((yx.wins, yx.opponent_wins), (1, 2));
    assert_eq!(summary.head_to_head.len(), 2, "no pair of x with itself");
}

#[test]
fn an_undefeated_model_is_rated_finite_and_first_within_its_interval() {
    let mut games = Vec::new();
    for _ in 0..3 {
        games.extend([game("champ", "b", "j", A), game("c", "champ", "j", S), game("b", "c", "j", A)]);
    }
    games.push(game("c", "b", "j", A));
    let summary = summarise(&games, 42);
    let ratings = &summary.ratings;
    assert!(ratings.prior, "undefeated: the prior is needed");
    assert_eq!(ratings.models[0].model, "champ");
    for rated in &ratings.models {
        assert!(rated.rating.is_finite() && rated.low.is_finite() && rated.high.is_finite(), "{rated:?}");
        assert!(rated.low <= rated.rating && rated.rating <= rated.high, "{rated:?}");
    }
    assert!(ratings.models[0].rating > ratings.models[1].rating + 100.0);
    // The same seed, the same intervals; another seed, other ones.
    assert_eq!(summarise(&games, 42), summary);
    assert_ne!(summarise(&games, 43).ratings.models, ratings.models);
}

#[test]
fn the_ratings_leave_out_who_never_had_a_decided_game_against_another() {
    let games = [game("a", "b", "j", A), game("b", "a", "j", A), game("c", "d", "j", None), game("e", "e", "j", A)];
    let ratings = summarise_with_resamples(&games, 3, 20).ratings;
    let rated: Vec<&str> = ratings.models.iter().map(|r| r.model.as_str()).collect();
    assert_eq!(rated, ["a", "b"], "equal ratings by name");
    assert!(close(ratings.models[0].rating, 1000.0) && close(ratings.models[1].rating, 1000.0));
    assert!(!ratings.prior);
    assert_eq!(ratings.unrated, ["c", "d", "e"]);
}

#[test]
fn side_bias_overall_and_by_judge() {
    let games = [
        game("x", "y", "j1", A),
        game("y", "x", "j1", A),
        game("x", "y", "j1", S),
        game("x", "y", "j1", E),
        game("x", "y", "j1", None),
        game("x", "x", "j2", S),
    ];
    let bias = summarise_with_resamples(&games, 1, 0).side_bias;
    let overall = bias.overall.expect("decisive verdicts");
    assert_eq!((overall.successes, overall.trials), (2.0, 4));
    assert_eq!(overall, wilson(2.0, 4).expect("trials"));
    let judges: Vec<(&str, f64, u64)> = bias
        .by_judge
        .iter()
        .map(|j| {
            let rate = j.advocate_wins.expect("decisive");
            (j.judge.as_str(), rate.successes, rate.trials)
        })
        .collect();
    assert_eq!(judges, [("j1", 2.0, 3), ("j2", 0.0, 1)]);
}

#[test]
fn swap_flips_by_judge() {
    let checked = |judge: &str, checks: u32, flips: u32| Game {
        swap_checks: checks,
        swap_flips: flips,
        ..game("x", "y", judge, A)
    };
    let games = [checked("j1", 2, 1), checked("j1", 3, 0), checked("j2", 0, 0), checked("j3", 1, 5)];
    let flips = summarise_with_resamples(&games, 1, 0).swap_flips;
    let counted: Vec<(&str, u64, u64, Option<f64>)> =
        flips.iter().map(|j| (j.judge.as_str(), j.checks, j.flips, j.rate.map(|r| r.share))).collect();
    assert_eq!(counted, [("j1", 5, 1, Some(0.2)), ("j2", 0, 0, None), ("j3", 1, 1, Some(1.0))]);
}

#[test]
fn length_bias_counts_decisive_verdicts_between_unequal_lengths() {
    let worded = |words: [u64; 2], winner| Game { words, ..game("x", "y", "j", winner) };
    let games = [
        worded([100, 50], A),
        worded([100, 50], S),
        worded([10, 90], S),
        worded([80, 80], A),
        worded([10, 90], E),
        worded([10, 90], None),
    ];
    let bias = summarise_with_resamples(&games, 1, 0).length_bias.expect("counted");
    assert_eq!((bias.successes, bias.trials), (2.0, 3));
    assert_eq!(summarise_with_resamples(&games[3..], 1, 0).length_bias, None);
}

#[test]
fn self_preference_splits_a_judges_own_games_by_who_judged() {
    let games = [
        game("a", "b", "a", A),
        game("b", "a", "a", S),
        game("a", "b", "a", E),
        game("a", "b", "c", S),
        game("b", "a", "c", S),
        game("a", "b", "c", None),
        game("b", "c", "a", A),
        game("a", "a", "a", A),
        game("b", "c", "d", A),
    ];
    let preference = summarise_with_resamples(&games, 1, 0).self_preference;
    assert_eq!(preference.len(), 2, "a and c judged and debated; d only judged: {preference:?}");
    let a = &preference[0];
    assert_eq!(a.model, "a");
    let own = a.by_itself.expect("judged by a");
    assert_eq!((own.successes, own.trials), (2.5, 3));
    let others = a.by_others.expect("judged by c");
    assert_eq!((others.successes, others.trials), (1.0, 2));
    let c = &preference[1];
    assert_eq!(c.model, "c");
    assert_eq!(c.by_itself, None);
    let c_by_others = c.by_others.expect("judged by a and d");
    assert_eq!((c_by_others.successes, c_by_others.trials), (0.0, 2));
}

#[test]
fn agreement_counts_where_both_gave_a_pick() {
    let voted = |winner, person, room| Game { person, room, ..game("x", "y", "j", winner) };
    let games = [voted(A, A, S), voted(E, E, None), voted(None, S, S), voted(S, None, S), voted(A, None, None)];
    let agreement = summarise_with_resamples(&games, 1, 0).agreement;
    let counts = |rate: Option<Rate>| rate.map(|r| (r.successes, r.trials));
    assert_eq!(counts(agreement.judge_person), Some((2.0, 2)));
    assert_eq!(counts(agreement.judge_room), Some((1.0, 2)));
    assert_eq!(counts(agreement.person_room), Some((1.0, 2)));
    let none = summarise_with_resamples(&games[4..], 1, 0).agreement;
    assert_eq!((none.judge_person, none.judge_room, none.person_room), (None, None, None));
}

#[test]
fn nothing_summarises_to_nothing() {
    let summary = summarise(&[], 0);
    assert_eq!((summary.games, summary.models.len(), summary.ratings.models.len()), (0, 0, 0));
    assert_eq!(summary.length_bias, None);
    assert!(summary.swap_flips.is_empty() && summary.self_preference.is_empty());
}

#[test]
fn a_game_reads_and_writes_as_json() {
    let text = r#"{"session":"s1","advocate":"a","skeptic":"b","judge":"j","winner":"even",
        "words":[3,4],"swap_checks":1,"swap_flips":0,"person":null,"room":"skeptic"}"#;
    let game: Game = serde_json::from_str(text).expect("a game");
    assert_eq!((game.winner, game.room, game.words), (E, S, [3, 4]));
    let again: Game = serde_json::from_str(&serde_json::to_string(&game).expect("json")).expect("a game");
    assert_eq!(again, game);
    assert!(serde_json::to_string(&summarise(&[game], 0)).is_ok());
}
