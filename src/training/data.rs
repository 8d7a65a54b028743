//! Training positions: quiet positions of played games, with their games' results.

use crate::arbiter::record::{EngineScore, GameResult};
use crate::arbiter::replay::replay_text;
use crate::rules::{Color, Position};
use crate::search::eval::{trace, Trace};
use crate::search::see::see_ge;

/// A position's evaluation trace and its game's result for White (1, 1/2 or 0).
#[derive(Clone, Debug)]
pub struct Sample {
    pub trace: Trace,
    pub result: f64,
    /// The score the playing engine's search gave this position, in centipawns for White
    /// (`None` when it reported none, or a mate).
    pub score: Option<i32>,
    /// Which game it comes from (for holding whole games out).
    pub game: usize,
}

/// Which positions of a game are taken.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// Plies skipped at the start (the opening book or the first reveals).
    pub skip_plies: usize,
    /// Every `stride`-th position after that (neighbouring positions say nearly the same).
    pub stride: usize,
}

/// Whether the static score means something here: not in check, no capture that wins
/// material by exchange, and the game not over.
pub fn is_quiet(position: &Position) -> bool {
    if position.is_check() {
        return false;
    }
    let moves = position.legal_moves();
    !moves.is_empty() && !moves.iter().any(|&m| position.is_capture(m) && see_ge(position, m, 1))
}

/// The samples of one PGN text. Games that do not verify are skipped and counted.
pub fn samples_from_pgn(text: &str, selection: Selection, first_game: usize) -> (Vec<Sample>, usize, usize) {
    let reports = match replay_text(text) {
        Ok(reports) => reports,
        Err(_) => return (Vec::new(), 0, 0),
    };
    let mut samples = Vec::new();
    let mut skipped = 0;
    let mut games = 0;
    for report in reports {
        let Ok(record) = report.verdict else {
            skipped += 1;
            continue;
        };
        let result = match record.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        };
        let game = first_game + games;
        games += 1;
        let mut position = record.start.clone();
        for (ply, played) in record.moves.iter().enumerate() {
            if ply >= selection.skip_plies
                && (ply - selection.skip_plies).is_multiple_of(selection.stride.max(1))
                && is_quiet(&position)
            {
                let score = match played.score {
                    Some(EngineScore::Centipawns(cp)) if position.side_to_move() == Color::White => Some(cp),
                    Some(EngineScore::Centipawns(cp)) => Some(-cp),
                    _ => None,
                };
                samples.push(Sample {
                    trace: trace(&position),
                    result,
                    score,
                    game,
                });
            }
            position = position.play(played.m, played.reveal);
        }
    }
    (samples, games, skipped)
}
