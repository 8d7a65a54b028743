//! Helpers shared by the integration tests.

use veil::tools::perft::{read_suite, SuiteEntry};

/// The entries of `perft/<name>` in the repository.
#[allow(dead_code)]
pub fn suite(name: &str) -> Vec<SuiteEntry> {
    let path = format!("{}/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    read_suite(&path).unwrap_or_else(|error| panic!("{error}"))
}

/// The FEN of every line of both perft suites, covered first.
#[allow(dead_code)]
pub fn suite_fens() -> Vec<String> {
    ["covered.epd", "standard.epd"]
        .into_iter()
        .flat_map(suite)
        .map(|entry| entry.fen)
        .collect()
}

/// Runs the `veil` binary with `args` to its end.
#[allow(dead_code)]
pub fn veil(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_veil"))
        .args(args)
        .output()
        .expect("veil runs")
}

/// Runs the `veil` binary with `args` to its end, its standard output closed from the start
/// (a reader that stops at once, as `veil ... | head -0` would).
#[allow(dead_code)]
pub fn veil_with_stdout_closed(args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_veil"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("veil runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("veil ends")
}

/// An empty scratch directory for one test of this process (`veil-<tag>-<pid>` under the
/// system's temporary directory), whatever an earlier run left there; it goes, with
/// everything in it, when the test ends (passed or not).
#[allow(dead_code)]
pub fn scratch_dir(tag: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("veil-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    Scratch(dir)
}

/// A directory that several tests of one test binary share (through a static, which is never
/// dropped): `veil-<tag>` under the directory cargo keeps for integration tests' files in
/// the build's target directory, so a run leaves nothing in the system's temporary
/// directory and the next run reuses it.
#[allow(dead_code)]
pub fn shared_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("veil-{tag}"));
    std::fs::create_dir_all(&dir).expect("a shared test directory");
    dir
}

/// The compiled-in levels without their time caps, as a levels file written once a run (tests
/// running side by side read it): a time cap can cut a search short on a busy machine, and
/// the same move is promised only when a node cap ends the search.
#[allow(dead_code)]
pub fn untimed_levels_file() -> std::path::PathBuf {
    static PATH: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let mut table = veil::search::level::LevelTable::default();
        for level in &mut table.levels {
            level.movetime_ms = None;
        }
        let path = shared_dir("untimed-levels").join("levels.toml");
        std::fs::write(&path, table.to_toml()).expect("write the levels file");
        path
    })
    .clone()
}

/// A directory removed with its contents when dropped; it reads as its path.
pub struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A `veil` engine process with piped stdin and stdout.
#[allow(dead_code)]
pub struct Spawned {
    pub child: std::process::Child,
    pub stdin: std::process::ChildStdin,
    /// Its stdout, a line at a time (the bytes before each newline), fed by a reader thread:
    /// a test that waits with a timeout fails on a silent engine instead of hanging.
    pub lines: std::sync::mpsc::Receiver<Vec<u8>>,
}

/// Starts `veil` with `args`, the environment variables `vars` and no other `VEIL_*` limit
/// from the caller's environment, its stderr going to `stderr`.
#[allow(dead_code)]
pub fn spawn_engine(args: &[&str], vars: &[(&str, &str)], stderr: std::process::Stdio) -> Spawned {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut command = Command::new(env!("CARGO_BIN_EXE_veil"));
    for name in ["VEIL_MAX_HASH", "VEIL_MAX_THREADS", "VEIL_NO_FILE_OPTIONS"] {
        command.env_remove(name);
    }
    let mut child = command
        .args(args)
        .envs(vars.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("spawn the engine");
    let stdout = child.stdout.take().expect("engine stdout");
    let stdin = child.stdin.take().expect("engine stdin");
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = std::io::BufReader::new(stdout);
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match reader.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = buffer.strip_suffix(b"\n").unwrap_or(&buffer).to_vec();
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Spawned { child, stdin, lines }
}

/// A line of output as text: invalid UTF-8 replaced, a trailing carriage return dropped.
#[allow(dead_code)]
pub fn text(line: &[u8]) -> String {
    String::from_utf8_lossy(line).trim_end_matches('\r').to_string()
}

/// Waits (two minutes at most) until `ready` holds, then sends `signal` to `child` (to its
/// whole process group with `group`, as a terminal's Ctrl-C does), waits for it to end, checks
/// that it ended with exit status 130, and returns what it printed.
#[allow(dead_code)]
pub fn stop_when(child: std::process::Child, ready: impl Fn() -> bool, signal: libc::c_int, group: bool) -> String {
    let start = std::time::Instant::now();
    while !ready() && start.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(ready(), "not ready to be stopped in two minutes");
    let pid = child.id() as libc::pid_t;
    let target = if group { -pid } else { pid };
    // SAFETY: a plain system call on the child's pid (or process group).
    assert_eq!(unsafe { libc::kill(target, signal) }, 0);
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    stdout
}
