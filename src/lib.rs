//! Veil: a game engine for covered chess (chess in which every piece but the kings starts
//! face down and is revealed, at random from its side's pool, on its first move).
//!
//! Rooms, each standing only on the ones before it: [`rules`] (the game), then the search,
//! the protocol loop and the match arbiter.
//!
//! ```
//! use veil::rules::{perft::perft, Position};
//!
//! // Every reveal branches once per role left in the pool: 20 moves x 5 roles.
//! let start = Position::covered_start();
//! assert_eq!(perft(&start, 1), 100);
//! assert_eq!(perft(&start, 2), 9_980);
//!
//! // A move given as played carries its reveal: the e2 piece turned out a knight.
//! let (m, reveal) = start.parse_played_move("e2e4=N").unwrap();
//! let next = start.play(m, reveal);
//! assert_eq!(
//!     next.to_fen(),
//!     "xxxxkxxx/xxxxxxxx/8/8/4N3/8/XXXX1XXX/XXXXKXXX b KQkq - 0 1 Q1R2B2N1P8q1r2b2n2p8"
//! );
//! ```

pub mod arbiter;
pub mod levels;
pub mod nnue;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;
pub mod training;
