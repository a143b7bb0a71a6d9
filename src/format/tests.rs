//! Format files: the built-in ones parse, and every kind of bad file gets
//! one sentence naming the file, the line and what is accepted.

use std::path::PathBuf;

use super::{Catalog, Format, Origin};
use crate::debate::seat::Role;

const GOOD: &str = r#"summary = "two sides"
max_rounds = 2

[[seats]]
id = "pro-side"
side = "pro"
brief = "advocate.md"
model = "claude-sonnet-4-5"

[[seats]]
id = "con_side"
label = "Against"
side = "con"
brief = "skeptic.md"

[judges]
brief = "judge.md"
"#;

fn parse(text: &str) -> Result<Format, String> {
    Format::parse("mine", text, &Origin::File(PathBuf::from("/cfg/formats/mine.toml"))).map_err(|e| format!("{e:#}"))
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(format) => panic!("{format:?} was accepted"),
        Err(e) => e,
    }
}

#[test]
fn the_built_in_formats_parse_and_the_duel_keeps_its_log_unchanged() {
    let catalog = Catalog::load(None);
    assert!(catalog.problems.is_empty(), "{:?}", catalog.problems);
    let names: Vec<&str> = catalog.formats.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["duel", "oxford", "vote", "panel", "review", "socratic"]);
    let duel = catalog.find("DUEL").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(duel.log_record(), None, "a duel writes no Formatted event");
    assert_eq!(duel.record.labels, ["Advocate", "Skeptic", "Judge"]);
    let oxford = catalog.find("oxford").unwrap_or_else(|e| panic!("{e}"));
    let record = oxford.log_record().unwrap_or_else(|| panic!("oxford is recorded"));
    assert_eq!(record.labels, ["Proposition", "Opposition", "Chair"]);
    assert_eq!((record.opening_arguments, record.resolve_early, oxford.max_rounds), (3, false, Some(3)));
    assert!(record.scores && !duel.record.scores, "oxford's chair scores every argument; the duel's judge does not");
    let briefs = record.briefs.unwrap_or_else(|| panic!("oxford brings its briefs"));
    assert!(briefs[0].contains("PROPOSITION") && briefs[1].contains("OPPOSITION") && briefs[2].contains("CHAIR"));
    assert_eq!(oxford.seat_named("Opposition"), Some(Role::Skeptic));
    assert_eq!(oxford.seat_named("judge"), Some(Role::Judge));
    assert_eq!(oxford.seat_named("advocate"), Some(Role::Advocate));
    assert_eq!(oxford.seat_named("moderator"), None);
    let vote = catalog.find("vote").unwrap_or_else(|e| panic!("{e}"));
    let record = &vote.record;
    assert_eq!((record.debaters, record.judges, record.final_answers()), (3, 0, true));
    assert_eq!(vote.seats(), [Role::Advocate, Role::Skeptic, Role::Third], "three debaters and no judge sit");
    assert_eq!(record.label(Role::Third), "Contrarian");
    assert_eq!(record.side(Role::Advocate), crate::debate::Side::Free);
    assert_eq!(record.convergence.map(|c| (c.threshold, c.stop)), Some((60, true)));
    assert_eq!(vote.seat_named("contrarian"), Some(Role::Third));
    assert_eq!(vote.seat_named("judge"), None, "no judge sits in a vote");
    assert!(record.brief(Role::Third).is_some_and(|b| b.contains("CONTRARIAN")));
    assert_eq!(record.lineup(), "Analyst, Pragmatist and Contrarian");
    assert_eq!(
        record.tagline(),
        "Analyst, Pragmatist and Contrarian answer on their own; a vote of their answers decides."
    );
    assert_eq!(duel.record.tagline(), crate::debate::format::DUEL_TAGLINE);
    let review = catalog.find("review").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(review.record.lineup(), "Defender vs Logic critic and Ops critic");
    assert_eq!(review.seats(), [Role::Advocate, Role::Skeptic, Role::Third, Role::Judge]);
    assert!(review.record.issues);
}

#[test]
fn a_good_file_names_its_seats_and_their_models() {
    let format = parse(GOOD).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(format.record.labels, ["Pro-side", "Against", "Judge"], "a label defaults to the id, capitalised");
    assert_eq!(format.seat_ids[0], "pro-side");
    assert_eq!(format.models[0].model.as_deref(), Some("claude-sonnet-4-5"));
    assert_eq!(format.models[1].model, None);
    assert_eq!(format.max_rounds, Some(2));
    assert!(format.record.resolve_early, "the judge may resolve early unless the file says not");
}

#[test]
fn an_unknown_key_names_the_file_the_line_and_the_keys_accepted() {
    let e = error(&GOOD.replace("max_rounds = 2", "max_rounds = 2\nrounds = 3"));
    assert!(e.starts_with("/cfg/formats/mine.toml line 3: unknown field `rounds`"), "{e}");
    assert!(e.contains("max_rounds") && e.contains("seats"), "the accepted keys are listed: {e}");
    let e = error(&GOOD.replace("model = \"claude-sonnet-4-5\"", "colour = \"red\""));
    assert!(e.starts_with("/cfg/formats/mine.toml line 8: unknown field `colour`"), "{e}");
}

#[test]
fn seats_are_checked_with_their_line() {
    let no_seats = "summary = \"x\"\n[judges]\nbrief = \"judge.md\"\n";
    assert!(error(no_seats).contains("a format needs debaters"), "{}", error(no_seats));
    let e = error(&GOOD.replace("side = \"con\"", "side = \"against\""));
    assert!(e.starts_with("/cfg/formats/mine.toml line 13: side = \"against\" is not a side"), "{e}");
    assert!(e.contains("\"pro\", \"con\" or \"free\""), "{e}");
    let seat = "\n[[seats]]\nid = \"x\"\nside = \"free\"\nbrief = \"advocate.md\"\n";
    let seven = GOOD.replace("[judges]", &format!("{}\n[judges]", seat.repeat(5)));
    let e = error(&seven);
    assert!(e.contains("7 debaters is too many; a format seats 2 to 6"), "{e}");
    let three = GOOD.replace("[judges]", &format!("{seat}\n[judges]"));
    let e = error(&three);
    assert!(
        e.contains("seats 3 debater(s) (1 pro, 1 con, 1 free)") && e.contains("or 2 to 6 seats that are all \"free\""),
        "{e}"
    );
    // Free seats: no judge, one, or a panel; scores are for two sides.
    let free = GOOD.replace("side = \"pro\"", "side = \"free\"").replace("side = \"con\"", "side = \"free\"");
    let judged = parse(&free).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(judged.seats(), [Role::Advocate, Role::Skeptic, Role::Judge]);
    let panel = parse(&free.replace("[judges]", "[judges]\ncount = 3")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(panel.record.judges, 3);
    assert!(panel.record.tagline().ends_with("answer; a panel of 3 judges weighs each round and sets the heat."));
    let e = error(&free.replace("max_rounds = 2", "max_rounds = 2\nscores = true"));
    assert!(e.contains("scores = true: the tug-of-war is between one \"pro\" and one \"con\" seat"), "{e}");
    let e = error(&free.replace("[judges]", "[judges]\ncount = 0\nmodels = [\"m\"]"));
    assert!(e.contains("judges.models names 1 model(s) for the panel's 0 other judge(s)"), "no judge, no model: {e}");
    let vote = parse(&free.replace("[judges]", "[judges]\ncount = 0")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(vote.seats(), [Role::Advocate, Role::Skeptic]);
    let e = error(&free.replace("[judges]", "[convergence]\nthreshold = 80\n\n[judges]\ncount = 0"));
    assert!(e.contains("convergence.threshold = 80 is out of range; 0.1 to 1"), "{e}");
    let e = error(&GOOD.replace("id = \"pro-side\"", "id = \"pro side\""));
    assert!(e.contains("line 5: id = \"pro side\" is not a seat id"), "{e}");
}

#[test]
fn judges_briefs_and_providers_are_checked() {
    let e = error(&GOOD.replace("[judges]", "[judges]\ncount = 6"));
    assert!(e.contains("line 17: judges.count = 6 is too many; a format has 0 to 5 judges"), "{e}");
    let e = error(&GOOD.replace("[judges]", "[judges]\ncount = 0"));
    assert!(e.contains("judges.count = 0: a \"pro\" and \"con\" debate needs a judge"), "{e}");
    // A panel: its other judges may each name a model.
    let panel =
        parse(&GOOD.replace("[judges]", "[judges]\ncount = 3\nmodels = [\"gpt-4.1-mini\", \" claude-haiku-4-5 \"]"))
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (panel.record.judges, panel.record.panel_models.clone()),
        (3, vec!["gpt-4.1-mini".to_string(), "claude-haiku-4-5".to_string()])
    );
    let mixed = parse(&GOOD.replace("[judges]", "[judges]\ncount = 3\nproviders = [\"openai\", \" local \"]"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(mixed.record.panel_providers, ["openai", "local"]);
    let e = error(&GOOD.replace("[judges]", "[judges]\ncount = 3\nproviders = [\"openai\", \"bard\"]"));
    assert!(
        e.contains(
            "line 18: judges.providers names 2 provider(s) for the panel's 2 other judge(s), and \"bard\" is not one"
        ),
        "{e}"
    );
    assert!(e.contains("give at most one each, from anthropic, openai, ollama, "), "every row of the table: {e}");
    assert!(e.ends_with("lmstudio, vllm, llamacpp, claude, codex, gemini, local"), "every row of the table: {e}");
    let e = error(&GOOD.replace("[judges]", "[judges]\ncount = 2\nproviders = [\"auto\"]"));
    assert!(e.contains("judges.providers"), "auto is no judge's own provider: {e}");
    let e = error(&GOOD.replace("[judges]", "[judges]\ncount = 2\nmodels = [\"a\", \"b\"]"));
    assert!(e.contains("line 18: judges.models names 2 model(s) for the panel's 1 other judge(s)"), "{e}");
    let e = error(&GOOD.replace("brief = \"skeptic.md\"", "brief = \"critic.md\""));
    assert!(e.contains("line 14: the brief \"critic.md\" is not found next to the format file (/cfg/formats)"), "{e}");
    assert!(e.contains("advocate.md, skeptic.md, judge.md"), "the built-in briefs are named: {e}");
    let e = error(&GOOD.replace("model = \"claude-sonnet-4-5\"", "provider = \"bard\""));
    assert!(e.contains("line 8: provider = \"bard\" is not a provider; one of auto, anthropic"), "{e}");
    let e = error(&GOOD.replace("max_rounds = 2", "max_rounds = 0"));
    assert!(e.contains("line 2: max_rounds = 0 is out of range; 1 to 100"), "{e}");
    let e = error(&GOOD.replace("[judges]", "[judges]\nbrief = \"judge.md\"\nbrief = \"x\""));
    assert!(e.contains("line"), "a duplicate key names its line: {e}");
}

#[test]
fn phases_leave_out_rounds_at_most_once() {
    let phases = "\n[[phases]]\nname = \"A\"\ninstruction = \"a\"\n\n[[phases]]\nname = \"B\"\ninstruction = \"b\"\n";
    let e = error(&format!("{GOOD}{phases}"));
    assert!(e.contains("line 23: only one phase may leave out `rounds`"), "{e}");
}

#[test]
fn user_formats_add_replace_and_a_broken_one_is_named_without_hiding_the_rest() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    write("mine.toml", GOOD);
    write("oxford.toml", &GOOD.replace("two sides", "my own oxford"));
    write("broken.toml", "summary = 3\n");
    write("notes.txt", "not a format");
    let catalog = Catalog::load(Some(dir.path()));
    let names: Vec<&str> = catalog.formats.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["duel", "oxford", "vote", "panel", "review", "socratic", "mine"]);
    let oxford = catalog.find("oxford").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(oxford.summary, "my own oxford", "a user file replaces the built-in of its name");
    assert_eq!(catalog.problems.len(), 1, "{:?}", catalog.problems);
    assert!(catalog.problems[0].contains("broken.toml line 1"), "{:?}", catalog.problems);
    let e = catalog.find("broken").map(|f| f.name.clone()).expect_err("a broken file is not used").to_string();
    assert!(e.contains("the format \"broken\" is not used") && e.contains("broken.toml line 1"), "{e}");
    let e = catalog.find("town-hall").map(|f| f.name.clone()).expect_err("no such format").to_string();
    assert_eq!(
        e,
        "no format named \"town-hall\"; the formats are duel, oxford, vote, panel, review, socratic, mine (`heat formats` describes them)"
    );
}

#[test]
fn a_brief_beside_a_user_format_is_read_before_the_built_in_ones() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("critic.md"), "You are the CRITIC.").unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("mine.toml");
    let text = GOOD.replace("brief = \"skeptic.md\"", "brief = \"critic.md\"");
    let format = Format::parse("mine", &text, &Origin::File(path)).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(format.record.briefs.map(|b| b[1].clone()).as_deref(), Some("You are the CRITIC."));
}

#[test]
fn a_user_file_saved_with_a_byte_order_mark_reads() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("bom.toml"), format!("\u{feff}{GOOD}")).unwrap_or_else(|e| panic!("{e}"));
    let catalog = Catalog::load(Some(dir.path()));
    assert!(catalog.problems.is_empty(), "{:?}", catalog.problems);
    assert!(catalog.find("bom").is_ok());
}

#[test]
fn resuming_keeps_the_debates_own_format_and_says_a_flag_is_not_used() {
    use crate::config::{Config, FlagValue};
    use crate::debate::DebateState;
    let flagged = |name: &str| {
        let flag = FlagValue { key: "debate.format".into(), raw: name.into(), flag: "--format".into() };
        Config::load(None, &|_| None, &[flag]).unwrap_or_else(|e| panic!("{e}"))
    };
    let duel = DebateState::default();
    let notice = super::layer::resume_notice(&flagged("oxford"), &duel);
    assert_eq!(
        notice.as_deref(),
        Some("a stored debate goes on in its own format (duel); flag --format oxford is not used")
    );
    assert_eq!(super::layer::resume_notice(&flagged("duel"), &duel), None);
    let plain = Config::load(None, &|_| None, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(super::layer::resume_notice(&plain, &duel), None, "heat.toml's format is not a request");
    let oxford = Catalog::load(None).find("oxford").ok().and_then(Format::log_record);
    let state = DebateState { format: oxford, ..DebateState::default() };
    assert_eq!(super::layer::resume_notice(&flagged("OXFORD"), &state), None);
}

#[test]
fn phases_seats_and_briefs_that_would_mislead_are_refused_with_their_line() {
    let phase = "\n[[phases]]\nname = \"A\"\nrounds = 0\ninstruction = \"a\"\n";
    let e = error(&format!("{GOOD}{phase}"));
    assert!(e.contains("line 21: a phase's rounds = 0 is out of range; 1 to 100"), "{e}");
    let e = error(&format!("{GOOD}\n[[phases]]\nname = \" \"\ninstruction = \"a\"\n"));
    assert!(e.contains("line 20: a phase's name is empty"), "{e}");
    let e = error(&GOOD.replace("label = \"Against\"", "label = \"\""));
    assert!(e.contains("this seat's label is empty"), "{e}");
    let e = error(&GOOD.replace("id = \"con_side\"", "id = \"PRO-side\""));
    assert!(e.contains("line 11: id = \"PRO-side\" is given to two seats"), "{e}");
    let e = error(&GOOD.replace("id = \"pro-side\"", "id = \"judge\""));
    assert!(e.contains("line 5: id = \"judge\" is another seat's name"), "{e}");
    assert!(
        parse(&GOOD.replace("id = \"pro-side\"", "id = \"advocate\"")).is_ok(),
        "the pro seat may be called advocate"
    );
    for path in ["../secret.md", "/etc/passwd", "notes/critic.md", ".hidden.md"] {
        let e = error(&GOOD.replace("brief = \"skeptic.md\"", &format!("brief = {path:?}")));
        assert!(e.contains("line 14:") && e.contains("is not a file name"), "{path}: {e}");
    }
    let e = error(&GOOD.replace("summary = \"two sides\"", "summary = \"\""));
    assert!(e.contains("summary is empty"), "{e}");
}

#[test]
fn a_user_file_replaces_a_built_in_in_any_case_and_a_users_duel_is_recorded() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    write("Oxford.toml", &GOOD.replace("two sides", "mine"));
    write("duel.toml", &GOOD.replace("two sides", "my duel"));
    write("max.toml", "summary = 3\n");
    let catalog = Catalog::load(Some(dir.path()));
    let oxford = catalog.find("oxford").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(oxford.summary, "mine");
    assert_eq!(catalog.formats.iter().filter(|f| f.name.eq_ignore_ascii_case("oxford")).count(), 1);
    let duel = catalog.find("duel").unwrap_or_else(|e| panic!("{e}"));
    assert!(!duel.is_duel() && duel.log_record().is_some(), "a user's duel is a format of its own, and recorded");
    let e = catalog.find("x").map(|f| f.name.clone()).expect_err("no x").to_string();
    assert!(e.starts_with("no format named \"x\""), "a broken max.toml is not x's problem: {e}");
}

#[test]
fn a_formats_seat_model_never_pairs_with_a_provider_a_person_chose_and_relaying_starts_afresh() {
    use crate::config::{Config, FlagValue};
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let formats = dir.path().join("formats");
    std::fs::create_dir_all(&formats).unwrap_or_else(|e| panic!("{e}"));
    let seated =
        GOOD.replace("model = \"claude-sonnet-4-5\"", "provider = \"anthropic\"\nmodel = \"claude-sonnet-4-5\"");
    std::fs::write(formats.join("mine.toml"), seated).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("heat.toml");
    std::fs::write(&file, "[debate]\nmax_rounds = 6\nformat = \"mine\"\n").unwrap_or_else(|e| panic!("{e}"));
    let load = |flags: &[FlagValue]| {
        let config = Config::load(Some((&file, true)), &|_| None, flags).unwrap_or_else(|e| panic!("{e}"));
        super::layer::layer(&config).unwrap_or_else(|e| panic!("{e}"))
    };
    let plain = load(&[]);
    assert_eq!(plain.text("roles.advocate.model"), Some("claude-sonnet-4-5"));
    assert_eq!(plain.int("debate.max_rounds"), Some(2), "the format's rounds win over heat.toml's");
    let flag =
        FlagValue { key: "roles.advocate.provider".into(), raw: "openai".into(), flag: "--advocate-provider".into() };
    let chosen = load(&[flag]);
    assert_eq!(chosen.text("roles.advocate.provider"), Some("openai"));
    assert_ne!(chosen.text("roles.advocate.model"), Some("claude-sonnet-4-5"), "no Anthropic model sent to OpenAI");
    // Laid over again for the duel, nothing of the first format is left.
    let duel = FlagValue { key: "debate.format".into(), raw: "duel".into(), flag: "--format".into() };
    let again = super::layer::layer(&plain.with_settings(
        &vec![("debate.format".into(), crate::config::Value::Text("duel".into()))],
        &crate::config::Source::Flag("--format".into()),
        false,
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.int("debate.max_rounds"), Some(6), "heat.toml's rounds are back");
    assert_ne!(again.text("roles.advocate.model"), Some("claude-sonnet-4-5"));
    assert_eq!(load(&[duel]).int("debate.max_rounds"), Some(6));
}

#[test]
fn an_argument_map_its_criteria_sections_and_consensus_are_checked_with_the_line() {
    let with = |keys: &str| GOOD.replace("max_rounds = 2", &format!("max_rounds = 2\n{keys}"));
    let mapped = parse(&with("map = true")).unwrap_or_else(|e| panic!("{e}"));
    let spec = mapped.record.map.unwrap_or_else(|| panic!("a map"));
    let names: Vec<&str> = spec.criteria.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["logic", "evidence", "rebuttal", "clarity"], "the standard four");
    let own = parse(&format!(
        "{}\n[[criteria]]\nname = \"Rigour\"\nweight = 3\n\n[[criteria]]\nname = \"wit\"\n",
        with("map = true")
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let criteria = own.record.map.map(|m| m.criteria).unwrap_or_default();
    assert_eq!((criteria[0].name.as_str(), criteria[0].weight, criteria[1].weight), ("rigour", 3, 1));
    let e = error(&format!("{}\n[[criteria]]\nname = \"logic\"\nweight = 11\n", with("map = true")));
    assert!(e.contains("weight = 11 is out of range; a criterion weighs 1 to 10"), "{e}");
    let e = error(&format!("{GOOD}\n[[criteria]]\nname = \"logic\"\n"));
    assert!(e.contains("[[criteria]] score an argument map: add map = true"), "{e}");
    let e = error(&with("consensus = true"));
    assert!(e.contains("consensus = true resolves on claims the argument map keeps: add map = true"), "{e}");
    let e = error(&with("sections = [\"Claim\"]"));
    assert!(e.contains("a structured turn has 2 to 6 sections"), "{e}");
    let e = error(&with("sections = [\"Claim\", \"claim\"]"));
    assert!(e.contains("section \"claim\": name each section once"), "{e}");
    let catalog = crate::format::Catalog::load(None);
    let socratic = &catalog.find("socratic").unwrap_or_else(|e| panic!("{e}")).record;
    assert_eq!(socratic.sections, ["Claim", "Evidence", "Rebuttal", "Question"]);
    assert!(socratic.map.as_ref().is_some_and(|m| m.consensus));
}
