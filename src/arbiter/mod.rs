//! The match arbiter behind `veil match`: it plays engines against each other through the
//! protocol alone (processes and pipes, never the search's code), draws every reveal itself,
//! keeps the clocks, adjudicates, writes PGN and reports Elo.

pub mod pgn;
pub mod record;
pub mod replay;
pub mod stats;
