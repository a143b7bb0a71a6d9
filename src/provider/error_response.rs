//! An error response read: its status, headers and body become the
//! `ProviderError` that decides what happens next (retry-after,
//! x-should-retry, quota, refused parameters and structured-output forms, a
//! prompt too long for the context), with the server's message cut to the
//! one line a person reads.

use std::time::{Duration, SystemTime};

use reqwest::header::HeaderMap;

use super::ProviderError;

/// The sampling or format parameters a server may refuse, as the request names them.
const PARAMETERS: [&str; 12] = [
    "temperature",
    "max_tokens",
    "reasoning_effort",
    "top_p",
    "top_k",
    "response_format",
    "output_config",
    "json_schema",
    "tool_choice",
    "seed",
    "thinking",
    "tools",
];

/// The structured-output parameters: a server error whose body names one
/// is a refusal of that form (some servers answer a validation failure with
/// a 500), not a busy server.
const STRUCTURED: [&str; 5] = ["response_format", "output_config", "json_schema", "tool_choice", "tools"];

/// Turns an error status and body into the error that decides what happens next.
pub fn classify(status: u16, headers: &HeaderMap, body: &str) -> ProviderError {
    let (message, kind, param) = error_details(body);
    let message = if message.is_empty() { format!("HTTP {status}") } else { message };
    let retry_after = retry_after(headers);
    let lower = format!("{message} {kind}").to_lowercase();
    let forced = headers.get("x-should-retry").and_then(|v| v.to_str().ok()).map(|v| v.eq_ignore_ascii_case("true"));
    let error = match status {
        429 if lower.contains("quota")
            || lower.contains("spend")
            || lower.contains("billing")
            || lower.contains("credit") =>
        {
            ProviderError::QuotaExhausted { message }
        }
        429 => ProviderError::RateLimited { retry_after, message },
        529 => ProviderError::Overloaded { retry_after, message },
        500..=599 if lower.contains("overloaded") => ProviderError::Overloaded { retry_after, message },
        // A gateway that passes a model server's overflow on as its own failure (a 5xx): still an overflow.
        400 | 413 | 422 | 500..=599 if is_context_error(&lower) => {
            ProviderError::ContextExceeded { window: context_window(body), message }
        }
        500..=599 if forced != Some(true) && names_structured(body).is_some() => {
            ProviderError::ParameterRejected { param: names_structured(body).unwrap_or_default().to_string(), message }
        }
        // A gateway that cannot route this request ("messages is not supported by openai") refuses it
        // the same way every time: a request it does not support, not a server that failed.
        500..=599 if forced != Some(true) && says_unsupported(&lower) => ProviderError::BadRequest { status, message },
        408 | 409 | 500..=599 => ProviderError::Server { status, retry_after, message },
        401 | 403 => ProviderError::Auth { status, message },
        400 | 422 => match param.or_else(|| PARAMETERS.iter().find(|p| lower.contains(*p)).map(|p| (*p).to_string())) {
            // A `max_tokens` too big is a bad value; only a model that takes none (it wants
            // `max_completion_tokens`) refuses the parameter.
            Some(param) if param == "max_tokens" && !refuses_the_field(&lower) => {
                ProviderError::BadRequest { status, message }
            }
            Some(param) => ProviderError::ParameterRejected { param, message },
            None => ProviderError::BadRequest { status, message },
        },
        _ => ProviderError::BadRequest { status, message },
    };
    match forced {
        Some(true) if !error.is_retryable() => {
            ProviderError::Server { status, retry_after, message: error.to_string() }
        }
        Some(false) if error.is_retryable() => ProviderError::BadRequest { status, message: error.to_string() },
        _ => error,
    }
}

/// Whether an error's words say the request is of a kind the server does
/// not support (`not supported`, `unsupported`, `not implemented`).
pub fn says_unsupported(lower: &str) -> bool {
    ["not supported", "unsupported", "not implemented"].iter().any(|w| lower.contains(w))
}

/// Whether a refusal is of a parameter itself, not of its value.
fn refuses_the_field(lower: &str) -> bool {
    ["max_completion_tokens", "unsupported parameter", "not supported", "unrecognized"]
        .iter()
        .any(|w| lower.contains(w))
}

/// Whether an error's message and type say the prompt did not fit the
/// context: llama.cpp's `exceed_context_size_error`, OpenAI's and vLLM's
/// `context_length_exceeded` / "maximum context length", Anthropic's
/// "prompt is too long".
fn is_context_error(lower: &str) -> bool {
    ["exceed_context_size", "context_length_exceeded", "maximum context length", "context size", "context window"]
        .iter()
        .any(|m| lower.contains(m))
        || lower.contains("prompt is too long")
        || lower.contains("exceeds the available context")
}

/// The context a request gets, where the error says it: llama.cpp's
/// `n_ctx` field, "maximum context length is 4096 tokens" (OpenAI, vLLM),
/// "… tokens > 200000 maximum" (Anthropic), "(4806 > 4096)".
fn context_window(body: &str) -> Option<u32> {
    let json = serde_json::from_str::<serde_json::Value>(body).ok();
    let error = json.as_ref().map(|j| if j["error"].is_object() { &j["error"] } else { j });
    if let Some(n) = error.and_then(|e| e["n_ctx"].as_u64()).and_then(|n| u32::try_from(n).ok()) {
        return Some(n);
    }
    let message = error.and_then(|e| e["message"].as_str()).unwrap_or(body).to_lowercase();
    let number_after = |marker: &str| {
        let at = message.find(marker)? + marker.len();
        let digits: String = message[at..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(|c| *c != ',')
            .collect();
        digits.parse::<u32>().ok()
    };
    number_after("context length is")
        .or_else(|| number_after("context size ("))
        .or_else(|| number_after("context length of"))
        .or_else(|| number_after("n_ctx ="))
        .or_else(|| number_after("n_ctx:"))
        .or_else(|| {
            let at = message.rfind(" maximum")?;
            message[..at].rsplit([' ', '>']).find(|w| !w.is_empty())?.replace(',', "").parse().ok()
        })
        .or_else(|| number_after("> "))
}

/// The server's own message, error type and (OpenAI) offending parameter.
fn error_details(body: &str) -> (String, String, Option<String>) {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(body) else {
        return (one_line(&plain_error(body)), String::new(), None);
    };
    let error = if json["error"].is_object() { &json["error"] } else { &json };
    let message = [&error["message"], &json["error"], &json["detail"], &json["message"], &json["msg"]]
        .into_iter()
        .find_map(detail_text)
        .or_else(|| longest_text(error))
        .unwrap_or_default();
    let kind = error["type"].as_str().or_else(|| error["code"].as_str()).unwrap_or_default().to_string();
    let param = error["param"].as_str().filter(|p| PARAMETERS.contains(p)).map(String::from);
    // A gateway that wraps its upstream's error body as a string: the words are inside it.
    let trimmed = message.trim();
    if trimmed.starts_with('{') && trimmed.ends_with('}') && trimmed != body.trim() {
        let (inner, inner_kind, inner_param) = error_details(trimmed);
        if !inner.is_empty() {
            return (inner, if kind.is_empty() { inner_kind } else { kind }, param.or(inner_param));
        }
    }
    (one_line(&message), kind, param)
}

/// A message run into an error's name (`fetch failedTypeError: fetch
/// failed`, as a gateway joins an error and its cause) parted from it:
/// `fetch failed; TypeError: fetch failed`.
fn part_error_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if i > 0 && chars[i - 1].is_lowercase() && c.is_uppercase() {
            let word: String = chars[i..].iter().take_while(|c| c.is_alphanumeric()).collect();
            if word.len() > "Error".len() && word.ends_with("Error") {
                out.push_str("; ");
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// A body whose fields name no message the usual way (a gateway's
/// `{"html-message": "… ECONNREFUSED …"}`): its longest text field says
/// most.
fn longest_text(object: &serde_json::Value) -> Option<String> {
    let fields = object.as_object()?.values().filter_map(serde_json::Value::as_str);
    fields.filter(|t| !t.trim().is_empty()).max_by_key(|t| t.len()).map(str::to_string)
}

/// A message from one of the shapes servers use: a string, or `FastAPI`'s
/// `detail` list of `{loc, msg}` objects.
fn detail_text(value: &serde_json::Value) -> Option<String> {
    if let Some(text) = value.as_str() {
        return Some(text.to_string()).filter(|t| !t.trim().is_empty());
    }
    let items = value.as_array()?;
    let parts: Vec<String> = items
        .iter()
        .filter_map(|item| {
            let msg = item["msg"].as_str().or_else(|| item["message"].as_str())?;
            let place: Vec<String> = item["loc"]
                .as_array()
                .map(|loc| {
                    loc.iter().filter(|p| p != &"body").map(|p| p.to_string().trim_matches('"').to_string()).collect()
                })
                .unwrap_or_default();
            Some(if place.is_empty() { msg.to_string() } else { format!("{}: {msg}", place.join(".")) })
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The useful line of a body that is not JSON: a Python traceback's last
/// line (the exception), an HTML page's title, or the text itself.
fn plain_error(body: &str) -> String {
    let body = body.trim();
    if body.contains("Traceback (most recent call last)") {
        return body.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default().trim().to_string();
    }
    if body.starts_with('<') {
        let lower = body.to_lowercase();
        let title = lower.find("<title>").zip(lower.find("</title>")).filter(|(a, b)| a < b);
        return title.map_or_else(|| "an HTML error page".to_string(), |(a, b)| body[a + 7..b].trim().to_string());
    }
    body.to_string()
}

/// A message cut to one line a status bar can carry: its lines up to the
/// first stack frame (Python's `File "…"` and `Traceback`, a JavaScript,
/// Java or Go frame `at …`), joined with single spaces; a frame run into
/// the text on one line (`fetch failed at node:internal/…`) cut off there
/// too; a Python validation error's dict read as `field.path: what is
/// wrong`; at most 200 characters, cut at a sentence's or a word's end.
/// The whole body goes to the log file.
fn one_line(message: &str) -> String {
    const MAX: usize = 200;
    let kept: Vec<&str> =
        message.lines().map(str::trim).take_while(|l| !is_stack_frame(l)).filter(|l| !l.is_empty()).collect();
    let mut line = part_error_names(&kept.join(" "));
    let mut cut = kept.len() < message.lines().filter(|l| !l.trim().is_empty()).count();
    if let Some(at) = inline_frame(&line) {
        line.truncate(at);
        cut = true;
    }
    if let Some(summary) = validation_summary(&line) {
        line = summary;
    }
    if line.chars().count() > MAX {
        let head: String = line.chars().take(MAX).collect();
        let sentence = head.rfind(". ").filter(|end| *end >= MAX / 2).map(|end| end + 1);
        let word = head.rfind(' ').filter(|end| *end >= MAX / 2);
        line = head[..sentence.or(word).unwrap_or(head.len())].to_string();
        cut = true;
    }
    let line = line.trim_end().to_string();
    if cut { format!("{line}…") } else { line }
}

/// Whether a line is a stack frame or opens a traceback.
fn is_stack_frame(line: &str) -> bool {
    line.starts_with("File \"")
        || line.starts_with("Traceback")
        || line.strip_prefix("at ").is_some_and(names_code_place)
}

/// Whether what follows an `at` is a place in code: `node:internal/…`,
/// or a name and a place in brackets (`Object.fetch (file:///…:1:2)`).
fn names_code_place(rest: &str) -> bool {
    let mut words = rest.split_whitespace();
    let first = words.next().unwrap_or_default();
    is_code_place(first) || words.next().is_some_and(|w| w.starts_with('(') && is_code_place(w))
}

/// Where a stack frame starts inside one line: ` at ` followed by a
/// place in code (`node:internal/…`, `/app/server.js:12:5`,
/// `Object.fetch (file:///…)`).
fn inline_frame(line: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = line[from..].find(" at ") {
        let at = from + found;
        if names_code_place(&line[at + 4..]) {
            return Some(at);
        }
        from = at + 4;
    }
    None
}

/// A file, module or URL with a position: `node:internal/x:12:5`,
/// `/srv/app.js:3:1`, `(file:///a.mjs:1:2)`, `Main.java:42)`.
fn is_code_place(word: &str) -> bool {
    let word = word.trim_matches(|c| c == '(' || c == ')');
    word.starts_with("node:")
        || word.starts_with("file:")
        || word.rsplit(':').next().is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            && word.contains(['.', '/'])
}

/// `1 validation error: {'type': …, 'loc': ('body', 'response_format',
/// 'type'), 'msg': "Input should be …", …}` (pydantic, as Python servers
/// print it) read as `1 validation error: response_format.type: Input should be …`.
fn validation_summary(line: &str) -> Option<String> {
    let head = line.split('{').next()?.trim();
    let loc_start = line.find("'loc': (")? + "'loc': (".len();
    let loc_end = loc_start + line[loc_start..].find(')')?;
    let place: Vec<&str> = line[loc_start..loc_end]
        .split(',')
        .map(|p| p.trim().trim_matches('\''))
        .filter(|p| !p.is_empty() && *p != "body")
        .collect();
    let msg_start = line.find("'msg': ")? + "'msg': ".len();
    let quote = line[msg_start..].chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &line[msg_start + 1..];
    let msg = &body[..body.find(quote)?];
    Some(format!("{head} {}: {msg}", place.join(".")).trim().to_string())
}

/// The structured-output parameter an error body names, if any.
fn names_structured(body: &str) -> Option<&'static str> {
    STRUCTURED.into_iter().find(|p| body.contains(p))
}

/// `retry-after-ms`, or `retry-after` in seconds or as an HTTP date.
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let header = |name| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        return (ms.is_finite() && ms >= 0.0).then(|| Duration::from_secs_f64(ms / 1000.0));
    }
    let value = header("retry-after")?;
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(SystemTime::now()).unwrap_or_default())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, v.parse().unwrap_or_else(|_| panic!("bad header value")));
        }
        map
    }

    #[test]
    fn statuses_map_to_the_right_errors() {
        let none = HeaderMap::new();
        let anthropic = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert!(matches!(classify(529, &none, anthropic), ProviderError::Overloaded { .. }));
        assert!(matches!(classify(503, &none, "upstream down"), ProviderError::Server { status: 503, .. }));
        let auth = classify(401, &none, r#"{"error":{"message":"invalid x-api-key","type":"authentication_error"}}"#);
        assert_eq!(auth, ProviderError::Auth { status: 401, message: "invalid x-api-key".into() });
        let quota = r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}}"#;
        assert!(matches!(classify(429, &none, quota), ProviderError::QuotaExhausted { .. }));
        assert!(!classify(429, &none, quota).is_retryable());
        assert!(matches!(classify(404, &none, "{}"), ProviderError::BadRequest { status: 404, .. }));
    }

    #[test]
    fn refused_parameters_are_named() {
        let none = HeaderMap::new();
        let openai =
            r#"{"error":{"message":"Unsupported value: 'temperature' does not support 0.9","param":"temperature"}}"#;
        assert_eq!(
            classify(400, &none, openai),
            ProviderError::ParameterRejected {
                param: "temperature".into(),
                message: "Unsupported value: 'temperature' does not support 0.9".into()
            }
        );
        let anthropic = r#"{"type":"error","error":{"type":"invalid_request_error","message":"`temperature` may only be set to 1 when thinking is enabled"}}"#;
        assert!(
            matches!(classify(400, &none, anthropic), ProviderError::ParameterRejected { param, .. } if param == "temperature")
        );
        assert!(matches!(
            classify(400, &none, r#"{"error":{"message":"prompt is too long"}}"#),
            ProviderError::ContextExceeded { window: None, .. }
        ));
        assert!(matches!(
            classify(400, &none, r#"{"error":{"message":"messages: at least one message is required"}}"#),
            ProviderError::BadRequest { .. }
        ));
    }

    #[test]
    fn a_refused_max_tokens_is_a_refusal_but_a_max_tokens_too_big_is_a_bad_value() {
        let none = HeaderMap::new();
        let refused = r#"{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}"#;
        assert!(
            matches!(classify(400, &none, refused), ProviderError::ParameterRejected { param, .. } if param == "max_tokens")
        );
        let too_big = r#"{"error":{"message":"max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.","type":"invalid_request_error","param":"max_tokens","code":"invalid_value"}}"#;
        assert!(
            matches!(classify(400, &none, too_big), ProviderError::BadRequest { .. }),
            "a bad value is not dropped"
        );
        let anthropic = r#"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-haiku-4-5"}}"#;
        assert!(matches!(classify(400, &none, anthropic), ProviderError::BadRequest { .. }));
        let effort = r#"{"error":{"message":"Unrecognized request argument supplied: reasoning_effort","type":"invalid_request_error"}}"#;
        assert!(
            matches!(classify(400, &none, effort), ProviderError::ParameterRejected { param, .. } if param == "reasoning_effort")
        );
    }

    #[test]
    fn a_python_validation_error_reads_as_one_line_naming_the_field() {
        // llama.cpp's Python server, refusing a json_schema response_format (as captured).
        let body = r#"{"error":{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"/venv/lib/python3.11/site-packages/llama_cpp/server/app.py\", line 376, in create_chat_completion\n    POST /v1/chat/completions","type":"internal_server_error","param":null,"code":null}}"#;
        let error = classify(500, &HeaderMap::new(), body);
        let ProviderError::ParameterRejected { param, message } = &error else { panic!("{error:?}") };
        assert_eq!(param, "response_format", "a 500 naming the parameter is a refusal, not a busy server");
        assert_eq!(message, "1 validation error: response_format.type: Input should be 'text' or 'json_object'…");
        assert!(!error.is_retryable());
    }

    #[test]
    fn a_wrapped_body_gives_its_words_and_a_message_run_into_an_error_name_is_parted() {
        let wrapped = r#"{"error":{"message":"{\"html-message\":\"Message: fetch failed (upstream unreachable)\"}","type":"api_error"}}"#;
        let (message, kind, _) = error_details(wrapped);
        assert_eq!(message, "Message: fetch failed (upstream unreachable)");
        assert_eq!(kind, "api_error");
        let run_in = r#"{"error":{"message":"fetch failedTypeError: fetch failed\n    at node:internal/deps/undici/undici:13502:13"}}"#;
        assert_eq!(error_details(run_in).0, "fetch failed; TypeError: fetch failed…");
        assert_eq!(
            part_error_names("a JSONError and myValue"),
            "a JSONError and myValue",
            "only a name run into a word"
        );
    }

    #[test]
    fn a_gateway_that_cannot_route_the_request_is_not_a_failing_server_and_is_not_retried() {
        // Portkey's /v1/messages with a routing header for the OpenAI provider.
        let body = r#"{"status":"failure","message":"messages is not supported by openai"}"#;
        let error = classify(500, &HeaderMap::new(), body);
        assert!(matches!(error, ProviderError::BadRequest { status: 500, .. }), "{error:?}");
        assert!(!error.is_retryable());
        let advice = error.advice("anthropic").unwrap();
        assert!(advice.contains("does not support this request as it is routed"), "{advice}");
        assert!(!advice.contains("unreachable") && !advice.contains("busy"), "{advice}");
        let mut forced = HeaderMap::new();
        forced.insert("x-should-retry", "true".parse().unwrap());
        assert!(classify(500, &forced, body).is_retryable(), "a server that says to retry is believed");
    }

    #[test]
    fn a_gateway_missing_the_models_provider_is_not_a_wrong_base_url() {
        // @musistudio/llms (claude-code-router's engine) for `mock,qwen` when it knows no provider "mock".
        let body =
            r#"{"error":{"message":"Provider 'mock' not found","type":"api_error","code":"provider_not_found"}}"#;
        let error = ProviderError::NotFound {
            url: "http://127.0.0.1:3456/v1/chat/completions".into(),
            message: error_details(body).0,
        };
        let advice = error.advice("openai").unwrap();
        assert!(advice.starts_with("the gateway has no provider by the model name's provider part"), "{advice}");
        assert!(!advice.contains("should look like"), "the base URL is not blamed: {advice}");
    }

    #[test]
    fn a_gateways_odd_body_still_gives_its_words_and_a_500_is_not_called_busy() {
        // Portkey's gateway 1.15.2 when the model server behind it is down, byte for byte.
        let body = r#"{"html-message":"Message: fetch failed Cause: Error: connect ECONNREFUSED 127.0.0.1:18999 Name: TypeError"}"#;
        let error = classify(500, &HeaderMap::new(), body);
        assert!(error.to_string().contains("ECONNREFUSED 127.0.0.1:18999"), "{error}");
        let advice = error.advice("portkey").unwrap_or_default();
        assert!(advice.contains("failed (HTTP 500) each time") && !advice.contains("busy"), "{advice}");
        // Its answer to everything while broken, with the message in the usual place.
        let broken = classify(500, &HeaderMap::new(), r#"{"status":"failure","message":"Something went wrong"}"#);
        assert!(broken.to_string().contains("Something went wrong"), "{broken}");
        let unavailable = classify(503, &HeaderMap::new(), "upstream connect error").advice("x").unwrap_or_default();
        assert!(unavailable.contains("unavailable"), "{unavailable}");
    }

    #[test]
    fn stack_frames_are_dropped_from_the_line_a_person_reads() {
        let none = HeaderMap::new();
        // A gateway whose upstream died mid-request: a JavaScript stack run into one line.
        let gateway = r#"{"type":"error","error":{"type":"api_error","message":"fetch failedTypeError: fetch failed at node:internal/deps/undici/undici:13502:13 at process.processTicksAndRejections (node:internal/process/task_queues:105:5) at async Proxy.forward (/app/dist/proxy.js:211:19)"}}"#;
        let ProviderError::Server { message, .. } = classify(500, &none, gateway) else { panic!() };
        assert_eq!(message, "fetch failed; TypeError: fetch failed…", "the message parted from the error's name");
        // The same stack, a frame a line.
        let lines = "Error: upstream closed\n    at Socket.onend (/app/proxy.js:88:11)\n    at Socket.emit (node:events:519:28)";
        let ProviderError::Server { message, .. } = classify(502, &none, lines) else { panic!() };
        assert_eq!(message, "Error: upstream closed…");
        // A sentence that says "at" is not a frame.
        let busy = r#"{"error":{"message":"The server is at capacity: try again at 10:30."}}"#;
        let ProviderError::Server { message, .. } = classify(503, &none, busy) else { panic!() };
        assert_eq!(message, "The server is at capacity: try again at 10:30.");
        // A long message is cut at a sentence's end, not mid-word.
        let long =
            format!(r#"{{"error":{{"message":"The request was refused. {}"}}}}"#, "Too many words here. ".repeat(20));
        let ProviderError::BadRequest { message, .. } = classify(400, &none, &long) else { panic!() };
        assert!(message.ends_with("here.…") && message.chars().count() <= 201, "{message}");
    }

    #[test]
    fn a_prompt_too_long_for_the_context_says_the_window_where_the_server_does() {
        let none = HeaderMap::new();
        let cases: [(u16, &str, Option<u32>); 6] = [
            // llama.cpp's server, as a 2-slot server with 8,192 in all answers (captured shape).
            (
                400,
                r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4806,"n_ctx":4096}}"#,
                Some(4096),
            ),
            (
                400,
                r#"{"error":{"message":"This model's maximum context length is 8,192 tokens. However, your messages resulted in 9,300 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
                Some(8192),
            ),
            (
                400,
                r#"{"object":"error","message":"This model's maximum context length is 2048 tokens. However, you requested 2500 tokens (2000 in the messages, 500 in the completion).","type":"BadRequestError","code":400}"#,
                Some(2048),
            ),
            (
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
                Some(200_000),
            ),
            (413, r#"{"error":{"message":"the prompt is too long for the context window"}}"#, None),
            // llama.cpp's overflow through Portkey: its n_ctx dropped, the size left in the words, a 500.
            (
                500,
                r#"{"error":{"message":"llama-cpp error: request (4556 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","param":null,"code":null},"provider":"openai"}"#,
                Some(4096),
            ),
        ];
        for (status, body, window) in cases {
            let error = classify(status, &none, body);
            assert!(
                matches!(&error, ProviderError::ContextExceeded { window: w, .. } if *w == window),
                "{body}: {error:?}"
            );
            assert!(!error.is_retryable(), "the same request fails the same way");
        }
        // A refused parameter is still one, not a context error.
        assert!(matches!(
            classify(400, &none, r#"{"error":{"message":"Unsupported value: 'temperature'","param":"temperature"}}"#),
            ProviderError::ParameterRejected { .. }
        ));
    }

    #[test]
    fn retry_after_in_every_form() {
        assert_eq!(retry_after(&headers(&[("retry-after", "3")])), Some(Duration::from_secs(3)));
        assert_eq!(
            retry_after(&headers(&[("retry-after-ms", "250"), ("retry-after", "9")])),
            Some(Duration::from_millis(250))
        );
        let soon = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(30));
        let parsed = retry_after(&headers(&[("retry-after", &soon)])).unwrap_or_default();
        assert!(parsed > Duration::from_secs(25) && parsed <= Duration::from_secs(30), "{parsed:?}");
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")])), None);
    }

    #[test]
    fn x_should_retry_overrides_the_status() {
        assert!(classify(400, &headers(&[("x-should-retry", "true")]), "{}").is_retryable());
        assert!(!classify(503, &headers(&[("x-should-retry", "false")]), "{}").is_retryable());
    }
}
