//! The real binary in a pseudo-terminal, read back through a vt100 parser
//! that also notes what the terminal was asked to do besides drawing text
//! (titles, the clipboard, the bell).
#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// What the terminal was asked to do besides drawing text.
#[derive(Default)]
pub struct Watch {
    pub titles: Vec<String>,
    pub clipboard: Vec<String>,
    pub bells: usize,
}

impl vt100::Callbacks for Watch {
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.titles.push(String::from_utf8_lossy(title).into_owned());
    }
    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, name: &[u8]) {
        self.titles.push(String::from_utf8_lossy(name).into_owned());
    }
    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, _: &[u8], data: &[u8]) {
        self.clipboard.push(String::from_utf8_lossy(data).into_owned());
    }
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bells += 1;
    }
}

pub struct Studio {
    pub screen: Arc<Mutex<vt100::Parser<Watch>>>,
    pub writer: Box<dyn Write + Send>,
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Studio {
    pub fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    pub fn keys(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Waits until the terminal is handed back: the alternate screen left
    /// and the cursor shown.
    pub async fn wait_restored(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let restored = {
                let parser = self.screen.lock().unwrap();
                !parser.screen().alternate_screen() && !parser.screen().hide_cursor()
            };
            if restored {
                return;
            }
            assert!(Instant::now() < deadline, "the terminal was not restored:\n{}", self.text());
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    pub async fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the studio did not quit:\n{}", self.text());
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    pub async fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = self.text();
            if done(&text) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}; the screen shows:\n{text}");
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }
}

/// heat in a terminal, started in `cwd`, with its data in `data`, talking
/// to an Anthropic server at a base URL with a key; with no server, no
/// provider is set up (enough for a replay).
pub fn spawn_heat(
    data: &std::path::Path,
    cwd: &std::path::Path,
    server: Option<(&str, &str)>,
    args: &[&str],
    env: &[(&str, &str)],
) -> Studio {
    let pty = native_pty_system().openpty(PtySize { rows: 40, cols: 120, pixel_width: 0, pixel_height: 0 }).unwrap();
    let config = data.join("heat.toml");
    std::fs::write(&config, "[network]\nmax_retries = 1\n").unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_heat"));
    cmd.args(["--config", config.to_str().unwrap()]);
    cmd.args(args);
    cmd.cwd(cwd);
    cmd.env("HEAT_DATA_DIR", data);
    if let Some((base_url, api_key)) = server {
        cmd.env("ANTHROPIC_API_KEY", api_key);
        cmd.env("ANTHROPIC_BASE_URL", base_url);
    }
    cmd.env("TERM", "xterm-256color");
    for var in ["OPENAI_API_KEY", "HEAT_PROVIDER", "HEAT_MODEL", "NO_COLOR", "HEAT_THEME", "HEAT_MOUSE", "TMUX", "STY"]
        .into_iter()
        .chain(server.is_none().then_some("ANTHROPIC_API_KEY"))
    {
        cmd.env_remove(var);
    }
    for (var, value) in env {
        cmd.env(var, value);
    }
    let child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let screen = Arc::new(Mutex::new(vt100::Parser::new_with_callbacks(
        std::num::NonZero::new(40).unwrap(),
        std::num::NonZero::new(120).unwrap(),
        0,
        Watch::default(),
    )));
    let mut reader = pty.master.try_clone_reader().unwrap();
    let parser = Arc::clone(&screen);
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.lock().unwrap().process(&buf[..n]);
        }
    });
    let writer = pty.master.take_writer().unwrap();
    // Keep the master open for the child's lifetime.
    std::mem::forget(pty.master);
    Studio { screen, writer, child }
}

/// Waits until a session's log under `data` records an event of `kind`
/// (its `type`, as `human_verdict`): the engine has taken what a key asked.
pub async fn wait_logged(data: &std::path::Path, kind: &str) {
    let wanted = format!("\"type\":\"{kind}\"");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let logs = std::fs::read_dir(data.join("sessions")).into_iter().flatten().flatten();
        if logs
            .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
            .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|log| log.contains(&wanted)))
        {
            return;
        }
        assert!(Instant::now() < deadline, "no session's log records {kind}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}
