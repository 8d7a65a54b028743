//! Training the evaluation: `veil datagen` (self-play data in a binary format, [`datagen`],
//! [`format`](mod@format)), `veil train` (the network, [`trainer`]; [`mirror`] doubles its positions, [`teacher`] labels them
//! with another network's evaluation) and Texel tuning of the evaluation's linear weights: positions from played games, each
//! labelled with its game's result, and the weights fitted so that a logistic curve of the
//! static score predicts the results (Texel's method, as Peter Österlund described it).
//!
//! - [`data`] takes quiet positions from the match runner's PGN files (covered and plain
//!   chess) and records each one's evaluation [`Trace`](crate::search::eval::Trace);
//! - [`texel`] fits the logistic scale, then the weights by gradient descent (Adam) on the
//!   mean squared error, with a held-out share of the games to check that the fit
//!   generalises;
//! - [`cli`] is `veil tune`, which writes `src/search/weights/values.rs`.

pub mod cli;
pub mod data;
pub mod datagen;
pub mod datagen_cli;
pub mod format;
pub mod mirror;
pub mod teacher;
pub mod texel;
pub mod train_cli;
pub mod trainer;
