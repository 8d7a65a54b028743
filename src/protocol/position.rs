//! A `position` command read against the rules: its start, then each move with its reveal.
//! Kept apart from the engine loop so it can be tested and fuzzed without a process.

use super::command::Start;
use super::options::Variant;
use crate::rules::{FenError, MoveError, Position, Square};
use std::fmt;

/// Where `position startpos` starts in each variant.
pub fn start_position(variant: Variant) -> Position {
    variant.start_position()
}

/// The game as a `position` command gives it: the current position, the keys of the
/// positions before it, oldest first (for repetitions), and where the last move captured.
#[derive(Clone, Debug)]
pub struct GameState {
    pub position: Position,
    pub history: Vec<u64>,
    /// The square on which the last move captured, if it did.
    pub last_capture: Option<Square>,
}

/// Why a `position` command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Fen {
        fen: String,
        error: FenError,
    },
    /// The move at `index` (from 1) cannot be played.
    Move {
        index: usize,
        error: MoveError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen { fen, error } => write!(f, "invalid FEN '{fen}': {error}"),
            PositionError::Move { index, error } => write!(f, "move {index}: {error}; position unchanged"),
        }
    }
}

/// Sets up the start and plays `moves` (as played: with reveal suffixes) on it.
pub fn read_position(start: &Start, moves: &[String], variant: Variant) -> Result<GameState, PositionError> {
    let mut position = match start {
        Start::StartPos => start_position(variant),
        Start::Fen(fen) => Position::from_fen(fen).map_err(|error| PositionError::Fen {
            fen: fen.clone(),
            error,
        })?,
    };
    let mut history = Vec::with_capacity(moves.len());
    let mut last_capture = None;
    for (index, text) in moves.iter().enumerate() {
        let (m, reveal) = position.parse_played_move(text).map_err(|error| PositionError::Move {
            index: index + 1,
            error,
        })?;
        history.push(position.hash());
        last_capture = position.is_capture(m).then(|| m.to());
        position.play_mut(m, reveal);
    }
    Ok(GameState {
        position,
        history,
        last_capture,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_capture_is_where_the_last_move_took() {
        let moves = |text: &str| text.split_whitespace().map(String::from).collect::<Vec<_>>();
        let game = read_position(&Start::StartPos, &moves("e2e4 d7d5 e4d5"), Variant::Chess).unwrap();
        assert_eq!(game.last_capture, Some("d5".parse().unwrap()));
        let game = read_position(&Start::StartPos, &moves("e2e4 d7d5 e4d5 g8f6"), Variant::Chess).unwrap();
        assert_eq!(game.last_capture, None);
        let game = read_position(&Start::StartPos, &[], Variant::Chess).unwrap();
        assert_eq!(game.last_capture, None);
    }
}
