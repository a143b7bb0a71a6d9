//! The status line: its sentence (what it says, in which tone, and how long
//! it stands) and the standing notice under it. Each sentence goes once what
//! it describes is over (a cancel once no turn streams, an acknowledgement
//! once the next round starts, a retry's announcement once the answer flows
//! again), or when a newer one replaces it.

use crate::debate::state::Turn;
use crate::debate::{DebateEvent, DebateState, Role};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Good,
    Warn,
    Error,
}

/// A sentence in the status line.
#[derive(Debug, Clone, PartialEq)]
pub struct Flash {
    pub text: String,
    pub tone: Tone,
    pub until: Until,
}

/// How long a sentence stands in the status line: each goes once what it
/// describes is over, or when a newer one replaces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// Until something newer is said: errors, the debate's ending, news
    /// from the engine.
    Replaced,
    /// Until the next round starts or the debate ends: what a key did, or
    /// why it did nothing.
    NextRound,
    /// Until no turn streams any more (or the next round starts): a cancel
    /// under way.
    Settled,
    /// Until the debate resumes or ends: the pause note.
    Resumed,
    /// Until that role's answer flows again: a retry's announcement.
    Answer(Role),
    /// Until the dialog it was said over closes: why the dialog cannot do
    /// what was asked yet ("Type the topic to inject first").
    Dialog,
}

impl Until {
    /// Whether a sentence lasting this long has had its say once `event`
    /// is folded into `state`.
    pub fn over(self, event: &DebateEvent, state: &DebateState) -> bool {
        let ended = matches!(event, DebateEvent::Finished { .. });
        let next_round = ended || matches!(event, DebateEvent::RoundStarted { .. });
        match self {
            Until::Replaced | Until::Dialog => false,
            Until::NextRound => next_round,
            Until::Settled => next_round || !state.current_round().is_some_and(|r| r.turns.iter().any(Turn::is_open)),
            Until::Resumed => ended || matches!(event, DebateEvent::Resumed),
            Until::Answer(role) => match event {
                DebateEvent::Delta { role: r, .. } | DebateEvent::TurnCompleted { role: r, .. } => *r == role,
                _ => ended,
            },
        }
    }
}

/// What the status line shows: the latest sentence, else the standing notice.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatusLine {
    pub flash: Option<Flash>,
    /// A standing note (about the providers, a watch, the scripted demo),
    /// shown when nothing newer is said.
    pub notice: Option<String>,
    /// Whether the latest event was an engine notice: notices said one
    /// after another (a round's warnings) share the line.
    notice_run: bool,
    /// What a dialog's complaint is said over (the pause note), said again
    /// once the dialog closes, unless it has had its say meanwhile.
    under: Option<Flash>,
}

impl StatusLine {
    /// The notices the status line opens with (a set-up's), or none.
    pub fn open_with(&mut self, notices: &[String]) {
        self.notice = (!notices.is_empty()).then(|| notices.join(" · "));
    }

    /// Says something until something newer is said.
    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.say_until(tone, text, Until::Replaced);
    }

    /// Says something for as long as `until` allows.
    pub fn say_until(&mut self, tone: Tone, text: impl Into<String>, until: Until) {
        if until == Until::Dialog {
            // A dialog's complaint is said over what stood, which comes back when it closes.
            if let Some(before) = self.flash.take().filter(|f| f.until != Until::Dialog) {
                self.under = Some(before);
            }
        } else {
            self.under = None;
        }
        self.flash = Some(Flash { text: text.into(), tone, until });
    }

    /// A dialog closed: what it said goes with it, and what stood before
    /// it is said again.
    pub fn dialog_closed(&mut self) {
        if self.flash.as_ref().is_some_and(|f| f.until == Until::Dialog) {
            self.flash = self.under.take();
        }
    }

    /// Esc with nothing open: what a key said (or why it did nothing) goes;
    /// what still holds (a pause, a cancel under way, a retry) and errors
    /// stay. Whether anything went.
    pub fn dismiss(&mut self) -> bool {
        let said_by_a_key = self.flash.as_ref().is_some_and(|f| matches!(f.until, Until::NextRound | Until::Dialog));
        if said_by_a_key {
            self.flash = None;
        }
        said_by_a_key
    }

    /// Before `event` is shown (folded into `state`): a sentence that has
    /// had its say goes.
    pub fn expire(&mut self, event: &DebateEvent, state: &DebateState) {
        if self.flash.as_ref().is_some_and(|f| f.until.over(event, state)) {
            self.flash = None;
        }
        if self.under.as_ref().is_some_and(|f| f.until.over(event, state)) {
            self.under = None;
        }
    }

    /// An engine notice: it joins the one before it when they came one
    /// after another, else it is said.
    pub fn engine_notice(&mut self, text: String) {
        match &mut self.flash {
            Some(flash) if self.notice_run && flash.tone == Tone::Info => {
                flash.text = format!("{} · {text}", flash.text);
            }
            _ => self.say(Tone::Info, text),
        }
    }

    /// What the status line says of `event` (folded into `state`): a
    /// retry, a failure, a verdict that could not be used, an engine's
    /// notice, what an endpoint taught heat, the budget reached (and the
    /// key in `keys` that goes on past it).
    pub fn on_event(&mut self, event: &DebateEvent, state: &DebateState, keys: &super::keymap::KeyMap) {
        use crate::sanitize::clean;
        match event {
            DebateEvent::TurnRetrying { role, attempt, max_retries, delay_ms, reason, .. } => {
                let secs = delay_ms.div_ceil(1000);
                let (who, reason) = (state.label(*role), clean(reason));
                let text = format!("{who}: {reason}; retry {attempt} of {max_retries} in {secs} s");
                self.say_until(Tone::Warn, text, Until::Answer(*role));
            }
            DebateEvent::EndpointAdapted { message, .. } => {
                // It holds for the rest of the debate: it stands when nothing newer is shown.
                self.notice = Some(clean(message));
                self.say(Tone::Info, clean(message));
            }
            DebateEvent::TurnFailed { role, error, .. } => {
                self.say(Tone::Error, format!("{} failed: {}", state.label(*role), clean(error)));
            }
            DebateEvent::VerdictInvalid { error, will_retry, .. } => {
                let then = if *will_retry { "asking the judge again" } else { "keeping the current heat" };
                self.say(Tone::Warn, format!("The verdict could not be used ({}); {then}", clean(error)));
            }
            DebateEvent::Notice { message } => self.engine_notice(clean(message)),
            DebateEvent::BudgetReached { spent } => {
                let pause = keys.hint(super::keymap::Action::TogglePause);
                let said = format!("Budget reached: {}. Paused: {pause} goes on past it", clean(spent));
                self.say_until(Tone::Warn, said, Until::Resumed);
            }
            _ => {}
        }
    }

    /// After `event` is shown: whether the next notice joins this one.
    pub fn after(&mut self, event: &DebateEvent) {
        // A refused parameter's record comes just before its notice: it does not end a run of notices.
        if !matches!(event, DebateEvent::ParameterRefused { .. }) {
            self.notice_run = matches!(event, DebateEvent::Notice { .. });
        }
    }
}
