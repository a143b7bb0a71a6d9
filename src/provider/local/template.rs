//! The embedded model's chat template: the Jinja template the GGUF file
//! carries (`tokenizer.chat_template`), rendered with `minijinja`; a file
//! without one gets `ChatML`, and says so.

use candle_core::quantized::gguf_file::Content;
use minijinja::{Environment, Error, ErrorKind, context};

use super::super::{ChatMessage, ChatRole};

/// `ChatML`, the format `SmolLM2` and Qwen were trained on.
const CHATML: &str = "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

/// A compiled chat template.
pub struct ChatTemplate {
    env: Environment<'static>,
    /// Set when the file had no template of its own: the name of the one used.
    pub fallback: Option<&'static str>,
    bos: String,
    eos: String,
}

impl ChatTemplate {
    /// The file's template, or `ChatML` when it has none.
    pub fn from_gguf(content: &Content, bos: Option<&str>, eos: Option<&str>) -> anyhow::Result<Self> {
        let own = content.metadata.get("tokenizer.chat_template").and_then(|v| v.to_string().ok()).cloned();
        let fallback = own.is_none().then_some("ChatML");
        let source = own.unwrap_or_else(|| CHATML.to_string());
        let mut env = Environment::new();
        minijinja_contrib::add_to_environment(&mut env);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_function("raise_exception", |message: String| -> Result<String, Error> {
            Err(Error::new(ErrorKind::InvalidOperation, message))
        });
        env.add_template_owned("chat", source)
            .map_err(|e| anyhow::anyhow!("its chat template does not compile: {e}"))?;
        Ok(Self { env, fallback, bos: bos.unwrap_or_default().into(), eos: eos.unwrap_or_default().into() })
    }

    /// The prompt for `messages` after `system`, ending where the assistant's
    /// answer begins.
    pub fn render(&self, system: &str, messages: &[ChatMessage]) -> anyhow::Result<String> {
        let mut all = Vec::with_capacity(messages.len() + 1);
        if !system.is_empty() {
            all.push(context! { role => "system", content => system });
        }
        for message in messages {
            let role = match message.role {
                ChatRole::User => "user",
                ChatRole::Assistant => "assistant",
            };
            all.push(context! { role => role, content => &message.content });
        }
        let template = self.env.get_template("chat").map_err(|e| anyhow::anyhow!("{e}"))?;
        let text = template
            .render(context! {
                messages => all,
                add_generation_prompt => true,
                bos_token => &self.bos,
                eos_token => &self.eos,
            })
            .map_err(|e| anyhow::anyhow!("its chat template failed: {e}"))?;
        Ok(text)
    }
}
