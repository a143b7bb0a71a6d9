//! Which key does what in the studio: the `Action`s a person can take, their
//! default keys, and `[keys]` overrides from `heat.toml`.

use std::collections::HashMap;

use crossterm::event::KeyEvent;

use super::chord::Chord;

/// Something the person at the keyboard asks of the studio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    TogglePause,
    Inject,
    Temperature,
    ReleaseTemperature,
    ForceResolution,
    CancelTurn,
    /// Set the next round's question, instead of the judge's.
    Ask,
    /// One more round: beyond the limit, or after the debate ended.
    MoreRounds,
    /// Cancel the focused seat's turn only.
    CancelSeat,
    /// Ask the focused seat again, its answer kept as discarded.
    Reroll,
    TakeBack,
    ChangeModel,
    Sent,
    NewDebate,
    Export,
    Sessions,
    Quit,
    Help,
    ToggleReasoning,
    FocusNext,
    FocusPrev,
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    Top,
    Follow,
    Search,
    Copy,
    Faster,
    Slower,
    NextRound,
    TurnStats,
    /// The argument map, in a format that keeps one.
    Map,
    CitedLines,
    Results,
    HumanVerdict,
    Branch,
    CopyDebate,
    /// Presenter mode on or off.
    Present,
    /// The focused pane takes the whole screen, or gives it back.
    Zoom,
    /// Tokens and cost per seat and per round.
    Costs,
    /// Serve the audience page of the shown debate, or stop it.
    Audience,
}

impl Action {
    /// Whether it steers a running debate (and does nothing in a replay or
    /// once the debate ended).
    pub fn steers(self) -> bool {
        matches!(
            self,
            Action::TogglePause
                | Action::Inject
                | Action::Temperature
                | Action::ReleaseTemperature
                | Action::ForceResolution
                | Action::CancelTurn
                | Action::Ask
                | Action::MoreRounds
                | Action::CancelSeat
                | Action::Reroll
                | Action::TakeBack
                | Action::ChangeModel
        )
    }

    /// Every action: its config name, default keys, what help says of it,
    /// what the footer calls it, its help section and how soon the footer
    /// offers it. Help and the footer are made from this table alone, so
    /// an action added here is listed in both wherever it works.
    pub const TABLE: [Binding; 43] = [
        row(Action::TogglePause, "pause", "space", "pause or resume the debate", "pause", Group::Steering, 0),
        row(Action::Inject, "inject", "i", "inject a topic into the next round", "inject", Group::Steering, 1),
        row(Action::Temperature, "temperature", "t", "pin the heat (temperature)", "heat", Group::Steering, 2),
        row(
            Action::ReleaseTemperature,
            "release_temperature",
            "T",
            "release the heat back to the judge",
            "release heat",
            Group::Steering,
            2,
        ),
        row(Action::ForceResolution, "force", "r", "force a resolution now", "resolve", Group::Steering, 3),
        row(Action::CancelTurn, "cancel", "c", "cancel the streaming turns", "cancel", Group::Steering, 13),
        row(
            Action::Ask,
            "question",
            "a",
            "set the next round's question (the judge's, to edit or replace)",
            "question",
            Group::Steering,
            13,
        ),
        row(
            Action::CancelSeat,
            "cancel_seat",
            "C",
            "cancel the focused seat's turn only (its text stands)",
            "cancel seat",
            Group::Steering,
            17,
        ),
        row(
            Action::Reroll,
            "again",
            "R",
            "ask the focused seat again (its answer kept as discarded)",
            "ask again",
            Group::Steering,
            17,
        ),
        row(
            Action::TakeBack,
            "take_back",
            "u",
            "take back a topic, note or question before a request carries it",
            "take back",
            Group::Steering,
            3,
        ),
        row(
            Action::ChangeModel,
            "model",
            "M",
            "put the focused seat on another model from its next turn",
            "model",
            Group::Steering,
            27,
        ),
        row(
            Action::MoreRounds,
            "more",
            "x",
            "one more round: past the limit, or after the debate ended",
            "more rounds",
            Group::Steering,
            16,
        ),
        row(Action::NewDebate, "new", "n", "start a new debate", "new", Group::Debates, 5),
        row(
            Action::HumanVerdict,
            "verdict",
            "v",
            "give your verdict: who is ahead, how sure, a note",
            "verdict",
            Group::Debates,
            10,
        ),
        row(
            Action::Results,
            "results",
            "o",
            "show the results: outcome, heat and words, the report",
            "results",
            Group::Debates,
            11,
        ),
        row(
            Action::Branch,
            "branch",
            "b",
            "branch after a finished round: sides swapped, another heat, a note or question",
            "branch",
            Group::Debates,
            12,
        ),
        row(Action::Export, "export", "e", "export the debate as Markdown", "export", Group::Debates, 14),
        row(Action::Costs, "costs", "$", "tokens and cost: per seat and per round", "costs", Group::Debates, 26),
        row(
            Action::Map,
            "map",
            "m",
            "the argument map: each side's claims and where they stand, scorecards, turning points",
            "map",
            Group::Debates,
            15,
        ),
        row(
            Action::Audience,
            "audience",
            "A",
            "serve the audience page: the room follows and votes",
            "audience",
            Group::Debates,
            35,
        ),
        row(Action::Sessions, "sessions", "s", "browse stored debates", "sessions", Group::Debates, 19),
        row(Action::Quit, "quit", "q", "quit", "quit", Group::Debates, 7),
        row(Action::Faster, "faster", "+, =", "play the replay faster (up to 8×)", "faster", Group::Replay, 8),
        row(Action::Slower, "slower", "-", "play the replay slower (down to 0.5×)", "slower", Group::Replay, 9),
        row(Action::NextRound, "next_round", "]", "skip the replay to the next round", "next round", Group::Replay, 4),
        row(Action::FocusNext, "focus_next", "tab, right, l", "focus the next pane", "pane", Group::Moving, 15),
        row(
            Action::FocusPrev,
            "focus_prev",
            "backtab, left, h",
            "focus the previous pane",
            "previous pane",
            Group::Moving,
            30,
        ),
        row(Action::ScrollUp, "scroll_up", "up, k", "scroll up", "scroll", Group::Moving, 20),
        row(Action::ScrollDown, "scroll_down", "down, j", "scroll down", "scroll down", Group::Moving, 31),
        row(Action::PageUp, "page_up", "pageup, ctrl-u", "scroll up a page", "page up", Group::Moving, 32),
        row(Action::PageDown, "page_down", "pagedown, ctrl-d", "scroll down a page", "page down", Group::Moving, 33),
        row(Action::Top, "top", "home, g", "jump to the top", "top", Group::Moving, 34),
        row(
            Action::Follow,
            "follow",
            "end, G, f",
            "jump to the end and follow the stream",
            "follow",
            Group::Moving,
            21,
        ),
        row(Action::ToggleReasoning, "reasoning", "z", "show or hide reasoning", "reasoning", Group::Moving, 22),
        row(
            Action::Present,
            "present",
            "p",
            "presenter mode: the debaters side by side, the judge's latest verdict in a strip, no key bar",
            "present",
            Group::Moving,
            25,
        ),
        row(Action::Zoom, "zoom", "Z", "give the focused pane the whole screen, or back", "zoom", Group::Moving, 25),
        row(
            Action::TurnStats,
            "stats",
            "d",
            "show or hide each pane's turn time and tokens/s",
            "turn times",
            Group::Moving,
            23,
        ),
        row(
            Action::CitedLines,
            "cited_lines",
            "L",
            "show or hide the source lines a turn cites",
            "cited lines",
            Group::Moving,
            24,
        ),
        row(Action::Help, "help", "?, f1", "show or hide this help", "help", Group::Moving, 6),
        row(Action::Search, "search", "/", "search every pane (Enter finds)", "search", Group::Finding, 16),
        row(
            Action::Copy,
            "copy",
            "y",
            "copy the focused turn or verdict (the one in view)",
            "copy",
            Group::Finding,
            17,
        ),
        row(
            Action::Sent,
            "sent",
            "w",
            "show what the focused turn was sent: its prompt, messages with your notes, temperature",
            "what was sent",
            Group::Finding,
            28,
        ),
        row(
            Action::CopyDebate,
            "copy_debate",
            "Y",
            "copy the whole debate as Markdown",
            "copy debate",
            Group::Finding,
            18,
        ),
    ];

    /// This action's row of [`Action::TABLE`].
    pub fn binding(self) -> &'static Binding {
        // Every action has a row: the keymap's tests hold it so.
        Self::TABLE.iter().find(|row| row.action == self).unwrap_or(&Self::TABLE[0])
    }

    pub fn config_name(self) -> &'static str {
        self.binding().name
    }
}

/// An action's row of the key table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    pub action: Action,
    /// Its name under `[keys]` in heat.toml.
    pub name: &'static str,
    /// Its default keys, as `[keys]` writes them.
    pub keys: &'static str,
    /// What help says it does.
    pub help: &'static str,
    /// What the footer calls it, after its key ("pause").
    pub short: &'static str,
    /// The section of help it is listed in.
    pub group: Group,
    /// How soon the footer offers it: the lowest first, the highest left
    /// out first when the screen is narrow.
    pub rank: u8,
}

const fn row(
    action: Action,
    name: &'static str,
    keys: &'static str,
    help: &'static str,
    short: &'static str,
    group: Group,
    rank: u8,
) -> Binding {
    Binding { action, name, keys, help, short, group, rank }
}

/// The sections of help, in the order it lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Steering,
    Replay,
    Debates,
    Moving,
    Finding,
}

impl Group {
    pub const ALL: [Group; 5] = [Group::Steering, Group::Replay, Group::Debates, Group::Moving, Group::Finding];

    pub fn title(self) -> &'static str {
        match self {
            Group::Steering => "Steering the debate",
            Group::Replay => "Replay",
            Group::Debates => "Debates",
            Group::Moving => "Moving around",
            Group::Finding => "Searching and copying",
        }
    }
}

/// Keys to actions.
#[derive(Debug, Clone)]
pub struct KeyMap {
    bindings: HashMap<Chord, Action>,
    keys: HashMap<Action, Vec<Chord>>,
    /// Every key's label, as a sentence names it ("space", "ctrl-c").
    labels: Vec<String>,
}

impl Default for KeyMap {
    fn default() -> Self {
        Self::with_overrides(|_| None).unwrap_or_else(|_| KeyMap {
            bindings: HashMap::new(),
            keys: HashMap::new(),
            labels: Vec::new(),
        })
    }
}

impl KeyMap {
    /// The first of `names` (the `[keys]` a config sets) that names no
    /// action: the keymap, not the config, knows the actions.
    pub fn unknown_name<'a>(mut names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
        names.find(|name| !Action::TABLE.iter().any(|row| row.name == *name))
    }

    /// The default keys, with any action's keys replaced by `lookup(name)`
    /// (a comma-separated list such as `"p, f5"`).
    pub fn with_overrides(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let mut map = KeyMap { bindings: HashMap::new(), keys: HashMap::new(), labels: Vec::new() };
        for Binding { action, name, keys: defaults, .. } in Action::TABLE {
            let specs = lookup(name).unwrap_or_else(|| defaults.to_string());
            let chords = split_specs(&specs)
                .map(|spec| Chord::parse(spec).map_err(|e| format!("keys.{name}: {e}")))
                .collect::<Result<Vec<_>, _>>()?;
            if chords.is_empty() {
                return Err(format!("keys.{name}: no key given"));
            }
            map.keys.insert(action, chords);
        }
        // Overrides win over defaults when both claim a key.
        for pass_overridden in [false, true] {
            for Binding { action, name, .. } in Action::TABLE {
                if lookup(name).is_some() != pass_overridden {
                    continue;
                }
                for chord in &map.keys[&action] {
                    if let Some(other) = map.bindings.insert(*chord, action)
                        && pass_overridden
                        && lookup(other.config_name()).is_some()
                        && other != action
                    {
                        return Err(format!(
                            "keys.{name}: {} is already bound to keys.{}",
                            chord.label(),
                            other.config_name()
                        ));
                    }
                }
            }
        }
        // A default key taken by an override no longer lists under its old action.
        for (action, chords) in &mut map.keys {
            chords.retain(|c| map.bindings.get(c) == Some(action));
        }
        // Whatever is rebound, a person can always quit and find the keys.
        for needed in [Action::Quit, Action::Help] {
            if map.keys[&needed].is_empty() {
                let taker = Action::TABLE
                    .iter()
                    .find(|row| row.action != needed && lookup(row.name).is_some())
                    .map_or("another key", |row| row.name);
                return Err(format!(
                    "keys.{taker}: it takes every key of keys.{} and leaves no way to {}; \
                     choose another key, or give keys.{} one too",
                    needed.config_name(),
                    if needed == Action::Quit { "quit" } else { "show the help" },
                    needed.config_name()
                ));
            }
        }
        map.labels = map.keys.values().flatten().map(Chord::label).collect();
        Ok(map)
    }

    pub fn action(&self, key: &KeyEvent) -> Option<Action> {
        self.bindings.get(&Chord::from_event(key)).copied()
    }

    /// The first key bound to an action, for hints ("space pause").
    pub fn hint(&self, action: Action) -> String {
        self.keys.get(&action).and_then(|k| k.first()).map(Chord::label).unwrap_or_default()
    }

    /// Every key bound to an action, for the help overlay.
    /// Whether `word` is a key's label (a status sentence keeps a key
    /// and what it does on one row).
    pub fn is_label(&self, word: &str) -> bool {
        self.labels.iter().any(|label| label == word)
    }

    pub fn all_keys(&self, action: Action) -> String {
        self.keys.get(&action).map(|k| k.iter().map(Chord::label).collect::<Vec<_>>().join(", ")).unwrap_or_default()
    }
}

fn split_specs(specs: &str) -> impl Iterator<Item = &str> {
    // "," alone is a key; "a, b" is a list.
    let parts: Vec<&str> = if specs.trim() == "," { vec![","] } else { specs.split(", ").collect() };
    parts.into_iter().map(str::trim).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn defaults_cover_every_action() {
        let map = KeyMap::default();
        assert_eq!(map.action(&key(KeyCode::Char(' '), KeyModifiers::NONE)), Some(Action::TogglePause));
        assert_eq!(map.action(&key(KeyCode::Char('T'), KeyModifiers::SHIFT)), Some(Action::ReleaseTemperature));
        assert_eq!(map.action(&key(KeyCode::Char('t'), KeyModifiers::NONE)), Some(Action::Temperature));
        assert_eq!(map.action(&key(KeyCode::Char('d'), KeyModifiers::CONTROL)), Some(Action::PageDown));
        assert_eq!(map.action(&key(KeyCode::Tab, KeyModifiers::SHIFT)), Some(Action::FocusPrev));
        for row in Action::TABLE {
            assert!(!map.hint(row.action).is_empty(), "{:?} has no key", row.action);
            assert_eq!(row.action.binding(), &row, "one row per action");
        }
    }

    /// Every action has exactly one row in the table (help and the footer
    /// are made from it). A new action does not compile here until it is
    /// named in the match, and is then checked like the others.
    #[test]
    fn every_action_has_one_row() {
        use Action::*;
        let every = [
            TogglePause,
            Inject,
            Temperature,
            ReleaseTemperature,
            ForceResolution,
            CancelTurn,
            NewDebate,
            Export,
            Sessions,
            Quit,
            Help,
            ToggleReasoning,
            FocusNext,
            FocusPrev,
            ScrollUp,
            ScrollDown,
            PageUp,
            PageDown,
            Top,
            Follow,
            Search,
            Copy,
            Faster,
            Slower,
            NextRound,
            TurnStats,
            CitedLines,
            Results,
            HumanVerdict,
            Branch,
            CopyDebate,
            Ask,
            MoreRounds,
            CancelSeat,
            Reroll,
            Present,
            Zoom,
            Costs,
            Audience,
            TakeBack,
            ChangeModel,
            Sent,
            Map,
        ];
        for action in every {
            // Exhaustive: an action left out of `every` is left out here too, and does not compile.
            match action {
                TogglePause | Inject | Temperature | ReleaseTemperature | ForceResolution | CancelTurn | NewDebate
                | Export | Sessions | Quit | Help | ToggleReasoning | FocusNext | FocusPrev | ScrollUp | ScrollDown
                | PageUp | PageDown | Top | Follow | Search | Copy | Faster | Slower | NextRound | TurnStats
                | CitedLines | Results | HumanVerdict | Branch | CopyDebate | Ask | MoreRounds | CancelSeat
                | Reroll | TakeBack | ChangeModel | Sent | Present | Zoom | Costs | Audience | Map => {}
            }
            assert_eq!(Action::TABLE.iter().filter(|row| row.action == action).count(), 1, "{action:?}");
        }
        assert_eq!(Action::TABLE.len(), every.len());
        for row in Action::TABLE {
            assert!(!row.short.is_empty() && !row.help.is_empty(), "{:?} says nothing", row.action);
        }
    }

    #[test]
    fn overrides_replace_defaults_and_take_keys() {
        let map = KeyMap::with_overrides(|name| (name == "pause").then(|| "p, f5".to_string())).expect("valid");
        assert_eq!(map.action(&key(KeyCode::Char('p'), KeyModifiers::NONE)), Some(Action::TogglePause));
        assert_eq!(map.action(&key(KeyCode::F(5), KeyModifiers::NONE)), Some(Action::TogglePause));
        assert_eq!(map.action(&key(KeyCode::Char(' '), KeyModifiers::NONE)), None);
        // Taking a default key from another action moves it.
        let map = KeyMap::with_overrides(|name| (name == "quit").then(|| "x, c".to_string())).expect("valid");
        assert_eq!(map.action(&key(KeyCode::Char('c'), KeyModifiers::NONE)), Some(Action::Quit));
        assert_eq!(map.all_keys(Action::CancelTurn), "");
    }

    #[test]
    fn bad_specs_name_the_key() {
        let err = KeyMap::with_overrides(|name| (name == "help").then(|| "hyper-x".to_string())).expect_err("bad");
        assert!(err.contains("keys.help") && err.contains("hyper-x"), "{err}");
        let err =
            KeyMap::with_overrides(|name| matches!(name, "help" | "quit").then(|| "x".to_string())).expect_err("clash");
        let no_quit = KeyMap::with_overrides(|name| (name == "pause").then(|| "q".to_string())).expect_err("no quit");
        assert!(no_quit.starts_with("keys.pause:") && no_quit.contains("no way to quit"), "{no_quit}");
        let no_help = KeyMap::with_overrides(|name| (name == "pause").then(|| "?, f1".to_string())).expect_err("help");
        assert!(no_help.contains("no way to show the help"), "{no_help}");
        assert!(err.contains("already bound"), "{err}");
    }
}
