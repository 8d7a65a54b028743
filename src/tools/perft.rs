//! `veil perft`: divide output in Stockfish's format, and EPD suites.

use crate::rules::perft::{divide_each, perft};
use crate::rules::Position;
use std::io::{self, Write};
use std::time::Instant;

/// Perft divide in Stockfish's format, line by line as the counts come: one `move: count`
/// line per root move, a blank line and `Nodes searched: N`. `stop` can end it early (see
/// [`divide_each`]); the total is then of the moves printed. Returns the total.
pub fn divide_lines(position: &Position, depth: u32, stop: &impl Fn() -> bool, mut line: impl FnMut(&str)) -> u64 {
    let mut total = u64::from(depth == 0);
    divide_each(position, depth, stop, |m, leaves| {
        line(&format!("{m}: {leaves}"));
        total += leaves;
    });
    line("");
    line(&format!("Nodes searched: {total}"));
    total
}

/// `veil perft --fen`: the divide on `out`, the time and speed on stderr.
pub fn run_divide(position: &Position, depth: u32, out: &mut impl Write) -> io::Result<u64> {
    let start = Instant::now();
    let mut result = Ok(());
    let total = divide_lines(position, depth, &|| false, |text| {
        if result.is_ok() {
            result = writeln!(out, "{text}");
        }
    });
    result?;
    let elapsed = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        elapsed,
        total as f64 / elapsed.max(1e-9)
    );
    Ok(total)
}

/// One line of an EPD perft suite: a FEN and its expected counts by depth.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    pub line: usize,
    pub fen: String,
    pub expected: Vec<(u32, u64)>,
}

/// Parses `<fen> ;D1 n ;D2 n ...` lines; blank lines and `#` comments are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut expected = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let mut words = part.split_whitespace();
            let (Some(depth), Some(count)) = (words.next(), words.next()) else {
                return Err(format!("line {}: bad field '{part}'", index + 1));
            };
            let depth: u32 = depth
                .trim_start_matches(['D', 'd'])
                .parse()
                .map_err(|_| format!("line {}: bad depth '{depth}'", index + 1))?;
            let count: u64 = count
                .parse()
                .map_err(|_| format!("line {}: bad count '{count}'", index + 1))?;
            expected.push((depth, count));
        }
        entries.push(SuiteEntry {
            line: index + 1,
            fen,
            expected,
        });
    }
    Ok(entries)
}

/// Result of running a suite.
#[derive(Debug, Default)]
pub struct SuiteReport {
    pub checked: usize,
    pub skipped: usize,
    pub mismatches: Vec<String>,
    pub nodes: u64,
}

/// Runs every entry's depths whose expected count is at most `max_nodes`.
pub fn run_suite(entries: &[SuiteEntry], max_nodes: u64, mut progress: impl FnMut(&str)) -> SuiteReport {
    let mut report = SuiteReport::default();
    for entry in entries {
        let position = match Position::from_fen(&entry.fen) {
            Ok(position) => position,
            Err(error) => {
                report
                    .mismatches
                    .push(format!("line {}: bad FEN ({error}): {}", entry.line, entry.fen));
                continue;
            }
        };
        for &(depth, expected) in &entry.expected {
            if expected > max_nodes {
                report.skipped += 1;
                continue;
            }
            let got = perft(&position, depth);
            report.checked += 1;
            report.nodes += got;
            if got != expected {
                let message = format!(
                    "line {}: D{depth} expected {expected} got {got}: {}",
                    entry.line, entry.fen
                );
                progress(&message);
                report.mismatches.push(message);
            }
        }
    }
    report
}

/// Reads a suite file from disk.
pub fn read_suite(path: &str) -> Result<Vec<SuiteEntry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse_suite(&text)
}
