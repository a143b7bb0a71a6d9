//! The set-ups of the panel judges a format puts on providers of their own
//! (`judges.providers`), made on first use by the run's factory and kept
//! for the rest of the debate; a judge with none is asked on the judges'
//! seat.

use std::collections::HashMap;

use anyhow::Context;

use crate::debate::panel;
use crate::debate::seat::PanelJudge;
use crate::debate::setup::{JudgeFactory, RoleSetup};
use crate::debate::state::DebateState;

/// The panel judges' own set-ups, by judge number.
#[derive(Default)]
pub(super) struct JudgeSetups {
    made: HashMap<PanelJudge, RoleSetup>,
}

impl JudgeSetups {
    /// The set-up of judge `judge` when the format puts it on a provider of
    /// its own (made once, then kept); `None`: the judges' provider.
    pub(super) fn of(
        &mut self,
        state: &DebateState,
        factory: Option<&JudgeFactory>,
        judge: PanelJudge,
    ) -> anyhow::Result<Option<RoleSetup>> {
        let Some(provider) = panel::provider_of(state, judge) else { return Ok(None) };
        if let Some(own) = self.made.get(&judge) {
            return Ok(Some(own.clone()));
        }
        let factory = factory.context("this run of heat sets up no judge's own provider")?;
        let own = factory(provider, panel::model_of(state, judge))?;
        self.made.insert(judge, own.clone());
        Ok(Some(own))
    }
}
