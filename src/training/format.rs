//! The training-data format of `veil datagen` and `veil train`: fixed 32-byte records, one
//! per position, little-endian, no header, so that files of several runs or shards simply
//! concatenate (`cat a.bin b.bin > all.bin`).
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy: a bit per occupied square (a1 = bit 0) |
//! | 8..24 | the occupied squares' pieces in square order, a nibble each (low nibble first): 0–5 White pawn, knight, bishop, rook, queen, king; 6–11 the same for Black; 12 a White covered piece, 13 a Black one |
//! | 24..26 | White's pool: pawns in bits 0–3, knights 4–5, bishops 6–7, rooks 8–9, queen 10 |
//! | 26..28 | Black's pool, the same way |
//! | 28 | bit 0: side to move (1 = Black); bits 1–4: castling rights (White king side, White queen side, Black king side, Black queen side) |
//! | 29..31 | the search score, centipawns, signed, from the side to move's view |
//! | 31 | the game's result from the side to move's view: 0 lost, 1 drawn, 2 won |
//!
//! A record holds what the evaluation sees (pieces, covers, pools, side to move) and the two
//! labels; en passant and the move clocks are not kept.

use crate::rules::{Bitboard, ByColor, Castling, CastlingRights, Color, Piece, Pool, Position, Role};
use std::fmt;
use std::io::{self, Read, Write};

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// One training position with its labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub position: Position,
    /// Search score in centipawns, for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 0 lost, 1 drawn, 2 won.
    pub result: u8,
}

/// A record that cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    TooManyPieces,
    BadPiece(u8),
    BadPool,
    BadResult(u8),
    /// The pieces do not make a position the rules accept (no king, say).
    BadPosition,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::TooManyPieces => write!(f, "more than 32 pieces"),
            FormatError::BadPiece(code) => write!(f, "piece code {code} is not defined"),
            FormatError::BadPool => write!(f, "a pool count is above its start count"),
            FormatError::BadResult(code) => write!(f, "result code {code} is not 0, 1 or 2"),
            FormatError::BadPosition => write!(f, "the pieces do not make a legal position"),
        }
    }
}

impl std::error::Error for FormatError {}

const POOL_FIELDS: [(Role, u32, u32); 5] = [
    (Role::Pawn, 0, 4),
    (Role::Knight, 4, 2),
    (Role::Bishop, 6, 2),
    (Role::Rook, 8, 2),
    (Role::Queen, 10, 1),
];

fn piece_code(piece: Piece) -> u8 {
    match piece {
        Piece::Revealed { color, role } => color.index() as u8 * 6 + role.index() as u8,
        Piece::Covered { color } => 12 + color.index() as u8,
    }
}

fn code_piece(code: u8) -> Result<Piece, FormatError> {
    match code {
        0..=11 => Ok(Piece::Revealed {
            color: Color::ALL[code as usize / 6],
            role: Role::from_index(code as usize % 6),
        }),
        12 | 13 => Ok(Piece::Covered {
            color: Color::ALL[code as usize - 12],
        }),
        _ => Err(FormatError::BadPiece(code)),
    }
}

fn encode_pool(pool: &Pool) -> u16 {
    POOL_FIELDS
        .iter()
        .map(|&(role, shift, _)| (pool.count(role) as u16) << shift)
        .sum()
}

fn decode_pool(bits: u16) -> Result<Pool, FormatError> {
    let mut pool = Pool::EMPTY;
    for (role, shift, width) in POOL_FIELDS {
        let count = ((bits >> shift) & ((1 << width) - 1)) as u8;
        if count > Pool::max_count(role) {
            return Err(FormatError::BadPool);
        }
        pool.set(role, count);
    }
    Ok(pool)
}

impl Record {
    /// The record's 32 bytes.
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let position = &self.position;
        let mut bytes = [0u8; RECORD_SIZE];
        let occupied = position.occupied();
        bytes[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        for (i, square) in occupied.enumerate().take(32) {
            let piece = position.piece_at(square).expect("occupied square");
            bytes[8 + i / 2] |= piece_code(piece) << (4 * (i % 2));
        }
        bytes[24..26].copy_from_slice(&encode_pool(position.pool(Color::White)).to_le_bytes());
        bytes[26..28].copy_from_slice(&encode_pool(position.pool(Color::Black)).to_le_bytes());
        let mut flags = (position.side_to_move() == Color::Black) as u8;
        for (bit, castling) in Castling::ALL.into_iter().enumerate() {
            if position.castling_rights().has(castling) {
                flags |= 2 << bit;
            }
        }
        bytes[28] = flags;
        bytes[29..31].copy_from_slice(&self.score.to_le_bytes());
        bytes[31] = self.result;
        bytes
    }

    /// Reads a record back.
    pub fn decode(bytes: &[u8; RECORD_SIZE]) -> Result<Record, FormatError> {
        let occupied = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes")));
        if occupied.count() > 32 {
            return Err(FormatError::TooManyPieces);
        }
        let mut position = Position::empty();
        for (i, square) in occupied.enumerate() {
            let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xF;
            let piece = code_piece(code)?;
            if matches!(piece, Piece::Covered { .. }) && crate::rules::cover(square).is_none() {
                return Err(FormatError::BadPosition);
            }
            position.put(piece, square);
        }
        let pools = ByColor::new(
            decode_pool(u16::from_le_bytes([bytes[24], bytes[25]]))?,
            decode_pool(u16::from_le_bytes([bytes[26], bytes[27]]))?,
        );
        for color in Color::ALL {
            position.set_pool(color, pools[color]);
        }
        let flags = bytes[28];
        let side_to_move = if flags & 1 == 1 { Color::Black } else { Color::White };
        let mut castling = CastlingRights::NONE;
        for (bit, side) in Castling::ALL.into_iter().enumerate() {
            if flags & (2 << bit) != 0 {
                castling.add(side);
            }
        }
        position.set_state(side_to_move, castling, None, 0, 1);
        for color in Color::ALL {
            if (position.pieces(color) & position.movers(Role::King) & !position.covered()).count() != 1 {
                return Err(FormatError::BadPosition);
            }
        }
        position.finish_setup();
        let result = bytes[31];
        if result > 2 {
            return Err(FormatError::BadResult(result));
        }
        Ok(Record {
            position,
            score: i16::from_le_bytes([bytes[29], bytes[30]]),
            result,
        })
    }
}

/// Writes records one after another.
pub fn write_records<W: Write>(out: &mut W, records: &[Record]) -> io::Result<()> {
    for record in records {
        out.write_all(&record.encode())?;
    }
    Ok(())
}

/// Reads every record of a stream; a trailing partial record (a run stopped mid-write) is
/// dropped, a record that does not decode is an error naming its index.
pub fn read_records<R: Read>(input: &mut R) -> io::Result<Vec<Record>> {
    let mut records = Vec::new();
    for_each_record(input, |record| records.push(record))?;
    Ok(records)
}

/// Calls `f` with every record of a stream, in order; returns how many there were. A
/// trailing partial record is dropped, a record that does not decode is an error.
pub fn for_each_record<R: Read>(input: &mut R, mut f: impl FnMut(Record)) -> io::Result<u64> {
    let mut buffer = [0u8; RECORD_SIZE];
    let mut count = 0u64;
    loop {
        if read_full(input, &mut buffer)? != RECORD_SIZE {
            return Ok(count);
        }
        let record = Record::decode(&buffer)
            .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, format!("record {count}: {error}")))?;
        f(record);
        count += 1;
    }
}

/// Fills `buffer` as far as the stream allows; returns how many bytes were read.
fn read_full<R: Read>(input: &mut R, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match input.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}
