//! What a level does to a search (its caps, its lapses, its evaluation noise) and how it
//! chooses the move it plays from its root moves' scores.

use super::params::LevelParams;
use crate::rules::splitmix::mix;
use crate::rules::{Move, Square};
use crate::search::limits::Limits;
use std::time::Duration;

/// Tightens `limits` by the level's caps, for the move from the position whose key is `key`
/// and which has `legal_moves` legal moves. If this move is a lapse (a fixed function of the
/// key and the seed), gives the limits of its glance: the same, with at most `lapse_nodes`
/// nodes.
pub fn apply(params: &LevelParams, limits: &mut Limits, key: u64, legal_moves: usize, seed: u64) -> Option<Limits> {
    if let Some(cap) = params.depth {
        limits.depth = Some(limits.depth.map_or(cap, |depth| depth.min(cap)));
    }
    if let Some(cap) = params
        .nodes
        .map(|cap| scaled_by_complexity(cap, params.complexity_moves, legal_moves))
    {
        limits.nodes = Some(limits.nodes.map_or(cap, |nodes| nodes.min(cap)));
    }
    if let Some(cap) = params.movetime_ms {
        let cap = Duration::from_millis(cap);
        limits.movetime = Some(limits.movetime.map_or(cap, |time| time.min(cap)));
    }
    let lapse = params.lapse_nodes.filter(|_| is_lapse(params, key, seed))?;
    let mut glance = limits.clone();
    glance.nodes = Some(glance.nodes.map_or(lapse, |nodes| nodes.min(lapse)));
    Some(glance)
}

/// A lapse's move does not stand if the level's full search (or a second look at the move
/// alone) scores it this many points of winning chances below the level's best line ...
pub const GUARD_DROP: f64 = 40.0;
/// ... from a best line worth at least these winning chances (percent). Both lie inside the
/// howler of `veil levels --profile` (a drop of 50 points from 40 or more; its module checks
/// this at compile time), so that what the level's own search sees as a howler is not
/// played.
pub const GUARD_FROM: f64 = 40.0;

/// Whether a move stands, when the level's search scores its best line `best` and the move
/// `looked` (its own line's score, or a second look's at the move alone; centipawns, the
/// level's side's view): unless
/// the move gives away [`GUARD_DROP`] points of winning chances from a position the level
/// was not losing. A person's glance misses a threat; a person who looks again at the move
/// before playing it does not let a won game go that the look shows lost.
pub fn move_stands(best: i32, looked: i32) -> bool {
    already_lost(best) || win_percent(f64::from(best)) - win_percent(f64::from(looked)) < GUARD_DROP
}

/// Whether a best line worth `best` centipawns (the level's side's view) is below
/// [`GUARD_FROM`]: a game no move can throw away, where every move stands.
pub fn already_lost(best: i32) -> bool {
    win_percent(f64::from(best)) < GUARD_FROM
}

/// Fewest and most times its node cap a level searches, with `complexity_moves`.
const COMPLEXITY_SCALE: (f64, f64) = (0.5, 4.0);

/// A node cap scaled by the position's complexity: `reference` legal moves over the
/// position's `legal_moves`, between half and four times (no reference: the cap itself).
pub fn scaled_by_complexity(cap: u64, reference: Option<u32>, legal_moves: usize) -> u64 {
    let Some(reference) = reference else {
        return cap;
    };
    let (least, most) = COMPLEXITY_SCALE;
    let scale = (f64::from(reference) / legal_moves.max(1) as f64).clamp(least, most);
    ((cap as f64 * scale).round() as u64).max(1)
}

/// The evaluation noise of a position (its key) under `seed`: uniform in ±`amplitude`, the
/// same every time.
#[inline]
pub fn noise(key: u64, seed: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    let span = 2 * amplitude as u64 + 1;
    (mix(key ^ mix(seed ^ 0x5EED)) % span) as i32 - amplitude
}

/// The slope of lichess's winning-chances curve, per centipawn (the curve the profile judges
/// by: win% = 50 + 50 (2 / (1 + exp(-slope cp)) - 1)).
pub const WIN_SLOPE: f64 = 0.003_682_08;

/// Winning chances in percent of a score in centipawns, by lichess's curve.
pub fn win_percent(cp: f64) -> f64 {
    50.0 + 50.0 * (2.0 / (1.0 + (-WIN_SLOPE * cp).exp()) - 1.0)
}

/// Scores past this are mates (as `Score::as_centipawns` gives them), never eased.
const EASED_BELOW: i32 = 10_000;

/// The scale a level's choice measures losses on, for a score in centipawns: the score itself
/// at or below zero; above zero, the winning chances it gives, in the centipawns that are
/// worth as many chances in an even position (the curve's slope at zero is 25·slope percent a
/// centipawn). Near zero the two agree; a won position's scores are pressed together (+600
/// scales to 436, +1000 to 516, and nothing past 543), so a move that gives back part of a
/// large lead costs little, as it does a person who plays safe when winning. Mates stay
/// centipawns.
pub fn choice_scale(cp: i32) -> f64 {
    if cp <= 0 || cp >= EASED_BELOW {
        return f64::from(cp);
    }
    (win_percent(f64::from(cp)) - 50.0) / (25.0 * WIN_SLOPE)
}

/// Picks the move to play among root moves with their scores (best first), as the level's
/// choice:
/// - a best move that recaptures on `recapture` (the square of the opponent's last capture)
///   is played outright with `recapture_pct` percent chance;
/// - otherwise the draw is among the first `candidates` moves that lose at most
///   `max_loss_cp` against the best (so an only move is always played), as a softmax: move
///   i has weight exp(-(best - score_i) / temperature).
///
/// With `chances_when_ahead`, losses are measured on [`choice_scale`], both for the cap and
/// for the softmax: the same as centipawns unless the level is ahead (and not mating).
///
/// Every draw is a fixed function of the position key and the seed.
pub fn choose(
    params: &LevelParams,
    lines: &[(Move, i32)],
    key: u64,
    seed: u64,
    recapture: Option<Square>,
) -> Option<Move> {
    let (best_move, best) = *lines.first()?;
    if recapture == Some(best_move.to()) && percent_draw(key, seed, 0x2ECA97) < u64::from(params.recapture_pct) {
        return Some(best_move);
    }
    let loss = |score: i32| {
        if params.chances_when_ahead {
            (choice_scale(best) - choice_scale(score)).max(0.0)
        } else {
            f64::from(best.saturating_sub(score).max(0))
        }
    };
    let candidates: Vec<(Move, f64)> = lines
        .iter()
        .take(params.candidates.max(1))
        .map(|&(m, score)| (m, loss(score)))
        .filter(|&(_, loss)| params.max_loss_cp.is_none_or(|cap| loss <= f64::from(cap)))
        .collect();
    if candidates.len() <= 1 || params.temperature_cp <= 0 {
        return Some(best_move);
    }
    let temperature = params.temperature_cp as f64;
    let weights: Vec<f64> = candidates
        .iter()
        .map(|&(_, loss)| (-loss / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let uniform = (mix(key ^ mix(seed ^ 0xC401CE)) >> 11) as f64 / (1u64 << 53) as f64;
    let mut target = uniform * total;
    for (&(m, _), weight) in candidates.iter().zip(&weights) {
        if target < *weight {
            return Some(m);
        }
        target -= weight;
    }
    candidates.last().map(|&(m, _)| m)
}

/// Whether the move from the position `key` is one of the level's lapses (`lapse_pct`, as
/// the level plays its variant: see [`LevelParams::in_variant`]).
pub fn is_lapse(params: &LevelParams, key: u64, seed: u64) -> bool {
    percent_draw(key, seed, 0x1A95E) < u64::from(params.lapse_pct)
}

/// A draw in 0..100, a fixed function of the position key, the seed and the draw's salt.
fn percent_draw(key: u64, seed: u64, salt: u64) -> u64 {
    mix(key ^ mix(seed ^ salt)) % 100
}
