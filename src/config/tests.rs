#![allow(clippy::unwrap_used)]

use std::io::Write;

use super::*;

fn no_env(_: &str) -> Option<String> {
    None
}

fn with_file(text: &str) -> anyhow::Result<Config> {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    Config::load(Some((file.path(), true)), &no_env, &[])
}

fn error_text(result: anyhow::Result<Config>) -> String {
    format!("{:#}", result.unwrap_err())
}

#[test]
fn the_default_file_parses_and_sets_every_default() {
    let config = Config::load(None, &no_env, &[]).unwrap();
    assert_eq!(config.int("debate.max_rounds"), Some(4));
    assert_eq!(config.float("debate.initial_heat"), Some(0.9));
    assert_eq!(config.role_text(Role::Judge, "provider"), Some("auto"));
    assert_eq!(config.text("providers.anthropic.model"), Some("claude-haiku-4-5"));
    assert_eq!(config.get("debate.max_rounds").unwrap().source, Source::Default);
    assert_eq!(config.flag("ui.mouse"), Some(true));
}

#[test]
fn a_flag_is_true_or_false_in_the_file_and_the_environment() {
    assert_eq!(with_file("[ui]\nmouse = false\n").unwrap().flag("ui.mouse"), Some(false));
    let err = error_text(with_file("[ui]\nmouse = \"no\"\n"));
    assert!(err.contains("line 2") && err.contains("`ui.mouse` must be true or false"), "{err}");
    let env = |var: &str| (var == "HEAT_MOUSE").then(|| "off".to_string());
    assert_eq!(Config::load(None, &env, &[]).unwrap().flag("ui.mouse"), Some(false));
    let env = |var: &str| (var == "HEAT_MOUSE").then(|| "sometimes".to_string());
    let err = error_text(Config::load(None, &env, &[]));
    assert!(err.contains("HEAT_MOUSE") && err.contains("true or false"), "{err}");
}

#[test]
fn file_env_and_flags_layer_in_order() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(b"[debate]\nmax_rounds = 6\ninitial_heat = 0.5\n[roles.judge]\nmodel = \"big\"\n").unwrap();
    let env = |var: &str| (var == "HEAT_MAX_ROUNDS").then(|| "7".to_string());
    let flags = [FlagValue { key: "debate.initial_heat".into(), raw: "0.6".into(), flag: "--heat".into() }];
    let config = Config::load(Some((file.path(), true)), &env, &flags).unwrap();
    assert_eq!(config.int("debate.max_rounds"), Some(7));
    assert_eq!(config.get("debate.max_rounds").unwrap().source, Source::Env("HEAT_MAX_ROUNDS"));
    assert_eq!(config.float("debate.initial_heat"), Some(0.6));
    assert_eq!(config.get("debate.initial_heat").unwrap().source, Source::Flag("--heat".into()));
    assert_eq!(config.role_text(Role::Judge, "model"), Some("big"));
    assert_eq!(config.role_text(Role::Advocate, "model"), None, "empty shared model means provider default");
    assert!(matches!(config.role_entry(Role::Judge, "model").unwrap().source, Source::File(_)));
}

#[test]
fn a_missing_default_file_is_fine_but_a_named_one_is_not() {
    let path = Path::new("/nonexistent/heat.toml");
    assert!(Config::load(Some((path, false)), &no_env, &[]).is_ok());
    let err = error_text(Config::load(Some((path, true)), &no_env, &[]));
    assert!(err.contains("could not read the config file /nonexistent/heat.toml"), "{err}");
}

#[test]
fn bad_lines_name_the_line_the_key_and_what_is_expected() {
    let err = error_text(with_file("[debate]\n\nmax_rounds = \"four\"\n"));
    assert!(
        err.contains("line 3") && err.contains("`debate.max_rounds` must be a whole number from 1 to 100"),
        "{err}"
    );
    let err = error_text(with_file("[debate]\ninitial_heat = 1.7\n"));
    assert!(err.contains("line 2") && err.contains("a number from 0.3 to 1"), "{err}");
    let err = error_text(with_file("[roles.advocat]\nmodel = \"x\"\n"));
    assert!(err.contains("line 2") && err.contains("unknown key `roles.advocat.model`"), "{err}");
    let err = error_text(with_file("[roles]\nprovider = \"bard\"\n"));
    assert!(err.contains("one of \"auto\", \"anthropic\""), "{err}");
    let err = error_text(with_file("[debate\nmax_rounds = 3\n"));
    assert!(err.contains("line 1"), "{err}");
}

#[test]
fn bad_env_and_flags_are_named() {
    let env = |var: &str| (var == "HEAT_INITIAL_HEAT").then(|| "hot".to_string());
    let err = error_text(Config::load(None, &env, &[]));
    assert!(err.contains("HEAT_INITIAL_HEAT") && err.contains("got \"hot\""), "{err}");
    let flags = [FlagValue { key: "debate.max_rounds".into(), raw: "0".into(), flag: "--max-rounds".into() }];
    let err = error_text(Config::load(None, &no_env, &flags));
    assert!(err.contains("--max-rounds is invalid"), "{err}");
}

#[test]
fn secrets_are_redacted_in_show_and_in_errors() {
    let env = |var: &str| (var == "ANTHROPIC_API_KEY").then(|| "sk-ant-secret-123".to_string());
    let config = Config::load(None, &env, &[]).unwrap();
    let shown = format!("{:?}", config.show());
    assert!(shown.contains("providers.anthropic.api_key") && shown.contains("<redacted>"), "{shown}");
    assert!(!shown.contains("sk-ant-secret-123"));
    assert_eq!(config.text("providers.anthropic.api_key"), Some("sk-ant-secret-123"));
}

#[test]
fn an_assignment_with_no_value_says_so_not_how_to_quote() {
    let err = Config::from_file_text("[debate]\nmax_rounds =\n", std::path::Path::new("/cfg/heat.toml"))
        .expect_err("no value")
        .to_string();
    assert!(err.contains("/cfg/heat.toml line 2: `max_rounds =` has no value"), "{err}");
    assert!(!err.contains("quoted"), "{err}");
}

#[test]
fn a_defaulted_key_answers_with_the_value_in_force_or_the_default_files() {
    let config =
        with_file("[providers.ollama]\nbase_url = \"\"\n[network]\nmax_retries = 2\n[roles.judge]\nmax_tokens = 512\n")
            .unwrap();
    assert_eq!(config.defaulted::<&str>("providers.ollama.base_url"), "http://localhost:11434", "empty is unset");
    assert_eq!(config.defaulted::<u32>("network.max_retries"), 2);
    assert_eq!(config.defaulted::<u64>("network.idle_timeout_secs"), 60);
    assert!((config.defaulted::<f64>("debate.initial_heat") - 0.9).abs() < 1e-9);
    assert!(config.defaulted::<bool>("ui.mouse"));
    assert_eq!(config.role_defaulted::<i64>(Role::Judge, "max_tokens"), 512);
    assert_eq!(config.role_defaulted::<i64>(Role::Skeptic, "max_tokens"), 1024);
    assert_eq!(config.role_defaulted::<&str>(Role::Skeptic, "provider"), "auto");
    assert_eq!(built_in::<usize>("providers.local.threads"), 1);
}

/// The keys the source reads with `defaulted` / `role_defaulted` and a
/// literal key (`role_defaulted`'s leaf as `roles.<leaf>`).
fn defaulted_keys_in(text: &str, out: &mut Vec<String>) {
    for (method, prefix) in [("role_defaulted", "roles."), (".defaulted", "")] {
        for (at, _) in text.match_indices(method) {
            let rest = &text[at + method.len()..];
            // Skip a turbofish, then the role argument.
            let rest = rest.strip_prefix("::<").map_or(rest, |r| r.split_once('>').map_or(r, |(_, r)| r));
            let Some(args) = rest.strip_prefix('(') else { continue };
            let args = if prefix.is_empty() { args } else { args.split_once(',').map_or("", |(_, a)| a) };
            let Some(literal) = args.trim_start().strip_prefix('"') else { continue };
            if let Some((key, _)) = literal.split_once('"') {
                out.push(format!("{prefix}{key}"));
            }
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_key_read_with_its_default_is_in_the_default_file() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let mut keys = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("config/tests.rs")) {
        defaulted_keys_in(&std::fs::read_to_string(file).unwrap(), &mut keys);
    }
    // Keys built at run time.
    keys.extend(["anthropic", "openai", "ollama"].map(|p| format!("providers.{p}.structured_output")));
    assert!(keys.len() > 20, "the scan found too few keys: {keys:?}");
    let missing: Vec<_> = keys.iter().filter(|k| built_in_value(k).is_none()).collect();
    assert!(missing.is_empty(), "read with a default but not in assets/default-config.toml: {missing:?}");
}

#[test]
fn the_default_file_names_each_providers_server_and_model_as_its_row_does() {
    use crate::provider::PROVIDERS;
    let config = Config::load(None, &no_env, &[]).unwrap();
    for row in PROVIDERS.iter().filter(|p| p.wire.is_server()) {
        // heat's own servers are written out in the file; a preset's row is its default.
        let base = config.text(&format!("providers.{}.base_url", row.name));
        if row.url_env.is_some() || base.is_some() {
            assert_eq!(base, Some(row.base_url), "providers.{}.base_url", row.name);
        }
        if let Some(model) = config.text(&format!("providers.{}.model", row.name)) {
            assert_eq!(Some(model), row.model, "providers.{}.model", row.name);
        }
    }
}

#[test]
fn an_endpoint_block_becomes_a_provider_with_its_key_read_from_the_variable_it_names() {
    let text = "[roles.skeptic]\nprovider = \"cfg-box\"\n\n[providers.cfg-box]\nkind = \"openai\"\n\
                base_url = \"http://127.0.0.1:9/v1\"\napi_key_env = \"CFG_BOX_KEY\"\nmodel = \"qwen3-8b\"\n\
                price_input = 0.5\nprice_output = 1.5\n\n[providers.cfg-box.headers]\nX-Title = \"heat\"\n";
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    let env = |var: &str| (var == "CFG_BOX_KEY").then(|| "box-secret".to_string());
    let config = Config::load(Some((file.path(), true)), &env, &[]).unwrap();
    let kind = crate::provider::ProviderKind::from_name("cfg-box").expect("registered");
    assert!(!kind.is_built_in() && kind.is_server());
    assert_eq!(
        (kind.row().base_url, kind.row().key_env, kind.row().model),
        ("http://127.0.0.1:9/v1", Some("CFG_BOX_KEY"), Some("qwen3-8b"))
    );
    assert_eq!(config.text("providers.cfg-box.api_key"), Some("box-secret"));
    assert_eq!(config.get("providers.cfg-box.api_key").unwrap().source, Source::Env("CFG_BOX_KEY"));
    let shown = format!("{:?}", config.show());
    assert!(!shown.contains("box-secret") && shown.contains("providers.cfg-box.headers.X-Title"), "{shown}");
    assert_eq!(shown.matches("providers.cfg-box.api_key\"").count(), 1, "shown once: {shown}");
    assert!(!shown.contains("\"heat\""), "a header's value is a secret: {shown}");
    let price = config.price(Role::Skeptic).expect("the endpoint's prices");
    assert_eq!((price.input, price.output), (0.5, 1.5));
    assert!(config.price(Role::Advocate).is_none(), "the advocate is on auto");
}

#[test]
fn a_bad_endpoint_block_is_one_sentence_with_its_line_and_what_is_accepted() {
    let err = error_text(with_file("[providers.cfg-nokind]\nbase_url = \"http://x/v1\"\n"));
    assert!(err.contains("line 2") && err.contains("give it a kind") && err.contains("\"openrouter\""), "{err}");
    let err = error_text(with_file("[providers.cfg-badkind]\nkind = \"grpc\"\n"));
    assert!(
        err.contains("line 2") && err.contains("`providers.cfg-badkind.kind` must be one of \"anthropic\""),
        "{err}"
    );
    let err = error_text(with_file("[providers.cfg-keyed]\nkind = \"openai\"\napi_key = \"sk-in-the-file\"\n"));
    assert!(err.contains("line 3") && err.contains("api_key_env = \"CFG_KEYED_API_KEY\""), "{err}");
    assert!(!err.contains("sk-in-the-file"), "the key is not repeated: {err}");
    let err = error_text(with_file(
        "[providers.cfg-hdr]\nkind = \"openai\"\n[providers.cfg-hdr.headers]\n\"X Bad\" = \"v\"\n",
    ));
    assert!(err.contains("line 4") && err.contains("not an HTTP header's name"), "{err}");
    let err = error_text(with_file("[providers.openai]\nkind = \"anthropic\"\n"));
    assert!(err.contains("line 2") && err.contains("heat's own provider"), "{err}");
    let err = error_text(with_file("[providers.local]\nbase_url = \"http://x\"\n"));
    assert!(err.contains("line 2") && err.contains("unknown key `providers.local.base_url`"), "{err}");
    let err = error_text(with_file("[roles.judge]\nprovider = \"cfg-undefined\"\n"));
    assert!(
        err.contains("line 2") && err.contains("must be one of \"auto\"") && err.contains("cfg-undefined"),
        "{err}"
    );
    let err = error_text(with_file("[roles.judge]\nprovider = \"not a name\"\n"));
    assert!(err.contains("line 2") && err.contains("must be one of \"auto\""), "{err}");
}

#[test]
fn an_endpoint_at_an_address_of_its_own_does_not_take_its_kinds_usual_model() {
    let text = "[providers.cfg-gw]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:8787/v1\"\n\n\
                [providers.cfg-router]\nkind = \"openrouter\"\napi_key_env = \"CFG_ROUTER_KEY\"\n";
    with_file(text).unwrap();
    let gateway = crate::provider::ProviderKind::from_name("cfg-gw").unwrap();
    assert_eq!(gateway.row().model, None, "its own list names the model, not OpenAI's usual one");
    let router = crate::provider::ProviderKind::from_name("cfg-router").unwrap();
    assert_eq!(router.row().model, Some("openai/gpt-4.1-mini"), "the same service, another key: its usual model");
    assert_eq!(router.row().base_url, "https://openrouter.ai/api/v1");
}
