//! The protocol loop: UCI as Stockfish speaks it, plus the covered-chess extensions
//! (extended FEN, reveal suffixes, `go perft`, `d`). See protocol.md.

pub mod command;
pub mod display;
mod engine;
pub mod options;

pub use engine::{Engine, Output};

use std::io::{self, BufRead};

/// Runs the loop on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let mut engine = Engine::new(Output::stdout());
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer);
                if !engine.handle_line(&line) {
                    return;
                }
            }
        }
    }
    engine.quit();
}
