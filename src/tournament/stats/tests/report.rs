//! The report of a small tournament, word for word.

use super::super::*;
use super::game;

/// Three models, each pairing argued both ways round, two judges (one of
/// them a debater's model), swap checks, a person and a room.
fn tournament() -> Vec<Game> {
    let (a, s, e) = (Some(Pick::Advocate), Some(Pick::Skeptic), Some(Pick::Even));
    let gpt = "openai:gpt-4.1";
    let claude = "anthropic:claude-sonnet-4";
    let qwen = "local:qwen3-8b";
    let o3 = "openai:o3";
    let mut games = vec![
        game(gpt, claude, o3, a),
        game(claude, gpt, o3, s),
        game(gpt, qwen, o3, a),
        game(qwen, gpt, o3, s),
        game(claude, qwen, o3, a),
        game(qwen, claude, o3, e),
        game(gpt, claude, claude, s),
        game(claude, gpt, claude, a),
        game(gpt, qwen, claude, a),
        game(qwen, gpt, claude, None),
        game(claude, qwen, claude, a),
        game(qwen, claude, claude, a),
    ];
    for (i, game) in games.iter_mut().enumerate() {
        let i = i as u64;
        game.words = [300 + 40 * (i % 3), 320 + 25 * (i % 4)];
        game.swap_checks = u32::from(game.judge == o3) * 2;
        game.swap_flips = u32::from(i == 2);
        game.person = i.is_multiple_of(2).then_some(game.winner).flatten();
        game.room = (i < 6).then_some(Pick::Advocate);
    }
    games
}

#[test]
fn the_report_of_a_small_tournament() {
    let expected = "\
Tournament: 12 games, 3 models, 2 judges; 11 decided (1 even), 1 undecided

Ratings: Bradley–Terry on an Elo-like scale (1000 is the geometric mean)
  95 % bootstrap intervals from 1000 resamples, seed 7
  model                         rating              games   won  lost   even undecided
  openai:gpt-4.1                1123 (960–1251)         8     5     2      0         1
  anthropic:claude-sonnet-4     1034 (864–1224)         8     4     3      1         0
  local:qwen3-8b                843 (682–990)           8     1     5      1         1

Win rates: a draw counts half; 95 % Wilson intervals
  model                         overall             as advocate         as skeptic
  openai:gpt-4.1                71 % (36–92 %)      75 % (30–95 %)      67 % (21–94 %)
  anthropic:claude-sonnet-4     56 % (26–83 %)      75 % (30–95 %)      38 % (9–78 %)
  local:qwen3-8b                21 % (5–58 %)       50 % (13–87 %)      0 % (0–49 %)

Head to head: the row's wins–the column's wins–draws
                                         1        2        3
  1  openai:gpt-4.1                      ·    2–2–0    3–0–0
  2  anthropic:claude-sonnet-4       2–2–0        ·    2–1–1
  3  local:qwen3-8b                  0–3–0    1–2–1        ·

Side bias: the advocate's share of decisive verdicts (50 % is none)
  all judges                    70 % (40–89 %) of 10
  anthropic:claude-sonnet-4     80 % (38–96 %) of 5
  openai:o3                     60 % (23–88 %) of 5

Swap checks: verdicts judged again with the sides swapped
  judge                         checks  flips  flip rate
  anthropic:claude-sonnet-4          0      0  no checks
  openai:o3                         12      1  8 % (1–35 %)

Length bias: decisive verdicts where one side wrote more words
  the side that wrote more won 60 % (31–83 %) of 10

Self-preference: a judge's own model's win rate, judged by itself and by others
  model                         by itself                  by other judges
  anthropic:claude-sonnet-4     75 % (30–95 %) of 4        38 % (9–78 %) of 4

Agreement: the same pick, where both gave one
  judge and person              100 % (61–100 %) of 6
  judge and room                50 % (19–81 %) of 6
  person and room               100 % (44–100 %) of 3
";
    assert_eq!(text(&summarise(&tournament(), 7)), expected);
}

#[test]
fn the_report_of_nothing_says_so_in_each_section() {
    let expected = "\
Tournament: 0 games, 0 models, 0 judges; 0 decided (0 even), 0 undecided

Ratings: Bradley–Terry on an Elo-like scale (1000 is the geometric mean)
  95 % bootstrap intervals from 1000 resamples, seed 0
  no decided game between two models

Win rates: a draw counts half; 95 % Wilson intervals
  no game between two models

Head to head
  no game between two models

Side bias: the advocate's share of decisive verdicts (50 % is none)
  no decisive verdicts

Swap checks: verdicts judged again with the sides swapped
  no swap checks recorded

Length bias: decisive verdicts where one side wrote more words
  no decisive verdict between sides that wrote different amounts

Self-preference: a judge's own model's win rate, judged by itself and by others
  no judge's model also debated

Agreement: the same pick, where both gave one
  no verdict of a person or of the room recorded
";
    assert_eq!(text(&summarise(&[], 0)), expected);
}

#[test]
fn the_report_notes_mirrors_the_unrated_and_the_prior() {
    let a = Some(Pick::Advocate);
    let games = [
        game("strong", "weak", "j", a),
        game("weak", "strong", "j", Some(Pick::Skeptic)),
        game("strong", "strong", "j", a),
        game("idle", "weak", "j", None),
    ];
    let expected = "\
Tournament: 4 games, 3 models, 1 judge; 3 decided (0 even), 1 undecided
1 game of a model against itself, counted only for the side and length biases

Ratings: Bradley–Terry on an Elo-like scale (1000 is the geometric mean)
  95 % bootstrap intervals from 1000 resamples, seed 1
";
    let report = text(&summarise(&games, 1));
    assert!(report.starts_with(expected), "{report}");
    assert!(report.contains("\n  (a model won or lost every game, or some never met: one virtual draw\n"), "{report}");
    assert!(report.contains("\n  not rated, no decided game against another model: idle\n"), "{report}");
}

#[test]
fn the_head_to_head_of_many_models_is_a_list_of_pairs() {
    let models: Vec<String> = (1..=8).map(|n| format!("model-{n}")).collect();
    let games: Vec<Game> = models.windows(2).map(|pair| game(&pair[0], &pair[1], "j", Some(Pick::Advocate))).collect();
    let report = text(&summarise(&games, 1));
    assert!(report.contains("\n  model-1                       vs  model-2                       1–0–0\n"), "{report}");
    assert!(!report.contains("model-1                       vs  model-3"), "only pairs that met: {report}");
    assert!(report.lines().all(|line| line.chars().count() <= 100));
}
