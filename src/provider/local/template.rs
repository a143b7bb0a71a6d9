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
            all.push(context! { role => role, content => super::look_up::as_text(message) });
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::collections::HashMap;

    use candle_core::quantized::gguf_file::{Content, Value, VersionedMagic};

    use super::*;

    fn content(template: Option<&str>) -> Content {
        let mut metadata = HashMap::new();
        if let Some(template) = template {
            metadata.insert("tokenizer.chat_template".to_string(), Value::String(template.into()));
        }
        Content { magic: VersionedMagic::GgufV3, metadata, tensor_infos: HashMap::new(), tensor_data_offset: 0 }
    }

    /// SmolLM2-135M-Instruct's own template, as its GGUF carries it.
    const SMOLLM2: &str = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

    #[test]
    fn the_files_own_template_renders_the_chat_and_opens_the_answer() {
        let template = ChatTemplate::from_gguf(&content(Some(SMOLLM2)), None, Some("<|im_end|>")).unwrap();
        assert_eq!(template.fallback, None);
        let text = template
            .render("Be brief.", &[ChatMessage::user("Hi"), ChatMessage::assistant("Hello"), ChatMessage::user("Why?")])
            .unwrap();
        assert_eq!(
            text,
            "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n\
             Hello<|im_end|>\n<|im_start|>user\nWhy?<|im_end|>\n<|im_start|>assistant\n"
        );
    }

    #[test]
    fn a_file_without_a_template_gets_chatml_and_says_so() {
        let template = ChatTemplate::from_gguf(&content(None), None, None).unwrap();
        assert_eq!(template.fallback, Some("ChatML"));
        let text = template.render("", &[ChatMessage::user("Hi")]).unwrap();
        assert_eq!(text, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    }

    #[test]
    fn python_string_methods_and_raise_exception_work_as_in_hugging_face_templates() {
        let source = "{% if messages[0]['role'] != 'system' %}{{ raise_exception('system first') }}{% endif %}\
                      {% for m in messages %}[{{ m['content'].strip() }}]{% endfor %}";
        let template = ChatTemplate::from_gguf(&content(Some(source)), None, None).unwrap();
        assert_eq!(template.render("  sys  ", &[ChatMessage::user(" hi ")]).unwrap(), "[sys][hi]");
        let err = template.render("", &[ChatMessage::user("hi")]).unwrap_err();
        assert!(err.to_string().contains("system first"), "{err}");
    }

    #[test]
    fn a_template_that_does_not_compile_is_refused_with_a_sentence() {
        let Err(err) = ChatTemplate::from_gguf(&content(Some("{% for %}")), None, None) else {
            panic!("a broken template was accepted")
        };
        assert!(err.to_string().contains("chat template does not compile"), "{err}");
    }
}
