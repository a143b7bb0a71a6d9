//! Model text inside heat's own documents. As HTML for the report:
//! Markdown rendered by pulldown-cmark, with everything that could reach
//! outside the page or run taken out (raw HTML becomes text, links keep only
//! their words, images only their description; every text is escaped by the
//! writer). As Markdown for an export: the text as written. Either way a
//! model's own headings are moved down to sit under the heading heat put the
//! text under, so a model's `##` never outranks its seat's `###`.

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

const OPTIONS: Options = Options::ENABLE_STRIKETHROUGH.union(Options::ENABLE_TABLES);

/// `text` (already cleaned of terminal escapes) as inert HTML, placed under
/// a heading of level `under` (the report's `<h3>` for a turn).
pub fn to_html(text: &str, under: usize) -> String {
    let shift = shift(&headings(text), under);
    let events = Parser::new_ext(text, OPTIONS).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { .. } | Tag::Image { .. }) | Event::End(TagEnd::Link | TagEnd::Image) => None,
        Event::Start(Tag::Heading { level, id, classes, attrs }) => {
            Some(Event::Start(Tag::Heading { level: moved(level, shift), id, classes, attrs }))
        }
        Event::End(TagEnd::Heading(level)) => Some(Event::End(TagEnd::Heading(moved(level, shift)))),
        other => Some(other),
    });
    let mut html = String::with_capacity(text.len() * 5 / 4);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// `text` as Markdown placed under a heading of level `under` (`###` is 3):
/// each of its headings, ATX or underlined, is rewritten one level or more
/// below, keeping their order; past `######` a heading becomes a bold line.
/// Text in code blocks is never read as a heading.
pub fn nest_headings(text: &str, under: usize) -> String {
    let found = headings(text);
    let shift = shift(&found, under);
    if shift == 0 {
        return text.to_string();
    }
    let mut out = text.to_string();
    for heading in found.iter().rev() {
        let words = text[heading.words.clone()].trim();
        let level = heading.level + shift;
        let line = if level <= 6 { format!("{} {words}", "#".repeat(level)) } else { format!("**{words}**") };
        let end = if text[heading.whole.clone()].ends_with('\n') { "\n" } else { "" };
        out.replace_range(heading.whole.clone(), &format!("{line}{end}"));
    }
    out
}

/// A heading in a text: its level (1 to 6), the source it spans, and the
/// source of its words.
struct Heading {
    level: usize,
    whole: Range<usize>,
    words: Range<usize>,
}

fn headings(text: &str) -> Vec<Heading> {
    let mut found: Vec<Heading> = Vec::new();
    let mut open = false;
    for (event, range) in Parser::new_ext(text, OPTIONS).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                open = true;
                found.push(Heading { level: level as usize, words: range.start..range.start, whole: range });
            }
            Event::End(TagEnd::Heading(_)) => open = false,
            _ if open => {
                let Some(heading) = found.last_mut() else { continue };
                if heading.words.is_empty() {
                    heading.words = range;
                } else {
                    heading.words.end = heading.words.end.max(range.end);
                }
            }
            _ => {}
        }
    }
    found
}

/// How many levels a text's headings move down so the highest sits just
/// under a heading of level `under`; none when they already do.
fn shift(headings: &[Heading], under: usize) -> usize {
    headings.iter().map(|h| h.level).min().map_or(0, |top| (under + 1).saturating_sub(top))
}

fn moved(level: HeadingLevel, shift: usize) -> HeadingLevel {
    HeadingLevel::try_from((level as usize + shift).min(6)).unwrap_or(HeadingLevel::H6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_models_headings_sit_under_the_heading_heat_put_its_text_under() {
        let text =
            "Intro.\n\n# Claim\n\nBody.\n\n## Evidence ##\n\nMore.\n\nSetext\n------\n\n```\n# not a heading\n```\n";
        let nested = nest_headings(text, 3);
        assert_eq!(
            nested,
            "Intro.\n\n#### Claim\n\nBody.\n\n##### Evidence\n\nMore.\n\n##### Setext\n\n```\n# not a heading\n```\n"
        );
        // Past six levels: a bold line.
        assert_eq!(nest_headings("# a\n\n### c\n", 4), "##### a\n\n**c**\n");
        // Already below: as it was.
        assert_eq!(nest_headings("#### fine\n\ntext", 3), "#### fine\n\ntext");
        let html = to_html("# Claim\n\n## Evidence", 3);
        assert!(html.contains("<h4>Claim</h4>") && html.contains("<h5>Evidence</h5>"), "{html}");
    }

    #[test]
    fn markdown_renders_and_nothing_reaches_out() {
        let html = to_html(
            "**Focus** wins.\n\n- one\n- two\n\n<script>alert(1)</script> [site](https://x.example/) ![pic](http://x.example/p.png)",
            3,
        );
        assert!(html.contains("<strong>Focus</strong>") && html.contains("<li>one</li>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "raw HTML is text: {html}");
        assert!(!html.contains("href") && !html.contains("src="), "{html}");
        assert!(html.contains("site") && html.contains("pic"), "their words stay: {html}");
    }
}
