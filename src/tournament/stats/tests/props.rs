//! Any list of games summarises without a panic into sound numbers.

use proptest::prelude::*;

use super::super::*;

const LONG: &str = "openrouter:some-provider/a-model-name-longer-than-any-column-v2";

fn pick() -> impl Strategy<Value = Option<Pick>> {
    proptest::option::of(prop_oneof![Just(Pick::Advocate), Just(Pick::Skeptic), Just(Pick::Even)])
}

fn any_game() -> impl Strategy<Value = Game> {
    let model = || proptest::sample::select(vec!["a", "b", "c", LONG]);
    let judge = proptest::sample::select(vec!["a", "j", "k", LONG]);
    (model(), model(), judge, pick(), [0u64..300, 0u64..300], 0u32..4, 0u32..6, pick(), pick()).prop_map(
        |(advocate, skeptic, judge, winner, words, swap_checks, swap_flips, person, room)| Game {
            session: String::new(),
            advocate: advocate.to_string(),
            skeptic: skeptic.to_string(),
            judge: judge.to_string(),
            winner,
            words,
            swap_checks,
            swap_flips,
            person,
            room,
        },
    )
}

/// Every rate a summary holds.
fn rates(summary: &Summary) -> Vec<Rate> {
    let records = summary.models.iter().flat_map(|m| [&m.overall, &m.as_advocate, &m.as_skeptic]);
    let mut all: Vec<Option<Rate>> = records.map(|r| r.win_rate).collect();
    all.push(summary.side_bias.overall);
    all.extend(summary.side_bias.by_judge.iter().map(|j| j.advocate_wins));
    all.extend(summary.swap_flips.iter().map(|j| j.rate));
    all.push(summary.length_bias);
    all.extend(summary.self_preference.iter().flat_map(|s| [s.by_itself, s.by_others]));
    let agreement = &summary.agreement;
    all.extend([agreement.judge_person, agreement.judge_room, agreement.person_room]);
    all.into_iter().flatten().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_games_summarise_soundly(games in proptest::collection::vec(any_game(), 0..16), seed in any::<u64>()) {
        let summary = summarise(&games, seed);
        for rate in rates(&summary) {
            prop_assert!((0.0..=1.0).contains(&rate.share), "{rate:?}");
            prop_assert!(0.0 <= rate.low && rate.low <= rate.share, "{rate:?}");
            prop_assert!(rate.share <= rate.high && rate.high <= 1.0, "{rate:?}");
        }
        for rated in &summary.ratings.models {
            prop_assert!(rated.rating.is_finite() && rated.low.is_finite() && rated.high.is_finite(), "{rated:?}");
            prop_assert!(rated.low <= rated.high, "{rated:?}");
        }
        for model in &summary.models {
            let judged = games
                .iter()
                .filter(|g| g.winner.is_some() && g.advocate != g.skeptic)
                .filter(|g| g.advocate == model.model || g.skeptic == model.model)
                .count() as u64;
            let all = &model.overall;
            prop_assert_eq!(all.wins + all.losses + all.draws, judged, "{:?}", model);
            prop_assert_eq!(all.games, all.judged() + all.unjudged);
            prop_assert_eq!(all.games, model.as_advocate.games + model.as_skeptic.games);
        }
        let report = text(&summary);
        for line in report.lines() {
            prop_assert!(line.chars().count() <= 100, "{}", line);
        }
    }
}
