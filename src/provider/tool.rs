//! Tool calling, as every wire shares it: the tools a request offers, a
//! call the model made, what heat answered it, and the assembly of a call
//! whose name and arguments arrive in pieces across a stream.

use serde::{Deserialize, Serialize};

/// A tool a request offers the model: its name, what it does, and the JSON
/// schema of its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// The tools a request offers, and whether the model may still call them:
/// a turn past its bound is sent them closed (a wire that has seen a call
/// in the history wants the tools defined), so the model answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tools {
    pub specs: Vec<ToolSpec>,
    pub may_call: bool,
}

/// One call the model made: its id (the wire's, or one heat gave it), the
/// tool's name, and its arguments as the JSON text the model wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

impl ToolCall {
    /// The arguments as a JSON object; `{}` where the model wrote none, or
    /// wrote something that is not an object (the tool then says what it lacks).
    pub fn arguments_object(&self) -> serde_json::Value {
        match serde_json::from_str::<serde_json::Value>(&self.arguments) {
            Ok(value @ serde_json::Value::Object(_)) => value,
            _ => serde_json::json!({}),
        }
    }

    /// How many JSON objects its arguments hold when they are more than
    /// one run together (`{"query": "a"}{"path": "b"}`: a gateway merged two
    /// calls into one); `None` when they are one object, or not JSON.
    pub fn run_together(&self) -> Option<usize> {
        let values = serde_json::Deserializer::from_str(&self.arguments).into_iter::<serde_json::Value>();
        let mut count = 0;
        for value in values {
            match value {
                Ok(serde_json::Value::Object(_)) => count += 1,
                _ => return None,
            }
        }
        (count > 1).then_some(count)
    }
}

/// What heat answered one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolResult {
    pub call_id: String,
    pub content: String,
    /// The tool failed; `content` says why.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

/// Calls assembled from a stream's pieces, in the order they began.
#[derive(Debug, Default)]
pub struct Assembly {
    calls: Vec<Partial>,
}

/// A call whose pieces are arriving.
#[derive(Debug)]
struct Partial {
    /// The number the wire gave it, if any.
    index: Option<u64>,
    call: ToolCall,
    /// Whether its id is the wire's (not one heat gave it).
    wire_id: bool,
}

impl Assembly {
    /// A piece of a call: `index` where the wire numbers them; an `id` or
    /// a `name` where this piece starts one; more of the arguments' text.
    /// A piece joins the call its id names; a piece whose id is new starts
    /// a call of its own, whatever its index (a gateway that numbers every
    /// call 0, as `LiteLLM` does when the server it fronts numbers none,
    /// still sends each call's id). A piece without an id joins the latest
    /// call at its index, or without an index the last call.
    pub fn piece(&mut self, index: Option<u64>, id: Option<&str>, name: Option<&str>, arguments: &str) {
        let id = id.filter(|id| !id.is_empty());
        let found = match id {
            Some(id) => self.calls.iter().position(|p| p.wire_id && p.call.id == id).or_else(|| {
                // A call begun at this index with no id of the wire's yet: this id is its own.
                self.calls.iter().rposition(|p| !p.wire_id && index.is_some() && p.index == index)
            }),
            None => match index {
                Some(_) => self.calls.iter().rposition(|p| p.index == index),
                None => self.calls.len().checked_sub(1),
            },
        };
        let at = found.unwrap_or_else(|| {
            let number = self.calls.len() + 1;
            let call = ToolCall { id: format!("call_{number}"), name: String::new(), arguments: String::new() };
            self.calls.push(Partial { index, call, wire_id: false });
            self.calls.len() - 1
        });
        let partial = &mut self.calls[at];
        if let Some(id) = id {
            partial.call.id = id.to_string();
            partial.wire_id = true;
        }
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            partial.call.name.push_str(name);
        }
        partial.call.arguments.push_str(arguments);
    }

    /// Whether any call began.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The latest call numbered `index`, whole, if one began.
    pub fn take_one(&mut self, index: u64) -> Option<ToolCall> {
        let at = self.calls.iter().rposition(|p| p.index == Some(index))?;
        Some(self.calls.remove(at).call)
    }

    /// The calls, whole, in the order they began.
    pub fn take(&mut self) -> Vec<ToolCall> {
        std::mem::take(&mut self.calls).into_iter().map(|p| p.call).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_join_by_index_by_id_or_to_the_last_call() {
        let mut calls = Assembly::default();
        calls.piece(Some(0), Some("a"), Some("search"), "{\"qu");
        calls.piece(Some(1), Some("b"), Some("read"), "");
        calls.piece(Some(0), None, None, "ery\":\"x\"}");
        calls.piece(Some(1), None, None, "{\"path\":\"a.md\"}");
        let whole = calls.take();
        assert_eq!(whole.len(), 2);
        assert_eq!((whole[0].id.as_str(), whole[0].arguments.as_str()), ("a", "{\"query\":\"x\"}"));
        assert_eq!((whole[1].name.as_str(), whole[1].arguments.as_str()), ("read", "{\"path\":\"a.md\"}"));
        assert!(calls.is_empty());
        calls.piece(None, None, Some("search"), "{\"query\":");
        calls.piece(None, None, None, "\"y\"}");
        let unnumbered = calls.take();
        assert_eq!(unnumbered[0].id, "call_1", "a call the wire gave no id is given one");
        assert_eq!(unnumbered[0].arguments_object()["query"], "y");
    }

    #[test]
    fn a_new_id_at_an_index_another_call_holds_starts_a_call_of_its_own() {
        // LiteLLM numbers every call 0 when the server it fronts numbers none.
        let mut calls = Assembly::default();
        calls.piece(Some(0), Some("call_0_0"), Some("search"), "");
        calls.piece(Some(0), None, None, "{\"query\": \"x\"}");
        calls.piece(Some(0), Some("call_0_1"), Some("read"), "");
        calls.piece(Some(0), None, None, "{\"path\": \"a.md\"}");
        let whole = calls.take();
        assert_eq!(whole.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["search", "read"]);
        assert_eq!(whole[1].arguments, "{\"path\": \"a.md\"}");
        // An id the wire sends after the call's first piece is that call's.
        calls.piece(Some(3), None, Some("search"), "{");
        calls.piece(Some(3), Some("late"), None, "}");
        let late = calls.take();
        assert_eq!((late.len(), late[0].id.as_str(), late[0].arguments.as_str()), (1, "late", "{}"));
    }

    #[test]
    fn arguments_that_are_not_an_object_read_as_none() {
        let call = |arguments: &str| ToolCall { id: "c".into(), name: "search".into(), arguments: arguments.into() };
        assert_eq!(call("[1]").arguments_object(), serde_json::json!({}));
        assert_eq!(call("{\"query\": \"cut").arguments_object(), serde_json::json!({}));
        assert_eq!(call("").arguments_object(), serde_json::json!({}));
        assert_eq!(call("{\"query\": \"a\"}{\"path\": \"b\"}").run_together(), Some(2));
        assert_eq!(call("{\"query\": \"a\"}").run_together(), None);
        assert_eq!(call("{\"query\": \"a\"} junk").run_together(), None);
    }
}
