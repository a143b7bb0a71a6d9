//! Model text as HTML for the report: Markdown rendered by pulldown-cmark,
//! with everything that could reach outside the page or run taken out. Raw
//! HTML becomes text, links keep only their words, images only their
//! description; every text is escaped by the writer.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// `text` (already cleaned of terminal escapes) as inert HTML.
pub fn to_html(text: &str) -> String {
    let events =
        Parser::new_ext(text, Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES).filter_map(|event| match event {
            Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) | Event::End(TagEnd::Link | TagEnd::Image) => None,
            other => Some(other),
        });
    let mut html = String::with_capacity(text.len() * 5 / 4);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_renders_and_nothing_reaches_out() {
        let html = to_html(
            "**Focus** wins.\n\n- one\n- two\n\n<script>alert(1)</script> [site](https://x.example/) ![pic](http://x.example/p.png)",
        );
        assert!(html.contains("<strong>Focus</strong>") && html.contains("<li>one</li>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "raw HTML is text: {html}");
        assert!(!html.contains("href") && !html.contains("src="), "{html}");
        assert!(html.contains("site") && html.contains("pic"), "their words stay: {html}");
    }
}
