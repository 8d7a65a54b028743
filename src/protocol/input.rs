//! Input lines read with a bound on their length: a line longer than the bound is read to its
//! end without being kept, so no input, however long and whatever its bytes, makes the
//! engine hold more than the bound in memory.

use std::io::{self, BufRead};

/// What one read from the input gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine<'a> {
    /// A line of at most the bound, without its `\n` (a `\r` before it is kept).
    Line(&'a [u8]),
    /// A line longer than the bound, of `bytes` bytes (without its `\n`); it was skipped.
    TooLong { bytes: usize },
    /// The end of the input (or a read error).
    End,
}

/// Reads `\n`-terminated lines of at most `max_bytes` bytes from `input`. The last line
/// may lack its `\n`.
pub struct LineReader<R> {
    input: R,
    max_bytes: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R, max_bytes: usize) -> LineReader<R> {
        LineReader {
            input,
            max_bytes,
            buffer: Vec::new(),
        }
    }

    /// The next line. Interrupted reads are retried; any other read error ends the input.
    pub fn next_line(&mut self) -> InputLine<'_> {
        self.buffer.clear();
        // Bytes of the current line so far, and whether it already went past the bound.
        let mut length = 0usize;
        let mut too_long = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return InputLine::End,
            };
            if available.is_empty() {
                return match (length, too_long) {
                    (0, _) => InputLine::End,
                    (bytes, true) => InputLine::TooLong { bytes },
                    (_, false) => InputLine::Line(&self.buffer),
                };
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            length = length.saturating_add(chunk.len());
            if !too_long && length > self.max_bytes {
                too_long = true;
                self.buffer = Vec::new();
            }
            if !too_long {
                self.buffer.extend_from_slice(chunk);
            }
            let used = chunk.len() + usize::from(newline.is_some());
            self.input.consume(used);
            if newline.is_some() {
                return if too_long {
                    InputLine::TooLong { bytes: length }
                } else {
                    InputLine::Line(&self.buffer)
                };
            }
        }
    }
}
