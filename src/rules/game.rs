//! A game as a sequence of positions: repetition counts and the draw rules that need the
//! history (RULES.md §7).

use super::{Color, Move, MoveStatus, Position, Role};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate { winner: Color },
    Stalemate,
    FivefoldRepetition,
    SeventyFiveMoveRule,
    InsufficientMaterial,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }
}

/// A draw a player may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawClaim {
    ThreefoldRepetition,
    FiftyMoveRule,
}

/// A game from some start position: the current position and the keys of every position
/// so far, for repetitions.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<(Move, Option<Role>)>,
    keys: Vec<u64>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            keys: vec![start.hash()],
            position: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, each with its reveal.
    pub fn moves(&self) -> &[(Move, Option<Role>)] {
        &self.moves
    }

    /// The keys of every position, the start first.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Plays a legal move with its reveal (see [`Position::play`]).
    pub fn play(&mut self, m: Move, reveal: Option<Role>) {
        self.position.play_mut(m, reveal);
        self.moves.push((m, reveal));
        self.keys.push(self.position.hash());
    }

    /// How often the current position has occurred, this time included. Only positions
    /// since the last capture, pawn move or reveal can repeat it.
    pub fn repetitions(&self) -> usize {
        let key = self.position.hash();
        let window = (self.position.halfmove_clock() as usize + 1).min(self.keys.len());
        self.keys[self.keys.len() - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == key)
            .count()
    }

    /// The automatic end of the game, if it has ended. Mate takes precedence.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.position.move_status() {
            MoveStatus::Checkmate => {
                return Some(Outcome::Checkmate {
                    winner: !self.position.side_to_move(),
                })
            }
            MoveStatus::Stalemate => return Some(Outcome::Stalemate),
            MoveStatus::Ongoing => {}
        }
        if self.position.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if self.repetitions() >= 5 {
            Some(Outcome::FivefoldRepetition)
        } else if self.position.halfmove_clock() >= 150 {
            Some(Outcome::SeventyFiveMoveRule)
        } else {
            None
        }
    }

    /// A draw the side to move may claim now, if any.
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        if self.repetitions() >= 3 {
            Some(DrawClaim::ThreefoldRepetition)
        } else if self.position.halfmove_clock() >= 100 {
            Some(DrawClaim::FiftyMoveRule)
        } else {
            None
        }
    }

    /// A draw the side to move may claim by announcing `m` (which must reveal nothing), if
    /// playing it reaches a claimable position.
    pub fn claimable_with(&self, m: Move) -> Option<DrawClaim> {
        if self.position.is_reveal(m) {
            return None;
        }
        let mut next = self.clone();
        next.play(m, None);
        next.claimable_draw()
    }
}
