//! Match progress: a bar redrawn in place on a terminal; on anything else (a file, a pipe,
//! a scheduler's log) plain lines, one every few games, so logs stay readable.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    total: u64,
    done: u64,
    terminal: bool,
    started: Instant,
    last_line: Option<Instant>,
    status: String,
}

const BAR: usize = 24;

impl Progress {
    pub fn new(total: u64) -> Progress {
        Progress {
            total,
            done: 0,
            terminal: std::io::stderr().is_terminal(),
            started: Instant::now(),
            last_line: None,
            status: String::new(),
        }
    }

    /// Records `done` games and the current standing.
    pub fn update(&mut self, done: u64, status: &str) {
        self.done = done;
        self.status = status.to_string();
        if self.terminal {
            self.draw();
        } else if self.last_line.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) || done == self.total {
            self.last_line = Some(Instant::now());
            crate::outln!("Progress: {done}/{} games, {}", self.total, self.status);
        }
    }

    /// Prints a line above the bar (or as a plain line).
    pub fn line(&mut self, text: &str) {
        if self.terminal {
            eprint!("\r\x1b[2K");
        }
        crate::outln!("{text}");
        if self.terminal {
            self.draw();
        }
    }

    fn draw(&self) {
        let filled = if self.total == 0 {
            BAR
        } else {
            (self.done as usize * BAR) / self.total as usize
        };
        let elapsed = self.started.elapsed().as_secs();
        let mut stderr = std::io::stderr().lock();
        let _ = write!(
            stderr,
            "\r\x1b[2K[{}{}] {}/{} games {:02}:{:02}  {}",
            "#".repeat(filled),
            ".".repeat(BAR - filled),
            self.done,
            self.total,
            elapsed / 60,
            elapsed % 60,
            self.status
        );
        let _ = stderr.flush();
    }

    /// Ends the bar's line.
    pub fn finish(&mut self) {
        if self.terminal {
            eprintln!();
        }
    }
}
