//! `veil datagen`: self-play at a fixed node count per move, one game per thread, writing
//! quiet positions with the search's score and the game's result (see [`super::format`]).
//!
//! Each game starts from the variant's start position (or a random book line) and a number
//! of uniformly random plies, reveals drawn from the pools; a game whose first searched
//! position scores beyond [`MAX_OPENING_SCORE`] is dropped. The game index and the seed fix
//! every random choice and the search is single-threaded at fixed nodes with its tables
//! emptied per game, so a game is the same whichever thread or shard plays it.
//!
//! Filters (a position is written only if all hold): the side to move is not in check, the
//! search's best move is neither a capture nor a promotion, and its score is not a mate.
//!
//! Adjudication: a side whose score stays at or above [`WIN_SCORE`] for [`WIN_PLIES`]
//! successive searches (either side's view) wins; after ply [`DRAW_FROM_PLY`], scores within
//! [`DRAW_SCORE`] for [`DRAW_PLIES`] plies are a draw; so is a game past [`MAX_PLIES`].

use super::format::{Record, RECORD_SIZE};
use crate::arbiter::interrupt;
use crate::arbiter::progress::Progress;
use crate::arbiter::reveal::pick;
use crate::arbiter::schedule::Shard;
use crate::rules::splitmix::mix;
use crate::rules::{Color, Game, Position, Variant};
use crate::search::{
    run_with_memory, Evaluator, Limits, Score, SearchControl, SearchJob, SearchMemory, TranspositionTable,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A game whose first searched position scores beyond this (either way) is dropped.
pub const MAX_OPENING_SCORE: i32 = 1000;
pub const WIN_SCORE: i32 = 2000;
pub const WIN_PLIES: usize = 6;
pub const DRAW_FROM_PLY: usize = 80;
pub const DRAW_SCORE: i32 = 10;
pub const DRAW_PLIES: usize = 12;
pub const MAX_PLIES: usize = 400;

/// Which games to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantChoice {
    Chess,
    Covered,
    /// Covered and plain chess, alternating by game.
    Both,
}

/// What a run plays.
#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: VariantChoice,
    pub games: u64,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    pub shard: Option<Shard>,
    /// Games of this seed (and shard) already played: the run starts at the next one, so that
    /// a run stopped by hand continues where it stopped instead of playing its games again.
    pub first_game: u64,
    pub random_plies: usize,
    /// Plain-chess start positions (a random one per plain game), empty for the start position.
    pub book: Vec<Position>,
    pub hash_mb: usize,
    /// The evaluation both sides play with.
    pub evaluator: Evaluator,
}

/// What a finished run reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    pub dropped_games: u64,
    /// Stopped by hand before its last game.
    pub interrupted: bool,
}

/// The game indices this shard plays, in order.
fn game_index(shard: Option<Shard>, k: u64) -> u64 {
    match shard {
        Some(shard) => k * shard.count + shard.index,
        None => k,
    }
}

/// How many of the `games` this shard plays.
fn shard_games(shard: Option<Shard>, games: u64) -> u64 {
    match shard {
        Some(shard) => (games + shard.count - 1 - shard.index) / shard.count,
        None => games,
    }
}

/// Plays game `index`; returns its records (empty for a dropped game).
pub fn play_game(settings: &Settings, index: u64, tt: &TranspositionTable, memory: &SearchMemory) -> Vec<Record> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(mix(settings.seed) ^ index));
    let variant = match settings.variant {
        VariantChoice::Chess => Variant::Chess,
        VariantChoice::Covered => Variant::Covered,
        VariantChoice::Both if index.is_multiple_of(2) => Variant::Covered,
        VariantChoice::Both => Variant::Chess,
    };
    let start = match variant {
        Variant::Chess if !settings.book.is_empty() => settings.book[rng.gen_range(0..settings.book.len())].clone(),
        _ => variant.start_position(),
    };
    let mut game = Game::new(start);
    for _ in 0..settings.random_plies {
        let position = game.position();
        let moves = position.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let m = moves.as_slice()[rng.gen_range(0..moves.len())];
        let reveal = position
            .is_reveal(m)
            .then(|| pick(position.pool(position.side_to_move()), rng.gen()));
        game.play(m, reveal);
    }
    if game.outcome().is_some() {
        return Vec::new();
    }
    tt.clear();
    memory.clear();

    // (position, score for its side to move, side to move) of every kept position.
    let mut kept: Vec<(Position, i16, Color)> = Vec::new();
    let mut win_streak: (Option<Color>, usize) = (None, 0);
    let mut draw_streak = 0;
    let mut searched = 0;
    let winner: Option<Color> = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.winner();
        }
        if game.claimable_draw().is_some() || game.moves().len() >= MAX_PLIES {
            break None;
        }
        let position = game.position().clone();
        let mover = position.side_to_move();
        let mut job = SearchJob::new(
            position.clone(),
            Limits {
                nodes: Some(settings.nodes),
                ..Limits::default()
            },
        );
        job.history = game.keys()[..game.keys().len() - 1].to_vec();
        job.evaluator = settings.evaluator.clone();
        let control = SearchControl::new();
        let result = run_with_memory(&job, tt, memory, &control, |_| {});
        let Some(best) = result.best_move else {
            break None;
        };
        let score = result.score.unwrap_or(Score::Centipawns(0));
        let cp = score.as_centipawns();
        searched += 1;
        if searched == 1 && cp.abs() > MAX_OPENING_SCORE {
            return Vec::new();
        }
        // Adjudication, from White's view.
        let white_cp = if mover == Color::White { cp } else { -cp };
        let leader = match white_cp {
            s if s >= WIN_SCORE => Some(Color::White),
            s if s <= -WIN_SCORE => Some(Color::Black),
            _ => None,
        };
        win_streak = match (leader, win_streak) {
            (Some(color), (Some(previous), n)) if color == previous => (Some(color), n + 1),
            (Some(color), _) => (Some(color), 1),
            (None, _) => (None, 0),
        };
        if let (Some(color), n) = win_streak {
            if n >= WIN_PLIES {
                break Some(color);
            }
        }
        draw_streak = if game.moves().len() >= DRAW_FROM_PLY && white_cp.abs() <= DRAW_SCORE {
            draw_streak + 1
        } else {
            0
        };
        if draw_streak >= DRAW_PLIES {
            break None;
        }
        let quiet = !position.is_check()
            && !position.is_capture(best)
            && best.promotion_role().is_none()
            && matches!(score, Score::Centipawns(_));
        if quiet {
            kept.push((
                position.clone(),
                cp.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
                mover,
            ));
        }
        let reveal = position.is_reveal(best).then(|| pick(position.pool(mover), rng.gen()));
        game.play(best, reveal);
    };
    kept.into_iter()
        .map(|(position, score, mover)| Record {
            position,
            score,
            result: match winner {
                None => 1,
                Some(color) if color == mover => 2,
                Some(_) => 0,
            },
        })
        .collect()
}

/// Plays the run's games on `settings.threads` threads, appending every game's records to
/// `out` as soon as the game ends. A stop asked for by hand ([`interrupt`], when the
/// handlers are installed) starts no new game; the games in progress finish and are written.
pub fn run(settings: &Settings, out: &PathBuf, append: bool) -> std::io::Result<Summary> {
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(out)?;
    let writer = parking_lot::Mutex::new(BufWriter::new(file));
    let total = shard_games(settings.shard, settings.games);
    let first = settings.first_game.min(total);
    let next = AtomicU64::new(first);
    let done = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let dropped = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let started = Instant::now();
    let mut error = None;
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..settings.threads.max(1) {
            handles.push(scope.spawn(|| -> std::io::Result<()> {
                let tt = TranspositionTable::new(settings.hash_mb);
                let memory = SearchMemory::new();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= total || failed.load(Ordering::Relaxed) || interrupt::requested() {
                        return Ok(());
                    }
                    let records = play_game(settings, game_index(settings.shard, k), &tt, &memory);
                    if records.is_empty() {
                        dropped.fetch_add(1, Ordering::Relaxed);
                    } else {
                        let mut bytes = Vec::with_capacity(records.len() * RECORD_SIZE);
                        for record in &records {
                            bytes.extend_from_slice(&record.encode());
                        }
                        let mut writer = writer.lock();
                        let written = writer.write_all(&bytes).and_then(|_| writer.flush());
                        if let Err(error) = written {
                            failed.store(true, Ordering::Relaxed);
                            return Err(error);
                        }
                        positions.fetch_add(records.len() as u64, Ordering::Relaxed);
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            }));
        }
        let mut progress = Progress::new(total - first);
        while handles.iter().any(|handle| !handle.is_finished()) {
            std::thread::sleep(Duration::from_millis(500));
            let written = positions.load(Ordering::Relaxed);
            let rate = written as f64 / started.elapsed().as_secs_f64().max(1e-3);
            progress.update(
                done.load(Ordering::Relaxed),
                &format!("{written} positions, {rate:.0} positions/s"),
            );
        }
        progress.finish();
        for handle in handles {
            if let Err(e) = handle.join().expect("a datagen thread panicked") {
                error = Some(e);
            }
        }
    });
    if let Some(error) = error {
        return Err(error);
    }
    Ok(Summary {
        games: done.load(Ordering::Relaxed),
        positions: positions.load(Ordering::Relaxed),
        dropped_games: dropped.load(Ordering::Relaxed),
        interrupted: interrupt::requested() && done.load(Ordering::Relaxed) < total - first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once() {
        let games = 10;
        let mut seen: Vec<u64> = Vec::new();
        for index in 0..3 {
            let shard = Some(Shard { index, count: 3 });
            for k in 0..shard_games(shard, games) {
                seen.push(game_index(shard, k));
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..games).collect::<Vec<_>>());
    }
}
