//! The start screen's settings (F2): the form checks each value as the
//! config does, Enter asks the loop to apply them, and the start screen
//! shows what is in force.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::tui::App;
use heat::tui::effect::Effect;
use heat::tui::modal::Modal;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        assert!(press(app, KeyCode::Char(c)).is_empty(), "typing {c:?} sent something");
    }
}

fn settings_screen() -> App {
    start_screen_with(|options| {
        options.settings = Some(["4", "0.90", "auto", "", "auto", "", "auto", "", "", "duel"].map(String::from));
        options.formats = heat::tui::settings::FormatChoices {
            formats: vec![choice("duel", None, ["Advocate", "Skeptic", "Judge"]), choice("oxford", Some(3), OXFORD)],
            plain_rounds: "4".into(),
        };
    })
}

const OXFORD: [&str; 3] = ["Proposition", "Opposition", "Chair"];

fn choice(name: &str, rounds: Option<u32>, labels: [&str; 3]) -> heat::tui::settings::FormatChoice {
    let judges = if name == "oxford" { 3 } else { 1 };
    heat::tui::settings::FormatChoice {
        name: name.into(),
        rounds,
        labels: labels.map(String::from).to_vec(),
        judges,
        tagline: String::new(),
    }
}

fn clear(app: &mut App) {
    for _ in 0..8 {
        press(app, KeyCode::Backspace);
    }
}

#[test]
fn f2_opens_the_settings_and_enter_asks_for_the_ones_chosen() {
    let mut app = settings_screen();
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("4 rounds from heat 0.90") && text.contains("F2 settings"), "{text}");
    press(&mut app, KeyCode::F(2));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("Settings for the next debate") && text.contains("default: gpt-4.1-mini"), "{text}");
    clear(&mut app);
    typed(&mut app, "2");
    press(&mut app, KeyCode::Down);
    clear(&mut app);
    typed(&mut app, "0.55");
    // The advocate: a provider stepped to, its model typed.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Down);
    typed(&mut app, "claude-test");
    let asked = press(&mut app, KeyCode::Enter);
    let fields: Vec<(String, String)> = [
        ("debate.max_rounds", "2"),
        ("debate.initial_heat", "0.55"),
        ("roles.advocate.provider", "anthropic"),
        ("roles.advocate.model", "claude-test"),
        ("roles.skeptic.provider", "auto"),
        ("roles.skeptic.model", ""),
        ("roles.judge.provider", "auto"),
        ("roles.judge.model", ""),
        ("debate.source", ""),
        ("debate.format", "duel"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .into();
    assert_eq!(asked, vec![Effect::Configure(fields)]);
    assert!(app.modal.is_none());

    // The loop applied them: the start screen shows what is in force.
    let applied =
        ["2", "0.55", "anthropic", "claude-test", "auto", "", "auto", "", "notes/plan.md", "duel"].map(String::from);
    app.configured(&Ok(applied));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("2 rounds from heat 0.55"), "{text}");
    assert!(text.contains("about the document notes/plan.md"), "{text}");
    assert!(text.contains("Settings saved"), "{text}");
}

#[test]
fn a_value_the_config_would_refuse_is_named_and_the_form_stays() {
    let mut app = settings_screen();
    press(&mut app, KeyCode::F(2));
    clear(&mut app);
    typed(&mut app, "0");
    assert!(press(&mut app, KeyCode::Enter).is_empty(), "nothing is applied");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Rounds: `debate.max_rounds` must be a whole number from 1 to 100, got \"0\""), "{text}");
    // A heat out of range, found on its own field.
    press(&mut app, KeyCode::Backspace);
    typed(&mut app, "3");
    press(&mut app, KeyCode::Down);
    clear(&mut app);
    typed(&mut app, "5");
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    assert!(matches!(&app.modal, Some(Modal::Settings(form)) if form.chosen == 1));
    assert!(screen(&mut app, 120, 40).contains("First heat: `debate.initial_heat` must be a number from 0.3 to 1"));
    // Esc leaves everything as it was.
    press(&mut app, KeyCode::Esc);
    assert!(app.modal.is_none());
    assert!(screen(&mut app, 120, 40).contains("4 rounds from heat 0.90"));
}

#[test]
fn settings_that_cannot_be_applied_reopen_the_form_saying_why() {
    let mut app = settings_screen();
    press(&mut app, KeyCode::F(2));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Right);
    assert_eq!(press(&mut app, KeyCode::Enter).len(), 1);
    let why = "the provider is set to anthropic but no key is set: export ANTHROPIC_API_KEY".to_string();
    app.configured(&Err(why));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("no key is set: export ANTHROPIC_API_KEY"), "{text}");
    assert!(text.contains("‹ anthropic ›"), "the form keeps what was chosen:\n{text}");
    press(&mut app, KeyCode::Esc);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("4 rounds from heat 0.90"), "nothing changed:\n{text}");
}

#[test]
fn help_on_the_start_screen_names_f2() {
    let mut app = settings_screen();
    press(&mut app, KeyCode::F(1));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("settings for the next debate: rounds, heat, providers"), "{text}");
}

#[test]
fn with_a_document_set_enter_alone_debates_its_topic() {
    let mut app = settings_screen();
    assert!(press(&mut app, KeyCode::Enter).is_empty(), "no document: a proposition is needed");
    let mut fields = app.start.settings.clone().expect("the start screen has settings");
    fields[8] = "notes/plan.md".into();
    app.configured(&Ok(fields));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("about the document notes/plan.md · Enter alone debates its topic"), "{text}");
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Start(String::new())]);
}

#[test]
fn the_format_is_chosen_from_the_list_and_brings_its_rounds() {
    let mut app = settings_screen();
    press(&mut app, KeyCode::F(2));
    for _ in 0..9 {
        press(&mut app, KeyCode::Down);
    }
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("Format") && text.contains("‹ duel ›"), "{text}");
    // Typing does nothing to a field chosen from a list.
    typed(&mut app, "x");
    press(&mut app, KeyCode::Right);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("‹ oxford ›") && text.contains("Rounds      3"), "oxford brings its 3 rounds:\n{text}");
    let asked = press(&mut app, KeyCode::Enter);
    let Some(Effect::Configure(fields)) = asked.first() else { panic!("{asked:?}") };
    assert!(fields.contains(&("debate.format".to_string(), "oxford".to_string())), "{fields:?}");
    assert!(fields.contains(&("debate.max_rounds".to_string(), "3".to_string())), "{fields:?}");
    // Applied: the start screen names the format; back to the duel, the plain number of rounds.
    app.configured(&Ok(["3", "0.90", "auto", "", "auto", "", "auto", "", "", "oxford"].map(String::from)));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("next debate (oxford) has 3 rounds"), "{text}");
    assert!(text.contains("oxford · 3 rounds from heat 0.90"), "{text}");
    assert!(text.contains("Proposition") && text.contains("Chair") && !text.contains("Skeptic"), "{text}");
    assert!(text.contains("  Proposition openai · gpt-4.1-mini\n"), "the longest name keeps a space: {text}");
    assert!(text.contains("  Chair       openai · gpt-4.1-mini · a panel of 3 judges\n"), "{text}");
    press(&mut app, KeyCode::F(2));
    for _ in 0..9 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Left);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("‹ duel ›") && text.contains("Rounds      4"), "{text}");
}

/// The start screen as `heat` opens it, its formats the built-in ones, the
/// next debate in `format`.
fn settings_in(format: &str) -> App {
    let catalog = heat::format::Catalog::load(None);
    let formats = heat::tui::settings::FormatChoices {
        formats: catalog
            .formats
            .iter()
            .map(|f| heat::tui::settings::FormatChoice {
                name: f.name.clone(),
                rounds: f.max_rounds,
                labels: f.record.labels.clone(),
                judges: f.record.judges,
                tagline: f.record.tagline(),
            })
            .collect(),
        plain_rounds: "4".into(),
    };
    start_screen_with(|options| {
        options.settings = Some(["4", "0.90", "auto", "", "auto", "", "auto", "", "", format].map(String::from));
        options.formats = formats;
    })
}

/// The settings dialog's rows, as drawn.
fn settings_rows(app: &mut App) -> String {
    press(app, KeyCode::F(2));
    let text = screen(app, 100, 30);
    press(app, KeyCode::Esc);
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('│')).collect();
    rows.join("\n")
}

#[test]
fn the_settings_name_the_seats_as_the_format_does() {
    // The duel's names where the duel is chosen.
    let duel = settings_rows(&mut settings_in("duel"));
    for name in ["Advocate", "Skeptic", "Judge"] {
        assert!(duel.contains(&format!(" {name} ")), "the duel lacks {name}:\n{duel}");
    }
    // Oxford: the motion's sides and its chair, who leads a panel of three.
    let oxford = settings_rows(&mut settings_in("oxford"));
    for name in ["Proposition", "Opposition", "Chair", "a panel of 3 judges"] {
        assert!(oxford.contains(name), "oxford lacks {name:?}:\n{oxford}");
    }
    // A vote: its debaters; no judge sits, and its third debater is heat.toml's.
    let vote = settings_rows(&mut settings_in("vote"));
    for name in ["Analyst", "Pragmatist", "no judge sits", "Contrarian: chosen by heat.toml"] {
        assert!(vote.contains(name), "the vote lacks {name:?}:\n{vote}");
    }
    // A panel: its panelists and its judge.
    let panel = settings_rows(&mut settings_in("panel"));
    for name in ["Optimist", "Realist", "Judge", "Critic: chosen by heat.toml"] {
        assert!(panel.contains(name), "the panel lacks {name:?}:\n{panel}");
    }
    for (format, rows) in [("oxford", &oxford), ("vote", &vote), ("panel", &panel)] {
        assert!(!rows.contains("Advocate") && !rows.contains("Skeptic"), "{format} keeps the duel's names:\n{rows}");
    }
    // Stepping to another format renames the rows at once.
    let mut app = settings_in("duel");
    press(&mut app, KeyCode::F(2));
    for _ in 0..9 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Right);
    let text = screen(&mut app, 100, 30);
    assert!(text.contains("‹ oxford ›") && text.contains("Proposition") && !text.contains("Advocate"), "{text}");
}

/// The settings form's model picker: moving onto a seat's model field asks
/// its provider's server once for its models; the list shows under the
/// field, typing filters it, ←/→ fill the field with a match, and a name
/// no list holds is still taken.
#[test]
fn a_model_field_lists_its_providers_models_filtered_as_typed() {
    let mut app = settings_screen();
    press(&mut app, KeyCode::F(2));
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    // The skeptic's provider: auto → anthropic → openai.
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    let asked = press(&mut app, KeyCode::Down);
    assert_eq!(asked, vec![Effect::ListModels("openai".into())], "the model field asks its provider's list");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("asking openai for its models…"), "{text}");
    let models = ["gpt-4.1", "gpt-4.1-mini", "o4-mini", "text-embedding-3-small"].map(String::from).to_vec();
    assert!(app.models_listed("openai", Ok(models)), "the form is open");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("4 of 4 models · gpt-4.1   gpt-4.1-mini   o4-mini"), "{text}");
    typed(&mut app, "mini");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("2 of 4 models · gpt-4.1-mini   o4-mini"), "{text}");
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("model     o4-mini"), "the second match fills the field: {text}");
    // Up and back down: the list is not asked again.
    assert!(press(&mut app, KeyCode::Up).is_empty());
    assert!(press(&mut app, KeyCode::Down).is_empty(), "asked once per provider");
    clear(&mut app);
    typed(&mut app, "my-finetune");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("none of openai's 4 models holds that: the typed name is taken"), "{text}");
    let Some(Effect::Configure(fields)) = press(&mut app, KeyCode::Enter).pop() else { panic!("not applied") };
    assert!(fields.contains(&("roles.skeptic.model".to_string(), "my-finetune".to_string())), "{fields:?}");
}

#[test]
fn a_provider_without_a_list_says_why_and_the_name_is_typed() {
    let mut app = settings_screen();
    press(&mut app, KeyCode::F(2));
    for _ in 0..6 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Right);
    let asked = press(&mut app, KeyCode::Down);
    assert_eq!(asked, vec![Effect::ListModels("anthropic".into())]);
    app.models_listed("anthropic", Err("https://api.anthropic.com/v1/models answered 401 Unauthorized".into()));
    let text = screen(&mut app, 100, 30);
    assert!(text.contains("no list from anthropic (https://api.anthropic.com/v1/models answered 401"), "{text}");
    // Local and a person list nothing: nothing is asked.
    press(&mut app, KeyCode::Up);
    let mut effects = Vec::new();
    for _ in 0..12 {
        effects.extend(press(&mut app, KeyCode::Right));
        effects.extend(press(&mut app, KeyCode::Down));
        effects.extend(press(&mut app, KeyCode::Up));
    }
    assert!(effects.iter().all(|e| matches!(e, Effect::ListModels(p) if p != "local" && p != "human")), "{effects:?}");
}
