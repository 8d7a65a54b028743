//! Extended FEN (RULES.md §8): standard FEN plus `X`/`x` for covered pieces and a 7th field
//! with both pools (`Q1R2B2N2P8q1r2b2n2p8`).

use super::piece::COVER_SQUARES;
use super::{Bitboard, Castling, CastlingRights, Color, Piece, Pool, Position, Role, Square};
use std::fmt;
use std::str::FromStr;

/// The extended FEN of the covered-chess start position.
pub const COVERED_START_FEN: &str = "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8";

/// The FEN of the standard chess start position.
pub const STANDARD_START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The largest halfmove clock a FEN may hold. Play stops the clock here, so every position
/// has a FEN that reads back (any clock from 150 on is a draw by the rules anyway).
pub const MAX_HALFMOVE_CLOCK: u32 = 10_000;

/// The largest fullmove number a FEN may hold; play stops the count here too.
pub const MAX_FULLMOVE_NUMBER: u32 = 100_000;

/// Every way an extended FEN can be wrong; the message says which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    FieldCount(usize),
    RankCount(usize),
    RankLength { rank: u8, squares: usize },
    BadPieceChar(char),
    ConsecutiveDigits { rank: u8 },
    CoveredOffStartSquare { color: Color, square: Square },
    KingCount { color: Color, count: u32 },
    PawnOnPromotionRank { color: Color, square: Square },
    TooManyPieces { color: Color, count: u32 },
    BadSideToMove(String),
    BadCastling(String),
    CastlingWithoutPieces(char),
    BadEnPassant(String),
    EnPassantImpossible(Square),
    BadHalfmoveClock(String),
    BadFullmoveNumber(String),
    BadPoolField(String),
    PoolRoleTwice(char),
    PoolCountTooLarge { role: char, count: u32 },
    CoveredWithoutPool,
    PoolSmallerThanCovered { color: Color, pool: u32, covered: u32 },
    OpponentInCheck,
    TooManyCheckers(u32),
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            Empty => write!(f, "empty FEN"),
            FieldCount(n) => write!(f, "FEN has {n} fields, expected 4, 6 or 7"),
            RankCount(n) => write!(f, "board has {n} ranks, expected 8"),
            RankLength { rank, squares } => {
                write!(f, "rank {} describes {squares} squares, expected 8", rank + 1)
            }
            BadPieceChar(c) => write!(f, "invalid piece character '{c}' in board"),
            ConsecutiveDigits { rank } => write!(f, "two digits in a row on rank {}", rank + 1),
            CoveredOffStartSquare { color, square } => write!(
                f,
                "covered {} piece on {square}, which is not one of its side's covered start squares",
                side_name(*color)
            ),
            KingCount { color, count } => write!(f, "{} has {count} kings, expected 1", side_name(*color)),
            PawnOnPromotionRank { color, square } => {
                write!(f, "{} pawn on its promotion rank at {square}", side_name(*color))
            }
            TooManyPieces { color, count } => write!(f, "{} has {count} pieces, at most 16 allowed", side_name(*color)),
            BadSideToMove(s) => write!(f, "side to move '{s}' is not 'w' or 'b'"),
            BadCastling(s) => write!(f, "castling field '{s}' is not '-' or a subset of 'KQkq'"),
            CastlingWithoutPieces(c) => write!(
                f,
                "castling right '{c}' without the king on its start square and a rook or covered piece in the corner"
            ),
            BadEnPassant(s) => write!(f, "en passant field '{s}' is not '-' or a square on rank 3 or 6"),
            EnPassantImpossible(sq) => write!(
                f,
                "en passant square {sq} does not follow a double pawn step (no pawn beyond it, or squares not empty)"
            ),
            BadHalfmoveClock(s) => write!(f, "halfmove clock '{s}' is not a number from 0 to {MAX_HALFMOVE_CLOCK}"),
            BadFullmoveNumber(s) => {
                write!(
                    f,
                    "fullmove number '{s}' is not a number from 1 to {MAX_FULLMOVE_NUMBER}"
                )
            }
            BadPoolField(s) => write!(
                f,
                "pool field '{s}' is not role letters (QRBNP) each followed by a count"
            ),
            PoolRoleTwice(c) => write!(f, "pool lists '{c}' twice"),
            PoolCountTooLarge { role, count } => {
                write!(f, "pool holds {count} of '{role}', more than a side starts with")
            }
            CoveredWithoutPool => write!(f, "covered pieces on the board but no pool field"),
            PoolSmallerThanCovered { color, pool, covered } => write!(
                f,
                "{} pool holds {pool} roles but {covered} {} pieces are covered",
                side_name(*color),
                side_name(*color)
            ),
            OpponentInCheck => write!(f, "the side not to move is in check"),
            TooManyCheckers(n) => write!(f, "the side to move is in check by {n} pieces"),
        }
    }
}

impl std::error::Error for FenError {}

fn parse_board(board: &str, position: &mut Position) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let squares: usize = text.chars().map(|c| c.to_digit(10).map_or(1, |d| d as usize)).sum();
        if squares != 8 {
            return Err(FenError::RankLength { rank, squares });
        }
        let mut file = 0u8;
        let mut last_was_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if last_was_digit {
                    return Err(FenError::ConsecutiveDigits { rank });
                }
                if d == 0 {
                    return Err(FenError::BadPieceChar(c));
                }
                file += d as u8;
                last_was_digit = true;
                continue;
            }
            last_was_digit = false;
            let piece = Piece::from_char(c).ok_or(FenError::BadPieceChar(c))?;
            let square = Square::from_coords(file, rank);
            if let Piece::Covered { color } = piece {
                if !COVER_SQUARES[color.index()].contains(square) {
                    return Err(FenError::CoveredOffStartSquare { color, square });
                }
            }
            position.put(piece, square);
            file += 1;
        }
    }
    Ok(())
}

fn parse_pools(field: &str) -> Result<[Pool; 2], FenError> {
    let mut pools = [Pool::EMPTY; 2];
    if field == "-" {
        return Ok(pools);
    }
    let bad = || FenError::BadPoolField(field.to_string());
    let mut seen = [[false; 6]; 2];
    let chars: Vec<char> = field.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let role = Role::from_char(c).filter(|&r| r != Role::King).ok_or_else(bad)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if start == i || i - start > 2 {
            return Err(bad());
        }
        let count: u32 = chars[start..i].iter().collect::<String>().parse().map_err(|_| bad())?;
        if seen[color.index()][role.index()] {
            return Err(FenError::PoolRoleTwice(c));
        }
        seen[color.index()][role.index()] = true;
        if count > Pool::max_count(role) as u32 {
            return Err(FenError::PoolCountTooLarge { role: c, count });
        }
        pools[color.index()].set(role, count as u8);
    }
    Ok(pools)
}

fn parse_castling(field: &str, position: &Position) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    if field == "-" {
        return Ok(rights);
    }
    if field.is_empty() || field.len() > 4 {
        return Err(FenError::BadCastling(field.to_string()));
    }
    for c in field.chars() {
        let castling = Castling::ALL
            .into_iter()
            .find(|castling| castling.char() == c)
            .ok_or_else(|| FenError::BadCastling(field.to_string()))?;
        if rights.has(castling) {
            return Err(FenError::BadCastling(field.to_string()));
        }
        let color = castling.color;
        let king_home = position.piece_at(castling.king_from())
            == Some(Piece::Revealed {
                color,
                role: Role::King,
            });
        let corner_ok = matches!(
            position.piece_at(castling.corner()),
            Some(Piece::Covered { color: c }) | Some(Piece::Revealed { color: c, role: Role::Rook }) if c == color
        );
        if !king_home || !corner_ok {
            return Err(FenError::CastlingWithoutPieces(c));
        }
        rights.add(castling);
    }
    Ok(rights)
}

fn parse_en_passant(field: &str, side_to_move: Color, position: &Position) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let square: Square = field.parse().map_err(|_| FenError::BadEnPassant(field.to_string()))?;
    let (expected_rank, forward): (u8, i8) = match side_to_move {
        Color::White => (5, 8),
        Color::Black => (2, -8),
    };
    if square.rank() != expected_rank {
        return Err(FenError::BadEnPassant(field.to_string()));
    }
    let mover = !side_to_move;
    let pawn_square = square.offset(-forward);
    let origin = square.offset(forward);
    let occupied = position.occupied();
    let pawn_there = position.piece_at(pawn_square)
        == Some(Piece::Revealed {
            color: mover,
            role: Role::Pawn,
        });
    if !pawn_there || occupied.contains(square) || occupied.contains(origin) {
        return Err(FenError::EnPassantImpossible(square));
    }
    Ok(Some(square))
}

impl Position {
    /// Parses an extended FEN (a standard FEN is one with nothing covered).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        // 4 fields: clocks 0 1. 5 fields: a pool after the 4 (clocks 0 1), or the halfmove
        // clock. 6: standard. 7: with pools.
        let (clocks, pool_field): ((&str, &str), Option<&str>) = match fields.len() {
            4 => (("0", "1"), None),
            5 if fields[4].starts_with(|c: char| c.is_ascii_alphabetic()) => (("0", "1"), Some(fields[4])),
            5 => ((fields[4], "1"), None),
            6 => ((fields[4], fields[5]), None),
            7 => ((fields[4], fields[5]), Some(fields[6])),
            n => return Err(FenError::FieldCount(n)),
        };

        let mut position = Position::empty();
        parse_board(fields[0], &mut position)?;
        for color in Color::ALL {
            let kings = (position.movers(Role::King) & position.pieces(color)).count();
            if kings != 1 {
                return Err(FenError::KingCount { color, count: kings });
            }
            let count = position.pieces(color).count();
            if count > 16 {
                return Err(FenError::TooManyPieces { color, count });
            }
        }
        for (color, rank) in [(Color::White, Bitboard::RANK_8), (Color::Black, Bitboard::RANK_1)] {
            let pawns = position.revealed(Role::Pawn) & position.pieces(color) & rank;
            if let Some(square) = pawns.into_iter().next() {
                return Err(FenError::PawnOnPromotionRank { color, square });
            }
        }

        let side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSideToMove(other.to_string())),
        };
        let castling = parse_castling(fields[2], &position)?;
        let en_passant = parse_en_passant(fields[3], side_to_move, &position)?;
        let halfmove_clock: u32 = clocks
            .0
            .parse()
            .ok()
            .filter(|&n| n <= MAX_HALFMOVE_CLOCK)
            .ok_or_else(|| FenError::BadHalfmoveClock(clocks.0.to_string()))?;
        let fullmove_number: u32 = clocks
            .1
            .parse()
            .ok()
            .filter(|&n| (1..=MAX_FULLMOVE_NUMBER).contains(&n))
            .ok_or_else(|| FenError::BadFullmoveNumber(clocks.1.to_string()))?;

        let pools = match pool_field {
            Some(field) => parse_pools(field)?,
            None if position.covered().any() => return Err(FenError::CoveredWithoutPool),
            None => [Pool::EMPTY; 2],
        };
        for color in Color::ALL {
            let covered = (position.covered() & position.pieces(color)).count();
            let pool = pools[color.index()].total();
            if pool < covered {
                return Err(FenError::PoolSmallerThanCovered { color, pool, covered });
            }
            position.set_pool(color, pools[color.index()]);
        }
        position.set_state(side_to_move, castling, en_passant, halfmove_clock, fullmove_number);

        let them = !side_to_move;
        if position.is_attacked_by(side_to_move, position.king(them), position.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        position.finish_setup();
        let checkers = position.checkers().count();
        if checkers > 2 {
            return Err(FenError::TooManyCheckers(checkers));
        }
        Ok(position)
    }

    /// The extended FEN: the pool field only when a pool is not empty, the en passant square
    /// only when a capture there is legal.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(96);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move().char());
        fen.push(' ');
        let rights = self.castling_rights();
        if rights.is_empty() {
            fen.push('-');
        }
        for castling in Castling::ALL {
            if rights.has(castling) {
                fen.push(castling.char());
            }
        }
        match self.en_passant() {
            Some(square) => fen.push_str(&format!(" {square}")),
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(" {} {}", self.halfmove_clock(), self.fullmove_number()));
        let pools = self.pool_field();
        if !pools.is_empty() {
            fen.push(' ');
            fen.push_str(&pools);
        }
        fen
    }

    /// The pool field (`Q1R2B2N2P8q1r2b2n2p8`), empty when both pools are.
    pub fn pool_field(&self) -> String {
        let mut field = String::new();
        for color in Color::ALL {
            for role in Role::POOL_ORDER {
                let count = self.pool(color).count(role);
                if count > 0 {
                    let letter = match color {
                        Color::White => role.upper_char(),
                        Color::Black => role.char(),
                    };
                    field.push(letter);
                    field.push_str(&count.to_string());
                }
            }
        }
        field
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
