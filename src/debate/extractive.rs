//! The embedded model's verdict: choosing, not writing. A 135M model cannot
//! write an assessment of two arguments (it copies its prompt, or writes
//! `…`), cannot say who argued better (it names whichever side is listed
//! first) and cannot set a heat (it answers 0.3 or 1.0, or the first value
//! offered). Under a grammar it can choose, and write a short question. So
//! its judge picks each side's strongest sentence from that side's own
//! argument (the schema lists them as an enum) and writes the next round's
//! question, which the grammar holds to one line that ends in `?` and names
//! something from the proposition. heat builds the verdict text from those
//! choices and names no winner. Only sentences that carry a claim are
//! offered (not "I'm happy you bring this point into the discussion"), and
//! of those the ones that read as claims first ([`claim`]: no fragment, no
//! question, not the proposition again, not talk about the debate, not a
//! claim the map holds for the side already). In a format that keeps a
//! map it scores each side by rule ([`scorecard`]), and the verdict says
//! so. A next question that was cut off (it ends on a word the debate never
//! used, or on "of") or repeats the round's own is not taken: the round's
//! question is kept, and that is said ([`question_refused`]). The heat
//! moves by a rule a watcher can follow ([`next_heat`]): it never rises;
//! it cools a step a round, three when the sides came closer (they share
//! more of their words, [`distance`]), down to 0.3. It is not asked whether
//! the debate is resolved: the debate runs to its round limit, or until the
//! person resolves it.

use serde_json::{Map, Value, json};

use super::guard::text::content_words;
use super::heat::Heat;
use super::issues::Status;
use super::seat::Side;
use super::state::{DebateState, Round, TurnStatus};
use super::verdict::{self, Verdict, VerdictError};

mod apart;
pub mod claim;
mod prose;
pub mod scorecard;

pub use apart::{distance, next_heat, spread};
use prose::sentences;

/// Most candidate sentences offered per side: the grammar stays small.
const MAX_CANDIDATES: usize = 8;
/// A candidate sentence's length in words.
const MIN_WORDS: usize = 4;
const MAX_WORDS: usize = 30;
/// A seat the embedded judge chooses a sentence from: the field its
/// choice goes in (`advocate_best`), its name as prompts say it ("the
/// advocate"), what it argued this round and the claims the argument map
/// holds for it from earlier rounds (a sentence close to one is not
/// offered again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat<'a> {
    pub field: String,
    pub name: String,
    pub argument: &'a str,
    pub said: Vec<&'a str>,
}

/// The seats of `state` the embedded judge chooses from in `round`, in
/// seat order. Two sides keep the fields they always had (`advocate_best`,
/// `skeptic_best`); other debaters' fields come from their names
/// (`optimist_best`), or their seat's id where a name gives none.
pub fn seats<'s>(state: &'s DebateState, round: &'s Round) -> Vec<Seat<'s>> {
    let mut out: Vec<Seat<'s>> = Vec::new();
    for &role in state.debaters() {
        // A seat that sat the round out (its turn failed) offers nothing to choose.
        if round.turn(role).is_some_and(|t| matches!(t.status, TurnStatus::Failed { .. })) {
            continue;
        }
        let name = state.seat_name(role);
        let own = field_of(&name).filter(|f| !state.two_sides() && !out.iter().any(|s| &s.field == f));
        let field = own.unwrap_or_else(|| format!("{}_best", role.key()));
        let earlier = state.rounds.iter().filter(|r| r.number < round.number).filter_map(Round::verdict);
        let said = earlier.flat_map(|v| &v.claims).filter(|c| c.by == role).map(|c| c.claim.as_str()).collect();
        out.push(Seat { field, name, argument: round.argument(role).unwrap_or_default(), said });
    }
    out
}

/// `Logic critic` → `logic_critic_best`.
fn field_of(name: &str) -> Option<String> {
    let words: Vec<String> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    (!words.is_empty()).then(|| format!("{}_best", words.join("_")))
}

/// The schema the embedded judge answers to for this round's arguments,
/// or `None` when a seat offers no sentence to choose (then the judge
/// writes its verdict as every other judge does). `issues` are the ids of
/// a review's issues, each to be given a status.
pub fn schema(proposition: &str, seats: &[Seat<'_>], is_final: bool, issues: &[String]) -> Option<Value> {
    let mut properties = Map::new();
    for seat in seats {
        let offered = offered(proposition, seat);
        if offered.is_empty() {
            return None;
        }
        properties.insert(seat.field.clone(), json!({ "type": "string", "enum": offered }));
    }
    if !is_final {
        // No length cap: a cap the grammar meets mid-word forces a `?` onto a cut word.
        // The pattern's word counts bound it.
        properties
            .insert("next_question".into(), json!({ "type": "string", "pattern": question_pattern(proposition) }));
    }
    if !issues.is_empty() {
        let each: Map<String, Value> =
            issues.iter().map(|id| (id.clone(), json!({ "type": "string", "enum": Status::NAMES }))).collect();
        properties.insert(
            "issues".into(),
            json!({ "type": "object", "properties": each, "required": issues, "additionalProperties": false }),
        );
    }
    let required: Vec<&String> = properties.keys().collect();
    Some(json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    }))
}

/// Most issues the embedded judge rules on in one answer: the grammar
/// stays small, and the open ones come first.
const MAX_ISSUES: usize = 10;

/// The ids of the issues a review's embedded judge gives a status to: the
/// open ones first, then the others, each once; none outside a review.
pub fn issue_ids(state: &DebateState) -> Vec<String> {
    if !state.tracks_issues() {
        return Vec::new();
    }
    let mut rows = super::issues::board(state);
    rows.sort_by_key(|row| row.status != Status::Open);
    rows.into_iter().map(|row| row.issue.id).take(MAX_ISSUES).collect()
}

/// A question of one line that names at least one content word of the
/// proposition (any case), so the next round stays on it.
fn question_pattern(proposition: &str) -> String {
    let mut words: Vec<String> = content_words(proposition)
        .into_iter()
        .filter(|w| w.chars().all(|c| c.is_ascii_alphanumeric()) && w.len() > 2)
        .collect();
    words.sort();
    // A question word first, then plain lowercase words one space apart: no
    // run-on clauses, no "The next round should answer…"; one of the words
    // is a word of the proposition (or its plural, -ed, -ing…), whole.
    // No "What": from a tiny model it opens "What are your thoughts on…".
    let opener = "(Why|How|Does|Do|Should|Can|Could|Will|Would|Is|Are)";
    // A word, or two joined by one hyphen: no "ready-for-the-table-and-…" chains.
    let word = "[a-z0-9']{1,14}(-[a-z0-9']{1,14})?";
    if words.is_empty() {
        return format!("^{opener}( {word}){{2,15}}[?]$");
    }
    // Any case, spelt out letter by letter: a server's grammar (llama.cpp's)
    // takes no inline flags such as `(?i:…)`.
    let any_case = |w: &String| {
        w.chars()
            .map(|c| {
                if c.is_ascii_alphabetic() {
                    format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
                } else {
                    c.to_string()
                }
            })
            .collect::<String>()
    };
    let named = words.iter().map(any_case).collect::<Vec<_>>().join("|");
    format!("^{opener}( {word}){{0,6}} ({named})[a-z]{{0,3}}( {word}){{0,6}}[?]$")
}

/// Whether a judge's answer is in this form (and not a written verdict).
pub fn is_chosen(text: &str) -> bool {
    text.contains("_best\"")
}

/// Reads a chosen verdict. `fallback_topic` stays the topic when the judge
/// gave no question; `heat` is the measured one; `is_final` marks the final
/// synthesis; `seats` are the fields chosen in and the seats' names.
pub fn parse(
    text: &str,
    fallback_topic: &str,
    heat: Heat,
    is_final: bool,
    seats: &[Seat<'_>],
) -> Result<Verdict, VerdictError> {
    let map = verdict::parse_map(text)?;
    let mut points = Vec::with_capacity(seats.len());
    for seat in seats {
        let wrong = |detail: String| VerdictError::Choice { field: seat.field.clone(), detail };
        let sentence = match map.get(&seat.field) {
            Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
            Some(other) => return Err(wrong(format!("expected a sentence, got {other}"))),
            None => return Err(wrong("missing".into())),
        };
        points.push(format!("the {}'s \u{201c}{sentence}\u{201d}", seat.name));
    }
    let topic = map
        .get("next_question")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .unwrap_or(fallback_topic)
        .to_string();
    let scope = if is_final { "The debate's strongest points" } else { "This round's strongest points" };
    let verdict = format!("{scope}: {}", listed(&points));
    Ok(Verdict { resolved: is_final, verdict, topic, heat, ..Verdict::default() })
}

/// `a`, `a and b`, `a, b and c`.
pub fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why the judge's next `question` is not taken, if it is not: it was cut
/// off (its last word is none the proposition or this round's `arguments`
/// used, or one a question does not end on, like "of"), or it repeats the
/// round's own question (`asked`) or the proposition.
pub fn question_refused(question: &str, proposition: &str, asked: &str, arguments: &[&str]) -> Option<Refused> {
    let plain = |text: &str| text.trim().trim_end_matches(['?', '.', '!']).trim().to_lowercase();
    if plain(question) == plain(asked) || plain(question) == plain(proposition) {
        return Some(Refused::Repeated);
    }
    let body = question.trim().trim_end_matches('?');
    let last = body.split_whitespace().last().unwrap_or_default();
    let said = content_words(&format!("{proposition} {}", arguments.join(" ")));
    let ends_on_said = content_words(last).iter().any(|w| said.contains(w));
    (!ends_on_said).then_some(Refused::CutOff)
}

/// Why a next question was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// It ends on a word the debate never used, or one a question does not end on.
    CutOff,
    /// It is the round's own question, or the proposition, again.
    Repeated,
}

/// Whether a sentence claims something: two of its words or more say more
/// than how it talks about the debate.
fn carries_claim(sentence: &str) -> bool {
    content_words(sentence).iter().filter(|w| !claim::is_talk(w)).count() >= 2
}

/// An argument's main point in one sentence, for the other side's brief
/// prompt: its first whole sentence after the given opening claim.
pub fn main_point(argument: &str) -> Option<String> {
    let sentence = candidates(argument).into_iter().next()?;
    let leads = ["My first reason is that ", "My first objection is that "];
    let point = leads.iter().find_map(|lead| sentence.strip_prefix(lead)).map_or(sentence.clone(), |rest| {
        let mut chars = rest.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
    });
    Some(point)
}

/// The instructions a debater's prompt gives it, which a tiny model says
/// again as if they were its own.
fn given_sentences() -> impl Iterator<Item = &'static str> {
    let sides = [Side::For, Side::Against, Side::Free].into_iter().filter_map(Side::instruction);
    sides.chain([super::prompt::argument::ANSWER_THAT_POINT, super::prompt::argument::WEIGH_THOSE_POINTS])
}

/// The sentences a seat's judge is offered: of its [`candidates`], those
/// that read as claims ([`claim::refused`]) and are not close to a claim
/// the map holds for it already; where none does, its candidates as they
/// are, so the judge still has a sentence to choose (and the map keeps
/// none of them: it refuses them by the same rules).
fn offered(proposition: &str, seat: &Seat<'_>) -> Vec<String> {
    let every = every_candidate(seat.argument);
    let new_claim = |s: &&String| {
        claim::refused(s, proposition).is_none() && !seat.said.iter().any(|said| claim::near_duplicate(s, said))
    };
    let claims: Vec<String> = every.iter().filter(new_claim).take(MAX_CANDIDATES).cloned().collect();
    if claims.is_empty() { every.into_iter().take(MAX_CANDIDATES).collect() } else { claims }
}

/// The sentences of an argument a judge may pick: whole sentences of a
/// sensible length, without the side's given opening claim or its issue
/// lines, first ones first, each once, at most [`MAX_CANDIDATES`].
fn candidates(argument: &str) -> Vec<String> {
    every_candidate(argument).into_iter().take(MAX_CANDIDATES).collect()
}

/// [`candidates`], however many.
fn every_candidate(argument: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // A critic's issue lines are on the board: its points are its prose.
    let prose: Vec<&str> = argument.lines().filter(|line| !super::issues::is_issue_line(line)).collect();
    for sentence in sentences(&prose.join("\n")).into_iter().filter(|s| carries_claim(s)) {
        let words = sentence.split_whitespace().count();
        let is_claim = sentence.starts_with("I agree that") || sentence.starts_with("I disagree that");
        // A sentence of the seat's own prompt, said again, is not a point it made.
        let is_given = given_sentences().any(|given| given.eq_ignore_ascii_case(&sentence));
        // A run-on sentence is quoted up to its word limit, marked as cut.
        let sentence = if words > MAX_WORDS {
            let head: Vec<&str> = sentence.split_whitespace().take(MAX_WORDS).collect();
            format!("{}\u{2026}", head.join(" ").trim_end_matches([',', ';', ':']))
        } else {
            sentence
        };
        if words >= MIN_WORDS && !is_claim && !is_given && !out.contains(&sentence) {
            out.push(sentence);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn seat<'a>(field: &str, name: &str, argument: &'a str) -> Seat<'a> {
        Seat { field: field.into(), name: name.into(), argument, said: Vec::new() }
    }

    fn duel_of<'a>(advocate: &'a str, skeptic: &'a str) -> Vec<Seat<'a>> {
        vec![seat("advocate_best", "advocate", advocate), seat("skeptic_best", "skeptic", skeptic)]
    }

    fn duel() -> Vec<Seat<'static>> {
        duel_of(ADVOCATE, SKEPTIC)
    }

    const PROPOSITION: &str = "Cities should ban cars";
    const ADVOCATE: &str = "I agree that cities should ban cars. My first reason is that streets become safer \
        for children. Air quality improves when traffic falls.\n\nShops see more people on foot and";
    const SKEPTIC: &str = "I disagree that cities should ban cars. Deliveries would cost more for small shops. \
        People with disabilities rely on cars! Ok.";

    #[test]
    fn candidates_are_whole_sentences_without_the_given_claim() {
        assert_eq!(
            candidates(ADVOCATE),
            vec![
                "My first reason is that streets become safer for children.",
                "Air quality improves when traffic falls."
            ]
        );
        assert_eq!(
            candidates(SKEPTIC),
            vec!["Deliveries would cost more for small shops.", "People with disabilities rely on cars!"],
            "a short sentence and the cut-off tail are left out"
        );
        assert_eq!(main_point(ADVOCATE).unwrap(), "Streets become safer for children.");
    }

    #[test]
    fn sentences_that_read_as_claims_are_offered_and_the_rest_only_where_none_does() {
        let argument = "I agree that cities should ban cars. Cities should ban cars from their centres. Who pays for \
            the new buses then? The safety of children on quiet streets near schools. Buses fill the gap once the car \
            lanes are free. Air quality improves when traffic falls.";
        let mut advocate = seat("advocate_best", "advocate", argument);
        let both = ["Buses fill the gap once the car lanes are free.", "Air quality improves when traffic falls."];
        assert_eq!(offered(PROPOSITION, &advocate), both, "not the proposition again, a question or a fragment");
        advocate.said = vec!["Air quality improves a lot when traffic falls."];
        assert_eq!(offered(PROPOSITION, &advocate), both[..1], "nearly a claim the map holds for the side");
        let noise = seat("skeptic_best", "skeptic", "Who pays for the buses? The safety of children on quiet streets.");
        assert_eq!(offered(PROPOSITION, &noise).len(), 2, "none reads as a claim: the judge still has a choice");
        assert_eq!(offered(PROPOSITION, &noise), candidates(noise.argument));
    }

    #[test]
    fn the_prompts_own_instructions_said_again_are_not_offered() {
        let echo = "Weigh those points first. Give your own best answer to this question, with your reasons. Buses fill the gap once the lanes are free.";
        assert_eq!(candidates(echo), ["Buses fill the gap once the lanes are free."]);
    }

    #[test]
    fn a_critics_issue_lines_are_on_the_board_not_among_its_points() {
        let critic = "ISSUE L2 [high] No one enforces the permits at the gates. — evidence: the plan names no agency.\n\
                      The plan never says who checks the permits.";
        assert_eq!(candidates(critic), ["The plan never says who checks the permits."]);
    }

    #[test]
    fn a_run_on_sentence_is_quoted_up_to_the_word_limit() {
        let words: Vec<&str> = ["buses", "trams", "bikes", "walking", "parks"].into_iter().cycle().take(40).collect();
        let long = format!("I agree that cities should ban cars. {}, and so on.", words.join(" "));
        let quoted = candidates(&long);
        assert_eq!(quoted.len(), 1);
        assert_eq!(quoted[0].split_whitespace().count(), MAX_WORDS);
        assert!(quoted[0].ends_with("parks\u{2026}"), "{}", quoted[0]);
    }

    #[test]
    fn the_schema_offers_each_side_its_own_sentences_and_a_question_on_the_proposition() {
        let chosen = schema(PROPOSITION, &duel(), false, &[]).unwrap();
        assert_eq!(chosen["properties"]["advocate_best"]["enum"].as_array().unwrap().len(), 2);
        assert_eq!(chosen["properties"]["skeptic_best"]["enum"][0], "Deliveries would cost more for small shops.");
        assert_eq!(chosen["required"].as_array().unwrap().len(), 3);
        let pattern = chosen["properties"]["next_question"]["pattern"].as_str().unwrap();
        assert!(pattern.contains(" ([bB][aA][nN]|[cC][aA][rR]|[cC][iI][tT][iI][eE])[a-z]{0,3}"), "{pattern}");
        assert!(!pattern.contains("(?"), "no inline flags, which a server's grammar refuses: {pattern}");
        let last = schema(PROPOSITION, &duel(), true, &[]).unwrap();
        assert!(last["properties"].get("next_question").is_none(), "the synthesis asks no question");
        assert!(
            schema(PROPOSITION, &duel_of("", SKEPTIC), false, &[]).is_none(),
            "nothing to choose from the advocate"
        );
    }

    #[test]
    fn a_chosen_verdict_is_told_in_words_with_the_measured_heat() {
        let answer = r#"{"advocate_best":"Air quality improves when traffic falls.","skeptic_best":"Deliveries would cost more for small shops.","next_question":"Would deliveries really cost more without cars?"}"#;
        assert!(is_chosen(answer));
        let verdict = parse(answer, PROPOSITION, Heat::new(0.65), false, &duel()).unwrap();
        assert_eq!(
            verdict.verdict,
            "This round's strongest points: the advocate's \u{201c}Air quality improves when traffic falls.\u{201d} \
             and the skeptic's \u{201c}Deliveries would cost more for small shops.\u{201d}"
        );
        assert!((verdict.heat.get() - 0.65).abs() < f32::EPSILON);
        assert_eq!(verdict.topic, "Would deliveries really cost more without cars?");
        assert!(!verdict.resolved);
    }

    #[test]
    fn the_final_synthesis_resolves_and_keeps_the_topic() {
        let answer = r#"{"advocate_best":"A.","skeptic_best":"B."}"#;
        let verdict = parse(answer, PROPOSITION, Heat::new(0.5), true, &duel()).unwrap();
        assert!(verdict.resolved);
        assert!(verdict.verdict.starts_with("The debate's strongest points"));
        assert_eq!(verdict.topic, PROPOSITION);
    }

    #[test]
    fn a_missing_choice_is_an_error_the_repair_can_name() {
        let err = parse(r#"{"skeptic_best":"B."}"#, "t", Heat::new(0.5), false, &duel()).unwrap_err();
        assert_eq!(err.to_string(), "the field `advocate_best` has the wrong type: missing");
    }

    const OPTIMIST: &str = "Final answer: yes. Clean air saves lives in every city. Children walk to school.";
    const REALIST: &str = "Final answer: partly. Deliveries need a morning window to reach the shops.";
    const CRITIC: &str = "Final answer: no. The poorest drivers live furthest from the centre.";

    fn panel() -> Vec<Seat<'static>> {
        vec![
            seat("optimist_best", "optimist", OPTIMIST),
            seat("realist_best", "realist", REALIST),
            seat("logic_critic_best", "logic critic", CRITIC),
        ]
    }

    #[test]
    fn three_free_seats_each_offer_their_own_sentences_and_issues_get_a_status_each() {
        let chosen = schema(PROPOSITION, &panel(), false, &["L1".into(), "O2".into()]).unwrap();
        let properties = chosen["properties"].as_object().unwrap();
        assert_eq!(properties["optimist_best"]["enum"][0], "Clean air saves lives in every city.");
        assert_eq!(properties["realist_best"]["enum"][0], "Deliveries need a morning window to reach the shops.");
        assert_eq!(properties["logic_critic_best"]["enum"][0], "The poorest drivers live furthest from the centre.");
        assert_eq!(chosen["required"].as_array().unwrap().len(), 5, "three seats, the question, the issues");
        assert_eq!(properties["issues"]["required"], json!(["L1", "O2"]));
        assert_eq!(properties["issues"]["properties"]["O2"]["enum"], json!(Status::NAMES));
        let answer = r#"{"optimist_best":"Clean air saves lives in every city.","realist_best":"Deliveries need a morning window to reach the shops.","logic_critic_best":"The poorest drivers live furthest from the centre.","next_question":"Who pays when cars leave the centre?","issues":{"L1":"open","O2":"addressed"}}"#;
        assert!(is_chosen(answer));
        let verdict = parse(answer, PROPOSITION, Heat::new(0.8), false, &panel()).unwrap();
        assert_eq!(
            verdict.verdict,
            "This round's strongest points: the optimist's \u{201c}Clean air saves lives in every city.\u{201d}, \
             the realist's \u{201c}Deliveries need a morning window to reach the shops.\u{201d} and the logic \
             critic's \u{201c}The poorest drivers live furthest from the centre.\u{201d}"
        );
        let err = parse(r#"{"optimist_best":"A.","realist_best":"B."}"#, "t", Heat::new(0.5), true, &panel());
        assert_eq!(
            err.map(|_| ()).map_err(|e| e.to_string()),
            Err("the field `logic_critic_best` has the wrong type: missing".into())
        );
    }

    #[test]
    fn the_spread_of_three_is_the_mean_of_their_pairs() {
        let pairs = [
            distance(PROPOSITION, OPTIMIST, REALIST),
            distance(PROPOSITION, OPTIMIST, CRITIC),
            distance(PROPOSITION, REALIST, CRITIC),
        ];
        let mean = pairs.iter().sum::<f32>() / 3.0;
        assert!((spread(PROPOSITION, &[OPTIMIST, REALIST, CRITIC]) - mean).abs() < 1e-6);
        assert!((spread(PROPOSITION, &[ADVOCATE, SKEPTIC]) - distance(PROPOSITION, ADVOCATE, SKEPTIC)).abs() < 1e-6);
        assert!(spread(PROPOSITION, &[ADVOCATE]).abs() < f32::EPSILON, "one seat is no spread");
        assert_eq!(listed(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }

    #[test]
    fn arguments_that_repeat_each_other_are_close_and_different_ones_far_apart() {
        let apart = distance(PROPOSITION, ADVOCATE, SKEPTIC);
        let echo = "I disagree that cities should ban cars. My first objection is that streets become safer \
            for children, and air quality improves when traffic falls.";
        let close = distance(PROPOSITION, ADVOCATE, echo);
        assert!(close < apart, "{close} < {apart}");
        assert!(close < 0.4 && apart > 0.85, "{close} {apart}");
        assert!(distance(PROPOSITION, "", "").abs() < f32::EPSILON, "nothing argued, nothing apart");
    }

    #[test]
    fn the_heat_never_rises_and_cools_faster_as_the_sides_converge() {
        let close = |a: f32, b: f32| (a - b).abs() < 1e-4;
        assert!(close(next_heat(Heat::new(0.9), 0.92, None).get(), 0.85), "a step from the first round");
        assert!(close(next_heat(Heat::new(0.85), 0.95, Some(0.92)).get(), 0.8), "apart again: still a step down");
        assert!(close(next_heat(Heat::new(0.8), 0.88, Some(0.95)).get(), 0.65), "closer: three steps");
        assert!(close(next_heat(Heat::new(0.35), 0.5, Some(0.9)).get(), 0.3), "never below 0.3");
        assert!(close(next_heat(Heat::MIN, 0.9, None).get(), 0.3));
        let mut heat = Heat::new(0.9);
        for (apart, before) in [(0.9, None), (0.95, Some(0.9)), (0.97, Some(0.95)), (0.99, Some(0.97))] {
            let next = next_heat(heat, apart, before);
            assert!(next.get() < heat.get(), "sides moving apart do not warm it: {heat:?} → {next:?}");
            heat = next;
        }
    }

    #[test]
    fn a_question_cut_off_or_repeated_is_refused() {
        let args = [ADVOCATE, SKEPTIC];
        let whole = "Would deliveries really cost more without cars?";
        assert_eq!(question_refused(whole, PROPOSITION, "Should cities ban cars?", &args), None);
        let dangling = "How can we make cities more effective in terms of taking care of?";
        assert_eq!(question_refused(dangling, PROPOSITION, "t", &args), Some(Refused::CutOff));
        let cut = "How do cities handle the traffic with other concerns about relocatin?";
        assert_eq!(question_refused(cut, PROPOSITION, "t", &args), Some(Refused::CutOff));
        assert_eq!(
            question_refused("Should cities ban cars?", PROPOSITION, "should cities ban cars", &args),
            Some(Refused::Repeated)
        );
    }

    #[test]
    fn a_sentence_that_only_talks_about_the_debate_is_not_offered() {
        let polite =
            "I'm happy that you bring this point into the discussion. Air quality improves when traffic falls.";
        assert_eq!(candidates(polite), ["Air quality improves when traffic falls."]);
    }
}
