//! A document cut into passages, the unit a search finds and a debater
//! reads: a Markdown section or a run of paragraphs (code: of blocks), from
//! a few lines up to [`MOST_LINES`], never across a heading, each with the
//! headings it sits under.

/// A passage seldom runs past this many lines (it ends at the next blank
/// line after [`ENOUGH_LINES`]); never past [`MOST_LINES`].
pub const ENOUGH_LINES: usize = 16;
pub const MOST_LINES: usize = 32;
/// Nor past this many characters.
const MOST_CHARS: usize = 2_400;

/// Lines `start..=end` (numbered from 1) of document `doc`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Passage {
    pub doc: usize,
    pub start: usize,
    pub end: usize,
    /// The Markdown headings above it, outermost first (empty in code).
    pub headings: Vec<String>,
}

/// The passages of document `doc`, whose text is `text`, in order; blank
/// runs at a passage's edges are left out, and a document of blank lines
/// has none.
pub fn cut(doc: usize, text: &str) -> Vec<Passage> {
    let mut out = Vec::new();
    let mut headings: Vec<(usize, String)> = Vec::new();
    let mut open: Option<(usize, usize)> = None; // (first line, chars so far)
    let mut fence = false;
    let mut last_text = 0;
    let lines: Vec<&str> = text.lines().collect();
    let close = |out: &mut Vec<Passage>, open: &mut Option<(usize, usize)>, end: usize, heads: &[(usize, String)]| {
        if let Some((start, _)) = open.take().filter(|(start, _)| end >= *start) {
            out.push(Passage { doc, start, end, headings: heads.iter().map(|(_, t)| t.clone()).collect() });
        }
    };
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = !fence;
        }
        let heading = if fence { None } else { heading(line) };
        if let Some((level, title)) = heading {
            close(&mut out, &mut open, last_text, &headings);
            headings.retain(|(l, _)| *l < level);
            headings.push((level, title.to_string()));
        }
        if line.trim().is_empty() {
            let long = open.is_some_and(|(start, chars)| n - start >= ENOUGH_LINES || chars >= MOST_CHARS / 2);
            if long && !fence {
                close(&mut out, &mut open, last_text, &headings);
            }
            continue;
        }
        let (start, chars) = open.get_or_insert((n, 0));
        *chars += line.len();
        if n - *start + 1 >= MOST_LINES || *chars >= MOST_CHARS {
            last_text = n;
            close(&mut out, &mut open, n, &headings);
            continue;
        }
        last_text = n;
    }
    close(&mut out, &mut open, last_text, &headings);
    out
}

/// A Markdown ATX heading: (level, title).
pub fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !rest.is_empty() && !rest.starts_with(' ') {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim();
    (!title.is_empty()).then_some((level, title))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(usize, usize, Vec<String>)> {
        cut(0, text).into_iter().map(|p| (p.start, p.end, p.headings)).collect()
    }

    #[test]
    fn a_heading_starts_a_passage_and_its_path_goes_with_it() {
        let text = "# Studio\nintro\n\n## Keys\np pauses\n\nq quits\n## Themes\ndark\n";
        assert_eq!(
            spans(text),
            [
                (1, 2, vec!["Studio".to_string()]),
                (4, 7, vec!["Studio".into(), "Keys".into()]),
                (8, 9, vec!["Studio".into(), "Themes".into()]),
            ]
        );
    }

    #[test]
    fn long_runs_end_at_a_blank_line_after_enough_lines_or_at_the_most() {
        let mut text = String::new();
        for i in 0..20 {
            text.push_str(&format!("line {i}\n"));
            if i == 17 {
                text.push('\n');
            }
        }
        let got = spans(&text);
        assert_eq!(got.iter().map(|(s, e, _)| (*s, *e)).collect::<Vec<_>>(), [(1, 18), (20, 21)]);
        let long: String = (0..70).map(|i| format!("x{i}")).collect::<Vec<_>>().join("\n");
        let got = spans(&long);
        assert_eq!(got.iter().map(|(s, e, _)| (*s, *e)).collect::<Vec<_>>(), [(1, 32), (33, 64), (65, 70)]);
        assert!(spans("\n\n  \n").is_empty());
    }

    #[test]
    fn a_hash_in_a_code_fence_is_not_a_heading() {
        let text = "# A\n```\n# comment\n```\n";
        assert_eq!(spans(text), [(1, 4, vec!["A".to_string()])]);
    }
}
