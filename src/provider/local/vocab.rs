//! The embedded model's vocabulary, read from the GGUF file itself: a
//! byte-level BPE tokenizer (the `tokenizers` crate, built from the file's
//! tokens and merges, so no `tokenizer.json` travels with the model), the
//! bytes each token stands for (to stream text and to build the grammar's
//! token trie) and the tokens that end a turn.

use std::collections::HashMap;

use anyhow::{Context, anyhow, bail};
use candle_core::quantized::gguf_file::{Content, Value};
use serde_json::json;
use toktrie::{TokEnv, TokTrie};
use toktrie_hf_tokenizers::ByteTokenizer;

/// GGUF token types (llama.cpp's `llama_token_type`).
const TYPE_CONTROL: i32 = 3;
const TYPE_USER_DEFINED: i32 = 4;

/// Token texts that end a turn in the chat formats heat meets.
const END_OF_TURN: [&str; 6] = ["<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>", "<end_of_turn>", "</s>"];

/// A model's tokenizer and what its tokens mean.
pub struct Vocab {
    tokenizer: tokenizers::Tokenizer,
    /// Each token's bytes; control tokens are marked with
    /// [`TokTrie::SPECIAL_TOKEN_MARKER`] and never shown.
    pieces: Vec<Vec<u8>>,
    /// Tokens that end generation.
    end_of_turn: Vec<u32>,
    /// The token the template should start with, when the model wants one.
    pub bos: Option<String>,
    pub eos: Option<String>,
    /// The grammar engine's view of the vocabulary.
    env: TokEnv,
}

impl Vocab {
    /// Builds the vocabulary from a GGUF file's metadata.
    pub fn from_gguf(content: &Content) -> anyhow::Result<Self> {
        let md = &content.metadata;
        let kind = md.get("tokenizer.ggml.model").and_then(|v| v.to_string().ok()).map_or("", String::as_str);
        if kind != "gpt2" {
            bail!(
                "its tokenizer is {:?}; the embedded engine reads byte-level BPE tokenizers (\"gpt2\": SmolLM2, Llama 3, Qwen)",
                if kind.is_empty() { "missing" } else { kind }
            );
        }
        let tokens = strings(md, "tokenizer.ggml.tokens")?;
        let merges = strings(md, "tokenizer.ggml.merges")?;
        let types: Vec<i32> = match md.get("tokenizer.ggml.token_type") {
            Some(Value::Array(items)) => items.iter().map(|v| v.to_i32().unwrap_or(1)).collect(),
            _ => vec![1; tokens.len()],
        };
        let token_id = |key: &str| md.get(key).and_then(|v| v.to_u32().ok());
        let text_of = |id: Option<u32>| id.and_then(|id| tokens.get(id as usize).cloned());
        let pre = md.get("tokenizer.ggml.pre").and_then(|v| v.to_string().ok()).map_or("", String::as_str);
        let json = tokenizer_json(&tokens, &types, &merges, pre);
        let tokenizer = tokenizers::Tokenizer::from_bytes(json.to_string().as_bytes())
            .map_err(|e| anyhow!("could not build its tokenizer: {e}"))?;
        let mut end_of_turn: Vec<u32> = (0..tokens.len() as u32)
            .filter(|&id| END_OF_TURN.contains(&tokens[id as usize].as_str()))
            .chain(token_id("tokenizer.ggml.eos_token_id"))
            .chain(token_id("tokenizer.ggml.eot_token_id"))
            .collect();
        end_of_turn.sort_unstable();
        end_of_turn.dedup();
        let eos_id = token_id("tokenizer.ggml.eos_token_id").or_else(|| end_of_turn.first().copied());
        let add_bos = md.get("tokenizer.ggml.add_bos_token").and_then(|v| v.to_bool().ok()).unwrap_or(false);
        let mut bytes = ByteTokenizer::from_tokenizer(tokenizer.clone())
            .map_err(|e| anyhow!("could not read its vocabulary: {e}"))?;
        bytes.set_eos_tokens(&end_of_turn);
        let pieces = bytes.token_bytes();
        let env = bytes.into_tok_env(Some(tokens.len())).map_err(|e| anyhow!("could not index its vocabulary: {e}"))?;
        Ok(Self {
            tokenizer,
            pieces,
            end_of_turn,
            bos: if add_bos { text_of(token_id("tokenizer.ggml.bos_token_id")) } else { None },
            eos: text_of(eos_id),
            env,
        })
    }

    /// Tokenizes templated text; control tokens written in it (`<|im_start|>`)
    /// become their tokens.
    pub fn encode(&self, text: &str) -> anyhow::Result<Vec<u32>> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| anyhow!("could not tokenize the prompt: {e}"))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The bytes a generated token adds to the answer: nothing for a
    /// control token (a template token is never shown).
    pub fn piece(&self, token: u32) -> &[u8] {
        match self.pieces.get(token as usize) {
            Some(bytes) if bytes.first() != Some(&TokTrie::SPECIAL_TOKEN_MARKER) => bytes,
            _ => &[],
        }
    }

    /// Whether `token` ends the turn.
    pub fn ends_turn(&self, token: u32) -> bool {
        self.end_of_turn.contains(&token)
    }

    pub fn tok_env(&self) -> &TokEnv {
        &self.env
    }
}

fn strings(md: &HashMap<String, Value>, key: &str) -> anyhow::Result<Vec<String>> {
    let items = md.get(key).with_context(|| format!("it has no {key}"))?;
    let items = items.to_vec().map_err(|_| anyhow!("its {key} is not a list"))?;
    items.iter().map(|v| v.to_string().cloned().map_err(|_| anyhow!("its {key} holds a non-string"))).collect()
}

/// A `tokenizer.json` for the file's vocabulary. The pre-tokenizer follows
/// llama.cpp's `tokenizer.ggml.pre`: `SmolLM` splits digits one by one,
/// Llama 3 and Qwen 2 group up to three, the rest use GPT-2's split.
fn tokenizer_json(tokens: &[String], types: &[i32], merges: &[String], pre: &str) -> serde_json::Value {
    let vocab: serde_json::Map<String, serde_json::Value> =
        tokens.iter().enumerate().map(|(id, text)| (text.clone(), id.into())).collect();
    let added: Vec<serde_json::Value> = tokens
        .iter()
        .zip(types)
        .enumerate()
        .filter(|(_, (_, kind))| matches!(**kind, TYPE_CONTROL | TYPE_USER_DEFINED))
        .map(|(id, (text, kind))| {
            json!({"id": id, "content": text, "single_word": false, "lstrip": false, "rstrip": false,
                   "normalized": false, "special": *kind == TYPE_CONTROL})
        })
        .collect();
    let byte_level = json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true});
    let pre_tokenizer = match pre {
        "smollm" => {
            json!({"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": true}, byte_level]})
        }
        "llama3" | "llama-bpe" | "qwen2" | "smaug-bpe" => json!({"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": LLAMA3_SPLIT}, "behavior": "Isolated", "invert": false},
            {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}]}),
        _ => byte_level,
    };
    json!({
        "version": "1.0", "truncation": null, "padding": null, "added_tokens": added, "normalizer": null,
        "pre_tokenizer": pre_tokenizer, "post_processor": null,
        "decoder": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true},
        "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": null,
                  "end_of_word_suffix": null, "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
                  "vocab": vocab, "merges": merges}
    })
}

/// Llama 3's (and Qwen 2's) pre-tokenizer split.
const LLAMA3_SPLIT: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
