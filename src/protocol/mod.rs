//! The protocol loop: UCI as Stockfish speaks it, plus the covered-chess extensions
//! (extended FEN, reveal suffixes, `go perft`, `d`). See protocol.md.

pub mod command;
pub mod display;
mod engine;
pub mod input;
pub mod limits;
pub mod options;
pub mod position;
pub mod untrusted_file;

pub use engine::{Engine, Output};

use input::{InputLine, LineReader};
use std::io;

/// Runs the loop on stdin/stdout until `quit` or end of input, within the operator's
/// `limits`. Lines longer than [`limits::MAX_LINE_BYTES`] are refused unread.
pub fn run_stdio(limits: options::OperatorLimits) {
    let mut engine = Engine::with_limits(Output::stdout(), limits);
    let stdin = io::stdin();
    let mut input = LineReader::new(stdin.lock(), limits::MAX_LINE_BYTES);
    loop {
        match input.next_line() {
            InputLine::End => break,
            InputLine::TooLong { bytes } => engine.handle_overlong_line(bytes),
            InputLine::Line(bytes) => {
                let line = String::from_utf8_lossy(bytes);
                if !engine.handle_line(&line) {
                    return;
                }
            }
        }
    }
    engine.quit();
}
