//! The learnt evaluation: an efficiently updatable neural network (NNUE, Nasu 2018) over
//! covered chess's inputs: revealed pieces, covered pieces and the pools ([`features`]), a
//! quantised network ([`network`]) evaluated through accumulators updated move by move
//! ([`accumulator`]) with vectorised loops ([`simd`]).
//!
//! Stands on the rules only; the search holds an [`AccumulatorStack`] per thread.

pub mod accumulator;
mod default;
pub mod features;
pub mod network;
pub mod simd;

pub use accumulator::{evaluate_from_scratch, Accumulator, AccumulatorStack};
pub use default::{default_network, levels_network, plain_network};
pub use features::Snapshot;
pub use network::{Base, Network, NetworkError};
