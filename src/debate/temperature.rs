//! The one rule for the temperature a model call is sent with: which
//! number, and when none is sent at all. The engine's turns, its swap
//! check and the arbiter's summary all ask it.

use super::heat::Heat;
use super::seat::Role;

/// The arbiter's summary is written cool, whatever the debate's heat.
const SUMMARY: f32 = 0.3;

/// What a model call is for, as far as its temperature goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Purpose {
    /// A debater's argument, at the round's heat.
    Argue(Heat),
    /// The judge's verdict, repair, synthesis or swap check, at the judge's
    /// own temperature (`debate.judge_temperature`).
    Judge(f32),
    /// The arbiter's summary of an ended debate.
    Summary,
}

impl Purpose {
    /// A turn of `role` in a round at `heat`.
    pub fn of(role: Role, heat: Heat, judge_temperature: f32) -> Self {
        if role.is_judge() { Purpose::Judge(judge_temperature) } else { Purpose::Argue(heat) }
    }
}

/// The temperature a request is sent with; `None` sends none at all. None
/// goes to a model that thinks (`thinking`: a thinking budget, beside which
/// Anthropic refuses a temperature) or whose endpoint refused one before
/// (`refused`: the engine's `no_temperature`); else an argument gets its
/// heat, the judge its own temperature and the summary 0.3.
pub fn sent(purpose: Purpose, thinking: bool, refused: bool) -> Option<f32> {
    if thinking || refused {
        return None;
    }
    Some(match purpose {
        Purpose::Argue(heat) => heat.get(),
        Purpose::Judge(temperature) => temperature,
        Purpose::Summary => SUMMARY,
    })
}

#[cfg(test)]
mod tests {
    use super::{Purpose, sent};
    use crate::debate::{Heat, Role};

    #[test]
    fn debaters_get_the_heat_and_the_judge_its_own() {
        let heat = Heat::new(0.8);
        assert_eq!(sent(Purpose::of(Role::Advocate, heat, 0.2), false, false), Some(heat.get()));
        assert_eq!(sent(Purpose::of(Role::Skeptic, heat, 0.2), false, false), Some(heat.get()));
        assert_eq!(sent(Purpose::of(Role::Judge, heat, 0.2), false, false), Some(0.2));
        assert_eq!(sent(Purpose::Summary, false, false), Some(0.3));
    }

    #[test]
    fn none_is_sent_to_a_thinking_model_or_an_endpoint_that_refused_one() {
        for purpose in [Purpose::Argue(Heat::MAX), Purpose::Judge(0.2), Purpose::Summary] {
            assert_eq!(sent(purpose, true, false), None);
            assert_eq!(sent(purpose, false, true), None);
            assert_eq!(sent(purpose, true, true), None);
        }
    }
}
