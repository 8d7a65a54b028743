//! An engine as the arbiter sees it: a child process spoken to in UCI over pipes. A reader
//! thread turns its output into time-stamped lines on a channel, so every wait has a deadline
//! and a hung engine never blocks the match. Dropping an engine ends its process and reaps it,
//! so no zombie is left behind.

use crossbeam::channel::{self, Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The longest output line kept whole; anything longer is cut (an engine spewing garbage
/// without newlines cannot exhaust the arbiter's memory).
const MAX_LINE: usize = 64 * 1024;

/// How an engine is started and configured.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// `setoption` pairs sent after `uciok`, in order.
    pub options: Vec<(String, String)>,
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process closed its output (it exited or crashed).
    Exited,
    /// The expected answer did not come in time.
    Timeout(&'static str),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(why) => write!(f, "cannot start: {why}"),
            EngineError::Exited => write!(f, "the engine process exited"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
        }
    }
}

/// A line the engine wrote, with the moment the arbiter read it.
struct Line {
    text: String,
    at: Instant,
}

/// A running engine process.
pub struct Engine {
    spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// Set once the engine has failed in a way that makes it unusable for another game.
    broken: bool,
}

/// What an engine said while thinking about one move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The text after `bestmove`.
    pub best_move: String,
    /// The last `score cp`/`score mate` seen, and the depth of that line.
    pub score: Option<super::record::EngineScore>,
    pub depth: Option<u32>,
    /// From `go` sent to `bestmove` read.
    pub elapsed: Duration,
}

impl Engine {
    /// Starts the process and completes the handshake: `uci` … `uciok`, the options, then
    /// `isready` … `readyok`, each within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, EngineError> {
        let mut command = Command::new(&spec.command);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if super::interrupt::installed() {
            // A terminal's Ctrl-C then reaches the arbiter alone, which ends the games and
            // its engines itself; an engine whose arbiter dies reads the end of its input.
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
        }
        let mut child = command
            .spawn()
            .map_err(|error| EngineError::Spawn(format!("{}: {error}", spec.command)))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = channel::unbounded();
        thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                while let Some(text) = read_line(&mut reader) {
                    if sender
                        .send(Line {
                            text,
                            at: Instant::now(),
                        })
                        .is_err()
                    {
                        break;
                    }
                }
            })
            .map_err(|error| EngineError::Spawn(error.to_string()))?;
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            broken: false,
        };
        engine.send("uci")?;
        engine.wait_for("uciok", timeout)?;
        for (name, value) in &spec.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.sync(timeout)?;
        Ok(engine)
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether the engine failed and must be restarted before another game.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    pub fn mark_broken(&mut self) {
        self.broken = true;
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or(EngineError::Exited)?;
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        written.map_err(|_| self.fail(EngineError::Exited))
    }

    /// `isready` and its `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout)
    }

    /// Prepares for a new game: `ucinewgame`, then `isready` … `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// Sends `position` and `go`, and waits for `bestmove` until `deadline` after the `go`.
    /// If it does not come, `stop` is sent and the engine gets `grace` more before it counts
    /// as hung; a late answer is still returned (with its true elapsed time), so the caller
    /// decides whether the clock fell.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Duration,
        grace: Duration,
    ) -> Result<Answer, EngineError> {
        self.drain();
        self.send(position)?;
        self.send(go)?;
        let sent = Instant::now();
        let mut answer = Answer::default();
        let mut stopped = false;
        loop {
            let limit = if stopped { deadline + grace } else { deadline };
            let remaining = limit.saturating_sub(sent.elapsed());
            match self.lines.recv_timeout(remaining) {
                Ok(line) => {
                    let mut words = line.text.split_whitespace();
                    match words.next() {
                        Some("bestmove") => {
                            answer.best_move = words.next().unwrap_or("").to_string();
                            answer.elapsed = line.at.saturating_duration_since(sent);
                            return Ok(answer);
                        }
                        Some("info") => read_info(&line.text, &mut answer),
                        _ => {}
                    }
                }
                Err(RecvTimeoutError::Timeout) if !stopped => {
                    stopped = true;
                    self.send("stop")?;
                }
                Err(RecvTimeoutError::Timeout) => return Err(self.fail(EngineError::Timeout("bestmove"))),
                Err(RecvTimeoutError::Disconnected) => return Err(self.fail(EngineError::Exited)),
            }
        }
    }

    /// Discards whatever the engine said since the last wait.
    fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Waits for a line whose first word is `token`.
    fn wait_for(&mut self, token: &'static str, timeout: Duration) -> Result<(), EngineError> {
        let until = Instant::now() + timeout;
        loop {
            match self.lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(line) if line.text.split_whitespace().next() == Some(token) => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(self.fail(EngineError::Timeout(token))),
                Err(RecvTimeoutError::Disconnected) => return Err(self.fail(EngineError::Exited)),
            }
        }
    }

    fn fail(&mut self, error: EngineError) -> EngineError {
        self.broken = true;
        error
    }
}

impl Drop for Engine {
    /// Asks the engine to quit, gives it a moment, then kills it; always reaps the process.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"quit\n").and_then(|()| stdin.flush());
        }
        let until = Instant::now() + Duration::from_millis(if self.broken { 0 } else { 250 });
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads one line (without its line ending), cutting it at `MAX_LINE` bytes; `None` at the
/// end of the output or on a read error.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() == MAX_LINE {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = reader
                .by_ref()
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut rest)
                .ok()?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Keeps the score and depth of an `info` line.
fn read_info(text: &str, answer: &mut Answer) {
    use super::record::EngineScore;
    let mut words = text.split_whitespace();
    let mut depth = None;
    let mut score = None;
    let mut bound = false;
    while let Some(word) = words.next() {
        match word {
            "depth" => depth = words.next().and_then(|w| w.parse().ok()),
            "score" => {
                score = match (words.next(), words.next().and_then(|w| w.parse().ok())) {
                    (Some("cp"), Some(v)) => Some(EngineScore::Centipawns(v)),
                    (Some("mate"), Some(v)) => Some(EngineScore::Mate(v)),
                    _ => None,
                }
            }
            "lowerbound" | "upperbound" => bound = true,
            "multipv" if words.next() != Some("1") => return,
            "pv" | "string" => break,
            _ => {}
        }
    }
    if let Some(score) = score.filter(|_| !bound) {
        answer.score = Some(score);
        answer.depth = depth.or(answer.depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::record::EngineScore;

    #[test]
    fn info_lines_keep_the_last_exact_score() {
        let mut answer = Answer::default();
        read_info("info depth 5 seldepth 7 score cp 31 nodes 100 pv e2e4", &mut answer);
        assert_eq!(
            (answer.score, answer.depth),
            (Some(EngineScore::Centipawns(31)), Some(5))
        );
        read_info("info depth 6 score cp 80 lowerbound nodes 200", &mut answer);
        assert_eq!(answer.score, Some(EngineScore::Centipawns(31)));
        read_info("info depth 6 multipv 2 score cp -5 pv d2d4", &mut answer);
        assert_eq!(answer.score, Some(EngineScore::Centipawns(31)));
        read_info("info depth 7 score mate -3 pv e2e4", &mut answer);
        assert_eq!((answer.score, answer.depth), (Some(EngineScore::Mate(-3)), Some(7)));
        read_info("info string score cp 999", &mut answer);
        assert_eq!(answer.score, Some(EngineScore::Mate(-3)));
    }

    #[test]
    fn long_lines_are_cut() {
        let mut text = vec![b'x'; MAX_LINE * 3];
        text.extend_from_slice(b"\nbestmove e2e4\r\n");
        let mut reader = BufReader::new(&text[..]);
        assert_eq!(read_line(&mut reader).map(|l| l.len()), Some(MAX_LINE));
        assert_eq!(read_line(&mut reader).as_deref(), Some("bestmove e2e4"));
        assert_eq!(read_line(&mut reader), None);
    }
}
