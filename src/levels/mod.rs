//! Calibrating the strength levels: the pure parts of `veil levels`.
//!
//! The levels (and any anchor engines, such as one playing at a fixed `UCI_Elo`) play a round
//! robin through the match arbiter; [`fit`] then rates every player at once by maximum
//! likelihood, pinned to an anchor, and [`chart`] draws the ratings with their error bars as
//! an SVG picture. [`profile`] measures how each level errs: its games are judged move by
//! move by a stronger engine ([`judge`]), and its centipawn loss, blunders and howlers are
//! set beside human players' of its rating; [`replay_tables`] plays a profile's positions
//! again under other level tables, so that their errors compare position for position.
//!
//! ```
//! use veil::levels::chart::{svg, ChartPoint};
//! use veil::levels::fit::{fit, Anchor, Game};
//!
//! // Level 2 scores 7/10 against Level 1, which is pinned at 1000 Elo.
//! let games: Vec<Game> = ["1-0", "1-0", "1-0", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "0-1", "0-1", "1-0"]
//!     .iter()
//!     .map(|result| Game::from_result(1, 0, result).unwrap())
//!     .collect();
//! let ratings = fit(2, &games, Anchor::Player { index: 0, elo: 1000.0 }).unwrap();
//! let (gain, error) = ratings.difference(1, 0).unwrap();
//! assert!(gain > 100.0 && error > 100.0); // ten games tell little
//!
//! let points: Vec<ChartPoint> = ["Level 1", "Level 2"]
//!     .iter()
//!     .zip(&ratings.ratings)
//!     .map(|(name, rating)| {
//!         let rating = rating.unwrap();
//!         ChartPoint { name: name.to_string(), elo: rating.elo, error: rating.error, target: None }
//!     })
//!     .collect();
//! assert!(svg("Levels", &points).starts_with("<?xml"));
//! ```

pub mod anchored;
pub mod calibrate;
pub mod chart;
pub mod cli;
pub mod fit;
pub mod judge;
pub mod move_log;
pub mod profile;
pub mod replay_tables;
pub mod tune;
