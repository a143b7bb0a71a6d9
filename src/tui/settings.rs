//! The start screen's settings (F2): rounds, first heat, each role's
//! provider and model for the next debate. The form checks each value as
//! the config does; Enter hands them to the event loop, which has them
//! applied (providers chosen and built again, the choice remembered in
//! `studio.toml`) off the studio's threads and reports back.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use futures::future::LocalBoxFuture;
use tokio::sync::mpsc;

use super::form::FormStep;
use super::install::Installer;
use super::model_pick::ModelPick;
use super::roster::RosterEntry;
use crate::config::keys::providers;
use crate::config::studio::{FIELDS, KEYS, check};
use crate::debate::Role;
use crate::debate::engine::{DebateSpec, EngineSetup};

/// The fields' labels, in the order of `config::studio::KEYS`; the seats'
/// (a provider's field, then its model's) are the duel's names, which the
/// form replaces with the chosen format's (`SettingsForm::label`).
pub const LABELS: [&str; FIELDS] =
    ["Rounds", "First heat", "Advocate", "  model", "Skeptic", "  model", "Judge", "  model", "Source", "Format"];

/// The field of the source document's path.
pub const SOURCE_FIELD: usize = 8;

/// The field of the debate's format, chosen from the formats there are.
pub const FORMAT_FIELD: usize = 9;

/// What settings `fields` say of the next debate: its rounds ("1 round",
/// "3 rounds") and, unless it is the duel, its format's name, cleaned.
pub fn next_debate(fields: &[String; FIELDS]) -> (String, Option<String>) {
    let rounds = match fields[0].trim().parse::<usize>() {
        Ok(n) => crate::words::count(n, "round"),
        Err(_) => format!("{} rounds", fields[0]),
    };
    let format = &fields[FORMAT_FIELD];
    let named = (!format.is_empty() && format != crate::debate::format::DUEL).then(|| crate::sanitize::clean(format));
    (rounds, named)
}

/// The settings form: each field's text, the field with the keys, and
/// what is wrong (with the field at fault, when one is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsForm {
    pub fields: [String; FIELDS],
    pub chosen: usize,
    pub error: Option<(Option<usize>, String)>,
    /// The formats to choose from; none: the field is typed instead.
    pub formats: FormatChoices,
    /// The models each seat's provider lists, offered in its model field.
    pub models: ModelPick,
}

/// The formats the form steps through, each with its own number of rounds
/// (which the Rounds field takes when it is chosen), and the rounds a
/// format without its own has.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormatChoices {
    pub formats: Vec<FormatChoice>,
    pub plain_rounds: String,
}

/// One format the form offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatChoice {
    pub name: String,
    /// Its own number of rounds, if it has one.
    pub rounds: Option<u32>,
    /// What its seats are called, by position (the start screen's roster).
    pub labels: Vec<String>,
    /// How many judges sit (a panel when more than one).
    pub judges: u32,
    /// Who argues and who decides, in one sentence (the start screen's).
    pub tagline: String,
}

impl FormatChoices {
    /// The names a format's seats go by, when it is one of these.
    pub fn labels(&self, name: &str) -> Option<&[String]> {
        self.formats.iter().find(|f| f.name == name).map(|f| f.labels.as_slice())
    }

    /// A format's one sentence on who argues and who decides, when it is one of these.
    pub fn tagline(&self, name: &str) -> Option<&str> {
        self.formats.iter().find(|f| f.name == name && !f.tagline.is_empty()).map(|f| f.tagline.as_str())
    }

    /// How many judges a format seats; 1 for a name that is none of these.
    pub fn judges(&self, name: &str) -> u32 {
        self.formats.iter().find(|f| f.name == name).map_or(1, |f| f.judges)
    }
}

/// The seat whose provider (or model) a field of the form sets: the
/// advocate's, the skeptic's or the judge's row of the config.
pub fn seat_of(field: usize) -> Option<Role> {
    (2..=7).contains(&field).then(|| Role::ALL[(field - 2) / 2])
}

/// Settings applied: the set-up for the next debate and what the start
/// screen shows of it.
pub struct Configured {
    /// `None` when the offline model must be installed first (`installer`).
    pub setup: Option<EngineSetup>,
    pub installer: Option<Installer>,
    pub roster: Vec<RosterEntry>,
    /// The prices of a panel's judges 2 to 5 that have their own.
    pub judge_prices: Vec<(crate::debate::PanelJudge, crate::debate::cost::Price)>,
    pub notices: Vec<String>,
    pub spec: DebateSpec,
    /// The settings in force, as the form shows them.
    pub fields: [String; FIELDS],
}

pub type ConfigureResult = anyhow::Result<Configured>;

/// Applies settings (config key, text) and reports on the channel. The
/// future is made and run on a blocking thread (it may load a model), so
/// it need not be `Send`.
pub type Configurer = Arc<
    dyn Fn(Vec<(String, String)>, mpsc::UnboundedSender<ConfigureResult>) -> LocalBoxFuture<'static, ()> + Send + Sync,
>;

/// Starts applying settings, when this studio can; the result arrives on
/// the returned receiver.
pub fn start(
    configurer: Option<&Configurer>,
    fields: Vec<(String, String)>,
) -> Option<mpsc::UnboundedReceiver<ConfigureResult>> {
    configurer.map(|c| spawn(c, fields))
}

fn spawn(configurer: &Configurer, fields: Vec<(String, String)>) -> mpsc::UnboundedReceiver<ConfigureResult> {
    let (tx, rx) = mpsc::unbounded_channel();
    let configurer = Arc::clone(configurer);
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || runtime.block_on(configurer(fields, tx)));
    rx
}

/// The result, or never while nothing is being applied.
pub async fn next(rx: &mut Option<mpsc::UnboundedReceiver<ConfigureResult>>) -> Option<ConfigureResult> {
    match rx.as_mut() {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

fn is_provider(field: usize) -> bool {
    KEYS[field].ends_with(".provider")
}

impl SettingsForm {
    pub fn new(fields: [String; FIELDS]) -> Self {
        SettingsForm { fields, chosen: 0, error: None, formats: FormatChoices::default(), models: ModelPick::default() }
    }

    /// The form with the formats its format field steps through.
    #[must_use]
    pub fn with_formats(mut self, formats: FormatChoices) -> Self {
        self.formats = formats;
        self
    }

    /// A key in the form: Enter gives the settings, once every field reads
    /// as the config reads it (else the form says which field is wrong).
    pub fn key(&mut self, key: KeyEvent) -> FormStep<Vec<(String, String)>> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let field = self.chosen;
        let before = self.fields.clone();
        match key.code {
            KeyCode::Esc => return FormStep::Close,
            KeyCode::Enter => match self.checked() {
                Ok(fields) => return FormStep::Done(fields),
                Err((at, why)) => {
                    self.chosen = at;
                    self.error = Some((Some(at), why));
                }
            },
            KeyCode::Up | KeyCode::BackTab => self.chosen = field.checked_sub(1).unwrap_or(KEYS.len() - 1),
            KeyCode::Down | KeyCode::Tab => self.chosen = (field + 1) % KEYS.len(),
            KeyCode::Left | KeyCode::Right if self.is_choice(field) => self.cycle(key.code == KeyCode::Right),
            KeyCode::Char(' ') if self.is_choice(field) => self.cycle(true),
            KeyCode::Left | KeyCode::Right => {
                if let Some(provider) = self.listing_provider(field)
                    && let Some(model) = self.models.step(&provider, key.code == KeyCode::Right)
                {
                    self.fields[field] = model;
                }
            }
            KeyCode::Backspace if !self.is_choice(field) => {
                self.fields[field].pop();
                self.models.typed(&self.fields[field]);
            }
            KeyCode::Char('u') if ctrl && !self.is_choice(field) => {
                self.fields[field].clear();
                self.models.typed("");
            }
            KeyCode::Char(c) if !ctrl && !self.is_choice(field) => {
                self.fields[field].push(c);
                self.models.typed(&self.fields[field]);
            }
            _ => {}
        }
        if self.chosen != field {
            self.models.reset();
        }
        // What was wrong goes once something is changed.
        if self.fields != before {
            self.error = None;
        }
        FormStep::Stay
    }

    /// A field's label: a seat's field goes by the name the chosen format
    /// gives that seat (oxford's "Proposition", a vote's "Analyst"), its
    /// model's field by "model".
    pub fn label(&self, field: usize) -> String {
        match seat_of(field) {
            Some(role) if KEYS[field].ends_with(".provider") => self.seat_name(role),
            _ => LABELS[field].trim().to_string(),
        }
    }

    /// A field as a sentence names it: a model's with its seat ("Opposition model").
    fn field_name(&self, field: usize) -> String {
        match seat_of(field) {
            Some(role) if !KEYS[field].ends_with(".provider") => format!("{} model", self.seat_name(role)),
            _ => self.label(field),
        }
    }

    /// What the chosen format calls a seat (the duel's name when the
    /// format is not one of the choices).
    pub fn seat_name(&self, role: Role) -> String {
        let format = &self.fields[FORMAT_FIELD];
        self.formats
            .labels(format)
            .and_then(|labels| labels.get(role.position()))
            .map_or_else(|| role.label().to_string(), Clone::clone)
    }

    /// How many judges the chosen format seats (1 when it is not one of the choices).
    pub fn judges(&self) -> u32 {
        self.formats.judges(&self.fields[FORMAT_FIELD])
    }

    /// The chosen format's seats past the form's three rows (a vote's
    /// third debater, a review's second critic): they take heat.toml's
    /// settings, not the form's.
    pub fn seats_beyond(&self) -> Vec<String> {
        let format = &self.fields[FORMAT_FIELD];
        let labels = self.formats.labels(format).unwrap_or_default();
        labels.iter().skip(Role::Judge.position() + 1).cloned().collect()
    }

    /// The provider whose list a model field offers: the seat's provider
    /// above it, when it names one (not `auto`).
    pub fn listing_provider(&self, field: usize) -> Option<String> {
        let model_field = seat_of(field).is_some() && !is_provider(field);
        let provider = model_field.then(|| self.fields[field - 1].trim())?;
        (!provider.is_empty() && provider != "auto").then(|| provider.to_string())
    }

    /// The provider whose model list the chosen field needs and nobody has
    /// asked for yet, now marked as asked: the studio asks its server.
    pub fn list_wanted(&mut self) -> Option<String> {
        let provider = self.listing_provider(self.chosen).filter(|p| self.models.wants(p))?;
        self.models.asking(&provider);
        Some(provider)
    }

    /// A field chosen from a list (a provider, the format) rather than typed.
    pub fn is_choice(&self, field: usize) -> bool {
        is_provider(field) || (field == FORMAT_FIELD && !self.formats.formats.is_empty())
    }

    /// Checks every field as the config would; the first fault, with its field.
    fn checked(&self) -> Result<Vec<(String, String)>, (usize, String)> {
        KEYS.iter()
            .zip(&self.fields)
            .enumerate()
            .map(|(i, (key, text))| match check(key, text) {
                Ok(_) => Ok(((*key).to_string(), text.trim().to_string())),
                Err(e) => Err((i, format!("{}: {e}", self.field_name(i)))),
            })
            .collect()
    }

    /// Steps a provider field through the providers; the role's model is
    /// cleared, since it named a model of the provider left.
    fn cycle(&mut self, forward: bool) {
        let field = self.chosen;
        let choices: Vec<&str> = if is_provider(field) {
            providers()
        } else {
            self.formats.formats.iter().map(|f| f.name.as_str()).collect()
        };
        if choices.is_empty() {
            return;
        }
        let at = choices.iter().position(|p| *p == self.fields[field]).unwrap_or(0);
        let next = if forward { (at + 1) % choices.len() } else { (at + choices.len() - 1) % choices.len() };
        self.fields[field] = choices[next].to_string();
        if is_provider(field) {
            self.fields[field + 1].clear();
        } else {
            // A format brings its own rounds; one without them has the plain number.
            let own = self.formats.formats.get(next).and_then(|f| f.rounds);
            self.fields[0] = own.map_or_else(|| self.formats.plain_rounds.clone(), |n| n.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> SettingsForm {
        SettingsForm::new(["4", "0.90", "auto", "", "openai", "gpt-4.1", "auto", "", "", "duel"].map(String::from))
    }

    #[test]
    fn a_provider_steps_through_the_list_and_clears_its_model() {
        let mut form = form();
        form.chosen = 4;
        form.cycle(true);
        assert_eq!(form.fields[4], "ollama");
        assert_eq!(form.fields[5], "", "gpt-4.1 was the provider left's model");
        form.chosen = 2;
        form.cycle(false);
        assert_eq!(form.fields[2], "human", "back past the first goes round, to a person at the keyboard");
    }

    #[test]
    fn every_field_is_checked_as_the_config_checks_it() {
        let mut bad = form();
        bad.fields[1] = "1.5".into();
        let (at, why) = bad.checked().expect_err("1.5 is out of range");
        assert_eq!(at, 1);
        assert!(why.starts_with("First heat: `debate.initial_heat` must be a number from 0.3 to 1"), "{why}");
        let good = form().checked().unwrap_or_default();
        assert_eq!(good[0], ("debate.max_rounds".to_string(), "4".to_string()));
        assert_eq!(good[5], ("roles.skeptic.model".to_string(), "gpt-4.1".to_string()));
    }
}
