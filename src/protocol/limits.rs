//! The protocol's resource bounds, in one place (protocol.md, "Limits"); the options' ranges
//! are declared with the options (options.rs), and file options' size bounds there too. Input beyond a bound
//! gets one `info string error:` line and changes nothing, so whatever a server forwards to
//! the engine, its memory and the time of each command stay bounded.

use crate::search::MAX_DEPTH;

/// The longest input line, in bytes, not counting its line ending. A longer line is read
/// to its end without being kept, and refused. The longest useful line, a `position` with
/// [`MAX_POSITION_MOVES`] moves of up to eight bytes each (`e7e8q=P` and a space), takes a
/// third of it.
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// The most moves a `position` command may list: far beyond any game the draw rules let
/// run (RULES.md §7 ends every game well before), and cheap to replay (about 10 ms).
pub const MAX_POSITION_MOVES: usize = 10_000;

/// The deepest `go depth`: the search's own limit. A larger depth is searched to this one.
pub const MAX_GO_DEPTH: u32 = MAX_DEPTH;

/// The deepest `go perft`. Perft recurses once per ply, so the depth bounds the stack it
/// needs; no perft this deep ever finishes anyway (`stop` ends it).
pub const MAX_PERFT_DEPTH: u32 = MAX_DEPTH;

/// The deepest `bench`. A bench cannot be stopped (it is a fixed amount of work) and depth 6
/// already takes about half a minute, so deeper ones would leave `go` and `quit` waiting.
pub const MAX_BENCH_DEPTH: u32 = 6;
