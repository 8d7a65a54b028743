//! `veil levels --profile-from LOG --replay-tables A,B,...`: the positions of a profile's
//! move log played again by one or more level tables, one move each, every move judged as
//! `--profile` judges a game's, and the tables' figures set side by side.
//!
//! A profile of games measures a table together with the luck of where its games went (two
//! runs of one covered Level 2, 10 games each, gave 3.55 and 7.30 blunders a game). Here every
//! table meets the same positions, each from the seed its seat had in the log's games and
//! with a fresh hash, so two tables differ by what they do there and by nothing else. The
//! positions are those the log's level reached: a table far from that level is met where its
//! own games would seldom go, so a replay compares changes to a level, and a profile of games
//! confirms the one kept.
//!
//! The average drop of winning chances a move gives away is the figure of strength set
//! beside the error counts: a change that removes blunders and keeps that average makes a
//! level err differently at about the same strength.

use super::judge::{judge_move, Judge};
use super::move_log;
use super::profile::{Judgement, MoveLoss};
use super::tune::level_spec;
use crate::arbiter::clock::{go_line, Clock, TimeControl};
use crate::arbiter::engine::Engine;
use crate::rules::{ByColor, Color, Position};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Duration;

/// A position of a move log where a level was to move.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedPosition {
    pub level: u8,
    pub fen: String,
    /// The position the FEN describes, read once.
    pub position: Position,
    /// The judge's score of the position for the level (as the log has it).
    pub before: i32,
    /// The `Seed` of the seat that was to move.
    pub seed: u64,
}

/// The fields of a move-log line a replay needs.
#[derive(Deserialize)]
struct Line {
    level: u8,
    pair: u64,
    game: u64,
    fen: String,
    before: i32,
}

/// The seed of the seat to move in game `game` (1 or 2) of a pair of `veil levels --profile`
/// run with `seed`: the first seat has White in the pair's first game.
pub fn seat_seed(seed: u64, game: u64, black_to_move: bool) -> u64 {
    let seat = (game.wrapping_sub(1) & 1) ^ u64::from(black_to_move);
    seed.wrapping_mul(2).wrapping_add(seat) & 0x7fff_ffff
}

/// What a replay takes from a move log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogSample {
    /// The positions sampled, in the log's order.
    pub positions: Vec<LoggedPosition>,
    /// The player-games and the moves the log holds of the levels read.
    pub player_games: usize,
    pub moves: usize,
}

/// Every `every`th position of `levels` in a move log written with `--seed seed`.
pub fn read_positions(reader: impl BufRead, levels: &[u8], every: usize, seed: u64) -> Result<LogSample, String> {
    let (mut positions, mut games, mut index) = (Vec::new(), BTreeSet::new(), 0usize);
    let mut bad = None;
    move_log::for_each_line(reader, |line: Line| {
        if !levels.contains(&line.level) || bad.is_some() {
            return;
        }
        games.insert((line.level, line.pair, line.game));
        index += 1;
        if index % every.max(1) != 0 {
            return;
        }
        let black = line.fen.split_whitespace().nth(1) == Some("b");
        match Position::from_fen(&line.fen) {
            Ok(position) => positions.push(LoggedPosition {
                level: line.level,
                seed: seat_seed(seed, line.game, black),
                fen: line.fen,
                position,
                before: line.before,
            }),
            Err(e) => bad = Some(format!("position {index}: {e}")),
        }
    })?;
    match bad {
        Some(error) => Err(error),
        // A level against itself: each game holds two player-games.
        None => Ok(LogSample {
            positions,
            player_games: 2 * games.len(),
            moves: index,
        }),
    }
}

/// What one table did over a replay's positions.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TableFigures {
    pub table: String,
    pub moves: u64,
    /// Sums over the moves: centipawns lost, win% points dropped (a gain counts as none).
    pub loss: f64,
    pub drop: f64,
    pub inaccuracies: u64,
    pub mistakes: u64,
    pub blunders: u64,
    pub howlers: u64,
    /// Moves the same as the first table's.
    pub same_as_first: u64,
}

impl TableFigures {
    pub fn new(table: &str) -> TableFigures {
        TableFigures {
            table: table.to_string(),
            ..TableFigures::default()
        }
    }

    /// Counts one judged move.
    pub fn add(&mut self, judged: &MoveLoss, same_as_first: bool) {
        self.moves += 1;
        self.loss += judged.loss();
        self.drop += judged.drop().max(0.0);
        match judged.judgement() {
            Judgement::Good => {}
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
        }
        self.howlers += u64::from(judged.is_howler());
        self.same_as_first += u64::from(same_as_first);
    }
}

/// Plays every position again with each engine (one a table, each set to its level) and
/// judges the move it chooses; `go` is the `go` line each is asked with. Writes a JSON line
/// per position to `log` if given and calls `progress` after each.
pub fn replay(
    positions: &[LoggedPosition],
    players: &mut [(String, Engine)],
    judge: &mut Judge,
    go: &str,
    mut log: Option<&mut dyn Write>,
    mut progress: impl FnMut(usize, &[TableFigures]),
) -> Result<Vec<TableFigures>, String> {
    let mut figures: Vec<TableFigures> = players.iter().map(|(name, _)| TableFigures::new(name)).collect();
    let mut scores = HashMap::new();
    let timeout = Duration::from_secs(60);
    for (done, logged) in positions.iter().enumerate() {
        if crate::arbiter::interrupt::requested() {
            break;
        }
        let position = &logged.position;
        let mut first = None;
        let mut row = serde_json::json!({ "level": logged.level, "fen": logged.fen, "before": logged.before });
        for ((name, engine), figures) in players.iter_mut().zip(&mut figures) {
            let failed = |e: &dyn std::fmt::Display| format!("{name}: {e}");
            engine.new_game(timeout).map_err(|e| failed(&e))?;
            engine
                .send(&format!("setoption name Seed value {}", logged.seed))
                .map_err(|e| failed(&e))?;
            let answer = engine
                .think(&format!("position fen {}", logged.fen), go, timeout, timeout)
                .map_err(|e| failed(&e))?;
            let m = position
                .parse_uci_move(&answer.best_move)
                .map_err(|e| failed(&format!("{e} in '{}'", logged.fen)))?;
            let judged = judge_move(judge, position, logged.before, m, &mut scores).map_err(|e| failed(&e))?;
            let same = *first.get_or_insert(m) == m;
            figures.add(&judged, same);
            row[name.as_str()] = serde_json::json!({
                "move": answer.best_move,
                "loss": judged.loss(),
                "drop": judged.drop(),
                "class": judged.judgement(),
                "howler": judged.is_howler(),
            });
        }
        if let Some(log) = log.as_mut() {
            writeln!(log, "{row}")
                .and_then(|()| log.flush())
                .map_err(|e| format!("--profile-moves: {e}"))?;
        }
        progress(done + 1, &figures);
    }
    Ok(figures)
}

/// The name a table is shown by, and what stands for the compiled-in one.
pub const COMPILED_TABLE: &str = "-";

/// Starts one engine per table (a levels file, or [`COMPILED_TABLE`]), each at `level`.
pub fn start_players(
    command: &str,
    level: u8,
    tables: &[String],
    covered: bool,
) -> Result<Vec<(String, Engine)>, String> {
    tables
        .iter()
        .map(|table| {
            let file = (table != COMPILED_TABLE).then(|| Path::new(table));
            let mut spec = level_spec(command, level, file);
            if covered {
                spec.options
                    .insert(0, ("UCI_Variant".to_string(), "covered".to_string()));
            }
            let engine = Engine::start(&spec, Duration::from_secs(30)).map_err(|e| format!("{table}: {e}"))?;
            Ok((table.clone(), engine))
        })
        .collect()
}

/// The `go` line of a game's first move under `control`: both clocks full.
pub fn first_go(control: TimeControl) -> String {
    let clocks = ByColor::new(Clock::new(control), Clock::new(control));
    go_line(control, &clocks, Color::White)
}

/// The replay's figures as a Markdown table: per 100 moves, and per game at the log's
/// `moves_per_game` (a player's moves a game), so they read beside a profile's.
pub fn render(figures: &[TableFigures], moves_per_game: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| table | moves | ACPL | win% dropped a move | inaccuracies/game | mistakes/game | blunders/game | howlers | same move as the first |"
    );
    let _ = writeln!(out, "|{}", " --- |".repeat(9));
    for f in figures {
        let n = f.moves.max(1) as f64;
        let per_game = |count: u64| count as f64 / n * moves_per_game;
        let _ = writeln!(
            out,
            "| {} | {} | {:.1} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {:.0}% |",
            f.table,
            f.moves,
            f.loss / n,
            f.drop / n,
            per_game(f.inaccuracies),
            per_game(f.mistakes),
            per_game(f.blunders),
            f.howlers,
            100.0 * f.same_as_first as f64 / n,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_alternate_colours_between_the_games_of_a_pair() {
        // Seat 0 (seed 2s) has White in game 1 and Black in game 2.
        assert_eq!(seat_seed(20, 1, false), 40);
        assert_eq!(seat_seed(20, 1, true), 41);
        assert_eq!(seat_seed(20, 2, false), 41);
        assert_eq!(seat_seed(20, 2, true), 40);
        assert_eq!(seat_seed(u64::MAX, 1, false), 0x7fff_fffe);
    }

    fn line(level: u8, game: u64, fen: &str) -> String {
        serde_json::json!({ "level": level, "pair": 1, "game": game, "fen": fen, "before": 12, "ply": 1 }).to_string()
            + "\n"
    }

    #[test]
    fn positions_are_sampled_and_games_counted() {
        let start = crate::rules::COVERED_START_FEN;
        let black = start.replacen(" w ", " b ", 1);
        let mut log = String::new();
        for game in 1..=2 {
            for fen in [start, black.as_str()] {
                log += &line(2, game, fen);
            }
        }
        log += &line(3, 1, start);
        let all = read_positions(log.as_bytes(), &[2], 1, 20).unwrap();
        assert_eq!((all.positions.len(), all.player_games, all.moves), (4, 4, 4));
        assert_eq!(
            all.positions.iter().map(|p| p.seed).collect::<Vec<_>>(),
            [40, 41, 41, 40]
        );
        let every_other = read_positions(log.as_bytes(), &[2], 2, 20).unwrap();
        assert_eq!(
            every_other.positions,
            [all.positions[1].clone(), all.positions[3].clone()]
        );
        assert_eq!(every_other.moves, 4);
        let error = read_positions(line(2, 1, "not a fen").as_bytes(), &[2], 1, 20).unwrap_err();
        assert!(error.starts_with("position 1:"), "{error}");
    }

    #[test]
    fn the_first_go_gives_both_clocks_in_full() {
        let go = |tc: &str| first_go(tc.parse().unwrap());
        assert_eq!(go("5+0.05"), "go wtime 5000 btime 5000 winc 50 binc 50");
        assert_eq!(go("nodes=300"), "go nodes 300");
    }

    #[test]
    fn figures_count_each_class() {
        let mut figures = TableFigures::new("t");
        figures.add(&MoveLoss::new(0, &[(1.0, 0)]), true);
        figures.add(&MoveLoss::new(0, &[(1.0, -300)]), false);
        figures.add(&MoveLoss::new(0, &[(1.0, 40)]), true);
        assert_eq!((figures.moves, figures.blunders, figures.same_as_first), (3, 1, 2));
        assert_eq!(figures.loss, 300.0);
        let table = render(&[figures], 30.0);
        assert!(table.contains("| t | 3 | 100.0 |"), "{table}");
        assert!(table.contains("| 10.00 | 0 | 67% |"), "{table}");
    }
}
