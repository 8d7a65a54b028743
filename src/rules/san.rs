//! Standard Algebraic Notation (`Nf3`, `exd5`, `e8=Q+`, `O-O`) for plain-chess moves, as PGN
//! writes them.
//!
//! SAN names a piece by its role, which a covered piece does not have yet, and cannot carry a
//! reveal. So SAN here covers the moves that reveal nothing: [`Position::san`] writes a move
//! that reveals a piece (the move of a covered piece, or castling with a covered corner piece)
//! in UCI long algebraic instead (`e2e4`, `e1g1`, without a reveal suffix), and
//! [`Position::parse_san`] reads that form back. Covered games are written in UCI notation
//! with reveal suffixes (RULES.md §8), never in SAN; disambiguation here counts revealed
//! pieces only, since only they can be named by a piece letter.

use super::{Move, MoveError, MoveKind, Position, Role, Square};
use std::fmt;

/// A move in SAN that cannot be played here; the message says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not shaped like a SAN move.
    Syntax(String),
    /// No legal move of a revealed piece fits the text.
    Illegal(String),
    /// More than one legal move fits the text.
    Ambiguous(String),
    /// A pawn reaching the last rank without a promotion letter.
    MissingPromotion(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(t) => write!(f, "'{t}' is not a move in SAN (Nf3, exd5, e8=Q, O-O) or UCI (g1f3)"),
            SanError::Illegal(t) => write!(f, "'{t}' is not legal in this position"),
            SanError::Ambiguous(t) => write!(f, "'{t}' fits more than one legal move"),
            SanError::MissingPromotion(t) => {
                write!(
                    f,
                    "'{t}' reaches the last rank with a pawn and needs a promotion (=Q, =R, =B, =N)"
                )
            }
        }
    }
}

impl std::error::Error for SanError {}

/// A SAN move split into its parts, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SanMove {
    Castle {
        king_side: bool,
    },
    Piece {
        role: Role,
        file: Option<u8>,
        rank: Option<u8>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// Strips what may follow a move without changing it: check and mate signs (given or not,
/// right or wrong), annotations (`!`, `?`, `!?`...) and an `e.p.` mark.
fn strip_suffixes(text: &str) -> &str {
    let mut body = text.trim_end_matches(['+', '#', '!', '?']);
    if let Some(stripped) = body.strip_suffix("e.p.") {
        body = stripped.trim_end_matches(['+', '#', '!', '?']);
    }
    body
}

fn parse_parts(body: &str) -> Option<SanMove> {
    match body {
        "O-O" | "0-0" => return Some(SanMove::Castle { king_side: true }),
        "O-O-O" | "0-0-0" => return Some(SanMove::Castle { king_side: false }),
        _ => {}
    }
    let mut bytes = body.as_bytes();
    let role = match bytes.first() {
        Some(b'N') => Role::Knight,
        Some(b'B') => Role::Bishop,
        Some(b'R') => Role::Rook,
        Some(b'Q') => Role::Queen,
        Some(b'K') => Role::King,
        Some(b'P') => Role::Pawn,
        Some(c) if c.is_ascii_uppercase() => return None,
        _ => Role::Pawn,
    };
    if bytes.first().is_some_and(u8::is_ascii_uppercase) {
        bytes = &bytes[1..];
    }
    // The promotion: `=Q` or a bare letter after the destination square.
    let mut promotion = None;
    if let Some((&last, rest)) = bytes.split_last() {
        if last.is_ascii_alphabetic() && !(b'a'..=b'h').contains(&last) {
            promotion = Some(Role::from_char(last as char).filter(|r| Role::PROMOTIONS.contains(r))?);
            bytes = rest.strip_suffix(b"=").unwrap_or(rest);
        }
    }
    let (to, prefix) = match bytes {
        [prefix @ .., file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
            (Square::from_coords(file - b'a', rank - b'1'), prefix)
        }
        _ => return None,
    };
    // What stands between the letter and the destination: an origin file, rank, or both,
    // then a capture sign or dash, each optional.
    let prefix = match prefix {
        [rest @ .., b'x' | b'-' | b':'] => rest,
        _ => prefix,
    };
    let (file, rank) = match prefix {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some(f - b'a'), None),
        [r @ b'1'..=b'8'] => (None, Some(r - b'1')),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Some(f - b'a'), Some(r - b'1')),
        _ => return None,
    };
    if promotion.is_some() && role != Role::Pawn {
        return None;
    }
    Some(SanMove::Piece {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

impl Position {
    /// The move in SAN, with `+` or `#` when it gives check or mate. A move that reveals a
    /// piece has no SAN and is written in UCI notation without a suffix (see the module
    /// documentation). `m` must be legal here.
    pub fn san(&self, m: Move) -> String {
        if self.is_reveal(m) {
            return m.to_string();
        }
        let mut text = String::with_capacity(8);
        if m.kind() == MoveKind::Castle {
            text.push_str(if m.to().file() > m.from().file() {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let role = self.mover_at(m.from()).unwrap_or(Role::Pawn);
            let capture = self.is_capture(m);
            if role == Role::Pawn {
                if capture {
                    text.push(file_char(m.from()));
                    text.push('x');
                }
                text.push_str(&m.to().to_string());
                if let Some(promotion) = m.promotion_role() {
                    text.push('=');
                    text.push(promotion.upper_char());
                }
            } else {
                text.push(role.upper_char());
                text.push_str(&self.disambiguation(m, role));
                if capture {
                    text.push('x');
                }
                text.push_str(&m.to().to_string());
            }
        }
        let after = self.play(m, None);
        if after.is_check() {
            text.push(if after.has_legal_move() { '+' } else { '#' });
        }
        text
    }

    /// The origin file, rank or square a piece move needs to tell it from the other revealed
    /// pieces of its role that could also go there: the file if that suffices, else the rank,
    /// else both.
    fn disambiguation(&self, m: Move, role: Role) -> String {
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|other| {
                other.to() == m.to()
                    && other.from() != m.from()
                    && other.kind() != MoveKind::Castle
                    && !self.is_reveal(**other)
                    && self.mover_at(other.from()) == Some(role)
            })
            .map(|other| other.from())
            .collect();
        let from = m.from();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|s| s.file() != from.file()) {
            file_char(from).to_string()
        } else if rivals.iter().all(|s| s.rank() != from.rank()) {
            rank_char(from).to_string()
        } else {
            from.to_string()
        }
    }

    /// Reads a move in SAN, with the usual leniencies: check and mate signs may be missing,
    /// extra or wrong, annotations (`!`, `?!`...) and `e.p.` may follow, castling may be
    /// written with zeros (`0-0`), the capture sign may be left out, the promotion `=` too
    /// (`e8Q`). Only moves that reveal nothing are matched; a move in UCI notation (`g1f3`,
    /// `e7e8q`, no reveal suffix) is accepted too, which is how [`Position::san`] writes the
    /// move of a covered piece.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let body = strip_suffixes(text);
        let syntax = || SanError::Syntax(text.to_string());
        if body.len() >= 4 && body.as_bytes()[0].is_ascii_lowercase() && body.as_bytes()[1].is_ascii_digit() {
            if let Some(m) = self.parse_uci_text(body) {
                return m.map_err(|error| match error {
                    MoveError::MissingPromotion(_) => SanError::MissingPromotion(text.to_string()),
                    _ => SanError::Illegal(text.to_string()),
                });
            }
        }
        let parsed = parse_parts(body).ok_or_else(syntax)?;
        let legal = self.legal_moves();
        let mut found = None;
        let mut needs_promotion = false;
        for &m in legal.iter().filter(|&&m| !self.is_reveal(m)) {
            let fits = match parsed {
                SanMove::Castle { king_side } => {
                    m.kind() == MoveKind::Castle && (m.to().file() > m.from().file()) == king_side
                }
                SanMove::Piece {
                    role,
                    file,
                    rank,
                    to,
                    promotion,
                } => {
                    let from = m.from();
                    let same_square = m.to() == to
                        && self.mover_at(from) == Some(role)
                        && rank.is_none_or(|r| from.rank() == r)
                        && m.kind() != MoveKind::Castle;
                    // A pawn move without an origin file is a push, never a capture.
                    let file_fits = match (file, role) {
                        (Some(f), _) => from.file() == f,
                        (None, Role::Pawn) => from.file() == to.file(),
                        (None, _) => true,
                    };
                    if same_square && file_fits && promotion.is_none() && m.promotion_role().is_some() {
                        needs_promotion = true;
                    }
                    same_square && file_fits && m.promotion_role() == promotion
                }
            };
            if fits {
                if found.is_some() {
                    return Err(SanError::Ambiguous(text.to_string()));
                }
                found = Some(m);
            }
        }
        match found {
            Some(m) => Ok(m),
            None if needs_promotion => Err(SanError::MissingPromotion(text.to_string())),
            None => Err(SanError::Illegal(text.to_string())),
        }
    }

    /// `Some` when `body` is shaped like a UCI move (`g1f3`, `e7e8q`): the move if legal.
    fn parse_uci_text(&self, body: &str) -> Option<Result<Move, MoveError>> {
        let bytes = body.as_bytes();
        let squares = bytes.len() >= 4
            && body.is_char_boundary(4)
            && body[0..2].parse::<Square>().is_ok()
            && body[2..4].parse::<Square>().is_ok();
        if !squares || bytes.len() > 5 {
            return None;
        }
        Some(self.parse_uci_move(body))
    }
}

fn file_char(square: Square) -> char {
    (b'a' + square.file()) as char
}

fn rank_char(square: Square) -> char {
    (b'1' + square.rank()) as char
}
