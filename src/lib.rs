//! Veil: a game engine for covered chess (chess in which every piece but the kings starts
//! face down and is revealed, at random from its side's pool, on its first move).
//!
//! Rooms, each standing only on the ones before it: [`rules`] (the game), then the search,
//! the protocol loop and the match arbiter.

pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;
