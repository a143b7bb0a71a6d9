//! Each debate event as a line of the diagnostic log (`tracing`), at the
//! level it deserves. Where the lines go is the binary's business
//! (`crate::logging`); the debate only says them.

use super::event::DebateEvent;

/// Logs one debate event at the level it deserves. Streamed text (deltas,
/// reasoning) is left out: it is in the session log, and it is large.
pub fn event(event: &DebateEvent) {
    match event {
        DebateEvent::Started { max_rounds, initial_heat, participants, .. } => {
            let who: Vec<String> =
                participants.iter().map(|p| format!("{}={}/{}", p.role.key(), p.provider, p.model)).collect();
            tracing::info!(max_rounds, initial_heat = initial_heat.get(), participants = %who.join(" "), "debate started");
        }
        DebateEvent::Grounded { .. }
        | DebateEvent::Retrieved { .. }
        | DebateEvent::ToolsCalled { .. }
        | DebateEvent::ToolAnswered { .. } => grounding(event),
        DebateEvent::Formatted { format } => {
            tracing::info!(format = %format.name, phases = format.phases.len(), "debate formatted");
        }
        DebateEvent::QuotesChecked { round, role, checks } => {
            let mut tally = super::grounding::Tally::default();
            tally.add(checks);
            tracing::info!(round = round + 1, role = role.key(), checks = %tally.describe(), "quotes checked");
        }
        DebateEvent::RoundStarted { round, heat, injected, .. } => {
            tracing::info!(round = round + 1, heat = heat.get(), injected = injected.len(), "round started");
        }
        DebateEvent::TurnStarted { round, role, purpose, temperature } => {
            tracing::debug!(round = round + 1, role = role.key(), ?purpose, ?temperature, "turn started");
        }
        DebateEvent::Delta { .. }
        | DebateEvent::Reasoning { .. }
        | DebateEvent::TurnQueued { .. }
        | DebateEvent::TurnSent { .. }
        | DebateEvent::RequestSent { .. } => {}
        DebateEvent::TurnRetrying { round, role, attempt, max_retries, delay_ms, reason } => {
            tracing::warn!(round = round + 1, role = role.key(), attempt, max_retries, delay_ms, %reason, "turn retrying");
        }
        DebateEvent::TurnCompleted { round, role, text, usage, truncated_at, possibly_cut } => {
            tracing::info!(
                round = round + 1,
                role = role.key(),
                chars = text.chars().count(),
                input_tokens = usage.as_ref().map(|u| u.input_tokens),
                output_tokens = usage.as_ref().map(|u| u.output_tokens),
                truncated_at,
                possibly_cut,
                "turn completed"
            );
        }
        DebateEvent::TurnTimedOut { round, role, seconds } => {
            tracing::info!(round = round + 1, role = role.key(), seconds, "turn out of time");
        }
        DebateEvent::TurnCancelled { round, role } => {
            tracing::info!(round = round + 1, role = role.key(), "turn cancelled");
        }
        DebateEvent::TurnFailed { round, role, error } => {
            tracing::error!(round = round + 1, role = role.key(), %error, "turn failed");
        }
        DebateEvent::VerdictReached { round, verdict } => {
            tracing::info!(round = round + 1, resolved = verdict.resolved, heat = verdict.heat.get(), "verdict");
        }
        DebateEvent::VerdictInvalid { round, error, will_retry } => {
            tracing::warn!(round = round + 1, %error, will_retry, "verdict unreadable");
        }
        DebateEvent::SwapCheckStarted { .. }
        | DebateEvent::SwapChecked { .. }
        | DebateEvent::SwapCheckFailed { .. }
        | DebateEvent::PanelVoteStarted { .. }
        | DebateEvent::PanelVoted { .. }
        | DebateEvent::PanelVoteFailed { .. }
        | DebateEvent::Briefed { .. }
        | DebateEvent::BriefFailed { .. } => second_looks(event),
        DebateEvent::Paused
        | DebateEvent::Resumed
        | DebateEvent::TopicInjected { .. }
        | DebateEvent::TemperaturePinned { .. }
        | DebateEvent::TemperatureReleased
        | DebateEvent::ResolutionForced
        | DebateEvent::NoteToSeats { .. }
        | DebateEvent::SeatHeatPinned { .. }
        | DebateEvent::SeatHeatReleased { .. }
        | DebateEvent::QuestionSet { .. }
        | DebateEvent::SteeringTakenBack { .. }
        | DebateEvent::SeatModelChanged { .. }
        | DebateEvent::RoundsAdded { .. }
        | DebateEvent::TurnDiscarded { .. } => steering(event),
        DebateEvent::BudgetReached { spent } => tracing::warn!(%spent, "budget reached"),
        DebateEvent::Notice { message } => tracing::warn!(%message, "notice"),
        DebateEvent::EndpointAdapted { endpoint, adaptation, message } => {
            tracing::warn!(%endpoint, ?adaptation, %message, "endpoint adapted");
        }
        // Its notice, logged as a warning, follows.
        DebateEvent::ParameterRefused { role, what } => tracing::info!(role = role.key(), ?what, "parameter refused"),
        DebateEvent::ModelReported { role, model } => tracing::info!(role = role.key(), %model, "served model"),
        DebateEvent::Reopened => tracing::info!("debate reopened"),
        DebateEvent::Finished { outcome, .. } => tracing::info!(outcome = %outcome.describe(), "debate finished"),
        DebateEvent::HumanVerdict { round, ahead, confidence, ends, .. } => {
            tracing::info!(round = round + 1, ahead = ?ahead, confidence, ends, "human verdict");
        }
        DebateEvent::AudienceVoted { round, ballots } => {
            tracing::info!(round = round + 1, ballots = ballots.len(), "audience voted");
        }
        DebateEvent::Derived { .. } | DebateEvent::Branched { .. } | DebateEvent::Summarized { .. } => lineage(event),
        DebateEvent::Recipe(recipe) => tracing::info!(recipe = %recipe.describe(), "recipe"),
    }
}

/// Where a debate came from, and the summary written of it.
fn lineage(event: &DebateEvent) {
    match event {
        DebateEvent::Derived { from, how } => tracing::info!(%from, %how, "derived from another debate"),
        DebateEvent::Branched { from, round, records, how, .. } => {
            tracing::info!(%from, round, records, %how, "branched from another debate");
        }
        DebateEvent::Summarized { model, text, .. } => {
            tracing::info!(%model, chars = text.chars().count(), "summary written");
        }
        _ => {}
    }
}

/// What the person at the keyboard did, logged without its text (a note or
/// a question is in the session log).
fn steering(event: &DebateEvent) {
    match event {
        DebateEvent::Paused => tracing::info!("paused"),
        DebateEvent::Resumed => tracing::info!("resumed"),
        DebateEvent::TopicInjected { text } => tracing::info!(chars = text.chars().count(), "topic injected"),
        DebateEvent::TemperaturePinned { heat } => tracing::info!(heat = heat.get(), "heat pinned"),
        DebateEvent::TemperatureReleased => tracing::info!("heat released"),
        DebateEvent::ResolutionForced => tracing::info!("resolution forced"),
        DebateEvent::NoteToSeats { text, seats } => {
            tracing::info!(chars = text.chars().count(), seats = seats.len(), "note to seats");
        }
        DebateEvent::SeatHeatPinned { role, heat } => {
            tracing::info!(seat = role.key(), heat = heat.get(), "seat heat pinned");
        }
        DebateEvent::SeatHeatReleased { role } => tracing::info!(seat = role.key(), "seat heat released"),
        DebateEvent::QuestionSet { question } => tracing::info!(chars = question.chars().count(), "question set"),
        DebateEvent::RoundsAdded { rounds } => tracing::info!(rounds, "rounds added"),
        DebateEvent::SteeringTakenBack { what } => {
            let kind = match what {
                crate::debate::event::Waiting::Topic { .. } => "topic",
                crate::debate::event::Waiting::Note { .. } => "note",
                crate::debate::event::Waiting::Question { .. } => "question",
            };
            tracing::info!(kind, "steering taken back");
        }
        DebateEvent::SeatModelChanged { role, participant } => {
            tracing::info!(seat = role.key(), provider = %participant.provider, model = %participant.model, "seat model changed");
        }
        DebateEvent::TurnDiscarded { round, role } => {
            tracing::info!(round = round + 1, seat = role.key(), "turn discarded, asked again");
        }
        _ => {}
    }
}

/// The calls beside the turns: the swap check, a panel's votes, the arguments put in brief.
fn second_looks(event: &DebateEvent) {
    match event {
        DebateEvent::SwapCheckStarted { round } => tracing::debug!(round = round + 1, "swap check started"),
        DebateEvent::SwapChecked { round, flips, usage, .. } => {
            let (input, output) = (usage.map(|u| u.input_tokens), usage.map(|u| u.output_tokens));
            tracing::info!(round = round + 1, flips, input_tokens = input, output_tokens = output, "swap checked");
        }
        DebateEvent::SwapCheckFailed { round, error, .. } => {
            tracing::warn!(round = round + 1, %error, "swap check failed");
        }
        DebateEvent::PanelVoteStarted { round, judge } => {
            tracing::debug!(round = round + 1, judge = judge.number(), "panel vote asked");
        }
        DebateEvent::PanelVoted { round, judge, verdict, .. } => {
            let (resolved, heat) = (verdict.resolved, verdict.heat.get());
            tracing::info!(round = round + 1, judge = judge.number(), resolved, heat, "panel voted");
        }
        DebateEvent::PanelVoteFailed { round, judge, error, .. } => {
            tracing::warn!(round = round + 1, judge = judge.number(), %error, "panel vote failed");
        }
        DebateEvent::Briefed { round, role, text, .. } => {
            tracing::info!(round = round + 1, role = role.key(), chars = text.chars().count(), "argument put in brief");
        }
        DebateEvent::BriefFailed { round, role, error, .. } => {
            tracing::warn!(round = round + 1, role = role.key(), %error, "argument not put in brief");
        }
        _ => {}
    }
}

/// The grounding events: what the debate reads, and what each seat read.
fn grounding(event: &DebateEvent) {
    match event {
        DebateEvent::Grounded { date, source, library } => {
            let source = source.as_ref().map(|s| format!("{} ({} lines, sha256 {})", s.name, s.line_count(), s.sha256));
            let library = library.as_ref().map(|l| format!("{} files from {}", l.files.len(), l.roots.join(", ")));
            tracing::info!(?date, ?source, ?library, "debate grounded");
        }
        DebateEvent::Retrieved { round, role, passages } => {
            let read: Vec<String> = passages.iter().map(super::grounding::Reading::label).collect();
            tracing::info!(round = round + 1, role = role.key(), passages = %read.join(" "), "passages retrieved");
        }
        DebateEvent::ToolsCalled { round, role, calls, .. } => {
            let said: Vec<String> = calls.iter().map(super::grounding::lookup::said).collect();
            tracing::info!(round = round + 1, role = role.key(), calls = %said.join(" · "), "tools called");
        }
        DebateEvent::ToolAnswered { round, role, id, text, failed, millis } => {
            let bytes = text.len();
            tracing::info!(round = round + 1, role = role.key(), %id, bytes, failed, millis, "tool answered");
        }
        _ => {}
    }
}
