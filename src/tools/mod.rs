//! Command-line tools built on the rules core.

pub mod out;
pub mod perft;
