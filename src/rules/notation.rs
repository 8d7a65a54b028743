//! Moves as text: UCI long algebraic with the covered-chess reveal suffix (`e2e4=N`).

use super::{Move, Position, Role, Square};
use std::fmt;

/// A move given as text that cannot be played here; the message says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    Syntax(String),
    Illegal(String),
    MissingReveal(String),
    UnexpectedReveal(String),
    RoleNotInPool { text: String, role: Role },
    MissingPromotion(String),
    BadReveal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(f, "'{t}' is not a move in UCI notation (e2e4, e7e8q, e2e4=N)"),
            MoveError::Illegal(t) => write!(f, "'{t}' is not legal in this position"),
            MoveError::MissingReveal(t) => {
                write!(f, "'{t}' moves a covered piece and needs a reveal suffix, e.g. '{t}=P'")
            }
            MoveError::UnexpectedReveal(t) => write!(f, "'{t}' has a reveal suffix but reveals nothing"),
            MoveError::RoleNotInPool { text, role } => {
                write!(f, "'{text}' reveals a {} but the pool holds none", role.name())
            }
            MoveError::BadReveal(t) => write!(f, "'{t}': a reveal suffix is '=' and one of Q R B N P"),
            MoveError::MissingPromotion(t) => {
                write!(f, "'{t}' reaches the last rank as a pawn and needs a promotion letter")
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// A move split into its parts, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
    pub reveal: Option<Role>,
}

impl UciMove {
    /// Parses `e2e4`, `e7e8q`, `e2e4=N`, `e7e8q=P` (letters in either case).
    pub fn parse(text: &str) -> Result<UciMove, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let (body, reveal) = match text.split_once('=') {
            Some((body, suffix)) => {
                let mut chars = suffix.chars();
                let role = match (chars.next(), chars.next()) {
                    (Some(c), None) => Role::from_char(c)
                        .filter(|&r| r != Role::King)
                        .ok_or_else(|| MoveError::BadReveal(text.to_string()))?,
                    _ => return Err(syntax()),
                };
                (body, Some(role))
            }
            None => (text, None),
        };
        if !body.is_ascii() || !(4..=5).contains(&body.len()) {
            return Err(syntax());
        }
        let from: Square = body[0..2].parse().map_err(|_| syntax())?;
        let to: Square = body[2..4].parse().map_err(|_| syntax())?;
        let promotion = match body[4..].chars().next() {
            None => None,
            Some(c) => Some(
                Role::from_char(c)
                    .filter(|r| Role::PROMOTIONS.contains(r))
                    .ok_or_else(syntax)?,
            ),
        };
        if from == to {
            return Err(syntax());
        }
        Ok(UciMove {
            from,
            to,
            promotion,
            reveal,
        })
    }
}

impl Position {
    /// Reads a move as played in a game: a legal move, with a reveal suffix exactly when it
    /// reveals and naming a role the pool holds.
    pub fn parse_played_move(&self, text: &str) -> Result<(Move, Option<Role>), MoveError> {
        let parsed = UciMove::parse(text)?;
        let m = self.find_move(&parsed, text)?;
        let reveals = self.is_reveal(m);
        match (reveals, parsed.reveal) {
            (true, None) => Err(MoveError::MissingReveal(text.to_string())),
            (false, Some(_)) => Err(MoveError::UnexpectedReveal(text.to_string())),
            (true, Some(role)) if !self.pool(self.side_to_move()).contains(role) => Err(MoveError::RoleNotInPool {
                text: text.to_string(),
                role,
            }),
            (_, reveal) => Ok((m, reveal)),
        }
    }

    /// Reads a move without a reveal (what an engine answers, or a plain-chess move).
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        let parsed = UciMove::parse(text)?;
        if parsed.reveal.is_some() {
            return Err(MoveError::Syntax(text.to_string()));
        }
        self.find_move(&parsed, text)
    }

    fn find_move(&self, parsed: &UciMove, text: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        let candidates = legal
            .iter()
            .copied()
            .filter(|m| m.from() == parsed.from && m.to() == parsed.to);
        let mut fallback = None;
        for m in candidates {
            if m.promotion_role() == parsed.promotion {
                return Ok(m);
            }
            // A covered piece reaching the last rank: the letter matters only if the reveal
            // is a pawn, so a move without one is read as the queen version otherwise.
            if parsed.promotion.is_none()
                && m.promotion_role() == Some(Role::Queen)
                && self.covered().contains(m.from())
            {
                fallback = Some(m);
            }
        }
        match fallback {
            Some(_) if parsed.reveal == Some(Role::Pawn) => Err(MoveError::MissingPromotion(text.to_string())),
            Some(m) => Ok(m),
            None if legal
                .iter()
                .any(|m| m.from() == parsed.from && m.to() == parsed.to && m.promotion_role().is_some()) =>
            {
                Err(MoveError::MissingPromotion(text.to_string()))
            }
            None => Err(MoveError::Illegal(text.to_string())),
        }
    }

    /// The move in UCI notation with its reveal suffix, if any (`e2e4=N`).
    pub fn move_text(&self, m: Move, reveal: Option<Role>) -> String {
        match reveal {
            Some(role) if self.is_reveal(m) => format!("{m}={}", role.upper_char()),
            _ => m.to_string(),
        }
    }
}
