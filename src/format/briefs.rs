//! Where a format comes from, and the brief files it may name: beside a
//! user's format file, or one of heat's own prompts.

use std::path::PathBuf;

/// Where a format came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    BuiltIn,
    File(PathBuf),
}

/// The brief files a format may name without shipping its own.
pub const BUILT_IN_BRIEFS: [(&str, &str); 19] = [
    ("advocate.md", include_str!("../../prompts/advocate.md")),
    ("skeptic.md", include_str!("../../prompts/skeptic.md")),
    ("judge.md", include_str!("../../prompts/judge.md")),
    ("oxford_proposition.md", include_str!("../../prompts/oxford_proposition.md")),
    ("oxford_opposition.md", include_str!("../../prompts/oxford_opposition.md")),
    ("oxford_judge.md", include_str!("../../prompts/oxford_judge.md")),
    ("socratic_judge.md", include_str!("../../prompts/socratic_judge.md")),
    ("debater.md", include_str!("../../prompts/debater.md")),
    ("vote_analyst.md", include_str!("../../prompts/vote_analyst.md")),
    ("vote_pragmatist.md", include_str!("../../prompts/vote_pragmatist.md")),
    ("vote_contrarian.md", include_str!("../../prompts/vote_contrarian.md")),
    ("panel_optimist.md", include_str!("../../prompts/panel_optimist.md")),
    ("panel_realist.md", include_str!("../../prompts/panel_realist.md")),
    ("panel_critic.md", include_str!("../../prompts/panel_critic.md")),
    ("panel_judge.md", include_str!("../../prompts/panel_judge.md")),
    ("review_defender.md", include_str!("../../prompts/review_defender.md")),
    ("review_logic.md", include_str!("../../prompts/review_logic.md")),
    ("review_ops.md", include_str!("../../prompts/review_ops.md")),
    ("review_judge.md", include_str!("../../prompts/review_judge.md")),
];

/// A brief's text: beside a user's format file first, then built in.
pub fn brief_text(name: &str, origin: &Origin) -> Option<String> {
    if let Origin::File(path) = origin {
        let beside = path.parent().map(|dir| dir.join(name)).filter(|p| p.is_file());
        if let Some(text) = beside.and_then(|p| std::fs::read_to_string(p).ok()) {
            return Some(text);
        }
    }
    BUILT_IN_BRIEFS.iter().find(|(n, _)| *n == name).map(|(_, text)| (*text).to_string())
}
