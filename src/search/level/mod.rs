//! Strength levels 1..=5 for the `Level` option (5 is full strength), and the table of what
//! each level does. The compiled-in table can be replaced by a file (`LevelsFile`, TOML or
//! JSON), so the levels can be re-tuned without a new build.
//!
//! A weaker level plays like a weaker player, not like a strong engine that blunders at
//! random:
//! - it looks less far: caps on depth, nodes and time per move (which also make it cheap to
//!   host), the node cap optionally scaled by how many moves the position offers
//!   (`complexity_moves`: further in an ending or a forced reply, less far among many);
//! - it judges less well: evaluation noise that is a fixed function of the position and the
//!   `Seed`, so a replayed game replays;
//! - it picks among the best few moves with a chance that falls with each move's score
//!   (a softmax over the root moves' scores with a temperature in centipawns, the idea of
//!   Stockfish's skill levels and of GNU Backgammon's noisy levels);
//! - but it does not miss what nobody misses: a move its own search scores more than
//!   `max_loss_cp` below its best is never picked (so an only move is always found, and the
//!   softmax adds small errors, never a lost game), and a recapture on the square of the
//!   opponent's last capture, when that is its best move, is taken outright with
//!   `recapture_pct` percent chance;
//! - it misjudges the chance element as a beginner does: with `naive_covers` it values each
//!   covered piece as its cover (a covered rook as a rook), ignoring what the pool holds;
//! - now and then it does not look: on `lapse_pct` percent of its moves (drawn from the
//!   position and the `Seed`) it searches only `lapse_nodes` nodes, one line, and plays that
//!   line's move, so it misses what a glance misses (a threat two moves deep) as a person
//!   does, rather than giving material away for nothing. That is where a level's blunders
//!   come from; the choice above only adds small errors, since `max_loss_cp` bounds it by
//!   the level's own scores. The level still makes its full search, and a glance's move that
//!   search (or a second look at that move alone) scores as throwing a game away that was
//!   not lost ([`move_stands`]) gives way to the full search's choice: a lapse costs
//!   chances, never the game on the spot;
//! - and with `second_look` it checks the move in hand before playing it: a search of that
//!   move alone, under the level's own caps, which sees deeper than the many-line search
//!   that chose it. A move the look scores as throwing a game away that was not lost gives
//!   way to the next of its lines (three looks at most), as a person who looks again at a
//!   move before playing it finds the refutation the first look missed.
//!
//! The level's parameters are in `params.rs`, the table of five levels and its file in
//! `table.rs`, and what a level does to a search and its choice of move in `choice.rs`.

mod choice;
mod params;
mod table;
#[cfg(test)]
mod tests;

pub use choice::{
    already_lost, apply, choice_scale, choose, is_lapse, move_stands, noise, win_percent, GUARD_DROP, GUARD_FROM,
    WIN_SLOPE,
};
pub use params::{LevelParams, MAX_LEVEL, MIN_LEVEL};
pub use table::{LevelTable, LevelsFileError};
