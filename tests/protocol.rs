//! The protocol loop as a GUI sees it: the `veil` binary is spawned with piped stdin and
//! stdout, lines are sent to it and its answers read back with deadlines (a reader thread
//! feeds a channel, so no test can hang on a silent engine).
//!
//! Covered: the `uci` handshake and option list, `isready`, a full covered game sent through
//! `position startpos moves ...` with reveal suffixes (checked against the rules library at
//! every ply), `go perft`, the `d` display, malformed input of every kind (one error line
//! each, nothing changed), exactly one `bestmove` per `go` under every kind of limit, pondering,
//! `stop` latency, a clean exit on `quit` or end of input, even mid-search, the resource
//! bounds (an overlong line, too many moves, option ranges, the deepest go, perft and bench),
//! option values naming hostile files (devices, a FIFO, a directory, links, sparse, large and
//! binary files), and the operator's limits (`--max-hash`, `--max-threads`,
//! `--no-file-options` and their environment variables).

mod common;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};
use veil::protocol::limits::{MAX_BENCH_DEPTH, MAX_GO_DEPTH, MAX_LINE_BYTES, MAX_PERFT_DEPTH, MAX_POSITION_MOVES};
use veil::protocol::options::{OptionKind, DECLARATIONS};
use veil::rules::{Game, Move, Position, Role, COVERED_START_FEN, STANDARD_START_FEN};

/// The longest any single wait may take.
const WAIT: Duration = Duration::from_secs(5);

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// White mates in two (1. Kb6 or 1. Kc7, then the rook mates).
const MATE_IN_TWO: &str = "k7/8/2K5/8/8/8/8/7R w - - 0 1";
/// Black is checkmated (fool's mate).
const CHECKMATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// Black to move has no legal move and is not in check.
const STALEMATED: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
/// A covered middlegame: a few pieces revealed, most still covered.
const COVERED_MIDGAME_MOVES: &str = "e2e4=P e7e5=P g1f3=N b8c6=B f1c4=Q d7d6=P d2d3=R c8g4=N";

/// A running engine process and the lines it printed.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    /// Everything sent and received, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn spawn() -> Engine {
        Engine::spawn_with(&[], &[])
    }

    /// An engine started with command-line `args` and environment variables `vars` (and no
    /// other `VEIL_*` variable).
    fn spawn_with(args: &[&str], vars: &[(&str, &str)]) -> Engine {
        let spawned = common::spawn_engine(args, vars, Stdio::inherit());
        Engine {
            child: spawned.child,
            stdin: Some(spawned.stdin),
            lines: spawned.lines,
            transcript: Vec::new(),
        }
    }

    /// A new engine playing covered chess.
    fn covered() -> Engine {
        let mut engine = Engine::spawn();
        engine.send("setoption name UCI_Variant value covered");
        engine.sync();
        engine
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let shown: String = String::from_utf8_lossy(bytes).chars().take(200).collect();
        self.transcript.push(format!("> {}", shown.trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Closes the engine's stdin (end of input).
    fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".to_string());
        self.stdin = None;
    }

    fn failure(&self, message: &str) -> String {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let tail: Vec<String> = tail.into_iter().rev().map(|l| l.chars().take(300).collect()).collect();
        format!("{message}\n--- last lines of the conversation ---\n{}", tail.join("\n"))
    }

    /// The next line, or `None` if none arrives within `timeout` or the output has ended.
    fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout).map(|bytes| common::text(&bytes)) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one matching `done`; panics after `timeout`.
    fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let finished = done(&line);
                    lines.push(line);
                    if finished {
                        return lines;
                    }
                }
                None => panic!("{}", self.failure(&format!("no expected line within {timeout:?}"))),
            }
        }
    }

    /// Every line that arrives within `period`.
    fn quiet(&mut self, period: Duration) -> Vec<String> {
        let deadline = Instant::now() + period;
        let mut lines = Vec::new();
        while let Some(line) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            lines.push(line);
        }
        lines
    }

    /// Sends `isready` and returns the lines printed before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(WAIT, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a line and returns what it printed (up to a following `readyok`).
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Sends a line that must print nothing.
    fn ok(&mut self, line: &str) {
        let answer = self.ask(line);
        assert!(
            answer.is_empty(),
            "{}",
            self.failure(&format!("'{line}' printed {answer:?}"))
        );
    }

    /// Sends `go ...`, reads through its `bestmove`, and checks that no second bestmove
    /// follows. Returns the lines, the bestmove line last.
    fn go(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        let lines = self.read_until(WAIT, |l| l.starts_with("bestmove"));
        self.assert_no_bestmove_after();
        lines
    }

    fn assert_no_bestmove_after(&mut self) {
        let after = self.sync();
        assert!(
            !after.iter().any(|l| l.starts_with("bestmove")),
            "{}",
            self.failure("a second bestmove for one go")
        );
    }

    /// The FEN shown by `d`.
    fn fen(&mut self) -> String {
        let display = self.display();
        display
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("a Fen: line")
            .to_string()
    }

    /// The full `d` output.
    fn display(&mut self) -> Vec<String> {
        self.send("d");
        self.read_until(WAIT, |l| l.starts_with("Checkers:"))
    }

    /// Waits for the process to exit, killing it after `timeout`.
    fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "{}",
                    self.failure(&format!("engine still running {timeout:?} after being told to end"))
                );
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn bestmove_of(lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    let mut tokens = last.split_whitespace();
    assert_eq!(tokens.next(), Some("bestmove"), "last line {last:?}");
    tokens.next().expect("a move after bestmove").to_string()
}

fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error: ")).collect()
}

/// The value after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut tokens = line.split_whitespace();
    while let Some(token) = tokens.next() {
        if token == key {
            return tokens.next();
        }
    }
    None
}

/// The largest number after `key` in any of a search's lines (0 if none has one).
fn most(lines: &[String], key: &str) -> u64 {
    lines
        .iter()
        .filter_map(|line| field(line, key)?.parse().ok())
        .max()
        .unwrap_or(0)
}

/// The moves after `pv` in an `info` line.
fn pv(line: &str) -> Vec<&str> {
    line.split_whitespace().skip_while(|&t| t != "pv").skip(1).collect()
}

fn position_after(fen: &str, moves: &str) -> Position {
    let mut position = Position::from_fen(fen).expect("test FEN");
    for text in moves.split_whitespace() {
        let (m, reveal) = position.parse_played_move(text).expect("test move");
        position.play_mut(m, reveal);
    }
    position
}

/// Checks that `text` is a legal move of `position` (a plain UCI move, no suffix).
fn assert_legal(position: &Position, text: &str) -> Move {
    match position.parse_uci_move(text) {
        Ok(m) => {
            assert!(
                position.legal_moves().contains(m),
                "{text} not legal in {}",
                position.to_fen()
            );
            m
        }
        Err(error) => panic!("bestmove {text} in {}: {error}", position.to_fen()),
    }
}

// ----- handshake and options ---------------------------------------------------------------

#[test]
fn uci_handshake_lists_the_options() {
    let mut engine = Engine::spawn();
    engine.send("uci");
    let lines = engine.read_until(WAIT, |l| l == "uciok");
    assert!(lines[0].starts_with("id name Veil"), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option name ")).collect();
    assert_eq!(
        options.len() + 3,
        lines.len(),
        "only id, option and uciok lines: {lines:?}"
    );
    let declared: Vec<(String, String)> = options
        .iter()
        .map(|l| {
            let rest = l.strip_prefix("option name ").unwrap();
            let (name, spec) = rest.split_once(" type ").expect("a type");
            (name.to_string(), spec.to_string())
        })
        .collect();
    let expected = [
        ("UCI_Variant", "combo default chess var chess var covered"),
        ("Hash", "spin default 16 min 1 max 16384"),
        ("Threads", "spin default 1 min 1 max 64"),
        ("Clear Hash", "button"),
        ("MultiPV", "spin default 1 min 1 max 256"),
        ("Ponder", "check default false"),
        ("Move Overhead", "spin default 10 min 0 max 5000"),
        ("Level", "spin default 5 min 1 max 5"),
        ("Seed", "spin default 0 min 0 max 2147483647"),
        ("UCI_LimitStrength", "check default false"),
        ("LevelsFile", "string default <empty>"),
        (
            "UseNNUE",
            if veil::search::NETWORK_IN_COVERED_CHESS {
                "check default true"
            } else {
                "check default false"
            },
        ),
        (
            "NNUEPlainChess",
            if veil::search::NETWORK_IN_PLAIN_CHESS {
                "check default true"
            } else {
                "check default false"
            },
        ),
        ("EvalFile", "string default <empty>"),
        ("EvalFilePlain", "string default <empty>"),
        ("CoverBaseline", "check default false"),
        ("Ablate", "string default <empty>"),
    ];
    let (low, high) = veil::search::level::LevelTable::default().elo_range();
    let elo_spec = format!("spin default {} min {} max {}", high as u32, low as u32, high as u32);
    let expected: Vec<(&str, &str)> = expected.into_iter().chain([("UCI_Elo", elo_spec.as_str())]).collect();
    for &(name, spec) in &expected {
        let found = declared.iter().find(|(n, _)| n == name);
        assert_eq!(
            found.map(|(_, s)| s.as_str()),
            Some(spec),
            "option {name}: {declared:?}"
        );
    }
    assert_eq!(declared.len(), expected.len(), "{declared:?}");

    // uci may come again, and isready is answered at once.
    engine.send("uci");
    let again = engine.read_until(WAIT, |l| l == "uciok");
    assert_eq!(again, lines);
    assert!(engine.sync().is_empty());
    engine.send("quit");
    assert!(engine.wait_exit(WAIT).success());
}

#[test]
fn options_are_set_by_case_insensitive_names_with_spaces() {
    let mut engine = Engine::spawn();
    for line in [
        "setoption name Hash value 32",
        "setoption name hash value 1",
        "setoption name THREADS value 2",
        "setoption name Clear Hash",
        "setoption name clear hash",
        "setoption name Move Overhead value 0",
        "setoption name move overhead value 5000",
        "setoption name Ponder value true",
        "setoption name ponder value FALSE",
        "setoption name Level value 1",
        "setoption name level value 5",
        "setoption name Seed value 2147483647",
        "setoption name uci_variant value CHESS",
        "setoption name multipv value 2",
        "ucinewgame",
        "",
        "   ",
    ] {
        engine.ok(line);
    }
    // MultiPV 2 took effect.
    engine.send("position startpos");
    let lines = engine.go("go depth 2");
    let at_depth_2: Vec<&String> = lines.iter().filter(|l| field(l, "depth") == Some("2")).collect();
    let multipv: Vec<&str> = at_depth_2.iter().filter_map(|l| field(l, "multipv")).collect();
    assert_eq!(multipv, ["1", "2"], "{lines:?}");
    // The variant option selects what startpos means.
    engine.ok("setoption name UCI_Variant value covered");
    assert_eq!(engine.fen(), COVERED_START_FEN);
    engine.ok("position startpos moves e2e4=N");
    engine.ok("setoption name UCI_Variant value chess");
    assert_eq!(engine.fen(), STANDARD_START_FEN);
}

// ----- a covered game through position/go/d ------------------------------------------------

/// Plays a seeded random covered game through the protocol: after every ply the engine gets
/// the whole game (reveal suffixes included), must show the library's FEN and key in `d`,
/// and must answer `go` with a legal move, or `(none)` once the game is over.
fn play_covered_game(seed: u64, plies: usize, go: &str, from_fen: bool) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut engine = Engine::covered();
    let mut game = Game::new(Position::covered_start());
    let mut texts: Vec<String> = Vec::new();
    let mut reveals = 0;
    for ply in 0..=plies {
        let head = if from_fen {
            format!("position fen {COVERED_START_FEN}")
        } else {
            "position startpos".to_string()
        };
        let command = if texts.is_empty() {
            head
        } else {
            format!("{head} moves {}", texts.join(" "))
        };
        engine.ok(&command);
        let position = game.position().clone();
        let display = engine.display();
        let fen = display.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("Fen:");
        assert_eq!(fen, position.to_fen(), "FEN after ply {ply} (seed {seed})");
        let key = display.iter().find_map(|l| l.strip_prefix("Key: ")).expect("Key:");
        assert_eq!(key, format!("{:016X}", position.hash()), "key after ply {ply}");

        let lines = engine.go(go);
        let best = bestmove_of(&lines);
        let legal = position.legal_moves();
        if legal.is_empty() {
            assert_eq!(best, "(none)", "{lines:?}");
            let status = if position.is_check() { "checkmate" } else { "stalemate" };
            assert!(lines.contains(&format!("info string {status}")), "{lines:?}");
            break;
        }
        assert_legal(&position, &best);
        if game.outcome().is_some() || ply == plies {
            break;
        }

        let m = legal.as_slice()[rng.gen_range(0..legal.len())];
        let reveal = if position.is_reveal(m) {
            reveals += 1;
            let roles: Vec<Role> = position
                .pool(position.side_to_move())
                .outcomes()
                .map(|(role, _)| role)
                .collect();
            Some(roles[rng.gen_range(0..roles.len())])
        } else {
            None
        };
        texts.push(position.move_text(m, reveal));
        game.play(m, reveal);
    }
    assert!(reveals >= 10, "the game should reveal pieces: {texts:?}");
    assert!(texts.iter().any(|t| t.contains('=')), "{texts:?}");
    engine.send("quit");
    assert!(engine.wait_exit(WAIT).success());
}

#[test]
fn covered_game_from_startpos_with_depth_limited_searches() {
    play_covered_game(1, 60, "go depth 2", false);
}

#[test]
fn covered_game_from_fen_with_node_limited_searches() {
    play_covered_game(2, 60, "go nodes 2000", true);
}

#[test]
fn castling_with_a_covered_corner_needs_the_suffix() {
    let mut engine = Engine::covered();
    let before = "e2e4=P e7e5=P g1f3=N b8c6=N f1c4=B f8c5=B";
    engine.ok(&format!("position startpos moves {before}"));
    let fen = engine.fen();

    let answer = engine.ask(&format!("position startpos moves {before} e1g1"));
    assert_eq!(errors(&answer).len(), 1, "{answer:?}");
    assert!(
        answer[0].contains("move 7") && answer[0].contains("'e1g1'"),
        "{answer:?}"
    );
    assert_eq!(engine.fen(), fen);

    engine.ok(&format!("position startpos moves {before} e1g1=B"));
    let expected = position_after(COVERED_START_FEN, &format!("{before} e1g1=B"));
    assert_eq!(engine.fen(), expected.to_fen());
    // The corner piece revealed as a bishop on f1, the king on g1.
    let display = engine.display();
    assert!(
        display
            .iter()
            .any(|l| l.starts_with(" |?R |?N |?B |?Q |   | B | K |   | 1")),
        "{display:?}"
    );
}

// ----- perft and display -------------------------------------------------------------------

fn perft(engine: &mut Engine, depth: u32) -> (Vec<(String, u64)>, u64) {
    engine.send(&format!("go perft {depth}"));
    let lines = engine.read_until(Duration::from_secs(20), |l| l.starts_with("Nodes searched: "));
    let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
        .parse()
        .expect("a count");
    assert_eq!(lines[lines.len() - 2], "", "a blank line before the total: {lines:?}");
    let divide: Vec<(String, u64)> = lines[..lines.len() - 2]
        .iter()
        .map(|l| {
            let (m, count) = l.split_once(": ").expect("move: count");
            (m.to_string(), count.parse().expect("a count"))
        })
        .collect();
    if depth > 0 {
        assert_eq!(divide.iter().map(|(_, c)| c).sum::<u64>(), total, "{lines:?}");
    }
    engine.assert_no_bestmove_after();
    (divide, total)
}

#[test]
fn go_perft_from_the_covered_start_and_a_standard_fen() {
    let mut engine = Engine::covered();
    engine.ok("position startpos");
    let (divide, total) = perft(&mut engine, 3);
    assert_eq!(total, 1_052_248);
    assert_eq!(divide.len(), 20);
    assert!(divide.iter().all(|(m, _)| !m.contains('=')), "{divide:?}");
    let (divide, total) = perft(&mut engine, 1);
    assert_eq!(total, 100);
    assert!(divide.iter().all(|(_, c)| *c == 5), "{divide:?}");

    engine.ok(&format!("position fen {KIWIPETE}"));
    let (divide, total) = perft(&mut engine, 3);
    assert_eq!(total, 97_862);
    assert_eq!(divide.len(), 48);
    engine.ok(&format!("position fen {STANDARD_START_FEN}"));
    assert_eq!(perft(&mut engine, 3).1, 8_902);
    assert_eq!(perft(&mut engine, 0).1, 1);
}

#[test]
fn display_shows_covers_pools_fen_key_and_checkers() {
    let mut engine = Engine::covered();
    let display = engine.display();
    let expected_rows = [
        " |?r |?n |?b |?q | k |?b |?n |?r | 8",
        " |?p |?p |?p |?p |?p |?p |?p |?p | 7",
        " |   |   |   |   |   |   |   |   | 6",
        " |?P |?P |?P |?P |?P |?P |?P |?P | 2",
        " |?R |?N |?B |?Q | K |?B |?N |?R | 1",
    ];
    for row in expected_rows {
        assert!(display.iter().any(|l| l == row), "row {row:?} missing: {display:#?}");
    }
    assert!(
        display.iter().any(|l| l == "   a   b   c   d   e   f   g   h"),
        "{display:#?}"
    );
    let start_pool = "Q1 (6.7%) R2 (13.3%) B2 (13.3%) N2 (13.3%) P8 (53.3%); 15 in pool, 15 covered on the board";
    assert!(display.contains(&format!("White pool: {start_pool}")), "{display:#?}");
    assert!(display.contains(&format!("Black pool: {start_pool}")), "{display:#?}");
    assert!(display.contains(&format!("Fen: {COVERED_START_FEN}")), "{display:#?}");
    let key = display.iter().find_map(|l| l.strip_prefix("Key: ")).expect("Key:");
    assert_eq!(key, format!("{:016X}", Position::covered_start().hash()));
    assert_eq!(display.last().unwrap().trim_end(), "Checkers:");

    // After a reveal: the revealed piece shows as itself, the pool loses one.
    engine.ok("position startpos moves e2e4=N d7d5=Q e4d6");
    let display = engine.display();
    assert!(
        display.iter().any(|l| l == " |   |   |   | N |   |   |   |   | 6"),
        "{display:#?}"
    );
    assert!(
        display.contains(
            &"White pool: Q1 (7.1%) R2 (14.3%) B2 (14.3%) N1 (7.1%) P8 (57.1%); 14 in pool, 14 covered on the board"
                .to_string()
        ),
        "{display:#?}"
    );
    assert!(
        display.contains(
            &"Black pool: R2 (14.3%) B2 (14.3%) N2 (14.3%) P8 (57.1%); 14 in pool, 14 covered on the board".to_string()
        ),
        "{display:#?}"
    );
    assert_eq!(display.last().unwrap(), "Checkers: d6", "the knight checks e8");

    // A plain position: no covers, empty pools, the checker listed.
    engine.ok("setoption name UCI_Variant value chess");
    engine.ok("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let display = engine.display();
    assert!(
        display.iter().filter(|l| l.starts_with(" |")).all(|l| !l.contains('?')),
        "{display:#?}"
    );
    assert!(display.contains(&"White pool: empty; 0 in pool, 0 covered on the board".to_string()));
    assert!(display.contains(&format!("Fen: {CHECKMATED}")), "{display:#?}");
    assert_eq!(display.last().unwrap(), "Checkers: h4");
}

/// `eval`: the hand-written part, the network's output where a network evaluates the
/// position, and their sum, in pawns from White's side; `none` in check; the position is kept.
#[test]
fn eval_shows_the_static_evaluation_and_its_parts() {
    let pawns = |lines: &[String], prefix: &str| -> f64 {
        let line = lines
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line: {lines:#?}"));
        line.strip_suffix(" (white side)")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{line:?}"))
    };
    let mut engine = Engine::covered();
    let lines = engine.ask("eval");
    let hand = pawns(&lines, "Hand-written evaluation: ");
    // The embedded network is a correction (its generation is the file's).
    let network_line = lines
        .iter()
        .find(|l| l.starts_with("Network (generation "))
        .expect("a Network line");
    assert!(network_line.contains(", a correction added to it): "), "{network_line}");
    let network = pawns(&lines, &format!("{}: ", network_line.split(": ").next().unwrap()));
    let total = pawns(&lines, "Final evaluation: ");
    assert!((hand + network - total).abs() < 0.015, "{lines:#?}");
    assert_eq!(lines.len(), 3, "{lines:#?}");

    // Plain chess (nothing covered, empty pools): the plain-chess network where it is on by
    // default, its line saying so.
    engine.ok("position fen 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    let lines = engine.ask("eval");
    let plain_line = lines.iter().find(|l| l.starts_with("Network ("));
    if veil::search::NETWORK_IN_PLAIN_CHESS {
        let line = plain_line.expect("a Network line in plain chess");
        assert!(line.starts_with("Network (plain chess, generation "), "{line}");
        assert_eq!(lines.len(), 3, "{lines:#?}");
    } else {
        assert_eq!(plain_line, None, "{lines:#?}");
    }

    // The hand-written evaluation alone, from White's side with Black to move: a queen up.
    engine.ok("setoption name UseNNUE value false");
    engine.ok("position fen 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    let lines = engine.ask("eval");
    assert_eq!(lines.len(), 2, "{lines:#?}");
    let total = pawns(&lines, "Final evaluation: ");
    assert_eq!(pawns(&lines, "Hand-written evaluation: "), total);
    assert!(total > 5.0, "{lines:#?}");
    assert_eq!(engine.fen(), "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");

    // In check: the parts, and no final evaluation.
    engine.ok("position fen 4k3/8/8/8/8/8/8/3QK2r w - - 0 1");
    let lines = engine.ask("eval");
    assert_eq!(lines.last().unwrap(), "Final evaluation: none (in check)", "{lines:#?}");
}

// ----- malformed input ---------------------------------------------------------------------

/// Lines that must each print exactly one `info string error:` line and change nothing. The
/// second part lists, separated by `|`, texts the error message must contain.
fn malformed_lines() -> Vec<(Vec<u8>, &'static str)> {
    let std_fen = STANDARD_START_FEN;
    let lines: Vec<(String, &str)> = vec![
        // moves
        ("position startpos moves e2e4".into(), "move 1|'e2e4'|suffix"),
        (
            "position startpos moves e2e4=P e7e5=P e4e5".into(),
            "move 3|'e4e5'|not legal",
        ),
        (
            "position startpos moves e2e4=P e7e5=P g1f3=N b8c6=N d2d4=P e5e4".into(),
            "move 6|'e5e4'|not legal",
        ),
        (
            "position startpos moves e2e4=P e7e5=P e1e2=P".into(),
            "move 3|'e1e2=P'|reveals nothing",
        ),
        (
            "position startpos moves e2e4=Q e7e5=Q g1f3=Q".into(),
            "move 3|'g1f3=Q'|pool",
        ),
        ("position startpos moves e2e4=K".into(), "move 1"),
        ("position startpos moves e2e4=".into(), "move 1"),
        ("position startpos moves e2e4=PP".into(), "move 1"),
        (
            "position startpos moves e2e4=P e7e5=P g1f3=N b8c6=N f1c4=B f8c5=B e1g1".into(),
            "move 7|'e1g1'|suffix",
        ),
        ("position startpos moves e9e4=P".into(), "move 1"),
        ("position startpos moves 0000".into(), "move 1"),
        ("position startpos moves e2e4=P e7e5".into(), "move 2|'e7e5'"),
        (format!("position fen {std_fen} moves e2e4 e7e5 e4e5"), "move 3|'e4e5'"),
        (format!("position fen {std_fen} moves e2e4=P"), "move 1|reveals nothing"),
        // position syntax
        ("position".into(), "position"),
        ("position fen".into(), "FEN"),
        ("position foo".into(), "foo"),
        ("position startpos extra".into(), "extra"),
        // FENs
        ("position fen 8/8/8 w - - 0 1".into(), "ranks"),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".into(),
            "side to move",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk".into(),
            "pool",
        ),
        (
            "position fen xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1".into(),
            "no pool",
        ),
        (
            "position fen xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P7q1r2b2n2p8".into(),
            "white pool holds 14",
        ),
        ("position fen 4k3/8/8/8/3X4/8/8/4K3 w - - 0 1 P1".into(), "d4"),
        ("position fen 8/8/8/8/8/8/8/4K3 w - - 0 1".into(), "kings"),
        ("position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1".into(), "castling"),
        (
            "position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1".into(),
            "not to move is in check",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1".into(),
            "en passant",
        ),
        ("position fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1".into(), "promotion rank"),
        ("position fen 4k3/8/8/8/8/8/8/4K3 w - - x 1".into(), "halfmove"),
        ("position fen 4k3/8/8/8/8/8/8/4K2X w - - 0 1 P1P1".into(), "twice"),
        ("position fen 4k3/8/8/8/8/8/8/4K3 w".into(), "fields"),
        // setoption
        ("setoption".into(), "setoption"),
        ("setoption name".into(), "name"),
        ("setoption value 3".into(), "name"),
        ("setoption name NoSuchOption value 1".into(), "NoSuchOption"),
        ("setoption name Hash value abc".into(), "abc"),
        ("setoption name Hash value 0".into(), "Hash"),
        ("setoption name Threads value 65".into(), "Threads"),
        ("setoption name MultiPV".into(), "MultiPV"),
        ("setoption name MultiPV value 999".into(), "MultiPV"),
        ("setoption name Ponder value maybe".into(), "maybe"),
        ("setoption name UCI_Variant value atomic".into(), "atomic"),
        ("setoption name Level value 0".into(), "Level"),
        ("setoption name Seed value -1".into(), "Seed"),
        ("setoption name Move Overhead value 5001".into(), "Move Overhead"),
        ("setoption name Hash value".into(), "value"),
        // other commands
        ("xyzzy".into(), "xyzzy"),
        ("debug maybe".into(), "debug"),
        ("bench abc".into(), "bench"),
        (format!("{} {}", "x".repeat(100_000), "y"), "unknown command"),
    ];
    let mut all: Vec<(Vec<u8>, &str)> = lines.into_iter().map(|(l, e)| (l.into_bytes(), e)).collect();
    all.push((vec![0xff, 0xfe, b' ', b'g', 0x01, 0x02, 0x80], "unknown command"));
    all.push((b"\x1b[2J\x07 \x00zz".to_vec(), "unknown command"));
    all
}

#[test]
fn malformed_lines_each_get_one_error_and_change_nothing() {
    let mut engine = Engine::covered();
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    engine.ok("setoption name MultiPV value 2");
    let fen = engine.fen();
    let lines = malformed_lines();
    assert!(lines.len() >= 30);
    for (bytes, needle) in &lines {
        let mut line = bytes.clone();
        line.push(b'\n');
        engine.send_bytes(&line);
        let answer = engine.sync();
        let shown: String = String::from_utf8_lossy(bytes).chars().take(80).collect();
        assert_eq!(
            answer.len(),
            1,
            "{}",
            engine.failure(&format!("{shown:?} printed {answer:?}"))
        );
        assert!(answer[0].starts_with("info string error: "), "{shown:?}: {answer:?}");
        for part in needle.split('|') {
            assert!(answer[0].contains(part), "{shown:?}: {:?} lacks {part:?}", answer[0]);
        }
        assert_eq!(engine.fen(), fen, "{shown:?} changed the position");
    }
    // Nothing changed the options either: MultiPV is still 2, the variant still covered.
    let search = engine.go("go depth 1");
    let multipv: Vec<&str> = search.iter().filter_map(|l| field(l, "multipv")).collect();
    assert_eq!(multipv, ["1", "2"], "{search:?}");
    engine.ok("position startpos");
    assert_eq!(engine.fen(), COVERED_START_FEN);
    engine.send("quit");
    assert!(engine.wait_exit(WAIT).success());
}

#[test]
fn bad_go_tokens_get_one_error_and_still_one_bestmove() {
    let mut engine = Engine::covered();
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    let position = position_after(COVERED_START_FEN, COVERED_MIDGAME_MOVES);
    for (line, needle) in [
        ("go depth 1 foo", "'foo'"),
        ("go depth 1 nodes abc", "'nodes' needs a number"),
        ("go depth 1 wtime x", "'wtime' needs a number"),
        ("go depth 1 movestogo -1", "'movestogo' needs a number"),
        ("go depth 1 searchmoves zzzz", "zzzz"),
        ("go depth 1 searchmoves e2e4=P", "e2e4=P"),
        ("go depth 1 perft x", "'perft' needs a number"),
        ("go wtime 100 btime 100 binc", "'binc' needs a number"),
    ] {
        let lines = engine.go(line);
        assert_eq!(errors(&lines).len(), 1, "{line}: {lines:?}");
        assert!(errors(&lines)[0].contains(needle), "{line}: {lines:?}");
        assert_eq!(count_bestmoves(&lines), 1);
        assert_legal(&position, &bestmove_of(&lines));
    }
    assert_eq!(engine.fen(), position.to_fen());
}

// ----- go and bestmove ---------------------------------------------------------------------

#[test]
fn one_bestmove_for_each_kind_of_limit() {
    let mut engine = Engine::spawn();
    let start = Position::standard_start();
    engine.ok("position startpos");
    for go in [
        "go depth 1",
        "go nodes 1",
        "go movetime 50",
        "go wtime 1000 btime 1000",
        "go wtime 1000 btime 1000 winc 100 binc 100 movestogo 5",
        "go depth 3 nodes 100000 movetime 2000",
    ] {
        let started = Instant::now();
        let lines = engine.go(go);
        assert_eq!(count_bestmoves(&lines), 1, "{go}: {lines:?}");
        assert_legal(&start, &bestmove_of(&lines));
        if go == "go movetime 50" {
            assert!(
                started.elapsed() < Duration::from_millis(1000),
                "{go} took {:?}",
                started.elapsed()
            );
        }
    }
    // depth 1 reports depth 1 and nothing deeper.
    let lines = engine.go("go depth 1");
    assert!(lines.iter().any(|l| field(l, "depth") == Some("1")), "{lines:?}");
    assert!(
        lines.iter().all(|l| field(l, "depth").is_none_or(|d| d == "1")),
        "{lines:?}"
    );

    // Black to move with a clock.
    engine.ok("position startpos moves e2e4");
    let lines = engine.go("go wtime 500 btime 500");
    assert_legal(&position_after(STANDARD_START_FEN, "e2e4"), &bestmove_of(&lines));

    // Covered positions too.
    engine.ok("setoption name UCI_Variant value covered");
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    let midgame = position_after(COVERED_START_FEN, COVERED_MIDGAME_MOVES);
    for go in ["go depth 1", "go nodes 1", "go movetime 50", "go wtime 1000 btime 1000"] {
        let lines = engine.go(go);
        assert_legal(&midgame, &bestmove_of(&lines));
    }
}

/// Whether every reply to `m` allows a mate in one.
fn forces_mate_next_move(position: &Position, m: Move) -> bool {
    let after = position.play(m, None);
    let replies = after.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&reply| {
            let next = after.play(reply, None);
            next.legal_moves()
                .iter()
                .any(|&mate| next.play(mate, None).is_checkmate())
        })
}

#[test]
fn go_mate_finds_the_mate_in_two() {
    let mut engine = Engine::spawn();
    engine.ok(&format!("position fen {MATE_IN_TWO}"));
    let lines = engine.go("go mate 2");
    let position = Position::from_fen(MATE_IN_TWO).unwrap();
    let m = assert_legal(&position, &bestmove_of(&lines));
    assert!(forces_mate_next_move(&position, m), "{lines:?}");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(last_info.contains("score mate 2"), "{lines:?}");
}

#[test]
fn checkmate_and_stalemate_give_bestmove_none() {
    let mut engine = Engine::spawn();
    for (fen, status, score) in [
        (CHECKMATED, "checkmate", "info depth 0 score mate 0"),
        (STALEMATED, "stalemate", "info depth 0 score cp 0"),
    ] {
        engine.ok(&format!("position fen {fen}"));
        // `go infinite` and `go ponder` wait for `stop`: see
        // `go_infinite_without_legal_moves_waits_for_stop`.
        for go in ["go depth 3", "go wtime 1000 btime 1000", "go nodes 1"] {
            let lines = engine.go(go);
            assert_eq!(
                lines,
                [
                    format!("info string {status}"),
                    score.to_string(),
                    "bestmove (none)".to_string()
                ],
                "{go}"
            );
        }
    }
    // A covered checkmate reached through moves with reveals.
    engine.ok("setoption name UCI_Variant value covered");
    engine.ok("position startpos moves f2f3=P e7e5=P g2g4=P d8h4=Q");
    let lines = engine.go("go depth 2");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(lines.contains(&"info string checkmate".to_string()), "{lines:?}");
}

#[test]
fn searchmoves_restricts_the_bestmove() {
    let mut engine = Engine::spawn();
    engine.ok("position startpos");
    let lines = engine.go("go depth 4 searchmoves a2a3 h2h3");
    assert!(["a2a3", "h2h3"].contains(&bestmove_of(&lines).as_str()), "{lines:?}");
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        assert!(["a2a3", "h2h3"].contains(&pv(line)[0]), "{line}");
    }
    let lines = engine.go("go depth 3 searchmoves g2g4");
    assert_eq!(bestmove_of(&lines), "g2g4");

    // Covered: root moves are given without a suffix.
    engine.ok("setoption name UCI_Variant value covered");
    engine.ok("position startpos");
    let lines = engine.go("go depth 2 searchmoves b1a3 h2h4");
    assert!(["b1a3", "h2h4"].contains(&bestmove_of(&lines).as_str()), "{lines:?}");
}

#[test]
fn one_move_is_analysed_to_its_limit_and_played_at_once_under_a_clock() {
    let mut engine = Engine::spawn();
    engine.ok("position startpos");
    // A `movetime` or `nodes` search of one root move is analysis of that move, as
    // Stockfish's: it runs to its limit.
    let lines = engine.go("go movetime 300 searchmoves e2e4");
    assert_eq!(bestmove_of(&lines), "e2e4");
    assert!(most(&lines, "depth") > 1, "{lines:?}");
    let lines = engine.go("go nodes 20000 searchmoves e2e4");
    assert!(most(&lines, "depth") > 1, "{lines:?}");
    // Under a clock, one move to play is played after the first iteration.
    let lines = engine.go("go wtime 60000 btime 60000 searchmoves e2e4");
    assert_eq!(bestmove_of(&lines), "e2e4");
    assert_eq!(most(&lines, "depth"), 1, "{lines:?}");
}

#[test]
fn multipv_three_gives_three_distinct_lines() {
    let mut engine = Engine::spawn();
    engine.ok("setoption name MultiPV value 3");
    engine.ok("position startpos");
    let lines = engine.go("go depth 4");
    for depth in 1..=4 {
        let at_depth: Vec<&String> = lines
            .iter()
            .filter(|l| field(l, "depth") == Some(&depth.to_string()))
            .collect();
        let multipv: Vec<&str> = at_depth.iter().filter_map(|l| field(l, "multipv")).collect();
        assert_eq!(multipv, ["1", "2", "3"], "depth {depth}: {lines:?}");
        let mut firsts: Vec<&str> = at_depth.iter().map(|l| pv(l)[0]).collect();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "distinct first moves at depth {depth}: {lines:?}");
    }
    let best = bestmove_of(&lines);
    let last_first = lines
        .iter()
        .rev()
        .find(|l| field(l, "multipv") == Some("1"))
        .map(|l| pv(l)[0])
        .unwrap();
    assert_eq!(best, last_first, "bestmove is the first line's move");

    // With fewer legal moves than MultiPV, one line per move.
    engine.ok("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1");
    let lines = engine.go("go depth 2");
    let at_depth_2 = lines.iter().filter(|l| field(l, "depth") == Some("2")).count();
    assert_eq!(at_depth_2, 3, "{lines:?}");
}

#[test]
fn isready_is_answered_during_go_infinite_and_bestmove_waits_for_stop() {
    let mut engine = Engine::covered();
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    engine.send("go infinite");
    engine.read_until(WAIT, |l| l.starts_with("info depth"));
    for _ in 0..3 {
        let before = engine.sync();
        assert_eq!(count_bestmoves(&before), 0, "{before:?}");
        assert!(
            engine.ask("d").iter().any(|l| l.starts_with("Fen: ")),
            "d is answered during the search"
        );
    }
    let waited = engine.quiet(Duration::from_millis(300));
    assert_eq!(count_bestmoves(&waited), 0, "no bestmove before stop: {waited:?}");
    engine.send("stop");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert_legal(
        &position_after(COVERED_START_FEN, COVERED_MIDGAME_MOVES),
        &bestmove_of(&lines),
    );
    engine.assert_no_bestmove_after();
    // A second stop prints nothing.
    engine.ok("stop");
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut engine = Engine::spawn();
    let position = position_after(STANDARD_START_FEN, "e2e4 e7e5");
    engine.ok("position startpos moves e2e4 e7e5");

    // ponderhit: the search goes on under the clock and ends by itself.
    engine.send("go ponder wtime 1000 btime 1000");
    let early = engine.quiet(Duration::from_millis(300));
    assert_eq!(count_bestmoves(&early), 0, "no bestmove while pondering: {early:?}");
    engine.send("ponderhit");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert_legal(&position, &bestmove_of(&lines));
    engine.assert_no_bestmove_after();

    // A depth-limited ponder search waits for ponderhit even when done.
    engine.send("go ponder depth 2");
    let early = engine.quiet(Duration::from_millis(300));
    assert!(early.iter().any(|l| field(l, "depth") == Some("2")), "{early:?}");
    assert_eq!(count_bestmoves(&early), 0, "{early:?}");
    engine.send("ponderhit");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert_legal(&position, &bestmove_of(&lines));
    engine.assert_no_bestmove_after();

    // stop: the pondering search ends with a bestmove.
    engine.send("go ponder wtime 1000 btime 1000");
    let early = engine.quiet(Duration::from_millis(200));
    assert_eq!(count_bestmoves(&early), 0, "{early:?}");
    engine.send("stop");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert_legal(&position, &bestmove_of(&lines));
    engine.assert_no_bestmove_after();
    // A ponderhit with nothing to hit prints nothing.
    engine.ok("ponderhit");
}

#[test]
fn a_new_go_during_a_search_ends_it_with_its_own_bestmove() {
    let mut engine = Engine::spawn();
    engine.ok("position startpos");
    engine.send("go infinite");
    engine.read_until(WAIT, |l| l.starts_with("info depth"));
    engine.send("go depth 1");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert_eq!(count_bestmoves(&lines), 1);
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert_eq!(count_bestmoves(&lines), 1);
    engine.assert_no_bestmove_after();
}

/// A search checks for `stop` every 64 nodes, so its answer comes within milliseconds on a
/// quiet machine. The bound here is loose on purpose: it catches a stop that is not checked
/// (an infinite search never ends by itself), not a slow one, since a test's timings swing
/// with the machine's load.
#[test]
fn stop_ends_an_infinite_search_quickly() {
    let mut engine = Engine::spawn();
    let mut worst = Duration::ZERO;
    for (variant, moves) in [("chess", "e2e4 c7c5"), ("covered", COVERED_MIDGAME_MOVES)] {
        engine.ok(&format!("setoption name UCI_Variant value {variant}"));
        engine.ok(&format!("position startpos moves {moves}"));
        for _ in 0..3 {
            engine.send("go infinite");
            engine.quiet(Duration::from_millis(150));
            let sent = Instant::now();
            engine.send("stop");
            engine.read_until(WAIT, |l| l.starts_with("bestmove"));
            worst = worst.max(sent.elapsed());
            engine.assert_no_bestmove_after();
        }
    }
    assert!(worst < Duration::from_secs(2), "stop to bestmove took {worst:?}");
}

// ----- ending the process ------------------------------------------------------------------

#[test]
fn end_of_input_exits_cleanly_even_during_go_infinite() {
    let mut engine = Engine::spawn();
    engine.close_stdin();
    assert!(engine.wait_exit(WAIT).success());

    let mut engine = Engine::covered();
    engine.ok("position startpos moves e2e4=P");
    engine.send("go infinite");
    engine.read_until(WAIT, |l| l.starts_with("info depth"));
    engine.close_stdin();
    let status = engine.wait_exit(WAIT);
    assert!(status.success(), "{status:?}");
    let rest = engine.quiet(Duration::from_millis(100));
    assert_eq!(count_bestmoves(&rest), 1, "the stopped search still answers: {rest:?}");
}

#[test]
fn quit_during_a_search_exits() {
    for go in ["go infinite", "go ponder", "go wtime 100000 btime 100000"] {
        let mut engine = Engine::spawn();
        engine.ok("position startpos");
        engine.send(go);
        engine.read_until(WAIT, |l| l.starts_with("info depth"));
        let sent = Instant::now();
        engine.send("quit");
        let status = engine.wait_exit(WAIT);
        assert!(status.success(), "{go}: {status:?}");
        assert!(
            sent.elapsed() < Duration::from_secs(1),
            "{go}: exit took {:?}",
            sent.elapsed()
        );
    }
    // Words before a known command are skipped, as UCI asks.
    let mut engine = Engine::spawn();
    engine.send("joho quit");
    assert!(engine.wait_exit(WAIT).success());
}

#[test]
fn line_endings_and_a_last_line_without_newline() {
    let mut engine = Engine::spawn();
    engine.send_bytes(b"position startpos moves e2e4\r\n");
    engine.send_bytes(b"\tisready \r\n");
    engine.read_until(WAIT, |l| l == "readyok");
    assert_eq!(engine.fen(), position_after(STANDARD_START_FEN, "e2e4").to_fen());
    engine.send_bytes(b"isready");
    engine.close_stdin();
    engine.read_until(WAIT, |l| l == "readyok");
    assert!(engine.wait_exit(WAIT).success());
}

#[test]
fn helper_threads_and_levels_still_give_one_legal_bestmove() {
    let mut engine = Engine::covered();
    engine.ok("setoption name Threads value 2");
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    let position = position_after(COVERED_START_FEN, COVERED_MIDGAME_MOVES);
    for level in 1..=5 {
        engine.ok(&format!("setoption name Level value {level}"));
        let lines = engine.go("go depth 3");
        assert_legal(&position, &bestmove_of(&lines));
    }
    engine.ok("setoption name Threads value 1");
    let lines = engine.go("go wtime 0 btime 0");
    assert_legal(&position, &bestmove_of(&lines));
}

// ----- known deviations --------------------------------------------------------------------

/// UCI: "infinite: search until the stop command. Do not exit the search without being told
/// so in this mode!" The same holds for ponder; Stockfish prints `bestmove (none)` only after
/// stop or ponderhit when the position has no legal move.
#[test]
fn go_infinite_without_legal_moves_waits_for_stop() {
    let mut engine = Engine::spawn();
    engine.ok(&format!("position fen {CHECKMATED}"));
    for (go, end) in [
        ("go infinite", "stop"),
        ("go ponder", "ponderhit"),
        ("go ponder", "stop"),
    ] {
        engine.send(go);
        let early = engine.quiet(Duration::from_millis(200));
        assert_eq!(count_bestmoves(&early), 0, "{go}: bestmove before {end}: {early:?}");
        engine.send(end);
        let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
        assert_eq!(lines.last().unwrap(), "bestmove (none)");
    }
}

/// A malformed `setoption` gets one error line in debug mode too, and no claim that the
/// option was set.
#[test]
fn debug_mode_does_not_confirm_rejected_options() {
    let mut engine = Engine::spawn();
    engine.ok("debug on");
    for line in ["setoption name NoSuchOption value 1", "setoption name Hash value 0"] {
        let answer = engine.ask(line);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(answer[0].starts_with("info string error: "), "{line}: {answer:?}");
    }
}

/// Regression: the ponder move was checked by playing the best move without a reveal, even
/// when the best move reveals; with no pawn in the pool that drew a role the pool lacked.
#[test]
fn a_revealing_best_move_with_no_pawn_in_the_pool() {
    let mut engine = Engine::spawn();
    engine.ok("position fen x3kx2/8/3R4/R7/8/K7/8/8 w - - 0 1 r1b1 moves a3b3");
    let lines = engine.go("go depth 3");
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove ") && !last.contains("ponder"), "{last}");
    engine.sync();
}

/// A deep perft ends within moments of `stop`, with the root moves it finished.
#[test]
fn a_deep_perft_stops_on_stop() {
    let mut engine = Engine::covered();
    engine.send("go perft 7");
    engine.sync();
    engine.send("stop");
    let lines = engine.read_until(WAIT, |l| l.starts_with("Nodes searched:"));
    assert!(lines.last().unwrap().starts_with("Nodes searched:"), "{lines:?}");
    engine.sync();
}

/// Huge numbers in `go` are limits, not overflows.
#[test]
fn huge_go_numbers() {
    let mut engine = Engine::spawn();
    engine.send("go mate 4294967295 movetime 100");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    let lines = engine.go("go wtime 9223372036854775807 winc 9223372036854775807 movetime 50");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    engine.sync();
}

/// The move `level` plays in `fen` with `seed`, in a fresh engine process, with the levels
/// without their time caps ([`common::untimed_levels_file`]).
fn level_move(fen: &str, level: u8, seed: u64) -> String {
    let mut engine = Engine::spawn();
    engine.send(&format!(
        "setoption name LevelsFile value {}",
        common::untimed_levels_file().display()
    ));
    engine.send(&format!("setoption name Level value {level}"));
    engine.send(&format!("setoption name Seed value {seed}"));
    engine.send(&format!("position fen {fen}"));
    // The node caps (the level's, or this one) end every search.
    engine.send("go nodes 3000");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    bestmove_of(&lines)
}

#[test]
fn the_same_seed_gives_the_same_move_at_every_level() {
    let fens = [
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "xxx1kxxx/xxx1xxxx/8/3q4/8/8/XXXX1XXX/XXXXKXXX w KQkq - 0 3 Q1R2B2N2P7r2b1n2p8",
    ];
    for level in 1..=5 {
        for fen in fens {
            let first = level_move(fen, level, 7);
            assert_eq!(first, level_move(fen, level, 7), "level {level}, {fen}");
        }
    }
    // The seed matters to the weak levels: over a few positions some choice differs.
    let differs = fens
        .iter()
        .any(|fen| (1..=4).any(|seed| level_move(fen, 1, seed) != level_move(fen, 1, seed + 10)));
    assert!(differs, "level 1 plays the same whatever the seed");
}

#[test]
fn a_levels_plain_chess_node_cap_holds_in_plain_chess_only() {
    let dir = common::scratch_dir("chess-nodes");
    let path = dir.join("levels.toml");
    let mut table = veil::search::level::LevelTable::default();
    table.levels[0] = veil::search::level::LevelParams {
        nodes: Some(200_000),
        chess_nodes: Some(2_000),
        ..veil::search::level::LevelParams::FULL
    };
    std::fs::write(&path, table.to_toml()).unwrap();
    let searched = |variant: &str, position: &str| {
        let mut engine = Engine::spawn();
        engine.send(&format!("setoption name LevelsFile value {}", path.display()));
        engine.send("setoption name Level value 1");
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine.send(&format!("position {position}"));
        engine.send("go nodes 50000");
        let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
        assert!(errors(&lines).is_empty(), "{lines:?}");
        most(&lines, "nodes")
    };
    let plain = searched("chess", "startpos");
    assert!((1..=4_000).contains(&plain), "plain chess searched {plain} nodes");
    let covered = searched("covered", "startpos");
    assert!(covered > 10_000, "covered chess searched {covered} nodes");
}

#[test]
fn levels_files_replace_the_table_and_bad_ones_are_refused() {
    let dir = common::scratch_dir("levels-files");
    let good = dir.join("levels.toml");
    let mut table = veil::search::level::LevelTable::default();
    table.levels[0].elo = Some(500.0);
    std::fs::write(&good, table.to_toml()).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[[level]]\ndepth = 0\n").unwrap();
    let mut engine = Engine::spawn();
    engine.send(&format!("setoption name LevelsFile value {}", bad.display()));
    engine.send(&format!(
        "setoption name LevelsFile value {}",
        dir.join("missing.toml").display()
    ));
    let lines = engine.sync();
    assert_eq!(errors(&lines).len(), 2, "{lines:?}");
    // The table's Elo range bounds UCI_Elo: 600 is refused before the file and taken after.
    engine.send("setoption name UCI_Elo value 600");
    assert_eq!(errors(&engine.sync()).len(), 1);
    engine.send(&format!("setoption name LevelsFile value {}", good.display()));
    engine.send("setoption name UCI_Elo value 600");
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("position startpos");
    engine.send("go nodes 5000");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

#[test]
fn eval_files_load_networks_and_refuse_anything_else() {
    let dir = common::scratch_dir("eval-files");
    let network = dir.join("net.nnue");
    let bytes = veil::nnue::default_network().to_bytes();
    std::fs::write(&network, &bytes).unwrap();
    let short = dir.join("short.nnue");
    std::fs::write(&short, &bytes[..bytes.len() - 1]).unwrap();
    let damaged = dir.join("damaged.nnue");
    let mut flipped = bytes.clone();
    flipped[5000] ^= 0x40;
    std::fs::write(&damaged, &flipped).unwrap();
    let mut engine = Engine::spawn();
    for option in ["EvalFile", "EvalFilePlain"] {
        for bad in [short.as_path(), damaged.as_path(), &dir] {
            engine.send(&format!("setoption name {option} value {}", bad.display()));
            let lines = engine.sync();
            assert_eq!(errors(&lines).len(), 1, "{option}: {lines:?}");
        }
    }
    engine.send(&format!("setoption name EvalFile value {}", network.display()));
    engine.send(&format!("setoption name EvalFilePlain value {}", network.display()));
    engine.send("setoption name UseNNUE value true");
    let lines = engine.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // The network scores these openings differently from the hand-written evaluation (a
    // correction may happen to add nothing to one position's score, not to all three).
    let score = |engine: &mut Engine, use_network: bool, moves: &str| {
        engine.send(&format!("setoption name UseNNUE value {use_network}"));
        engine.send("setoption name NNUEPlainChess value true");
        engine.send("ucinewgame");
        engine.send(&format!("position startpos moves {moves}"));
        engine.send("go depth 1");
        let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
        lines
            .iter()
            .rev()
            .find_map(|l| field(l, "cp").map(str::to_string))
            .expect("a score")
    };
    let openings = ["e2e4 e7e5 g1f3", "d2d4 d7d5 c2c4", "e2e4 c7c5 g1f3 d7d6"];
    assert!(
        openings
            .iter()
            .any(|moves| score(&mut engine, true, moves) != score(&mut engine, false, moves)),
        "the network changed no score"
    );
    engine.send("quit");
    assert!(engine.wait_exit(WAIT).success());
}

// ----- options that name files, and operator limits (protocol.md) -------------------------

/// A scratch directory of hostile files for `LevelsFile`: random bytes, a 1 GiB sparse file,
/// a file one byte over the bound, a FIFO nobody writes to, a directory and symbolic links.
fn hostile_files() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(make_hostile_files).clone()
}

fn make_hostile_files() -> std::path::PathBuf {
    let dir = common::shared_dir("hostile");
    std::fs::create_dir_all(dir.join("directory")).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let random: Vec<u8> = (0..4096).map(|_| rng.gen()).collect();
    std::fs::write(dir.join("random"), random).unwrap();
    std::fs::File::create(dir.join("sparse"))
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let bound = veil::protocol::options::LEVELS_FILE_MAX_BYTES as usize;
    std::fs::write(dir.join("over.toml"), "#".repeat(bound + 1)).unwrap();
    std::fs::write(
        dir.join("levels.toml"),
        veil::search::level::LevelTable::default().to_toml(),
    )
    .unwrap();
    let fifo = dir.join("fifo");
    if !fifo.exists() {
        let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success());
    }
    for (link, target) in [
        ("to-zero", std::path::Path::new("/dev/zero")),
        ("to-levels", &dir.join("levels.toml")),
    ] {
        let _ = std::fs::remove_file(dir.join(link));
        std::os::unix::fs::symlink(target, dir.join(link)).unwrap();
    }
    dir
}

/// What `uci` declares and what `d` shows: the options and the position, to compare.
fn state(engine: &mut Engine) -> (Vec<String>, String) {
    engine.send("uci");
    let declarations = engine.read_until(WAIT, |l| l == "uciok");
    (declarations, engine.fen())
}

#[test]
fn file_options_refuse_devices_fifos_directories_and_large_files() {
    let dir = hostile_files();
    let path = |name: &str| dir.join(name).display().to_string();
    let cases = [
        ("/dev/zero".to_string(), " is a character device, not a regular file"),
        ("/dev/urandom".to_string(), " is a character device, not a regular file"),
        (path("fifo"), " is a FIFO, not a regular file"),
        (path("directory"), " is a directory, not a regular file"),
        (path("sparse"), " is 1073741824 bytes, more than the limit of 16384"),
        (path("over.toml"), " is 16385 bytes, more than the limit of 16384"),
        (path("to-zero"), " is a character device, not a regular file"),
        ("/etc/passwd".to_string(), ": not a valid levels file (line 1)"),
        (path("random"), ": not a valid levels file (not UTF-8 text)"),
        (path("missing"), " does not exist"),
    ];
    let mut engine = Engine::covered();
    engine.ok("setoption name Level value 3");
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    let before = state(&mut engine);
    for (path, needle) in &cases {
        let line = format!("setoption name LevelsFile value {path}");
        let started = Instant::now();
        refused(
            &mut engine,
            line.as_bytes(),
            &format!("option 'LevelsFile': '{path}'{needle}"),
        );
        // refused() waits 200 ms for stray lines after readyok; the answer itself is quick.
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{path}: {:?}",
            started.elapsed()
        );
        assert_eq!(state(&mut engine), before, "{path} changed something");
    }
    // No line ever showed a file's content.
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let first_entry = passwd.lines().next().unwrap_or("root:x:0:0");
    assert!(
        !engine
            .transcript
            .iter()
            .any(|l| l.starts_with("< ") && l.contains(first_entry)),
        "{}",
        engine.failure("/etc/passwd shown")
    );
    // A link to a levels file is followed, and the engine still plays.
    engine.ok(&format!("setoption name LevelsFile value {}", path("to-levels")));
    let lines = engine.go("go nodes 2000");
    assert_legal(
        &position_after(COVERED_START_FEN, COVERED_MIDGAME_MOVES),
        &bestmove_of(&lines),
    );
}

#[test]
fn a_path_with_control_characters_is_shown_escaped_and_cut() {
    let mut engine = Engine::spawn();
    let long = "y".repeat(1000);
    refused(
        &mut engine,
        format!("setoption name LevelsFile value /no/such\x1b[31m/{long}").as_bytes(),
        "'/no/such\\u{1b}[31m/yyy",
    );
    let raw = b"setoption name LevelsFile value /no/\x1b[2Jsuch";
    refused(&mut engine, raw, "'/no/\\u{1b}[2Jsuch' does not exist");
}

/// The `option name <name> ...` line of `uci`, if declared.
fn declaration(engine: &mut Engine, name: &str) -> Option<String> {
    engine.send("uci");
    let lines = engine.read_until(WAIT, |l| l == "uciok");
    let prefix = format!("option name {name} type ");
    lines.into_iter().find(|l| l.starts_with(&prefix))
}

#[test]
fn max_hash_caps_the_declared_range_and_setoption() {
    let mut engine = Engine::spawn_with(&["--max-hash", "8"], &[]);
    assert_eq!(
        declaration(&mut engine, "Hash").as_deref(),
        Some("option name Hash type spin default 8 min 1 max 8")
    );
    refused(
        &mut engine,
        b"setoption name Hash value 9",
        "9 is outside 1..8 (the operator's limit)",
    );
    refused(&mut engine, b"setoption name Hash value 16384", "outside 1..8");
    engine.ok("setoption name Hash value 8");
    let lines = engine.go("go depth 3");
    assert_legal(&Position::standard_start(), &bestmove_of(&lines));
}

#[test]
fn max_threads_caps_the_declared_range_and_setoption() {
    let mut engine = Engine::spawn_with(&[], &[("VEIL_MAX_THREADS", "2")]);
    assert_eq!(
        declaration(&mut engine, "Threads").as_deref(),
        Some("option name Threads type spin default 1 min 1 max 2")
    );
    refused(
        &mut engine,
        b"setoption name Threads value 3",
        "3 is outside 1..2 (the operator's limit)",
    );
    engine.ok("setoption name Threads value 2");
    let lines = engine.go("go depth 3");
    assert_legal(&Position::standard_start(), &bestmove_of(&lines));
}

#[test]
fn no_file_options_leaves_file_options_out_and_refuses_them() {
    let levels = hostile_files().join("levels.toml");
    for mut engine in [
        Engine::spawn_with(&["--no-file-options"], &[]),
        Engine::spawn_with(&[], &[("VEIL_NO_FILE_OPTIONS", "1")]),
    ] {
        assert_eq!(declaration(&mut engine, "LevelsFile"), None);
        assert!(declaration(&mut engine, "Level").is_some());
        refused(
            &mut engine,
            format!("setoption name LevelsFile value {}", levels.display()).as_bytes(),
            "options that name files are switched off by the operator",
        );
    }
    let mut engine = Engine::spawn_with(&[], &[("VEIL_NO_FILE_OPTIONS", "0")]);
    assert!(declaration(&mut engine, "LevelsFile").is_some());
}

#[test]
fn a_flag_beats_its_environment_variable() {
    let mut engine = Engine::spawn_with(&["--max-hash", "32"], &[("VEIL_MAX_HASH", "4")]);
    assert_eq!(
        declaration(&mut engine, "Hash").as_deref(),
        Some("option name Hash type spin default 16 min 1 max 32")
    );
    let mut engine = Engine::spawn_with(&[], &[("VEIL_MAX_HASH", "4")]);
    assert_eq!(
        declaration(&mut engine, "Hash").as_deref(),
        Some("option name Hash type spin default 4 min 1 max 4")
    );
}

#[test]
fn a_bad_operator_limit_stops_the_engine_before_it_starts() {
    for (args, vars) in [
        (&["--max-hash", "0"][..], &[][..]),
        (&["--max-threads", "many"][..], &[][..]),
        (&[][..], &[("VEIL_MAX_HASH", "-1")][..]),
    ] {
        let mut engine = Engine::spawn_with(args, vars);
        let status = engine.wait_exit(WAIT);
        assert_eq!(status.code(), Some(2), "{args:?} {vars:?}");
    }
}

// ----- resource bounds (protocol.md, "Limits") ---------------------------------------------

/// Sends a line and checks that it printed exactly one error containing `needle`, and
/// nothing else within a short while (no search, perft or bench started).
fn refused(engine: &mut Engine, line: &[u8], needle: &str) {
    let mut bytes = line.to_vec();
    bytes.push(b'\n');
    engine.send_bytes(&bytes);
    let mut answer = engine.sync();
    answer.extend(engine.quiet(Duration::from_millis(200)));
    let shown: String = String::from_utf8_lossy(line).chars().take(60).collect();
    assert_eq!(
        answer.len(),
        1,
        "{}",
        engine.failure(&format!("{shown:?} printed {answer:?}"))
    );
    assert!(answer[0].starts_with("info string error: "), "{shown:?}: {answer:?}");
    assert!(
        answer[0].contains(needle),
        "{shown:?}: {:?} lacks {needle:?}",
        answer[0]
    );
}

/// `line` padded with spaces to exactly `length` bytes.
fn padded(line: &str, length: usize) -> Vec<u8> {
    let mut bytes = line.as_bytes().to_vec();
    assert!(bytes.len() <= length);
    bytes.resize(length, b' ');
    bytes
}

#[test]
fn a_line_beyond_the_length_bound_is_refused_unread() {
    let mut engine = Engine::covered();
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    let fen = engine.fen();
    let over = padded("position startpos", MAX_LINE_BYTES + 1);
    refused(&mut engine, &over, &format!("line of {} bytes", MAX_LINE_BYTES + 1));
    assert_eq!(engine.fen(), fen);
    // Ten megabytes with no line ending in sight: still one error, and nothing kept.
    let huge = vec![b'a'; 10 << 20];
    refused(&mut engine, &huge, "longer than the limit");
    assert_eq!(engine.fen(), fen);
    // A line of exactly the bound is read.
    engine.ok(std::str::from_utf8(&padded("position startpos", MAX_LINE_BYTES)).unwrap());
    assert_eq!(engine.fen(), COVERED_START_FEN);
    // An overlong last line without a line ending: one error, then a clean exit.
    engine.send_bytes(&padded("isready", MAX_LINE_BYTES + 100));
    engine.close_stdin();
    let rest = engine.read_until(WAIT, |l| l.starts_with("info string error: "));
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert!(engine.wait_exit(WAIT).success());
}

/// Knight moves out and back: `count` legal plain-chess moves from the start position.
fn knight_shuffle(count: usize) -> String {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    (0..count).map(|i| cycle[i % 4]).collect::<Vec<_>>().join(" ")
}

#[test]
fn a_position_beyond_the_move_bound_is_refused() {
    let mut engine = Engine::spawn();
    engine.ok("position startpos moves e2e4");
    let fen = engine.fen();
    let line = format!("position startpos moves {}", knight_shuffle(MAX_POSITION_MOVES + 1));
    refused(
        &mut engine,
        line.as_bytes(),
        &format!("lists {} moves", MAX_POSITION_MOVES + 1),
    );
    assert_eq!(engine.fen(), fen);
    let started = Instant::now();
    engine.ok(&format!(
        "position startpos moves {}",
        knight_shuffle(MAX_POSITION_MOVES)
    ));
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    let expected = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {MAX_POSITION_MOVES} 5001");
    assert_eq!(engine.fen(), expected);
    let lines = engine.go("go depth 2");
    assert_legal(&Position::standard_start(), &bestmove_of(&lines));
}

/// The range of a spin option as the engine declares it.
fn declared_range(name: &str) -> (i64, i64) {
    let declaration = DECLARATIONS.iter().find(|d| d.name == name).expect("a declared option");
    match declaration.kind {
        OptionKind::Spin { min, max, .. } => (min, max),
        _ => panic!("{name} is not a spin option"),
    }
}

#[test]
fn hash_and_threads_ranges_are_declared_and_enforced() {
    let mut engine = Engine::spawn();
    engine.send("uci");
    let lines = engine.read_until(WAIT, |l| l == "uciok");
    for name in ["Hash", "Threads"] {
        let (min, max) = declared_range(name);
        let declaration = lines
            .iter()
            .find(|l| l.starts_with(&format!("option name {name} type spin")))
            .expect("the option is declared");
        assert!(declaration.ends_with(&format!(" min {min} max {max}")), "{declaration}");
        for value in [min - 1, max + 1, i64::MAX] {
            refused(
                &mut engine,
                format!("setoption name {name} value {value}").as_bytes(),
                &format!("outside {min}..{max}"),
            );
        }
        engine.ok(&format!("setoption name {name} value {min}"));
    }
    let lines = engine.go("go depth 3");
    assert_legal(&Position::standard_start(), &bestmove_of(&lines));
}

#[test]
fn go_depth_beyond_the_bound_searches_to_the_bound() {
    let mut engine = Engine::spawn();
    let lines = engine.go(&format!("go depth {} nodes 3000", MAX_GO_DEPTH + 1));
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        errors(&lines)[0].contains(&format!("searching to depth {MAX_GO_DEPTH}")),
        "{lines:?}"
    );
    assert_legal(&Position::standard_start(), &bestmove_of(&lines));
    let lines = engine.go(&format!("go depth {MAX_GO_DEPTH} nodes 3000"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

#[test]
fn go_perft_and_bench_beyond_their_bounds_are_refused() {
    let mut engine = Engine::covered();
    engine.ok(&format!("position startpos moves {COVERED_MIDGAME_MOVES}"));
    let fen = engine.fen();
    for depth in [MAX_PERFT_DEPTH + 1, 100_000, u32::MAX] {
        refused(
            &mut engine,
            format!("go perft {depth}").as_bytes(),
            "deeper than the limit",
        );
        refused(
            &mut engine,
            format!("go depth 1 perft {depth}").as_bytes(),
            "deeper than the limit",
        );
    }
    refused(
        &mut engine,
        format!("bench {}", MAX_BENCH_DEPTH + 1).as_bytes(),
        "deeper than the limit",
    );
    assert_eq!(engine.fen(), fen);
    // The deepest accepted perft runs, and stops on `stop`.
    engine.send(&format!("go perft {MAX_PERFT_DEPTH}"));
    engine.sync();
    engine.send("stop");
    let lines = engine.read_until(WAIT, |l| l.starts_with("Nodes searched:"));
    assert!(lines.iter().all(|l| !l.starts_with("info string error")), "{lines:?}");
    let lines = engine.go("go depth 2");
    assert_legal(
        &position_after(COVERED_START_FEN, COVERED_MIDGAME_MOVES),
        &bestmove_of(&lines),
    );
    engine.send("quit");
    assert!(engine.wait_exit(WAIT).success());
}

#[test]
fn ablate_switches_features_off_and_refuses_unknown_names() {
    let mut engine = Engine::spawn();
    engine.send("setoption name Ablate value lmr,nullmove");
    engine.send("setoption name Ablate value lmr,bogus");
    engine.send("go depth 5");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    let refused = errors(&lines);
    assert_eq!(refused.len(), 1, "{lines:?}");
    assert!(refused[0].contains("bogus"), "{refused:?}");
    engine.send("setoption name Ablate value none");
    engine.send("go depth 3");
    let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(WAIT).success());
}

#[test]
fn the_cover_baseline_plays_legal_covered_moves() {
    // A covered rook that can reach the last rank: the baseline sees a rook, the real move
    // needs a promotion letter while the pool holds a pawn.
    let fens = [
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
        "7k/8/6K1/8/8/8/8/X7 w - - 0 1 P1",
    ];
    for fen in fens {
        let mut engine = Engine::spawn();
        engine.send("setoption name CoverBaseline value true");
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 4");
        let lines = engine.read_until(WAIT, |l| l.starts_with("bestmove"));
        assert!(errors(&lines).is_empty(), "{lines:?}");
        let best = bestmove_of(&lines);
        let position = veil::rules::Position::from_fen(fen).unwrap();
        let legal: Vec<String> = position.legal_moves().iter().map(|m| m.to_string()).collect();
        assert!(legal.contains(&best), "{fen}: {best} not in {legal:?}");
    }
}
