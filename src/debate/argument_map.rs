//! The argument map of a format that keeps one (`map = true`): the ledger
//! of claims folded from the verdicts (each claim from the round it was
//! made, its standing as the judge's latest word leaves it, and the other
//! side's claim it answers), each round's scorecard and the sides' weighted
//! totals, the turning points (the rounds where who is ahead changed, with
//! the claim that turned it), and the schema and instruction that ask the
//! judge for them. The map needs no event of its own: the verdicts carry
//! it, so a resumed or replayed debate folds the same map.

use serde::Serialize;
use serde_json::{Value, json};

use super::extractive::claim;
use super::format::MapSpec;
use super::seat::Role;
use super::state::{DebateState, Round};
use super::verdict::claims::CLAIM_CHARS;
use super::verdict::scorecard::{HIGH, LOW};
pub use super::verdict::{ClaimStatus, NamedClaim, Scorecard};

/// One claim of the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Claim {
    pub id: String,
    pub by: Role,
    /// The claim as first named, in its debater's words.
    pub claim: String,
    /// The round it was made in (from 0).
    pub round: u32,
    /// Where it stands now.
    pub status: ClaimStatus,
    /// The other side's claim it answers, by id.
    pub answers: Option<String>,
    /// Each round (from 0) its standing changed, and to what.
    pub history: Vec<(u32, ClaimStatus)>,
}

impl Claim {
    /// Whether round `round` (from 0) made it or changed its standing.
    pub fn touched_in(&self, round: u32) -> bool {
        self.history.iter().any(|(r, _)| *r == round)
    }
}

/// A link a verdict made that the ledger could not keep: to a claim never
/// named, or to a claim of the same side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DroppedLink {
    pub round: u32,
    pub from: String,
    pub to: String,
}

/// Every claim so far, in the order made, and the links left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Ledger {
    pub claims: Vec<Claim>,
    pub dropped: Vec<DroppedLink>,
}

impl Ledger {
    pub fn get(&self, id: &str) -> Option<&Claim> {
        self.claims.iter().find(|c| c.id == id)
    }

    /// A side's claims, in the order made.
    pub fn by(&self, role: Role) -> impl Iterator<Item = &Claim> {
        self.claims.iter().filter(move |c| c.by == role)
    }

    /// The claims that answer `id`.
    pub fn answers_to<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Claim> {
        self.claims.iter().filter(move |c| c.answers.as_deref() == Some(id))
    }
}

/// Why a verdict on round `round` naming `named` cannot be kept as it is:
/// a claim answers one that neither the map so far nor the verdict has, or
/// one of its own side. `None` when every link holds.
pub fn unknown_link(state: &DebateState, round: u32, named: &[NamedClaim]) -> Option<String> {
    state.map()?;
    let before = before(state, round);
    let side_of = |id: &str| named.iter().find(|c| c.id == id).map(|c| c.by).or_else(|| before.get(id).map(|c| c.by));
    named.iter().find_map(|claim| {
        let target = claim.answers.as_deref()?;
        match side_of(target) {
            Some(by) if by != claim.by => None,
            Some(_) => Some(format!(
                "the claim {} answers {target}, a claim of its own side: \"answers\" names the other side's claim, or \"\"",
                claim.id
            )),
            None => Some(format!(
                "the claim {} answers {target}, which the argument map does not have: name a claim the map has, or \"\"",
                claim.id
            )),
        }
    })
}

/// The ledger's claims in the order the map shows them: the side for's,
/// then the side against's, each in the order made.
pub fn in_map_order(ledger: &Ledger) -> Vec<&Claim> {
    ledger.by(Role::Advocate).chain(ledger.by(Role::Skeptic)).collect()
}

/// The ledger as it stood once round `round` (from 0) was judged.
pub fn ledger_through(state: &DebateState, round: u32) -> Ledger {
    let mut ledger = Ledger::default();
    for r in state.rounds.iter().filter(|r| r.number <= round) {
        if let Some(verdict) = r.verdict() {
            fold(&mut ledger, r.number, &verdict.claims);
        }
    }
    ledger
}

/// The ledger now.
pub fn ledger(state: &DebateState) -> Ledger {
    ledger_through(state, u32::MAX)
}

/// One verdict's claims into the ledger: a new id is a new claim; a known
/// one takes the judge's latest status; a claim answered this round and
/// not itself named is attacked.
fn fold(ledger: &mut Ledger, round: u32, named: &[NamedClaim]) {
    for claim in named {
        match ledger.claims.iter_mut().find(|c| c.id == claim.id) {
            Some(known) => {
                if known.status != claim.status {
                    known.status = claim.status;
                    known.history.push((round, claim.status));
                }
                if known.answers.is_none() {
                    known.answers.clone_from(&claim.answers);
                }
            }
            None => ledger.claims.push(Claim {
                id: claim.id.clone(),
                by: claim.by,
                claim: claim.claim.clone(),
                round,
                status: claim.status,
                answers: claim.answers.clone(),
                history: vec![(round, claim.status)],
            }),
        }
    }
    for claim in named {
        let Some(target) = &claim.answers else { continue };
        let by = claim.by;
        let kept = ledger.claims.iter().any(|c| c.id == *target && c.by != by);
        if !kept {
            ledger.dropped.push(DroppedLink { round, from: claim.id.clone(), to: target.clone() });
            if let Some(from) =
                ledger.claims.iter_mut().find(|c| c.id == claim.id && c.answers.as_ref() == Some(target))
            {
                from.answers = None;
            }
            continue;
        }
        let named_now = named.iter().any(|c| c.id == *target);
        if let Some(answered) = ledger.claims.iter_mut().find(|c| c.id == *target)
            && !named_now
            && answered.status.holds()
        {
            answered.status = ClaimStatus::Attacked;
            answered.history.push((round, ClaimStatus::Attacked));
        }
    }
}

/// A round where who is ahead changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurningPoint {
    /// The round (from 0).
    pub round: u32,
    /// Who was ahead before, and who after (`None`: even).
    pub was: Option<Role>,
    pub now: Option<Role>,
    /// The claim that turned it: the first the side now ahead made or held
    /// that round, else the first the side behind gave up.
    pub claim: Option<String>,
}

/// Every round where who is ahead changed, from the first verdict that
/// said who was.
pub fn turning_points(state: &DebateState) -> Vec<TurningPoint> {
    let mut points = Vec::new();
    let mut ahead: Option<Option<Role>> = None;
    for round in &state.rounds {
        let Some(verdict) = round.verdict() else { continue };
        let Some(now) = verdict.ahead.map(super::verdict::Ahead::side) else { continue };
        if let Some(was) = ahead
            && was != now
        {
            let held = verdict.claims.iter().find(|c| Some(c.by) == now && c.status.holds());
            let given_up = || verdict.claims.iter().find(|c| Some(c.by) == was && c.status == ClaimStatus::Conceded);
            let claim = held.or_else(given_up).map(|c| c.id.clone());
            points.push(TurningPoint { round: round.number, was, now, claim });
        }
        ahead = Some(now);
    }
    points
}

/// A side's weighted score on a scorecard, out of 10: each criterion the
/// format names, by its weight. `None` when the card scores none of them.
pub fn weighted(card: &Scorecard, role: Role, spec: &MapSpec) -> Option<f32> {
    let scores = card.of(role)?;
    let (sum, weights) = spec
        .criteria
        .iter()
        .filter_map(|c| Some((f32::from(*scores.get(&c.name)?) * c.weight as f32, c.weight as f32)))
        .fold((0.0, 0.0), |(s, w), (score, weight)| (s + score, w + weight));
    (weights > 0.0).then(|| sum / weights)
}

/// Each round's scorecard so far, by round (from 0).
pub fn scorecards(state: &DebateState) -> Vec<(u32, Scorecard)> {
    if state.map().is_none() {
        return Vec::new();
    }
    state.rounds.iter().filter_map(|r| Some((r.number, r.verdict()?.scorecard.as_deref()?.clone()))).collect()
}

/// A side's weighted scores averaged over the rounds scored, out of 10.
pub fn average(state: &DebateState, role: Role) -> Option<f32> {
    let spec = state.map()?;
    let each: Vec<f32> = scorecards(state).iter().filter_map(|(_, card)| weighted(card, role, spec)).collect();
    (!each.is_empty()).then(|| each.iter().sum::<f32>() / each.len() as f32)
}

/// The claims of a verdict the embedded judge chose (`extractive`): each
/// side's strongest sentence of round `round` is its claim, standing,
/// where it reads as one (`extractive::claim`: no fragment, no question,
/// not the proposition again, not talk about the debate) and is not
/// nearly a claim the side already made (that one keeps its claim and
/// says nothing new). A side whose sentence is refused has no claim this
/// round: better none than noise.
pub fn chosen_claims(state: &DebateState, round: u32, answer: &str) -> Vec<NamedClaim> {
    let Ok(map) = super::verdict::parse_map(answer) else { return Vec::new() };
    let before = before(state, round);
    let mut claims = Vec::new();
    for role in [Role::Advocate, Role::Skeptic] {
        let Some(sentence) = map.get(&format!("{}_best", role.key())).and_then(Value::as_str) else { continue };
        let made_before = before.by(role).any(|c| claim::near_duplicate(&c.claim, sentence));
        if made_before || claim::refused(sentence, &state.topic).is_some() {
            continue;
        }
        claims.extend(new_claim(&before, &claims, role, sentence));
    }
    claims
}

/// In a format whose turns have a Claim section and that keeps a map: each
/// side the judge named no new claim for in round `round` gets its Claim
/// section as a standing claim, numbered after its last, unless it already
/// claimed the same words. A claim in the debater's own words is not lost
/// to a judge that left it out.
pub fn add_section_claims(state: &DebateState, round: u32, named: &mut Vec<NamedClaim>) {
    let Some(format) = state.format.as_ref().filter(|_| state.map().is_some()) else { return };
    let Some(name) = format.sections.iter().find(|s| s.eq_ignore_ascii_case("claim")) else { return };
    let Some(current) = state.rounds.iter().find(|r| r.number == round) else { return };
    let before = before(state, round);
    for role in [Role::Advocate, Role::Skeptic] {
        let new_here = named.iter().any(|c| c.by == role && before.get(&c.id).is_none());
        let section = current.argument(role).and_then(|t| super::sections::section(t, name, &format.sections));
        let Some(text) = section.filter(|_| !new_here) else { continue };
        if let Some(claim) = new_claim(&before, named, role, text.lines().next().unwrap_or_default()) {
            named.push(claim);
        }
    }
}

/// The ledger a verdict on round `round` (from 0) adds to: every round before it.
fn before(state: &DebateState, round: u32) -> Ledger {
    if round == 0 { Ledger::default() } else { ledger_through(state, round - 1) }
}

/// `text` (cleaned, one claim's length) as a new standing claim of
/// `role`'s, numbered after the side's last (`A3`, `S2`) and past any id
/// `named` takes; `None` when it is empty or the side already claimed the
/// same words.
fn new_claim(before: &Ledger, named: &[NamedClaim], role: Role, text: &str) -> Option<NamedClaim> {
    let claim = crate::words::truncate(&crate::sanitize::clean(text.trim()), CLAIM_CHARS);
    let known = before.by(role).any(|c| c.claim == claim) || named.iter().any(|c| c.by == role && c.claim == claim);
    if claim.trim().is_empty() || known {
        return None;
    }
    let letter = if role == Role::Advocate { 'A' } else { 'S' };
    let taken = |id: &str| before.get(id).is_some() || named.iter().any(|c| c.id == id);
    let first = before.by(role).count() + 1;
    let id = (first..first + 99).map(|n| format!("{letter}{n}")).find(|id| !taken(id))?;
    Some(NamedClaim { id, by: role, claim, status: ClaimStatus::Standing, answers: None, evidence: None })
}

/// A round's part of the argument map, as the round's facts carry it.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundMap {
    /// The claims the round made or changed, each as it stood after it.
    pub claims: Vec<Claim>,
    /// Every claim still holding for its side after the round (standing or
    /// defended), in the order made.
    pub standing: Vec<Claim>,
    /// Each side scored on the format's criteria.
    pub scorecard: Option<Scorecard>,
    /// The links the round's verdict made that the ledger could not keep.
    pub dropped: Vec<DroppedLink>,
    /// Who went ahead this round, where that changed.
    pub turned: Option<TurningPoint>,
}

/// The argument map of the whole debate so far.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DebateMap {
    pub ledger: Ledger,
    /// Each side's weighted scorecard score averaged over the rounds, out of 10.
    pub averages: [Option<f32>; 2],
    pub turning_points: Vec<TurningPoint>,
}

/// `round`'s part of the map.
pub fn of_round(state: &DebateState, round: &Round) -> RoundMap {
    let Ledger { claims, dropped } = ledger_through(state, round.number);
    RoundMap {
        standing: claims.iter().filter(|c| c.status.holds()).cloned().collect(),
        claims: claims.into_iter().filter(|c| c.touched_in(round.number)).collect(),
        scorecard: round.verdict().and_then(|v| v.scorecard.as_deref().cloned()),
        dropped: dropped.into_iter().filter(|d| d.round == round.number).collect(),
        turned: turning_points(state).into_iter().find(|p| p.round == round.number),
    }
}

/// The map so far.
pub fn of_debate(state: &DebateState) -> DebateMap {
    DebateMap {
        ledger: ledger(state),
        averages: [Role::Advocate, Role::Skeptic].map(|role| average(state, role)),
        turning_points: turning_points(state),
    }
}

/// A round's part of the map as lines of text, for the printer and the
/// Markdown export: each claim, the scorecard, a link left out, a turn.
pub fn round_lines(state: &DebateState, map: &RoundMap) -> Vec<String> {
    let mut lines: Vec<String> = map.claims.iter().map(|c| format!("◆ {}", claim_line(state, c))).collect();
    if let (Some(card), Some(spec)) = (&map.scorecard, state.map()) {
        lines.push(scorecard_line(state, card, spec));
    }
    lines.extend(
        map.dropped.iter().map(|d| format!("link {} → {} left out: no such claim of the other side", d.from, d.to)),
    );
    lines.extend(map.turned.iter().map(|t| turning_line(state, t)));
    lines
}

/// What a claim answers and what answers it, as the presenters say them:
/// `["answers A1", "answered by S2, S3"]`.
pub fn links(ledger: &Ledger, claim: &Claim) -> Vec<String> {
    let mut links = Vec::new();
    if let Some(target) = &claim.answers {
        links.push(format!("answers {target}"));
    }
    let answered: Vec<&str> = ledger.answers_to(&claim.id).map(|c| c.id.as_str()).collect();
    if !answered.is_empty() {
        links.push(format!("answered by {}", answered.join(", ")));
    }
    links
}

/// A claim as the presenters say it: `A1 Proposition: Night trains save a
/// hotel night — attacked`, with the claim it answers (`answers S1`).
pub fn claim_line(state: &DebateState, claim: &Claim) -> String {
    let answers = claim.answers.as_deref().map(|a| format!(" · answers {a}")).unwrap_or_default();
    format!("{} {}: {} — {}{answers}", claim.id, state.label(claim.by), claim.claim, claim.status.name())
}

/// A round's scorecard as the presenters say it: `scorecard: Proposition
/// 7.3 (logic 8, evidence 6) · Opposition 6.0 (logic 6, evidence 6)`.
pub fn scorecard_line(state: &DebateState, card: &Scorecard, spec: &MapSpec) -> String {
    let side = |role: Role| {
        let scores = card.of(role).cloned().unwrap_or_default();
        let each: Vec<String> =
            spec.criteria.iter().filter_map(|c| Some(format!("{} {}", c.name, scores.get(&c.name)?))).collect();
        let total = weighted(card, role, spec).map_or_else(|| "unscored".to_string(), |t| format!("{t:.1}"));
        format!("{} {total} ({})", state.label(role), each.join(", "))
    };
    format!("scorecard: {} · {}", side(Role::Advocate), side(Role::Skeptic))
}

/// A turning point as the presenters say it: `turning point: the
/// Opposition went ahead (S2)`.
pub fn turning_line(state: &DebateState, point: &TurningPoint) -> String {
    let now =
        point.now.map_or_else(|| "the sides drew even".to_string(), |r| format!("the {} went ahead", state.label(r)));
    let claim = point.claim.as_deref().map(|c| format!(" ({c})")).unwrap_or_default();
    format!("turning point: {now}{claim}")
}

/// `schema` (the verdict's) asking for the round's claims and scorecard too.
pub fn with_map(schema: Value, spec: &MapSpec) -> Value {
    let statuses: Vec<&str> = ClaimStatus::ALL.iter().map(|s| s.name()).collect();
    let claims = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "id": { "type": "string" },
                "by": { "type": "string", "enum": ["advocate", "skeptic"] },
                "claim": { "type": "string" },
                "status": { "type": "string", "enum": statuses },
                "answers": { "type": "string" },
                "evidence": { "type": "string" }
            },
            "required": ["id", "by", "claim", "status", "answers", "evidence"],
            "additionalProperties": false
        }
    });
    let scale: Vec<u8> = (LOW..=HIGH).collect();
    let names: Vec<&str> = spec.criteria.iter().map(|c| c.name.as_str()).collect();
    let side = json!({
        "type": "object",
        "properties": names.iter().map(|n| ((*n).to_string(), json!({ "type": "integer", "enum": scale }))).collect::<serde_json::Map<_, _>>(),
        "required": names,
        "additionalProperties": false
    });
    let scorecard = json!({
        "type": "object",
        "properties": { "advocate": side, "skeptic": side },
        "required": ["advocate", "skeptic"],
        "additionalProperties": false
    });
    let schema = super::verdict::with_field(schema, "claims", claims);
    super::verdict::with_field(schema, "scorecard", scorecard)
}

/// What the judge is told of the map before round `round` (from 0) and
/// asked for it: the ledger so far, then the fields.
pub fn instruction(state: &DebateState, round: u32, spec: &MapSpec) -> String {
    let ledger = ledger_through(state, round.saturating_sub(1));
    let names = state.side_names();
    let mut out = String::new();
    if round > 0 && !ledger.claims.is_empty() {
        out.push_str("The argument map so far:\n");
        for claim in &ledger.claims {
            let side = if claim.by == Role::Advocate { "advocate" } else { "skeptic" };
            let answers = claim.answers.as_deref().map(|a| format!(", answers {a}")).unwrap_or_default();
            out.push_str(&format!(
                "- {} ({side}, round {}): {} [{}{answers}]\n",
                claim.id,
                claim.round + 1,
                claim.claim,
                claim.status.name()
            ));
        }
    }
    let criteria: Vec<&str> = spec.criteria.iter().map(|c| c.name.as_str()).collect();
    out.push_str(&format!(
        "In \"claims\", list each claim made this round and each earlier claim whose standing changed: \
         {{\"id\": \"A3\", \"by\": \"advocate\", \"claim\": \"one line in the debater's words, under {CLAIM_CHARS} characters\", \
         \"status\": \"standing\", \"answers\": \"S1\"}}. Number new claims after the side's last: the {} (\"advocate\") A1, A2…, \
         the {} (\"skeptic\") S1, S2…; keep an earlier claim's id. status: standing (made, not yet answered), attacked (the other \
         side answered it), defended (its side answered the attack), conceded, or withdrawn. answers: the id of the other side's \
         claim it answers, or \"\". evidence: what it rests on, in a few words, or \"\". In \"scorecard\", score each \
         side this round from {LOW} to {HIGH} on {}: {{\"advocate\": {{\"{}\": 7, …}}, \"skeptic\": {{…}}}}.\n",
        names[0],
        names[1],
        criteria.join(", "),
        criteria.first().copied().unwrap_or("logic"),
    ));
    if state.format.as_ref().is_some_and(|f| f.sections.iter().any(|s| s.eq_ignore_ascii_case("claim"))) {
        out.push_str("Each side's Claim section states its claim this round: name it in the debater's words.\n");
    }
    if spec.consensus {
        out.push_str(
            "This debate resolves on consensus: set \"resolved\" to true only when both sides accept the same claims, \
             each marked \"agreed\" with the evidence both accept; until then, say in \"verdict\" which claim is still open.\n",
        );
    }
    out
}

/// Whether a verdict that resolves a consensus debate may: it names a
/// claim both sides accept, with its evidence. Always true where the
/// format does not resolve on consensus.
pub fn consensus_reached(state: &DebateState, named: &[NamedClaim]) -> bool {
    !state.map().is_some_and(|spec| spec.consensus)
        || named.iter().any(|c| c.status == ClaimStatus::Agreed && c.evidence.is_some())
}

#[cfg(test)]
mod tests;
