//! Command-line tools: perft on the rules core, and the standard output of the long runs.

pub mod out;
pub mod perft;
