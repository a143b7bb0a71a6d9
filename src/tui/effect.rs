//! What the studio asks its event loop to do: the one way key handling,
//! dialogs and the browser reach outside the studio's state.

use crate::debate::{Command, Heat};

/// What the studio asks its event loop to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Pass a command to the running debate.
    Send(Command),
    /// Stop any running debate and start one on this topic.
    Start(String),
    /// Write the debate as Markdown.
    Export,
    /// Serve the shown debate's audience page, or stop it.
    Audience,
    /// Write the debate as an HTML report (the results view shows where).
    Report,
    /// Ask the judge's model for the arbiter's summary of the ended debate.
    Summarize,
    /// Record this event in the shown session, which has ended (the engine
    /// records a live debate's).
    Record(crate::debate::DebateEvent),
    /// Stop the debate, save it and leave.
    Quit,
    /// Leave now (a second Ctrl-C).
    HardQuit,
    /// Hand the terminal to the person's `$EDITOR` for their turn's text,
    /// the draft in it; the studio takes the terminal back after.
    EditTurn,
    /// Open the session browser (the loop fills it from the store).
    Sessions,
    /// Show a stored session, continuing it when it can go on.
    Open(String),
    /// Export a stored session as Markdown.
    ExportSession(String),
    /// Delete a stored session.
    Delete(String),
    /// Give a stored session this name and these tags.
    Label(String, crate::store::label::Change),
    /// Install the offline model (offered by the start screen).
    InstallModel,
    /// Put this text on the terminal's clipboard (OSC 52).
    Copy(Clip),
    /// Put the whole shown debate on the clipboard, as its Markdown export.
    CopyDebate,
    /// Apply and remember the start screen's settings (config key, text).
    Configure(Vec<(String, String)>),
    /// Ask this provider's server which models it serves (the settings'
    /// model picker).
    ListModels(String),
    /// Play the replay at this speed.
    ReplaySpeed(f64),
    /// Skip the replay to the next round.
    ReplaySkip,
    /// Stop what runs and start a branch of a stored debate.
    Branch(BranchRequest),
    /// Go on with the shown debate, which came to its end, for this many
    /// more rounds (a running one is sent `Command::AddRounds`).
    MoreRounds(u32),
}

/// Text to put on the clipboard, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clip {
    pub text: String,
    /// "the skeptic's round 2 argument"
    pub what: String,
}

/// What the event loop needs to start a branch.
#[derive(Debug, Clone, PartialEq)]
pub struct BranchRequest {
    /// The stored debate branched.
    pub from: String,
    /// The last round shared (from 1).
    pub round: u32,
    pub swap_sides: bool,
    /// The next round's heat, when the person set one.
    pub heat: Option<Heat>,
    /// The next round's question, instead of the judge's.
    pub question: Option<String>,
    /// A note the next round's prompts carry.
    pub note: Option<String>,
}
