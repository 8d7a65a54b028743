//! The rules of covered chess and nothing else: board, pieces, pools, moves, legal move
//! generation, reveals, zobrist keys, extended FEN, game end, perft. No I/O, no threads,
//! no randomness (SplitMix64 is a pure hash); search, protocol and arbiter all stand on this.

pub mod attacks;
mod bitboard;
mod castling;
mod color;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod outcome;
pub mod perft;
mod piece;
mod pool;
mod position;
mod role;
mod san;
pub mod splitmix;
mod square;
mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{Castling, CastlingRights};
pub use color::{ByColor, Color};
pub use fen::{FenError, COVERED_START_FEN, MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK, STANDARD_START_FEN};
pub use game::{DrawClaim, Game, Outcome};
pub use movegen::MoveSink;
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::{MoveError, UciMove};
pub use outcome::MoveStatus;
pub use piece::{cover, Piece, COVER_SQUARES};
pub use pool::Pool;
pub use position::Position;
pub use role::{ByRole, Role};
pub use san::SanError;
pub use square::{ParseSquareError, Square};
pub use variant::Variant;
