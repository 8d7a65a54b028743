//! What a played game leaves behind: its start, its moves with their reveals, its result and
//! why it ended. The PGN writer, the replayer and the statistics all read this one record.

use crate::rules::{Color, Move, Outcome, Position, Role};

pub use crate::rules::Variant;

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The win of `color`.
    pub fn win(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The points `color` scores: 1, 0.5 or 0.
    pub fn points(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why a game ended. Where a side is named, it is the side the ending went against (the one
/// that was mated, lost on time, moved illegally, crashed...), except for `TimeoutNoMate`,
/// where it is the side whose flag fell (and the game is drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    Checkmate(Color),
    Stalemate,
    FivefoldRepetition,
    SeventyFiveMoveRule,
    InsufficientMaterial,
    /// Claimed for the side to move by the arbiter.
    ThreefoldRepetition,
    /// Claimed for the side to move by the arbiter.
    FiftyMoveRule,
    /// The side ran out of time and its opponent could mate.
    TimeForfeit(Color),
    /// The side ran out of time but its opponent could not mate by any sequence: a draw.
    TimeoutNoMate(Color),
    /// The side answered a move that is not legal, or not a move at all.
    IllegalMove(Color),
    /// The side's process died or stopped answering.
    Disconnect(Color),
    /// Score adjudication: the side's position was judged lost.
    Resignation(Color),
    /// Score adjudication: the position was judged drawn.
    AdjudicatedDraw,
    /// The game reached `--max-plies`.
    MaxPlies,
}

impl Ending {
    /// The ending of a game the rules ended by themselves.
    pub fn from_outcome(outcome: Outcome) -> Ending {
        match outcome {
            Outcome::Checkmate { winner } => Ending::Checkmate(!winner),
            Outcome::Stalemate => Ending::Stalemate,
            Outcome::FivefoldRepetition => Ending::FivefoldRepetition,
            Outcome::SeventyFiveMoveRule => Ending::SeventyFiveMoveRule,
            Outcome::InsufficientMaterial => Ending::InsufficientMaterial,
        }
    }

    /// The result this ending gives.
    pub fn result(self) -> GameResult {
        match self {
            Ending::Checkmate(loser)
            | Ending::TimeForfeit(loser)
            | Ending::IllegalMove(loser)
            | Ending::Disconnect(loser)
            | Ending::Resignation(loser) => GameResult::win(!loser),
            _ => GameResult::Draw,
        }
    }

    /// The PGN `Termination` tag's value (the standard's vocabulary).
    pub fn termination(self) -> &'static str {
        match self {
            Ending::TimeForfeit(_) | Ending::TimeoutNoMate(_) => "time forfeit",
            Ending::IllegalMove(_) => "rules infraction",
            Ending::Disconnect(_) => "abandoned",
            Ending::Resignation(_) | Ending::AdjudicatedDraw | Ending::MaxPlies => "adjudication",
            _ => "normal",
        }
    }

    /// A short machine-readable name (`checkmate`, `time-forfeit`...): the PGN `Ending` tag.
    pub fn slug(self) -> &'static str {
        match self {
            Ending::Checkmate(_) => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::FivefoldRepetition => "fivefold-repetition",
            Ending::SeventyFiveMoveRule => "seventy-five-move-rule",
            Ending::InsufficientMaterial => "insufficient-material",
            Ending::ThreefoldRepetition => "threefold-repetition",
            Ending::FiftyMoveRule => "fifty-move-rule",
            Ending::TimeForfeit(_) => "time-forfeit",
            Ending::TimeoutNoMate(_) => "timeout-no-mate",
            Ending::IllegalMove(_) => "illegal-move",
            Ending::Disconnect(_) => "disconnect",
            Ending::Resignation(_) => "resignation",
            Ending::AdjudicatedDraw => "adjudicated-draw",
            Ending::MaxPlies => "max-plies",
        }
    }

    /// The side named by the ending, if any.
    pub fn side(self) -> Option<Color> {
        match self {
            Ending::Checkmate(c)
            | Ending::TimeForfeit(c)
            | Ending::TimeoutNoMate(c)
            | Ending::IllegalMove(c)
            | Ending::Disconnect(c)
            | Ending::Resignation(c) => Some(c),
            _ => None,
        }
    }

    /// Reads a slug back; `side` is needed for the endings that name one.
    pub fn from_slug(slug: &str, side: Option<Color>) -> Option<Ending> {
        Some(match (slug, side) {
            ("checkmate", Some(c)) => Ending::Checkmate(c),
            ("stalemate", _) => Ending::Stalemate,
            ("fivefold-repetition", _) => Ending::FivefoldRepetition,
            ("seventy-five-move-rule", _) => Ending::SeventyFiveMoveRule,
            ("insufficient-material", _) => Ending::InsufficientMaterial,
            ("threefold-repetition", _) => Ending::ThreefoldRepetition,
            ("fifty-move-rule", _) => Ending::FiftyMoveRule,
            ("time-forfeit", Some(c)) => Ending::TimeForfeit(c),
            ("timeout-no-mate", Some(c)) => Ending::TimeoutNoMate(c),
            ("illegal-move", Some(c)) => Ending::IllegalMove(c),
            ("disconnect", Some(c)) => Ending::Disconnect(c),
            ("resignation", Some(c)) => Ending::Resignation(c),
            ("adjudicated-draw", _) => Ending::AdjudicatedDraw,
            ("max-plies", _) => Ending::MaxPlies,
            _ => return None,
        })
    }
}

/// One move of a recorded game: the move, the role its reveal drew, and what the engine said
/// of it (for the PGN comment).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub m: Move,
    pub reveal: Option<Role>,
    /// The engine's last reported score in centipawns from its own point of view, or a mate
    /// distance (`Mate(n)`, negative when getting mated).
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    /// Thinking time in milliseconds; `None` when the time control does not use clocks
    /// (fixed depth or nodes), so that such games replay to identical records.
    pub millis: Option<u64>,
}

/// A score as an engine reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    Centipawns(i32),
    Mate(i32),
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub variant: Variant,
    /// Names of the engines playing White and Black.
    pub white: String,
    pub black: String,
    pub start: Position,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub ending: Ending,
    /// What the side named by the ending did wrong (`e2e5`, `no bestmove within 1.2 s`...).
    pub detail: Option<String>,
    /// The time control as the command line gave it (`10+0.1`, `depth=6`...).
    pub time_control: String,
    /// The match seed and where the game stands in the match.
    pub seed: u64,
    pub pair: u64,
    /// 0 for the first game of the colour-swapped pair, 1 for the second.
    pub game_in_pair: u8,
    /// `YYYY.MM.DD` of the game's start.
    pub date: String,
}
