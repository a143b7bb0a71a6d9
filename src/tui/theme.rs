//! The studio's colours: built-in themes from `themes/*.toml`, user themes
//! that override them, and a colourless theme for `NO_COLOR`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Context;
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

use crate::debate::{Heat, Role, SEATS};

const BUILT_IN: [(&str, &str); 3] = [
    ("default", include_str!("../../themes/default.toml")),
    ("light", include_str!("../../themes/light.toml")),
    ("high-contrast", include_str!("../../themes/high-contrast.toml")),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    #[allow(dead_code)]
    name: Option<String>,
    #[serde(default = "yes")]
    dim: bool,
    colors: BTreeMap<String, String>,
}

/// The colour of a seat no theme names (the seats past the duel's, which
/// a format may fill): one of the terminal's own, so it reads on a dark
/// or a light background alike.
fn unset_seat_color(role: Role) -> Color {
    match role {
        Role::Third => Color::Cyan,
        Role::Fourth => Color::Magenta,
        Role::Fifth => Color::Blue,
        Role::Sixth => Color::Green,
        Role::Advocate | Role::Skeptic | Role::Judge => Color::Reset,
    }
}

fn yes() -> bool {
    true
}

/// Resolved colours, ready to paint with.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    /// False when `NO_COLOR` is set: emphasis comes from bold and reverse only.
    pub color: bool,
    pub dim: bool,
    pub text: Color,
    pub muted: Color,
    pub border: Color,
    pub border_focus: Color,
    pub title: Color,
    /// Each seat's colour, by its position (`colors.advocate`, …).
    pub seats: [Color; Role::COUNT],
    pub heading: Color,
    pub code: Color,
    pub quote: Color,
    pub link: Color,
    pub good: Color,
    pub warn: Color,
    pub error: Color,
    pub key: Color,
    pub heat_cool: Color,
    pub heat_hot: Color,
    pub bar_bg: Color,
    pub bar_fg: Color,
    pub overlay_bg: Color,
    /// Painted under every cell of the studio; `reset` leaves the
    /// terminal's own background.
    pub background: Color,
}

impl Theme {
    /// Loads a theme by name (built in, or `<name>.toml` in `user_dir`,
    /// which wins) or by path to a `.toml` file.
    pub fn load(name: &str, user_dir: Option<&Path>, no_color: bool) -> anyhow::Result<Theme> {
        let name = name.trim();
        let as_path = PathBuf::from(name);
        let user_file = user_dir.map(|dir| dir.join(format!("{name}.toml")));
        let (label, text) = if as_path.extension().is_some_and(|e| e.eq_ignore_ascii_case("toml"))
            || name.contains(std::path::MAIN_SEPARATOR)
        {
            let text = std::fs::read_to_string(&as_path)
                .with_context(|| format!("could not read theme file {}", as_path.display()))?;
            (as_path.display().to_string(), text)
        } else if let Some(file) = user_file.filter(|f| f.is_file()) {
            let text =
                std::fs::read_to_string(&file).with_context(|| format!("could not read theme {}", file.display()))?;
            (file.display().to_string(), text)
        } else if let Some((_, text)) = BUILT_IN.iter().find(|(n, _)| *n == name) {
            (format!("built-in theme {name}"), (*text).to_string())
        } else {
            let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
            anyhow::bail!("no theme named {name:?}; built in: {}", names.join(", "));
        };
        let theme = Self::parse(name, &text).with_context(|| format!("in {label}"))?;
        Ok(if no_color { theme.without_color() } else { theme })
    }

    /// Parses a theme file. Colours it leaves out come from the default theme.
    pub fn parse(name: &str, text: &str) -> anyhow::Result<Theme> {
        let file: ThemeFile = toml::from_str(text).context("the theme is not valid TOML of the expected shape")?;
        let fallback: ThemeFile = toml::from_str(BUILT_IN[0].1).context("the default theme does not parse")?;
        let color = |key: &str| -> anyhow::Result<Color> {
            let raw = file.colors.get(key).or_else(|| fallback.colors.get(key)).map_or("reset", String::as_str);
            Color::from_str(raw).map_err(|_| anyhow::anyhow!("colors.{key} = {raw:?} is not a colour"))
        };
        let seat_ids = SEATS.map(|s| s.id);
        let known = [
            "text",
            "muted",
            "border",
            "border_focus",
            "title",
            "heading",
            "code",
            "quote",
            "link",
            "good",
            "warn",
            "error",
            "key",
            "heat_cool",
            "heat_hot",
            "bar_bg",
            "bar_fg",
            "overlay_bg",
            "background",
        ];
        let is_known = |k: &str| known.contains(&k) || seat_ids.contains(&k);
        if let Some(unknown) = file.colors.keys().find(|k| !is_known(k)) {
            let all: Vec<_> = known[..5].iter().chain(&seat_ids).chain(&known[5..]).copied().collect();
            anyhow::bail!("colors.{unknown} is not a theme colour (known: {})", all.join(", "));
        }
        let mut seats = [Color::Reset; Role::COUNT];
        for seat in &SEATS {
            let set = file.colors.contains_key(seat.id) || fallback.colors.contains_key(seat.id);
            seats[seat.position] = if set { color(seat.id)? } else { unset_seat_color(seat.role) };
        }
        Ok(Theme {
            name: name.to_string(),
            color: true,
            dim: file.dim,
            text: color("text")?,
            muted: color("muted")?,
            border: color("border")?,
            border_focus: color("border_focus")?,
            title: color("title")?,
            seats,
            heading: color("heading")?,
            code: color("code")?,
            quote: color("quote")?,
            link: color("link")?,
            good: color("good")?,
            warn: color("warn")?,
            error: color("error")?,
            key: color("key")?,
            heat_cool: color("heat_cool")?,
            heat_hot: color("heat_hot")?,
            bar_bg: color("bar_bg")?,
            bar_fg: color("bar_fg")?,
            overlay_bg: color("overlay_bg")?,
            background: color("background")?,
        })
    }

    /// The same theme with every colour set to the terminal's own.
    #[must_use]
    pub fn without_color(mut self) -> Theme {
        self.color = false;
        for c in [
            &mut self.text,
            &mut self.muted,
            &mut self.border,
            &mut self.border_focus,
            &mut self.title,
            &mut self.heading,
            &mut self.code,
            &mut self.quote,
            &mut self.link,
            &mut self.good,
            &mut self.warn,
            &mut self.error,
            &mut self.key,
            &mut self.heat_cool,
            &mut self.heat_hot,
            &mut self.bar_bg,
            &mut self.bar_fg,
            &mut self.overlay_bg,
            &mut self.background,
        ] {
            *c = Color::Reset;
        }
        self.seats = [Color::Reset; Role::COUNT];
        self
    }

    pub fn built_in_names() -> impl Iterator<Item = &'static str> {
        BUILT_IN.iter().map(|(n, _)| *n)
    }

    pub fn fg(&self, color: Color) -> Style {
        Style::new().fg(color)
    }

    pub fn role(&self, role: Role) -> Color {
        self.seats[role.position()]
    }

    /// What every cell starts as: the text colour on the background, each
    /// only where the theme sets one (the terminal's own otherwise).
    pub fn base(&self) -> Style {
        let mut style = Style::new();
        if self.text != Color::Reset {
            style = style.fg(self.text);
        }
        if self.background != Color::Reset {
            style = style.bg(self.background);
        }
        style
    }

    /// Secondary text: muted colour, dimmed only where the theme allows it.
    pub fn secondary(&self) -> Style {
        let style = Style::new().fg(self.muted);
        if self.dim { style.add_modifier(Modifier::DIM) } else { style }
    }

    /// A heat's colour, blended from cool (0.3) to hot (1.0) when both ends
    /// are RGB, else the nearer end.
    pub fn heat(&self, heat: Heat) -> Color {
        let t = heat.share().clamp(0.0, 1.0);
        match (self.heat_cool, self.heat_hot) {
            (Color::Rgb(r1, g1, b1), Color::Rgb(r2, g2, b2)) => {
                let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
                Color::Rgb(mix(r1, r2), mix(g1, g2), mix(b1, b2))
            }
            (cool, hot) => {
                if t < 0.5 {
                    cool
                } else {
                    hot
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_parse() {
        for name in Theme::built_in_names() {
            let theme = Theme::load(name, None, false).expect(name);
            assert_eq!(theme.name, name);
            assert!(theme.color);
        }
        let contrast = Theme::load("high-contrast", None, false).expect("parses");
        assert!(!contrast.dim, "the projector theme never dims");
        // White text needs its own background: a light terminal's would hide it.
        assert_eq!(contrast.base(), Style::new().fg(Color::White).bg(Color::Black));
        assert_eq!(Theme::load("default", None, false).expect("parses").base(), Style::new());
        assert!(!contrast.secondary().add_modifier.contains(Modifier::DIM));
    }

    #[test]
    fn every_seat_has_a_colour_of_its_own_where_no_theme_names_it() {
        for name in Theme::built_in_names() {
            let theme = Theme::load(name, None, false).expect(name);
            let colours: std::collections::BTreeSet<String> =
                Role::ALL.iter().map(|&r| format!("{:?}", theme.role(r))).collect();
            assert_eq!(colours.len(), Role::COUNT, "{name}: {colours:?}");
        }
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("mine.toml"), "[colors]\nthird = \"#010203\"\n").expect("write");
        let theme = Theme::load("mine", Some(dir.path()), false).expect("loads");
        assert_eq!(theme.role(Role::Third), Color::Rgb(1, 2, 3), "a theme that names a seat wins");
        assert_eq!(theme.role(Role::Fourth), Color::Magenta);
        assert_eq!(Theme::load("default", None, true).expect("loads").role(Role::Third), Color::Reset);
    }

    #[test]
    fn user_dir_overrides_and_bad_files_say_why() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("default.toml"), "[colors]\nadvocate = \"#010203\"\n").expect("write");
        let theme = Theme::load("default", Some(dir.path()), false).expect("loads");
        assert_eq!(theme.role(Role::Advocate), Color::Rgb(1, 2, 3));
        assert_eq!(theme.role(Role::Skeptic), Color::Rgb(0xff, 0x87, 0x5f), "missing colours fall back to the default");

        std::fs::write(dir.path().join("bad.toml"), "[colors]\nadvocate = \"blurple\"\n").expect("write");
        let err = format!("{:#}", Theme::load("bad", Some(dir.path()), false).expect_err("bad colour"));
        assert!(err.contains("colors.advocate") && err.contains("blurple"), "{err}");

        std::fs::write(dir.path().join("typo.toml"), "[colors]\nadvocat = \"red\"\n").expect("write");
        let err = format!("{:#}", Theme::load("typo", Some(dir.path()), false).expect_err("unknown key"));
        assert!(err.contains("colors.advocat"), "{err}");

        let err = format!("{:#}", Theme::load("nope", Some(dir.path()), false).expect_err("unknown"));
        assert!(err.contains("high-contrast"), "{err}");
    }

    #[test]
    fn no_color_strips_every_colour() {
        let theme = Theme::load("default", None, true).expect("loads");
        assert!(!theme.color);
        assert_eq!(theme.role(Role::Advocate), Color::Reset);
        assert_eq!(theme.heat(Heat::MAX), Color::Reset);
    }

    #[test]
    fn heat_blends_from_cool_to_hot() {
        let theme = Theme::load("default", None, false).expect("loads");
        assert_eq!(theme.heat(Heat::MIN), theme.heat_cool);
        assert_eq!(theme.heat(Heat::MAX), theme.heat_hot);
        assert_ne!(theme.heat(Heat::new(0.65)), theme.heat_cool);
    }
}
