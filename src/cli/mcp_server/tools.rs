//! The tools `heat mcp` offers: each one's name, description and input
//! schema (from the argument types), and a call's arguments read into one
//! of them, or refused in one sentence.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// `start_debate`: a new debate, run by this server.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The proposition to debate, one sentence.
    pub proposition: String,
    /// A format by name (`heat formats` lists them: duel, oxford, panel, …); heat.toml's, else the duel, when unset.
    #[serde(default)]
    pub format: Option<String>,
    /// The most rounds, 1 to 100; heat.toml's when unset.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub rounds: Option<u32>,
    /// Who sits where, each seat named as the format names it (advocate, skeptic, judge, judge2, …) and its model as `PROVIDER:MODEL` (`openai:gpt-4.1`), a model alone, or a provider alone (`local`).
    #[serde(default)]
    pub seats: BTreeMap<String, String>,
    /// Files or folders the debaters read (one file: the document under debate; more, or a folder: a library searched each round). Only under the folders heat.toml's `mcp_server.sources` allows.
    #[serde(default)]
    pub sources: Vec<String>,
}

/// What `wait_for_debate` waits for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// The judge's next verdict (or the end, if it comes first).
    #[default]
    Verdict,
    /// The end of the debate.
    End,
}

/// `wait_for_debate`: block until the next verdict or the end.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Wait {
    /// The session id (or its start) that `start_debate` returned.
    pub session: String,
    /// `verdict` (the default) or `end`.
    #[serde(default)]
    pub until: Until,
    /// Give up waiting after this many seconds (1 to 3600; 600 when unset); the debate goes on.
    #[serde(default)]
    #[schemars(range(min = 1, max = 3600))]
    pub timeout_seconds: Option<u64>,
}

/// What `read_debate` reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Where the debate stands: round, heat, who is ahead, how it ended.
    #[default]
    Status,
    /// A round's verdict (the latest unless `round` is given).
    Verdict,
    /// The judge's final synthesis, once the debate has ended.
    Synthesis,
    /// The whole debate as Markdown.
    Transcript,
}

/// `read_debate`: one part of a stored debate.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Read {
    /// The session id, or its start.
    pub session: String,
    /// `status` (the default), `verdict`, `synthesis` or `transcript`.
    #[serde(default)]
    pub part: Part,
    /// The round whose verdict to read (from 1); the latest when unset.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub round: Option<u32>,
}

/// A steering action, as the studio's keys steer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A topic both debaters take up next round (`text`).
    Inject,
    /// Ask this question next round instead of the judge's (`text`).
    NextQuestion,
    /// Hold the heat (sampling temperature) at `heat`, 0.3 to 1.0, from next round.
    PinHeat,
    /// Let the judge set the heat again.
    ReleaseHeat,
    /// End the debate at this round with the judge's synthesis.
    Force,
    /// Go on for `rounds` more rounds than the limit.
    MoreRounds,
    Pause,
    Resume,
    /// Stop the debate where it is (saved; `heat resume` goes on with it).
    Stop,
}

/// `steer_debate`: one steering action on a debate this server runs.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Steer {
    /// The session id, or its start.
    pub session: String,
    pub action: Action,
    /// The topic or question (`inject`, `next_question`).
    #[serde(default)]
    pub text: Option<String>,
    /// The heat to hold (`pin_heat`), 0.3 to 1.0.
    #[serde(default)]
    #[schemars(range(min = 0.3, max = 1.0))]
    pub heat: Option<f64>,
    /// How many more rounds (`more_rounds`), 1 to 20.
    #[serde(default)]
    #[schemars(range(min = 1, max = 20))]
    pub rounds: Option<u32>,
}

/// `list_sessions`: the stored debates, newest first.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct List {
    /// Only debates whose topic, id, name or tag contains this, or whose words do.
    #[serde(default)]
    pub search: Option<String>,
    /// Only debates with this tag (`mcp` for those this server started, `tournament-ID` for a tournament's).
    #[serde(default)]
    pub tag: Option<String>,
    /// At most this many (1 to 200; 20 when unset).
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<usize>,
}

/// `debate_stats`: a tournament's or a tag's debates counted.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// A tournament id (or its start); the newest tournament when neither this nor `tag` is given.
    #[serde(default)]
    pub tournament: Option<String>,
    /// Count the debates with this tag instead.
    #[serde(default)]
    pub tag: Option<String>,
}

/// A tool call, its arguments read.
#[derive(Debug)]
pub enum Call {
    Start(Start),
    Wait(Wait),
    Read(Read),
    Steer(Steer),
    List(List),
    Stats(Stats),
}

/// Why a call was refused before it ran: an unknown tool, or arguments
/// outside its schema.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    UnknownTool(String),
    Arguments(String),
}

impl Call {
    /// The call `name` with `arguments`, read, or why not.
    pub fn read(name: &str, arguments: Option<JsonObject>) -> Result<Call, Refused> {
        let arguments = serde_json::Value::Object(arguments.unwrap_or_default());
        Ok(match name {
            "start_debate" => Call::Start(parsed(name, arguments)?),
            "wait_for_debate" => Call::Wait(parsed(name, arguments)?),
            "read_debate" => Call::Read(parsed(name, arguments)?),
            "steer_debate" => Call::Steer(parsed(name, arguments)?),
            "list_sessions" => Call::List(parsed(name, arguments)?),
            "debate_stats" => Call::Stats(parsed(name, arguments)?),
            other => {
                let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
                return Err(Refused::UnknownTool(format!(
                    "heat has no tool `{}`; its tools are {}",
                    crate::sanitize::one_line(other),
                    names.join(", ")
                )));
            }
        })
    }
}

fn parsed<T: DeserializeOwned>(tool: &str, arguments: serde_json::Value) -> Result<T, Refused> {
    serde_json::from_value(arguments)
        .map_err(|e| Refused::Arguments(format!("{tool}: {}", crate::sanitize::one_line(&e.to_string()))))
}

/// One tool as listed.
struct Listed {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    schema: fn() -> Arc<JsonObject>,
    read_only: bool,
}

const TOOLS: [Listed; 6] = [
    Listed {
        name: "start_debate",
        title: "Start a debate",
        description: "Start a debate on a proposition: an advocate and a skeptic argue it while a judge weighs each round. Returns its session id at once; the debate runs on (wait_for_debate follows it). A person can watch it with `heat watch ID`.",
        schema: schema::<Start>,
        read_only: false,
    },
    Listed {
        name: "wait_for_debate",
        title: "Wait for a verdict",
        description: "Wait until a running debate's next verdict (or its end, with until=end), sending progress notifications meanwhile; returns where it stands.",
        schema: schema::<Wait>,
        read_only: true,
    },
    Listed {
        name: "read_debate",
        title: "Read a debate",
        description: "Read a stored debate: its status, a round's verdict, the final synthesis, or the whole transcript as Markdown.",
        schema: schema::<Read>,
        read_only: true,
    },
    Listed {
        name: "steer_debate",
        title: "Steer a debate",
        description: "Steer a debate this server runs, as a person at the keyboard does: inject a topic, set the next question, pin or release the heat, force a resolution, add rounds, pause, resume or stop.",
        schema: schema::<Steer>,
        read_only: false,
    },
    Listed {
        name: "list_sessions",
        title: "List debates",
        description: "List the stored debates, newest first, optionally those matching words or a tag.",
        schema: schema::<List>,
        read_only: true,
    },
    Listed {
        name: "debate_stats",
        title: "Count a tournament",
        description: "Count a tournament's debates (or a tag's): win rates with 95 % intervals, Bradley–Terry ratings, side and length bias, swap-check flips.",
        schema: schema::<Stats>,
        read_only: true,
    },
];

/// `T`'s input schema, each optional field typed as what it takes when
/// given (`"string"`, not `["string", "null"]`): absent is how it is left
/// out, and a single type is what every client's schema dialect reads.
fn schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let mut schema = (*rmcp::handler::server::common::schema_for_type::<T>()).clone();
    for value in schema.values_mut() {
        single_types(value);
    }
    Arc::new(schema)
}

fn single_types(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(object) => {
            if let Some(serde_json::Value::Array(types)) = object.get("type")
                && let [one] = types.iter().filter(|t| t.as_str() != Some("null")).collect::<Vec<_>>().as_slice()
            {
                let one = (*one).clone();
                object.insert("type".into(), one);
            }
            object.values_mut().for_each(single_types);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(single_types),
        _ => {}
    }
}

/// Every tool, as `tools/list` gives them.
pub fn all() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|t| {
            let mut annotations = ToolAnnotations::with_title(t.title).read_only(t.read_only);
            annotations.open_world_hint = Some(false);
            Tool::new(t.name, t.description, (t.schema)()).with_title(t.title).annotate(annotations)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn object(value: serde_json::Value) -> Option<JsonObject> {
        match value {
            serde_json::Value::Object(object) => Some(object),
            _ => None,
        }
    }

    #[test]
    fn a_call_is_read_into_its_arguments() {
        let call =
            Call::read("start_debate", object(serde_json::json!({"proposition": "Tabs beat spaces", "rounds": 2})));
        let Ok(Call::Start(start)) = call else { panic!("{call:?}") };
        assert_eq!((start.proposition.as_str(), start.rounds), ("Tabs beat spaces", Some(2)));
        let Ok(Call::Wait(wait)) = Call::read("wait_for_debate", object(serde_json::json!({"session": "abc"}))) else {
            panic!()
        };
        assert_eq!(wait.until, Until::Verdict);
    }

    #[test]
    fn arguments_outside_the_schema_are_one_sentence() {
        let refused = Call::read("start_debate", object(serde_json::json!({"proposition": "x", "colour": "red"})));
        let Err(Refused::Arguments(why)) = refused else { panic!("{refused:?}") };
        assert!(why.starts_with("start_debate: unknown field `colour`, expected one of"), "{why}");
        let refused = Call::read("steer_debate", object(serde_json::json!({"session": "x", "action": "explode"})));
        let Err(Refused::Arguments(why)) = refused else { panic!("{refused:?}") };
        assert!(why.contains("unknown variant `explode`"), "{why}");
        let Err(Refused::Arguments(why)) = Call::read("read_debate", None) else { panic!() };
        assert_eq!(why, "read_debate: missing field `session`");
    }

    #[test]
    fn an_unknown_tool_names_the_tools() {
        let Err(Refused::UnknownTool(why)) = Call::read("launch\u{1b}[2J", None) else { panic!() };
        assert!(!why.contains('\u{1b}'), "{why}");
        assert!(why.ends_with("start_debate, wait_for_debate, read_debate, steer_debate, list_sessions, debate_stats"));
    }

    #[test]
    fn every_tool_has_an_object_schema_naming_its_fields() {
        let tools = all();
        assert_eq!(tools.len(), 6);
        let start = &tools[0];
        assert_eq!(start.input_schema.get("type"), Some(&serde_json::json!("object")));
        let required = start.input_schema.get("required").cloned().unwrap_or_default();
        assert_eq!(required, serde_json::json!(["proposition"]));
        let properties = start.input_schema.get("properties").and_then(|p| p.as_object()).unwrap();
        assert!(["format", "rounds", "seats", "sources"].iter().all(|k| properties.contains_key(*k)));
        // One type each: a client whose dialect has no null type (Gemini's) reads every field.
        assert_eq!(properties["rounds"]["type"], serde_json::json!("integer"));
        let text = serde_json::to_string(&tools.iter().map(|t| &t.input_schema).collect::<Vec<_>>()).unwrap();
        assert!(!text.contains("\"null\""), "{text}");
    }
}
