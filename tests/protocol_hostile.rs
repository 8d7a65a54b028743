//! Hostile protocol sessions: the `veil` binary is sent long, seeded, random mixes of valid
//! commands and garbage (random and invalid-UTF-8 bytes, control characters, Unicode blanks,
//! overlong lines, truncated and mutated commands, edge-case numbers), as a server forwarding
//! whatever players and bots send would. What each line does is decided by the engine's own
//! parser (`veil::protocol::command::parse`), so the test knows which lines start a search
//! without a second parser to keep in step. Checked, at every checkpoint and at the end:
//!
//! - `isready` is answered within 5 s, also while a search runs (no hang);
//! - nothing is written to stderr (no panic message) and the process stays alive;
//! - every output line is UTF-8 and a known UCI or perft line; error lines keep their bound;
//! - a line prints as many error lines as the parser's verdict on it says (one for a line
//!   that is no command, one per problem of a `go`, none for a good command);
//! - every `go` gets exactly one `bestmove`, every `go perft` and `bench` one
//!   `Nodes searched`; where the position is known, the bestmove is legal (or `(none)`);
//! - legal moves with a reveal suffix from the pool are accepted, wrong suffixes refused;
//! - `quit` or the end of input ends the engine with status 0 within 5 s.
//!
//! `VEIL_HOSTILE_SEED=N` (first seed) and `VEIL_HOSTILE_SESSIONS=M` run other or longer
//! sessions. On a failure the session's input is written to the temporary directory as
//! `veil-hostile-<seed>.txt`, byte for byte: `veil < FILE` replays it.

mod common;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use veil::protocol::command::{self, Command as Parsed};
use veil::protocol::limits::MAX_LINE_BYTES;
use veil::rules::{Position, Role, COVERED_START_FEN, STANDARD_START_FEN};

/// The longest any wait may take before it counts as a hang.
const WAIT: Duration = Duration::from_secs(5);
/// The documented bound of an error message, before its `...`.
const MAX_ERROR_LENGTH: usize = 400;
/// Lines sent in one session, besides the checkpoints.
const LINES_PER_SESSION: usize = 220;

/// What the session expects of the engine's output.
struct Expected {
    /// One entry per `go` still owed a `bestmove`: the position, when it is known.
    bestmoves: VecDeque<Option<Position>>,
    /// `Nodes searched` lines owed (by `go perft` and `bench`).
    node_counts: usize,
}

/// A running engine under hostile input.
struct Session {
    seed: u64,
    rng: Xoshiro256PlusPlus,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Every byte sent, for the replay file.
    input: Vec<u8>,
    /// The last lines sent and received, for failure messages.
    transcript: VecDeque<String>,
    expected: Expected,
    /// The engine's position, when the session knows it.
    known: Option<Position>,
    fens: Vec<String>,
    /// `isready` lines sent (the engine answers every one) and `readyok` lines read.
    readies_sent: usize,
    readies: usize,
    errors: usize,
    /// The number of error lines read when each `readyok` arrived.
    errors_at_ready: Vec<usize>,
}

impl Session {
    fn start(seed: u64, fens: Vec<String>) -> Session {
        let common::Spawned {
            mut child,
            stdin,
            lines,
        } = common::spawn_engine(&[], &[], Stdio::piped());
        let mut stderr_pipe = child.stderr.take().expect("stderr");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
        });
        Session {
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            input: Vec::new(),
            transcript: VecDeque::new(),
            expected: Expected {
                bestmoves: VecDeque::new(),
                node_counts: 0,
            },
            known: None,
            fens,
            readies_sent: 0,
            readies: 0,
            errors: 0,
            errors_at_ready: Vec::new(),
        }
    }

    fn note(&mut self, line: String) {
        if self.transcript.len() == 60 {
            self.transcript.pop_front();
        }
        self.transcript.push_back(line.chars().take(200).collect());
    }

    /// Writes the input to a replay file and panics with `message` and the last lines.
    fn fail(&mut self, message: &str) -> ! {
        let path = std::env::temp_dir().join(format!("veil-hostile-{}.txt", self.seed));
        let saved = std::fs::write(&path, &self.input).is_ok();
        let _ = self.child.kill();
        let transcript: Vec<String> = self.transcript.iter().cloned().collect();
        panic!(
            "seed {}: {message}\ninput {} ({} bytes)\n--- last lines ---\n{}",
            self.seed,
            if saved {
                path.display().to_string()
            } else {
                "not saved".to_string()
            },
            self.input.len(),
            transcript.join("\n")
        );
    }

    /// Sends one line (without its newline) and records what the engine owes for it.
    fn send(&mut self, line: &[u8], known_before: Option<Position>) {
        self.note(format!("> {}", String::from_utf8_lossy(line)));
        self.input.extend_from_slice(line);
        self.input.push(b'\n');
        let stdin = self.stdin.as_mut().expect("stdin open");
        if stdin.write_all(line).and_then(|_| stdin.write_all(b"\n")).is_err() {
            self.fail("the engine closed its input");
        }
        if line.len() > MAX_LINE_BYTES {
            return;
        }
        let text = String::from_utf8_lossy(line);
        match command::parse(text.trim()) {
            Ok(Parsed::Go { params, .. }) if params.perft.is_some() => self.expected.node_counts += 1,
            Ok(Parsed::Go { params, .. }) => {
                let known = if params.searchmoves.is_empty() {
                    known_before
                } else {
                    None
                };
                self.expected.bestmoves.push_back(known);
            }
            Ok(Parsed::Bench(_)) => self.expected.node_counts += 1,
            Ok(Parsed::IsReady) => self.readies_sent += 1,
            Ok(Parsed::Position { .. } | Parsed::SetOption { .. } | Parsed::UciNewGame) => {
                self.known = None;
            }
            _ => {}
        }
    }

    /// Sends a line the session built, whose effect on the position it knows.
    fn send_text(&mut self, line: &str) {
        let known = self.known.clone();
        self.send(line.as_bytes(), known);
    }

    /// Checks one output line and counts what it settles.
    fn take(&mut self, line: Vec<u8>) {
        let line = match String::from_utf8(line) {
            Ok(line) => line,
            Err(error) => self.fail(&format!("output line is not UTF-8: {:?}", error.as_bytes())),
        };
        self.note(format!("< {line}"));
        if let Some(message) = line.strip_prefix("info string error: ") {
            self.errors += 1;
            let body = message.strip_suffix("...").unwrap_or(message);
            if body.len() > MAX_ERROR_LENGTH {
                self.fail(&format!("error message of {} bytes", body.len()));
            }
        } else if line == "readyok" {
            self.readies += 1;
            self.errors_at_ready.push(self.errors);
        } else if let Some(rest) = line.strip_prefix("bestmove ") {
            let best = rest.split_whitespace().next().unwrap_or("").to_string();
            match self.expected.bestmoves.pop_front() {
                None => self.fail("a bestmove no go asked for"),
                Some(Some(position)) => check_bestmove(self, &position, &best),
                Some(None) => {}
            }
        } else if line.starts_with("Nodes searched: ") {
            if self.expected.node_counts == 0 {
                self.fail("a Nodes searched line no perft or bench asked for");
            }
            self.expected.node_counts -= 1;
        } else if !known_line(&line) {
            self.fail(&format!("unknown output line {line:?}"));
        }
    }

    /// Reads output until `done` holds, failing after [`WAIT`].
    fn read_until(&mut self, what: &str, done: impl Fn(&Session) -> bool) {
        let deadline = Instant::now() + WAIT;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.take(line),
                Err(_) => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        self.fail(&format!("the engine exited ({status}) waiting for {what}"));
                    }
                    self.fail(&format!("no {what} within {WAIT:?}"));
                }
            }
        }
        self.check_stderr();
    }

    fn check_stderr(&mut self) {
        let stderr = self.stderr.lock().unwrap().clone();
        if !stderr.is_empty() {
            self.fail(&format!("stderr: {}", String::from_utf8_lossy(&stderr)));
        }
    }

    /// `isready`, answered in time; returns the error lines printed between the `readyok`
    /// before it and its own (the errors of the lines sent in between).
    fn sync(&mut self) -> usize {
        self.send_text("isready");
        let target = self.readies_sent;
        self.read_until("readyok", |s| s.readies >= target);
        let before = if target >= 2 {
            self.errors_at_ready[target - 2]
        } else {
            0
        };
        self.errors_at_ready[target - 1] - before
    }

    /// Stops any search and waits for everything owed, then checks nothing more comes.
    fn checkpoint(&mut self) {
        self.send_text("stop");
        self.read_until("the owed bestmove and Nodes searched lines", |s| {
            s.expected.bestmoves.is_empty() && s.expected.node_counts == 0
        });
        self.sync();
    }

    /// `position` with a legal walk from a known start; refused suffixes checked on the way.
    fn walk(&mut self) {
        let start = self.fens.choose(&mut self.rng).unwrap().clone();
        let mut position = Position::from_fen(&start).expect("suite FEN");
        let mut texts: Vec<String> = Vec::new();
        self.sync();
        for _ in 0..self.rng.gen_range(0..12) {
            let legal: Vec<_> = position.legal_moves().iter().copied().collect();
            let Some(&m) = legal.choose(&mut self.rng) else { break };
            let roles: Vec<Role> = position
                .pool(position.side_to_move())
                .outcomes()
                .map(|(role, _)| role)
                .collect();
            let reveal = position.is_reveal(m).then(|| *roles.choose(&mut self.rng).unwrap());
            if self.rng.gen_bool(0.15) {
                // A wrong suffix: none where one is needed, a king, or one where none belongs.
                let wrong = match reveal {
                    Some(_) if self.rng.gen_bool(0.5) => m.to_string(),
                    Some(_) => format!("{m}=K"),
                    None => format!("{m}=Q"),
                };
                let line = format!("position fen {start} moves {} {wrong}", texts.join(" "));
                self.send_text(&line);
                if self.sync() != 1 {
                    self.fail(&format!("'{wrong}' was not refused with one error"));
                }
            }
            let mut text = position.move_text(m, reveal);
            if self.rng.gen_bool(0.2) {
                text = text.to_lowercase();
            }
            texts.push(text);
            position.play_mut(m, reveal);
        }
        let line = if texts.is_empty() {
            format!("position fen {start}")
        } else {
            format!("position fen {start} moves {}", texts.join(" "))
        };
        self.send_text(&line);
        if self.sync() != 0 {
            self.fail("a legal position line was refused");
        }
        self.known = Some(position);
    }

    fn valid_line(&mut self) -> String {
        let r = &mut self.rng;
        let go = [
            format!("go depth {}", r.gen_range(1..5)),
            format!("go nodes {}", r.gen_range(1..3000)),
            format!("go movetime {}", r.gen_range(1..30)),
            format!(
                "go wtime {} btime {} winc {} binc {}",
                r.gen_range(0..2000),
                r.gen_range(0..2000),
                r.gen_range(0..50),
                r.gen_range(0..50)
            ),
            format!(
                "go wtime {} btime 500 movestogo {}",
                r.gen_range(1..900),
                r.gen_range(1..40)
            ),
            "go infinite".to_string(),
            "go ponder wtime 1000 btime 1000".to_string(),
            format!("go mate {}", r.gen_range(1..3)),
            format!("go perft {}", r.gen_range(1..3)),
        ];
        let other = [
            "stop".to_string(),
            "ponderhit".to_string(),
            "isready".to_string(),
            "ucinewgame".to_string(),
            "uci".to_string(),
            format!("debug {}", if r.gen_bool(0.5) { "on" } else { "off" }),
            format!("setoption name Hash value {}", r.gen_range(1..33)),
            format!("setoption name Threads value {}", r.gen_range(1..3)),
            format!("setoption name MultiPV value {}", r.gen_range(1..4)),
            format!("setoption name Level value {}", r.gen_range(1..6)),
            format!("setoption name Seed value {}", r.gen_range(0..1000)),
            format!("setoption name Move Overhead value {}", r.gen_range(0..50)),
            "setoption name UCI_Variant value covered".to_string(),
            "setoption name UCI_Variant value chess".to_string(),
            "setoption name Clear Hash".to_string(),
            "bench 1".to_string(),
        ];
        if r.gen_bool(0.6) {
            go.choose(r).unwrap().clone()
        } else {
            other.choose(r).unwrap().clone()
        }
    }

    fn garbage_line(&mut self) -> Vec<u8> {
        let base = self.valid_line().into_bytes();
        let r = &mut self.rng;
        match r.gen_range(0..9) {
            // Random bytes (no newline).
            0 => (0..r.gen_range(0..80))
                .map(|_| r.gen_range(0..=255u8))
                .filter(|&b| b != b'\n')
                .collect(),
            // Invalid UTF-8 inside a command.
            1 => {
                let mut line = base;
                let at = r.gen_range(0..=line.len());
                line.splice(at..at, [0xFF, 0xC3, 0x28, 0xE2, 0x82]);
                line
            }
            // NUL, control bytes, a lone CR.
            2 => {
                let mut line = base;
                let at = r.gen_range(0..=line.len());
                let inserted: &[u8] = [&b"\0"[..], b"\r", b"\x1b[2J", b"\x07\x08"].choose(r).unwrap();
                line.splice(at..at, inserted.iter().copied());
                line
            }
            // Unicode blanks around and inside.
            3 => {
                let blanks = ["\u{a0}", "\u{2003}", "\u{3000}", "\u{feff}", "\t", "\u{85}"];
                let blank = blanks.choose(r).unwrap();
                format!("{blank}{}{blank}", String::from_utf8_lossy(&base).replace(' ', blank)).into_bytes()
            }
            // Truncated.
            4 => {
                let cut = r.gen_range(0..=base.len());
                base[..cut].to_vec()
            }
            // Mutated bytes.
            5 => {
                let mut line = base;
                for _ in 0..r.gen_range(1..4) {
                    if !line.is_empty() {
                        let at = r.gen_range(0..line.len());
                        line[at] = *b"0123456789-+ .=abcdefghqrnbkpxX/".choose(r).unwrap();
                    }
                }
                line
            }
            // Random tokens and edge-case numbers.
            6 => {
                let words = [
                    "go",
                    "position",
                    "fen",
                    "startpos",
                    "moves",
                    "setoption",
                    "name",
                    "value",
                    "depth",
                    "nodes",
                    "movetime",
                    "wtime",
                    "btime",
                    "winc",
                    "binc",
                    "movestogo",
                    "mate",
                    "perft",
                    "searchmoves",
                    "infinite",
                    "ponder",
                    "Hash",
                    "Threads",
                    "MultiPV",
                    "Level",
                    "e2e4",
                    "e2e4=N",
                    "e7e8q",
                    "xxxx",
                    "-1",
                    "0",
                    "2147483648",
                    "9223372036854775808",
                    "18446744073709551616",
                    "99999999999999999999",
                    "+5",
                    "-0",
                    "1e9",
                    "0x10",
                    "NaN",
                ];
                let n = r.gen_range(1..10);
                let tokens: Vec<&str> = (0..n).map(|_| *words.choose(r).unwrap()).collect();
                tokens.join(" ").into_bytes()
            }
            // A mangled FEN.
            7 => {
                let mut fen = self.fens.choose(r).unwrap().clone().into_bytes();
                for _ in 0..r.gen_range(1..4) {
                    let at = r.gen_range(0..fen.len());
                    fen[at] = *b"12345678/xXkKqQpP9 -".choose(r).unwrap();
                }
                [&b"position fen "[..], &fen, b" moves e2e4"].concat()
            }
            // A line past the length bound (rarely: it costs a quarter megabyte).
            _ if r.gen_bool(0.1) => vec![b'a'; MAX_LINE_BYTES + r.gen_range(1..100)],
            _ => base,
        }
    }

    /// Whether a line would legitimately keep the engine busy or end the session early.
    fn unwanted(line: &[u8]) -> bool {
        if line.len() > MAX_LINE_BYTES {
            return false;
        }
        let text = String::from_utf8_lossy(line);
        match command::parse(text.trim()) {
            Ok(Parsed::Quit | Parsed::Display) => true,
            Ok(Parsed::Bench(depth)) => depth.unwrap_or(8) > 1,
            Ok(Parsed::Go { params, .. }) => params.perft.is_some_and(|d| d > 3),
            Ok(Parsed::SetOption { name, value }) => {
                let name = name.to_ascii_lowercase();
                let number = value.as_deref().and_then(|v| v.trim().parse::<i64>().ok());
                name.contains("levelsfile")
                    || (name == "hash" && number.is_some_and(|n| n > 256))
                    || (name == "threads" && number.is_some_and(|n| n > 4))
            }
            _ => false,
        }
    }

    /// How many error lines one line may print, by what the engine's parser makes of it: one
    /// for a line that is not a command, one per problem of a `go` (and one more naming
    /// `searchmoves` that are not legal), at most one for anything else.
    fn check_errors(&mut self, line: &[u8], errors: usize) {
        let allowed = if line.len() > MAX_LINE_BYTES {
            1..=1
        } else {
            let text = String::from_utf8_lossy(line);
            let text = text.trim();
            match command::parse(text) {
                _ if text.is_empty() => 0..=0,
                Err(_) => 1..=1,
                Ok(Parsed::Go { problems, .. }) => problems.len()..=problems.len() + 1,
                Ok(Parsed::IsReady | Parsed::Stop | Parsed::PonderHit | Parsed::Uci | Parsed::Debug(_)) => 0..=0,
                Ok(_) => 0..=1,
            }
        };
        if !allowed.contains(&errors) {
            self.fail(&format!("{errors} error lines for one line, expected {allowed:?}"));
        }
    }

    fn run(mut self, lines: usize) {
        self.send_text("uci");
        self.read_until("uciok", |s| s.transcript.back().is_some_and(|l| l == "< uciok"));
        let mut sent = 0;
        while sent < lines {
            match self.rng.gen_range(0..10) {
                0 | 1 => self.walk(),
                2..=5 => {
                    let line = self.valid_line();
                    self.send_text(&line);
                }
                _ => {
                    let line = self.garbage_line();
                    if Self::unwanted(&line) {
                        continue;
                    }
                    let known = self.known.clone();
                    if self.rng.gen_bool(0.3) {
                        // Counted alone: the error lines this one line printed.
                        self.sync();
                        self.send(&line, known);
                        let errors = self.sync();
                        self.check_errors(&line, errors);
                    } else {
                        self.send(&line, known);
                    }
                }
            }
            sent += 1;
            if self.rng.gen_bool(0.1) {
                self.sync();
            }
            if self.rng.gen_bool(0.04) {
                self.checkpoint();
            }
        }
        self.checkpoint();
        // End with quit, or with the end of input, now and then mid-search.
        if self.rng.gen_bool(0.5) {
            self.send_text("go infinite");
        }
        if self.rng.gen_bool(0.5) {
            self.send_text("quit");
        } else {
            self.stdin = None;
        }
        let deadline = Instant::now() + WAIT;
        let status = loop {
            while let Ok(line) = self.lines.try_recv() {
                self.take(line);
            }
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            if Instant::now() >= deadline {
                self.fail("the engine did not exit after quit or the end of input");
            }
            thread::sleep(Duration::from_millis(5));
        };
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.take(line);
        }
        if !status.success() {
            self.fail(&format!("exit status {status}"));
        }
        if !self.expected.bestmoves.is_empty() {
            self.fail("a go left without its bestmove at exit");
        }
        self.check_stderr();
    }
}

/// A line a UCI engine may print (besides errors, `readyok`, `bestmove`, `Nodes searched`).
fn known_line(line: &str) -> bool {
    const PREFIXES: [&str; 6] = [
        "id name ",
        "id author ",
        "option name ",
        "info ",
        "Nodes/second: ",
        "uciok",
    ];
    if line.is_empty() || PREFIXES.iter().any(|p| line.starts_with(p)) {
        return true;
    }
    // A perft divide line: `e2e4: 20`, `e7e8q: 1`.
    match line.split_once(": ") {
        Some((m, count)) => (4..=5).contains(&m.len()) && count.parse::<u64>().is_ok(),
        None => false,
    }
}

fn check_bestmove(session: &mut Session, position: &Position, best: &str) {
    let legal = position.legal_moves();
    if legal.is_empty() {
        if best != "(none)" {
            session.fail(&format!(
                "bestmove {best} without a legal move in {}",
                position.to_fen()
            ));
        }
        return;
    }
    match position.parse_uci_move(best) {
        Ok(m) if legal.contains(m) => {}
        _ => session.fail(&format!("bestmove {best} is not legal in {}", position.to_fen())),
    }
}

fn sessions(first_seed: u64, count: u64) {
    let mut fens = common::suite_fens();
    fens.truncate(120);
    fens.push(COVERED_START_FEN.to_string());
    fens.push(STANDARD_START_FEN.to_string());
    for seed in first_seed..first_seed + count {
        Session::start(seed, fens.clone()).run(LINES_PER_SESSION);
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

#[test]
fn hostile_sessions_keep_the_engine_answering() {
    let seed = env_number("VEIL_HOSTILE_SEED").unwrap_or(1);
    let count = env_number("VEIL_HOSTILE_SESSIONS").unwrap_or(6);
    sessions(seed, count);
}

#[test]
fn the_output_line_check_knows_the_protocol() {
    for line in [
        "uciok",
        "info depth 1 score cp 3 pv e2e4",
        "e2e4: 20",
        "e7e8q: 1",
        "",
        "Nodes/second: 5",
    ] {
        assert!(known_line(line), "{line:?}");
    }
    for line in ["panicked at src/main.rs", "thread 'main'", "e2e4 20", "bestmov e2e4"] {
        assert!(!known_line(line), "{line:?}");
    }
}
