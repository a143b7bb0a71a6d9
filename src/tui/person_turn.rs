//! A person's turn in a seat, in the studio (`--seat skeptic=human`): the
//! ask the seat waits on, and the draft the person writes in that seat's
//! pane (kept when they step out with Esc to steer, back with Enter). A
//! person judging answers through the verdict form instead, kept the same
//! way; what it gives is written as a judge's answer is.

use ratatui_textarea::TextArea;

use super::flash::{Flash, Tone, Until};
use super::form::topic_area;
use super::verdict_form::{Judged, VerdictForm};
use crate::debate::Role;
use crate::debate::verdict::{Ahead, persons_answer};
use crate::provider::person::Ask;

/// The turn the engine waits on a person for.
pub struct PersonTurn {
    pub role: Role,
    reply: tokio::sync::oneshot::Sender<String>,
    /// What the person wrote so far, while the editor is closed.
    pub draft: Option<TextArea<'static>>,
    /// A judging person's verdict form as they left it, while it is closed.
    pub form: Option<Box<VerdictForm>>,
    /// The judge's final word is asked: it ends the debate whatever it says.
    pub closing: bool,
}

impl PersonTurn {
    /// The turn an ask is for; `None` for a seat no role has.
    pub fn of(ask: Ask) -> Option<Self> {
        let role = Role::ALL.into_iter().find(|r| r.key() == ask.seat)?;
        Some(Self { role, closing: ask.request.closing, reply: ask.reply, draft: None, form: None })
    }

    /// Whether the turn was given up (cancelled, the debate stopped).
    pub fn is_closed(&self) -> bool {
        self.reply.is_closed()
    }

    /// Whether the seat gives a verdict, not an argument.
    pub fn judges(&self) -> bool {
        self.role.is_judge()
    }

    /// The editor, holding the draft.
    pub fn editor(&mut self) -> TextArea<'static> {
        self.draft.take().unwrap_or_else(blank)
    }

    /// The draft as text, for the person's `$EDITOR`.
    pub fn draft_text(&self) -> String {
        self.draft.as_ref().map(|area| area.lines().join("\n")).unwrap_or_default()
    }

    /// What the person's `$EDITOR` left, as the draft (its trailing newline
    /// gone; a file emptied keeps nothing).
    pub fn edited(&mut self, text: &str) {
        let mut area = blank();
        area.insert_str(crate::sanitize::clean(text.trim_end()));
        self.draft = Some(area);
    }

    /// Sends the person's text; false when the turn was given up meanwhile.
    pub fn send(self, text: String) -> bool {
        self.reply.send(text).is_ok()
    }

    /// Sends a verdict given in the form, as a judge's answer.
    pub fn send_verdict(self, ahead: Option<Role>, judged: &Judged) -> bool {
        let ahead = match ahead {
            Some(Role::Advocate) => Ahead::Advocate,
            Some(Role::Skeptic) => Ahead::Skeptic,
            _ => Ahead::Even,
        };
        let question = (!judged.resolved).then_some(judged.question.as_str());
        self.send(persons_answer(judged.resolved, ahead, &judged.verdict, question, Some(judged.heat)))
    }
}

/// What the status line says once a judging person's verdict was sent
/// (`sent`) for round `round` (from 1), or came too late.
pub fn verdict_said(sent: bool, round: u32, judged: &Judged) -> Flash {
    let text = match (sent, judged.resolved) {
        (false, _) => "That verdict came too late: the judge's turn was cancelled or the debate stopped".to_string(),
        (true, true) => format!("Your verdict on round {round} is in: you resolved the debate"),
        (true, false) => format!("Your verdict on round {round} is in: the next round at heat {:.2}", judged.heat),
    };
    Flash { text, tone: if sent { Tone::Good } else { Tone::Warn }, until: Until::NextRound }
}

/// What the status line says of an argument that came after its turn was given up.
pub fn argument_late() -> Flash {
    let text = "That argument came too late: the turn was cancelled or the debate stopped".to_string();
    Flash { text, tone: Tone::Warn, until: Until::NextRound }
}

/// What the status line says when a judging person steps out of the
/// verdict form (Esc): it waits for them as they left it.
pub fn verdict_waits() -> Flash {
    let text = "Your verdict waits for you: Enter goes back to it, as you left it".to_string();
    Flash { text, tone: Tone::Info, until: Until::NextRound }
}

/// What the status line says when a person steps out of their turn in the
/// seat `seat` (Esc): it waits for them, the draft kept.
pub fn turn_waits(seat: &str) -> Flash {
    let text = format!("Your turn as the {seat} waits for you: Enter goes back to it");
    Flash { text, tone: Tone::Info, until: Until::NextRound }
}

/// An empty editor for an argument.
fn blank() -> TextArea<'static> {
    topic_area("Type your argument")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Heat;

    #[test]
    fn a_verdict_sent_says_what_it_did_and_one_too_late_says_so() {
        let judged = |resolved| Judged { resolved, verdict: "v".into(), question: "q?".into(), heat: Heat::new(0.55) };
        let open = verdict_said(true, 2, &judged(false));
        assert_eq!(open.text, "Your verdict on round 2 is in: the next round at heat 0.55");
        assert_eq!(open.tone, Tone::Good);
        assert_eq!(verdict_said(true, 3, &judged(true)).text, "Your verdict on round 3 is in: you resolved the debate");
        let late = verdict_said(false, 2, &judged(false));
        assert!(late.text.starts_with("That verdict came too late") && late.tone == Tone::Warn, "{}", late.text);
        assert!(argument_late().text.starts_with("That argument came too late"));
        assert_eq!(turn_waits("opposition").text, "Your turn as the opposition waits for you: Enter goes back to it");
    }
}
