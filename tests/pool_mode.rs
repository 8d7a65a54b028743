//! Pool mode, as a server hosting many games would use the engine: one process answers
//! stateless requests of many games in turn (`ucinewgame`, variant, `Level`, `Seed`, the
//! position with its moves, `go`). Six plain and covered games at levels 1-4 are played
//! interleaved through one process; then each game's requests are sent to a process of its
//! own, and each single request to a fresh process, and every `bestmove` must be the same.
//! A second test shows why the recipe starts with `ucinewgame`: without it the pooled answers
//! depend on what the process searched for the other games.
//!
//! Replay is exact only when the search ends the same way each time: `Threads` 1 and a node
//! limit (`go nodes`). The levels' own time caps could end a search early on a busy machine,
//! so the engines here load the compiled-in level table with the time caps left out.

mod common;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use veil::rules::{Position, Role};

/// The longest any single answer may take.
const WAIT: Duration = Duration::from_secs(10);

/// Plies each game is played for.
const PLIES: usize = 8;

/// The node limit of every request (the levels' own node caps are lower at levels 1-2).
const GO: &str = "go nodes 4000";

/// One game as the server knows it: what each request repeats.
#[derive(Clone)]
struct GameSpec {
    variant: &'static str,
    level: u8,
    seed: u32,
}

/// The games played: plain and covered chess at every level below full strength.
const GAMES: [GameSpec; 6] = [
    GameSpec {
        variant: "covered",
        level: 1,
        seed: 11,
    },
    GameSpec {
        variant: "chess",
        level: 2,
        seed: 22,
    },
    GameSpec {
        variant: "covered",
        level: 3,
        seed: 33,
    },
    GameSpec {
        variant: "chess",
        level: 4,
        seed: 44,
    },
    GameSpec {
        variant: "covered",
        level: 4,
        seed: 55,
    },
    GameSpec {
        variant: "covered",
        level: 2,
        seed: 2_000_000_000,
    },
];

/// An engine process; its output lines arrive through a channel fed by a reader thread, so
/// a silent engine fails the test instead of hanging it.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Vec<u8>>,
}

impl Engine {
    /// A fresh process with `levels` as its level table.
    fn spawn(levels: &Path) -> Engine {
        let common::Spawned { child, stdin, lines } = common::spawn_engine(&[], &[], Stdio::inherit());
        let mut engine = Engine { child, stdin, lines };
        engine.send(&format!("setoption name LevelsFile value {}", levels.display()));
        engine.send("isready");
        let answer = engine.wait_for(|line| line == "readyok" || line.contains("error"));
        assert_eq!(answer, "readyok", "the levels file should load");
        engine
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to the engine");
        self.stdin.flush().expect("flush to the engine");
    }

    /// The first line matching `wanted` (earlier lines are dropped).
    fn wait_for(&mut self, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = common::text(&self.lines.recv_timeout(left).expect("an answer in time"));
            assert!(!line.contains("error"), "engine error: {line}");
            if wanted(&line) {
                return line;
            }
        }
    }

    /// Sends one request and returns its bestmove.
    fn ask(&mut self, request: &[String]) -> String {
        for line in request {
            self.send(line);
        }
        let line = self.wait_for(|line| line.starts_with("bestmove "));
        line.split_whitespace().nth(1).expect("a move").to_string()
    }

    fn quit(mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

/// The lines of one stateless request: the game's settings, its position, `go`; with
/// `new_game`, `ucinewgame` first.
fn request(spec: &GameSpec, moves: &[String], new_game: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if new_game {
        lines.push("ucinewgame".to_string());
    }
    lines.push(format!("setoption name UCI_Variant value {}", spec.variant));
    lines.push(format!("setoption name Level value {}", spec.level));
    lines.push(format!("setoption name Seed value {}", spec.seed));
    if moves.is_empty() {
        lines.push("position startpos".to_string());
    } else {
        lines.push(format!("position startpos moves {}", moves.join(" ")));
    }
    lines.push(GO.to_string());
    lines
}

/// A game in progress: its position, its moves as played (with reveal suffixes), and a
/// random source for the reveals, seeded by the game.
struct Table {
    spec: GameSpec,
    position: Position,
    moves: Vec<String>,
    reveals: Xoshiro256PlusPlus,
}

impl Table {
    fn new(spec: &GameSpec) -> Table {
        let position = if spec.variant == "covered" {
            Position::covered_start()
        } else {
            Position::standard_start()
        };
        Table {
            spec: spec.clone(),
            position,
            moves: Vec::new(),
            reveals: Xoshiro256PlusPlus::seed_from_u64(u64::from(spec.seed)),
        }
    }

    /// Plays the engine's move, drawing its reveal from the mover's pool as an arbiter would.
    fn play(&mut self, text: &str) {
        let m = self.position.parse_uci_move(text).expect("a legal bestmove");
        let reveal = self.position.is_reveal(m).then(|| {
            let pool = self.position.pool(self.position.side_to_move());
            let outcomes: Vec<(Role, u8)> = pool.outcomes().collect();
            let mut draw = self.reveals.gen_range(0..pool.total());
            outcomes
                .iter()
                .find(|&&(_, count)| {
                    let hit = draw < u32::from(count);
                    draw = draw.saturating_sub(u32::from(count));
                    hit
                })
                .map(|&(role, _)| role)
                .expect("a role in the pool")
        });
        self.moves.push(self.position.move_text(m, reveal));
        self.position = self.position.play(m, reveal);
    }
}

/// Plays every game for [`PLIES`] plies through one process, a request of each game in turn,
/// and returns each game's requests with the bestmoves they got.
fn play_pooled(levels: &Path, new_game: bool) -> Vec<Vec<(Vec<String>, String)>> {
    let mut engine = Engine::spawn(levels);
    let mut tables: Vec<Table> = GAMES.iter().map(Table::new).collect();
    let mut asked: Vec<Vec<(Vec<String>, String)>> = vec![Vec::new(); GAMES.len()];
    for _ in 0..PLIES {
        for (table, asked) in tables.iter_mut().zip(&mut asked) {
            if table.position.legal_moves().is_empty() {
                continue;
            }
            let lines = request(&table.spec, &table.moves, new_game);
            let best = engine.ask(&lines);
            table.play(&best);
            asked.push((lines, best));
        }
    }
    engine.quit();
    asked
}

/// Sends one game's requests to a fresh process of its own and returns its bestmoves.
fn replay_dedicated(levels: &Path, requests: &[(Vec<String>, String)]) -> Vec<String> {
    let mut engine = Engine::spawn(levels);
    let answers = requests.iter().map(|(lines, _)| engine.ask(lines)).collect();
    engine.quit();
    answers
}

#[test]
fn pooled_requests_after_ucinewgame_replay_exactly_as_dedicated_processes() {
    let levels = common::untimed_levels_file();
    let pooled = play_pooled(&levels, true);
    for (spec, requests) in GAMES.iter().zip(&pooled) {
        let pooled_moves: Vec<&str> = requests.iter().map(|(_, best)| best.as_str()).collect();
        let dedicated = replay_dedicated(&levels, requests);
        assert_eq!(
            pooled_moves, dedicated,
            "{} at level {} with seed {}: pooled and dedicated moves differ",
            spec.variant, spec.level, spec.seed
        );
        // And a process of its own for every single request: nothing is left to carry.
        let fresh: Vec<String> = requests
            .iter()
            .flat_map(|request| replay_dedicated(&levels, std::slice::from_ref(request)))
            .collect();
        assert_eq!(
            pooled_moves, fresh,
            "{} at level {} with seed {}: pooled moves and a fresh process per request differ",
            spec.variant, spec.level, spec.seed
        );
    }
    let reveals = pooled
        .iter()
        .flatten()
        .filter(|(lines, _)| {
            lines
                .iter()
                .any(|line| line.starts_with("position") && line.contains('='))
        })
        .count();
    assert!(reveals > 0, "the covered games should reveal pieces");
}

/// Why the recipe needs `ucinewgame`: a search starts from the hash table and the search
/// memory (move-ordering and correction history) that earlier searches left, so without it a
/// pooled process answers from what it searched for the other games. (Should the engine ever
/// keep nothing between searches, this fails, and protocol.md's "Pool mode" should say so.)
#[test]
fn without_ucinewgame_pooled_answers_depend_on_the_other_games() {
    let levels = common::untimed_levels_file();
    let pooled = play_pooled(&levels, false);
    let mut differing = 0;
    for requests in &pooled {
        let dedicated = replay_dedicated(&levels, requests);
        differing += requests
            .iter()
            .zip(&dedicated)
            .filter(|((_, pooled), dedicated)| pooled != *dedicated)
            .count();
    }
    assert!(
        differing > 0,
        "without ucinewgame every pooled answer matched a dedicated process"
    );
}
