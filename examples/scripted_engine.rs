//! A small UCI engine for testing match tools: it plays uniformly random legal moves (seeded),
//! and can misbehave on purpose after a number of its own moves.
//!
//! ```text
//! scripted_engine [--seed N] [--after N] [--mode MODE]
//! ```
//!
//! Modes: `random` (never misbehaves), `illegal` (answers a move that is not legal),
//! `suffix` (answers a move with a reveal suffix), `garbage` (answers `bestmove ???`),
//! `crash` (exits without answering), `hang` (never answers, ignores `stop`), `no-uciok`
//! (never finishes the handshake), `slow` (sleeps past its clock before answering),
//! `no-promotion` (answers a pawn's promotion without the piece letter, when it can).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{BufRead, Write};
use std::time::Duration;
use veil::rules::{Move, Position, Role};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Random,
    Illegal,
    Suffix,
    Garbage,
    Crash,
    Hang,
    NoUciok,
    Slow,
    NoPromotion,
}

fn parse_mode(text: &str) -> Option<Mode> {
    Some(match text {
        "random" => Mode::Random,
        "illegal" => Mode::Illegal,
        "suffix" => Mode::Suffix,
        "garbage" => Mode::Garbage,
        "crash" => Mode::Crash,
        "hang" => Mode::Hang,
        "no-uciok" => Mode::NoUciok,
        "slow" => Mode::Slow,
        "no-promotion" => Mode::NoPromotion,
        _ => return None,
    })
}

/// The position a `position` line describes, or `None` if it is not valid.
fn read_position(line: &str) -> Option<Position> {
    let rest = line.strip_prefix("position ")?;
    let (start, moves) = match rest.split_once(" moves ") {
        Some((start, moves)) => (start, moves),
        None => (rest, ""),
    };
    let mut position = if start.trim() == "startpos" {
        Position::standard_start()
    } else {
        Position::from_fen(start.strip_prefix("fen ")?).ok()?
    };
    for text in moves.split_whitespace() {
        let (m, reveal) = position.parse_played_move(text).ok()?;
        position = position.play(m, reveal);
    }
    Some(position)
}

fn main() {
    let mut seed = 1;
    let mut after = 0u32;
    let mut mode = Mode::Random;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        match (pair[0].as_str(), pair.get(1)) {
            ("--seed", Some(v)) => seed = v.parse().unwrap_or(1),
            ("--after", Some(v)) => after = v.parse().unwrap_or(0),
            ("--mode", Some(v)) => mode = parse_mode(v).unwrap_or(Mode::Random),
            _ => {}
        }
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut position = Position::standard_start();
    let mut moves_made = 0u32;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut say = |text: &str| {
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "uci" => {
                say("id name scripted");
                if mode != Mode::NoUciok {
                    say("uciok");
                }
            }
            "isready" => say("readyok"),
            // Each game replays the same way from the same seed, whatever came before.
            "ucinewgame" => rng = Xoshiro256PlusPlus::seed_from_u64(seed),
            "position" => {
                if let Some(p) = read_position(&line) {
                    position = p;
                }
            }
            "go" => {
                let misbehave = moves_made >= after;
                moves_made += 1;
                let legal = position.legal_moves();
                if legal.is_empty() {
                    say("bestmove (none)");
                    continue;
                }
                let m: Move = legal.as_slice()[rng.gen_range(0..legal.len())];
                say("info depth 1 score cp 0");
                match mode {
                    _ if !misbehave => say(&format!("bestmove {m}")),
                    Mode::Random => say(&format!("bestmove {m}")),
                    Mode::Illegal => say("bestmove a1a1"),
                    Mode::Garbage => say("bestmove ???"),
                    Mode::Suffix => say(&format!("bestmove {m}=Q")),
                    Mode::Crash => std::process::exit(3),
                    Mode::Hang => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    Mode::Slow => {
                        std::thread::sleep(Duration::from_millis(1500));
                        say(&format!("bestmove {m}"));
                    }
                    Mode::NoPromotion => {
                        let promotion = legal.iter().find(|m| {
                            m.promotion_role() == Some(Role::Queen) && !position.covered().contains(m.from())
                        });
                        match promotion {
                            Some(p) => say(&format!("bestmove {}{}", p.from(), p.to())),
                            None => say(&format!("bestmove {m}")),
                        }
                    }
                    Mode::NoUciok => say(&format!("bestmove {m}")),
                }
            }
            "quit" => break,
            _ => {}
        }
    }
}
