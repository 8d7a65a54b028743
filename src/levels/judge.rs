//! The judge of `veil levels --profile`: a stronger engine, spoken to over the protocol like
//! every engine the arbiter runs, that scores the positions of a played game at a fixed node
//! count, so each move of a level can be priced ([`super::profile::MoveLoss`]).
//!
//! Every position of the game is scored once, with the game's moves from its start (so the
//! judge sees repetitions as the players did), and serves as the "after" of one move and the
//! "before" of the next. A move that reveals is also scored for every other role its pool
//! could have drawn. Positions the rules have ended (mate, stalemate, a dead position, a
//! repetition or 50-move draw that ended the game) are scored by the rules, not the judge.

use super::profile::{capped, MoveLoss, EVAL_CAP};
use crate::arbiter::engine::{Engine, EngineError, EngineSpec};
use crate::arbiter::record::{Ending, EngineScore, GameRecord};
use crate::rules::{Color, Game, Move, Outcome, Position};
use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

/// What kept the judge from scoring a position.
#[derive(Clone, Debug, PartialEq)]
pub enum JudgeError {
    /// The judge's process failed (could not start, exited, hung).
    Engine(EngineError),
    /// The judge answered without a score for a position.
    NoScore { position: String },
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Engine(error) => write!(f, "judge: {error}"),
            JudgeError::NoScore { position } => write!(f, "judge gave no score for '{position}'"),
        }
    }
}

impl std::error::Error for JudgeError {}

impl From<EngineError> for JudgeError {
    fn from(error: EngineError) -> JudgeError {
        JudgeError::Engine(error)
    }
}

/// A score as centipawns for the side to move, capped: a mate for it is `+EVAL_CAP`, a mate
/// against it (or `mate 0`: it is mated) `-EVAL_CAP`.
pub fn score_cp(score: EngineScore) -> i32 {
    match score {
        EngineScore::Centipawns(cp) => capped(cp),
        EngineScore::Mate(n) if n > 0 => EVAL_CAP,
        EngineScore::Mate(_) => -EVAL_CAP,
    }
}

/// The judge engine and how hard it looks.
pub struct Judge {
    engine: Engine,
    spec: EngineSpec,
    nodes: u64,
    timeout: Duration,
    /// Positions scored so far.
    pub positions: u64,
}

impl Judge {
    /// Starts the judge; it searches `nodes` nodes a position and may take `timeout` each.
    pub fn start(spec: &EngineSpec, nodes: u64, timeout: Duration) -> Result<Judge, JudgeError> {
        Ok(Judge {
            engine: Engine::start(spec, Duration::from_secs(30))?,
            spec: spec.clone(),
            nodes: nodes.max(1),
            timeout,
            positions: 0,
        })
    }

    /// Tells the judge a new game starts; restarts its process first if it failed.
    pub fn new_game(&mut self) -> Result<(), JudgeError> {
        if self.engine.is_broken() {
            self.engine = Engine::start(&self.spec, Duration::from_secs(30))?;
        }
        Ok(self.engine.new_game(Duration::from_secs(30))?)
    }

    /// The judge's capped score of the position a `position ...` command describes, for the
    /// side to move. A search too short to finish one iteration has no exact score; it is
    /// searched again with four times the nodes, twice at most.
    pub fn score(&mut self, position: &str) -> Result<i32, JudgeError> {
        let mut nodes = self.nodes;
        for _ in 0..3 {
            let go = format!("go nodes {nodes}");
            let answer = self
                .engine
                .think(position, &go, self.timeout, Duration::from_secs(10))?;
            self.positions += 1;
            if let Some(score) = answer.score {
                return Ok(score_cp(score));
            }
            nodes = nodes.saturating_mul(4);
        }
        Err(JudgeError::NoScore {
            position: position.to_string(),
        })
    }
}

/// The rules' score of a game state for the side to move, if the rules have ended the game:
/// mated is `-EVAL_CAP`, any automatic or claimable draw 0 (the arbiter claims draws).
fn rules_score(game: &Game) -> Option<i32> {
    match game.outcome() {
        Some(Outcome::Checkmate { .. }) => Some(-EVAL_CAP),
        Some(_) => Some(0),
        None => game.claimable_draw().map(|_| 0),
    }
}

/// The score of `after`, a position a judged move led to, for its side to move: the rules'
/// if they have ended the game, otherwise the judge's answer to `command` (the `position`
/// line that reaches it), looked up in and kept in `cache` when one is given.
fn outcome_score(
    judge: &mut Judge,
    after: &Game,
    command: String,
    cache: Option<&mut HashMap<String, i32>>,
) -> Result<i32, JudgeError> {
    if let Some(score) = rules_score(after) {
        return Ok(score);
    }
    match cache {
        Some(cache) => match cache.get(&command) {
            Some(&score) => Ok(score),
            None => {
                let score = judge.score(&command)?;
                cache.insert(command, score);
                Ok(score)
            }
        },
        None => judge.score(&command),
    }
}

/// One judged move of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JudgedMove {
    /// Index of the move in the game's moves, from 0.
    pub ply: usize,
    pub mover: Color,
    pub loss: MoveLoss,
}

/// Judges the moves of `record` made by the sides `judged` names, in order.
pub fn judge_game(
    judge: &mut Judge,
    record: &GameRecord,
    judged: impl Fn(Color) -> bool,
) -> Result<Vec<JudgedMove>, JudgeError> {
    judge.new_game()?;
    let mut game = Game::new(record.start.clone());
    let mut command = format!("position fen {}", record.start.to_fen());
    let plies = record.moves.len();
    // The score of each position of the game for its side to move, where needed.
    let mut scores: Vec<Option<i32>> = vec![None; plies + 1];
    // For each judged move, the other reveal outcomes: (probability, score for the mover).
    let mut others: Vec<Vec<(f64, i32)>> = vec![Vec::new(); plies];
    let mut actual_probability = vec![1.0; plies];
    for (ply, played) in record.moves.iter().enumerate() {
        let position = game.position().clone();
        let mover = position.side_to_move();
        let wanted = judged(mover) || (ply > 0 && judged(!mover));
        if wanted {
            scores[ply] = Some(match rules_score(&game) {
                Some(score) => score,
                None => judge.score(&command)?,
            });
        }
        let text = position.move_text(played.m, played.reveal);
        if judged(mover) {
            for (reveal, probability) in position.reveal_outcomes(played.m) {
                if reveal == played.reveal {
                    actual_probability[ply] = probability;
                    continue;
                }
                let mut other = game.clone();
                other.play(played.m, reveal);
                let alternative = position.move_text(played.m, reveal);
                let line = format!("{command}{}{alternative}", separator(ply));
                let score = outcome_score(judge, &other, line, None)?;
                others[ply].push((probability, -score));
            }
        }
        command.push_str(separator(ply));
        command.push_str(&text);
        game.play(played.m, played.reveal);
    }
    if plies > 0 && judged(!game.position().side_to_move()) {
        scores[plies] = Some(match (record.ending, rules_score(&game)) {
            (_, Some(score)) => score,
            (Ending::ThreefoldRepetition | Ending::FiftyMoveRule, None) => 0,
            _ => judge.score(&command)?,
        });
    }
    let mut position = record.start.clone();
    let mut judged_moves = Vec::new();
    for (ply, played) in record.moves.iter().enumerate() {
        let mover = position.side_to_move();
        if judged(mover) {
            if let (Some(before), Some(after)) = (scores[ply], scores[ply + 1]) {
                let mut outcomes = others[ply].clone();
                outcomes.push((actual_probability[ply], -after));
                judged_moves.push(JudgedMove {
                    ply,
                    mover,
                    loss: MoveLoss::new(before, &outcomes),
                });
            }
        }
        position.play_mut(played.m, played.reveal);
    }
    Ok(judged_moves)
}

/// Judges the move `m` from `position`, a position on its own (no game before it) that the
/// judge scored `before` for its side to move: every position the move can lead to, one per
/// reveal outcome, is scored and the move priced by their expectation, as in a game.
/// `scores` keeps the judge's answers by position, so a move judged once is not searched
/// again.
pub fn judge_move(
    judge: &mut Judge,
    position: &Position,
    before: i32,
    m: Move,
    scores: &mut HashMap<String, i32>,
) -> Result<MoveLoss, JudgeError> {
    let fen = position.to_fen();
    let mut outcomes = Vec::new();
    for (reveal, probability) in position.reveal_outcomes(m) {
        let after = Game::new(position.play(m, reveal));
        let command = format!("position fen {fen} moves {}", position.move_text(m, reveal));
        let score = outcome_score(judge, &after, command, Some(&mut *scores))?;
        outcomes.push((probability, -score));
    }
    Ok(MoveLoss::new(before, &outcomes))
}

fn separator(ply: usize) -> &'static str {
    if ply == 0 {
        " moves "
    } else {
        " "
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_as_centipawns_for_the_side_to_move() {
        assert_eq!(score_cp(EngineScore::Centipawns(35)), 35);
        assert_eq!(score_cp(EngineScore::Centipawns(-4000)), -EVAL_CAP);
        assert_eq!(score_cp(EngineScore::Mate(3)), EVAL_CAP);
        assert_eq!(score_cp(EngineScore::Mate(-2)), -EVAL_CAP);
        assert_eq!(score_cp(EngineScore::Mate(0)), -EVAL_CAP);
    }
}
