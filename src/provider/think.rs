//! Reasoning a model writes inline, as `<think>…</think>` at the start of
//! its answer (DeepSeek-R1, Qwen3 and others, on servers that pass it
//! through as text): split from the answer as the stream comes, a tag cut
//! across pieces included, so it reaches the reasoning block and never the
//! argument or a judge's input. Only a block that opens the answer counts:
//! `<think>` later in an answer is the answer's own text.

/// What part of the answer a piece of text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Reasoning(String),
    Text(String),
}

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Nothing but whitespace yet: a block may still open.
    #[default]
    Start,
    Thinking,
    /// The answer, its leading whitespace (after a block) still dropped.
    AnswerStart,
    Answer,
}

/// The split of one answer's text, fed piece by piece.
#[derive(Debug, Default)]
pub struct ThinkSplit {
    part: Part,
    /// Text that may yet turn out to be a tag.
    held: String,
}

impl ThinkSplit {
    /// The pieces `text` (the next part of the answer) makes, as far as
    /// they can be told yet.
    pub fn feed(&mut self, text: &str) -> Vec<Piece> {
        let mut out = Vec::new();
        self.held.push_str(text);
        loop {
            match self.part {
                Part::Start => {
                    let trimmed = self.held.trim_start();
                    if let Some(rest) = trimmed.strip_prefix(OPEN) {
                        self.held = rest.to_string();
                        self.part = Part::Thinking;
                        continue;
                    }
                    if trimmed.is_empty() || OPEN.starts_with(trimmed) {
                        return out;
                    }
                    self.part = Part::Answer;
                }
                Part::Thinking => {
                    if let Some(at) = self.held.find(CLOSE) {
                        let reasoning = self.held[..at].to_string();
                        self.held.drain(..at + CLOSE.len());
                        push(&mut out, Piece::Reasoning(reasoning));
                        self.part = Part::AnswerStart;
                        continue;
                    }
                    // Keep back what could be the start of the closing tag.
                    let keep = partial_suffix(&self.held, CLOSE);
                    let reasoning: String = self.held.drain(..self.held.len() - keep).collect();
                    push(&mut out, Piece::Reasoning(reasoning));
                    return out;
                }
                Part::AnswerStart => {
                    let trimmed = self.held.trim_start();
                    if trimmed.is_empty() {
                        self.held.clear();
                        return out;
                    }
                    self.held = trimmed.to_string();
                    self.part = Part::Answer;
                }
                Part::Answer => {
                    push(&mut out, Piece::Text(std::mem::take(&mut self.held)));
                    return out;
                }
            }
        }
    }

    /// What is held at the answer's end: a block never closed was all
    /// reasoning; anything else is text.
    pub fn finish(&mut self) -> Vec<Piece> {
        let held = std::mem::take(&mut self.held);
        let mut out = Vec::new();
        match self.part {
            Part::Thinking => push(&mut out, Piece::Reasoning(held)),
            Part::AnswerStart => {}
            Part::Start | Part::Answer => push(&mut out, Piece::Text(held)),
        }
        out
    }
}

fn push(out: &mut Vec<Piece>, piece: Piece) {
    let (Piece::Reasoning(text) | Piece::Text(text)) = &piece;
    if !text.is_empty() {
        out.push(piece);
    }
}

/// How many bytes at the end of `text` could begin `tag`.
fn partial_suffix(text: &str, tag: &str) -> usize {
    (1..tag.len())
        .rev()
        .find(|&n| text.len() >= n && text.is_char_boundary(text.len() - n) && tag.starts_with(&text[text.len() - n..]))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece of `parts` fed in turn, then the end: the reasoning and
    /// the text, each joined.
    fn split(parts: &[&str]) -> (String, String) {
        let mut splitter = ThinkSplit::default();
        let mut pieces: Vec<Piece> = parts.iter().flat_map(|p| splitter.feed(p)).collect();
        pieces.extend(splitter.finish());
        let mut said = (String::new(), String::new());
        for piece in pieces {
            match piece {
                Piece::Reasoning(t) => said.0.push_str(&t),
                Piece::Text(t) => said.1.push_str(&t),
            }
        }
        said
    }

    #[test]
    fn a_block_that_opens_the_answer_is_reasoning_whatever_the_cuts() {
        let whole = "<think>\nThe user wants tabs.\n</think>\n\nTabs let each reader choose.";
        let expected = ("\nThe user wants tabs.\n".to_string(), "Tabs let each reader choose.".to_string());
        assert_eq!(split(&[whole]), expected);
        // Cut at every byte: a tag split across pieces is still a tag.
        for cut in 1..whole.len() {
            assert_eq!(split(&[&whole[..cut], &whole[cut..]]), expected, "cut at {cut}");
        }
        let chars: Vec<String> = whole.chars().map(String::from).collect();
        assert_eq!(split(&chars.iter().map(String::as_str).collect::<Vec<_>>()), expected, "a character at a time");
    }

    #[test]
    fn text_without_a_block_or_with_one_later_is_all_answer() {
        assert_eq!(split(&["Tabs ", "win."]), (String::new(), "Tabs win.".into()));
        assert_eq!(split(&["  <thi", "s is fine>"]), (String::new(), "  <this is fine>".into()));
        let later = "Tabs win. <think>not reasoning</think> really.";
        assert_eq!(split(&[later]), (String::new(), later.into()));
        assert_eq!(split(&["<"]), (String::new(), "<".into()), "held text comes out at the end");
    }

    #[test]
    fn an_unclosed_block_is_all_reasoning_and_a_close_keeps_non_ascii_whole() {
        assert_eq!(split(&["<think>still thinking…"]), ("still thinking…".into(), String::new()));
        assert_eq!(split(&["<think>naïve “quote” </", "think>Réponse"]), ("naïve “quote” ".into(), "Réponse".into()));
    }
}
