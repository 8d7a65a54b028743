//! The match arbiter behind `veil match`: it plays engines against each other through the
//! protocol alone (processes and pipes, never the search's code), draws every reveal itself,
//! keeps the clocks, adjudicates, writes PGN and reports Elo.
//!
//! `engine` runs one engine process; `clock` reads time controls and keeps clocks; `reveal`
//! draws reveals with common random numbers; `game` plays and judges one game; `schedule`
//! says which games a match (or a shard of it) plays; `runner` plays them concurrently, and
//! `interrupt` lets a signal stop them; `stats` holds the formulas, `report` the standings
//! and the results file, `pgn` the game records and `replay` their verification; `cli` is
//! the command line.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod game;
pub mod interrupt;
pub mod pgn;
pub mod progress;
pub mod record;
pub mod replay;
pub mod report;
pub mod reveal;
pub mod runner;
pub mod schedule;
pub mod stats;
