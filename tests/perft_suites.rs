//! Runs the perft suites in `perft/` and reports every count that differs.
//!
//! Each suite line is `<fen> ;D1 n ;D2 n ...`; depths whose expected count is above the
//! suite's node budget are skipped so the whole file stays fast. Set `VEIL_PERFT_MAX_NODES`
//! to raise (or lower) both budgets.

mod common;

use veil::rules::perft::perft;
use veil::rules::Position;
use veil::tools::perft::{run_suite, SuiteEntry};

fn budget(default: u64) -> u64 {
    std::env::var("VEIL_PERFT_MAX_NODES")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn load(name: &str) -> Vec<SuiteEntry> {
    let entries = common::suite(name);
    assert!(!entries.is_empty(), "{name} has no entries");
    entries
}

/// Runs a suite file within `max_nodes` per count and fails with every mismatch.
fn check_suite(name: &str, max_nodes: u64, min_checked: usize) {
    let entries = load(name);
    let report = run_suite(&entries, max_nodes, |_| {});
    assert!(
        report.mismatches.is_empty(),
        "{name}: {} of {} counts differ:\n{}",
        report.mismatches.len(),
        report.checked,
        report.mismatches.join("\n")
    );
    assert!(
        report.checked >= min_checked,
        "{name}: only {} counts checked ({} skipped)",
        report.checked,
        report.skipped
    );
    eprintln!(
        "{name}: {} positions, {} counts checked, {} skipped, {} leaves",
        entries.len(),
        report.checked,
        report.skipped,
        report.nodes
    );
}

#[test]
fn standard_suite() {
    check_suite("standard.epd", budget(2_000_000), 700);
}

#[test]
fn covered_suite() {
    check_suite("covered.epd", budget(5_000_000), 100);
}

/// Every suite line parses, has increasing depths and passes the FEN checks, and its FEN
/// survives a round trip (so the files stay usable by other tools).
#[test]
fn suite_lines_are_well_formed() {
    for name in ["standard.epd", "covered.epd"] {
        for entry in load(name) {
            let position = Position::from_fen(&entry.fen).unwrap_or_else(|e| panic!("{name} line {}: {e}", entry.line));
            let again = Position::from_fen(&position.to_fen()).expect("round trip");
            assert_eq!(again, position, "{name} line {}", entry.line);
            assert!(!entry.expected.is_empty(), "{name} line {}: no counts", entry.line);
            for (i, &(depth, _)) in entry.expected.iter().enumerate() {
                assert_eq!(
                    depth as usize,
                    i + 1,
                    "{name} line {}: depths must be D1, D2, ...",
                    entry.line
                );
            }
        }
    }
}

/// The counts RULES.md §9 gives for the start position, through the perft function itself.
#[test]
fn covered_start_counts_from_the_rules() {
    let start = Position::covered_start();
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 100);
    assert_eq!(perft(&start, 2), 9_980);
    assert_eq!(perft(&start, 3), 1_052_248);
}

/// A pawn one step from promotion, pinned along its rank: no move for it, and the king's
/// moves only (White: Ka8 Kb8 Ka6 Kb6; Black mirrored). Regression: the square two steps
/// ahead of such a pawn is off the board and must not be computed.
#[test]
fn pinned_pawn_one_step_from_promotion() {
    for fen in ["7k/KP5r/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/kp5R/7K b - - 0 1"] {
        let position = Position::from_fen(fen).unwrap();
        assert_eq!(position.legal_moves().len(), 4, "{fen}");
        assert_eq!(perft(&position, 1), 4, "{fen}");
    }
}
