//! `heat completions SHELL` loaded into the real shells, typed into as a
//! person types (`heat re<TAB>`), and `heat man` rendered by `man`. A shell
//! that is not installed is skipped, and says so, unless
//! `HEAT_REQUIRE_SHELLS=1` (CI, which installs bash, zsh and fish) makes its
//! absence a failure.

use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

use crate::support::binary::heat;

fn required() -> bool {
    std::env::var("HEAT_REQUIRE_SHELLS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Whether `program` runs here; with `HEAT_REQUIRE_SHELLS` set, a missing one fails the test.
fn installed(program: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(found || !required(), "HEAT_REQUIRE_SHELLS is set but `{program}` is not installed");
    if !found {
        eprintln!(
            "skipped: {program} is not installed (apt-get install {program}; HEAT_REQUIRE_SHELLS=1 fails instead)"
        );
    }
    found
}

fn script(shell: &str) -> String {
    let data = tempfile::tempdir().expect("temp dir");
    let out = heat(data.path(), "").args(["completions", shell]).output().expect("heat runs");
    assert!(out.status.success(), "heat completions {shell}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("a script is text")
}

/// The shell, interactive in a terminal, with heat's completions installed
/// where the README says to put them, and the built `heat` first on PATH.
fn shell_with_completions(shell: &str, home: &Path) -> CommandBuilder {
    let completions = script(shell);
    let mut cmd = CommandBuilder::new(shell);
    match shell {
        "bash" => {
            let rc = home.join("bashrc");
            std::fs::write(home.join("heat.bash"), completions).expect("script written");
            std::fs::write(&rc, format!("PS1='% '\nsource {}\n", home.join("heat.bash").display()))
                .expect("rc written");
            cmd.args(["--noprofile", "--rcfile", rc.to_str().expect("utf-8 path"), "-i"]);
        }
        "zsh" => {
            // zsh ships a `_heat` of its own (OpenStack's heat client, in
            // `_openstack`): ours answers only from the front of fpath,
            // which is where the README puts it.
            let functions = home.join("zfunc");
            std::fs::create_dir_all(&functions).expect("dir made");
            std::fs::write(functions.join("_heat"), completions).expect("script written");
            let rc =
                format!("fpath=({} $fpath)\nautoload -U compinit && compinit -u\nPS1='%% '\n", functions.display());
            std::fs::write(home.join(".zshrc"), rc).expect("rc written");
            cmd.env("ZDOTDIR", home);
            cmd.args(["--no-globalrcs", "-i"]);
        }
        "fish" => {
            let functions = home.join(".config/fish/completions");
            std::fs::create_dir_all(&functions).expect("dir made");
            std::fs::write(functions.join("heat.fish"), completions).expect("script written");
            cmd.env("XDG_CONFIG_HOME", home.join(".config"));
            cmd.env("XDG_DATA_HOME", home.join(".local/share"));
            cmd.args(["--no-config", "-i", "-C", &format!("set fish_complete_path {} $fish_complete_path; function fish_prompt; echo '% '; end; function fish_greeting; end", functions.display())]);
        }
        _ => unreachable!("no set-up for {shell}"),
    }
    cmd.env("HOME", home);
    cmd.env("TERM", "xterm");
    let bin = Path::new(env!("CARGO_BIN_EXE_heat")).parent().expect("the binary has a folder");
    cmd.env("PATH", format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default()));
    cmd
}

/// Types `input` into `shell` with heat's completions installed, and waits
/// (up to 30 s: the shell may load slowly on a busy machine) until the
/// screen shows everything in `expected`; returns the screen either way.
fn complete(shell: &str, input: &str, expected: &[&str]) -> String {
    let home = tempfile::tempdir().expect("temp dir");
    let (rows, cols) = (30, 160);
    let pty = native_pty_system().openpty(PtySize { rows, cols, pixel_width: 0, pixel_height: 0 }).expect("a pty");
    let mut child = pty.slave.spawn_command(shell_with_completions(shell, home.path())).expect("the shell starts");
    drop(pty.slave);
    let screen = Arc::new(Mutex::new(vt100::Parser::new(
        std::num::NonZero::new(rows).expect("rows"),
        std::num::NonZero::new(cols).expect("cols"),
        0,
    )));
    let mut reader = pty.master.try_clone_reader().expect("a reader");
    let parser = Arc::clone(&screen);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.lock().expect("parser").process(&buf[..n]);
        }
    });
    let text = || screen.lock().expect("parser").screen().contents();
    let mut writer = pty.master.take_writer().expect("a writer");
    let deadline = Instant::now() + Duration::from_secs(30);
    // The prompt first, so the keys reach a shell that has loaded its rc.
    while !text().contains('%') && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(30));
    }
    writer.write_all(input.as_bytes()).expect("keys typed");
    writer.flush().expect("keys sent");
    while !expected.iter().all(|e| text().contains(e)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(30));
    }
    // Whatever else the shell meant to draw with it is drawn by now.
    std::thread::sleep(Duration::from_millis(200));
    let screen = text();
    let _ = child.kill();
    screen
}

/// `heat re<TAB>` offers the four commands that start so, and no other.
const RE_COMMANDS: [&str; 4] = ["resume", "replay", "report", "rematch"];

fn offers_the_re_commands(screen: &str) {
    for command in RE_COMMANDS {
        assert!(screen.contains(command), "`heat re<TAB>` does not offer {command}:\n{screen}");
    }
    for command in ["sessions", "doctor", "watch"] {
        assert!(!screen.contains(command), "`heat re<TAB>` offers {command}:\n{screen}");
    }
}

#[test]
fn bash_completes_commands() {
    if !installed("bash") {
        return;
    }
    offers_the_re_commands(&complete("bash", "heat re\t\t", &RE_COMMANDS));
    let one = complete("bash", "heat res\t", &["heat resume"]);
    assert!(one.contains("heat resume"), "`heat res<TAB>` is not completed to `heat resume`:\n{one}");
}

#[test]
fn zsh_completes_commands() {
    if !installed("zsh") {
        return;
    }
    offers_the_re_commands(&complete("zsh", "heat re\t", &RE_COMMANDS));
    let one = complete("zsh", "heat res\t", &["heat resume"]);
    assert!(one.contains("heat resume"), "`heat res<TAB>` is not completed to `heat resume`:\n{one}");
}

#[test]
fn fish_completes_commands() {
    if !installed("fish") {
        return;
    }
    offers_the_re_commands(&complete("fish", "heat re\t", &RE_COMMANDS));
    let one = complete("fish", "heat res\t", &["heat resume"]);
    assert!(one.contains("heat resume"), "`heat res<TAB>` is not completed to `heat resume`:\n{one}");
}

#[test]
fn bash_completes_a_commands_flags() {
    if !installed("bash") {
        return;
    }
    let screen = complete("bash", "heat export --form\t", &["--format"]);
    assert!(screen.contains("--format"), "`heat export --form<TAB>` is not completed to --format:\n{screen}");
}

#[test]
fn an_unknown_shell_is_refused_with_the_ones_known() {
    let data = tempfile::tempdir().expect("temp dir");
    let out = heat(data.path(), "").args(["completions", "tcsh"]).output().expect("heat runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tcsh") && err.contains("bash") && err.contains("fish"), "{err}");
}

/// `man` renders heat(1) and a command's page without a warning.
fn rendered(args: &[&str]) -> String {
    let data = tempfile::tempdir().expect("temp dir");
    let out = heat(data.path(), "").args(args).output().expect("heat runs");
    assert!(out.status.success(), "heat {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let page = data.path().join("page.1");
    std::fs::write(&page, &out.stdout).expect("page written");
    let man = Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "0")
        .output()
        .expect("man runs");
    assert!(man.status.success(), "man failed: {}", String::from_utf8_lossy(&man.stderr));
    assert!(man.stderr.is_empty(), "man warned: {}", String::from_utf8_lossy(&man.stderr));
    // `man` to a pipe still overstrikes bold (c\bc); read the letters.
    let text = String::from_utf8_lossy(&man.stdout).to_string();
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain
}

#[test]
fn man_renders_heats_page_and_each_commands() {
    if !installed("man") {
        return;
    }
    let page = rendered(&["man"]);
    for part in ["NAME", "SYNOPSIS", "heat-run(1)", "--max-rounds", "heat doctor"] {
        assert!(page.contains(part), "heat(1) has no `{part}`:\n{page}");
    }
    let run = rendered(&["man", "sessions", "rm"]);
    assert!(run.contains("heat-sessions-rm") && run.contains("--yes"), "heat-sessions-rm(1):\n{run}");
}

#[test]
fn man_names_a_command_it_does_not_know() {
    let data = tempfile::tempdir().expect("temp dir");
    let out = heat(data.path(), "").args(["man", "sessions", "rename-all"]).output().expect("heat runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`heat sessions` has no command `rename-all`") && err.contains("prune"), "{err}");
}

#[test]
fn man_dir_writes_a_page_per_command() {
    let data = tempfile::tempdir().expect("temp dir");
    let dir = data.path().join("man/man1");
    // Another program's page already there is not counted as heat's.
    std::fs::create_dir_all(&dir).expect("dir made");
    std::fs::write(dir.join("other.1"), ".TH other 1").expect("page written");
    let out = heat(data.path(), "").arg("man").arg("--dir").arg(&dir).output().expect("heat runs");
    assert!(out.status.success());
    for page in ["heat.1", "heat-run.1", "heat-sessions-rm.1", "heat-completions.1"] {
        assert!(dir.join(page).is_file(), "no {page} in {}", dir.display());
    }
    let written = std::fs::read_dir(&dir)
        .expect("dir")
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_name().to_string_lossy().starts_with("heat")))
        .count();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&format!("wrote {written} manual pages into ")), "{written} written: {said}");
    assert!(said.contains(&format!("when {} is on the manual path", data.path().join("man").display())), "{said}");
}
