//! The fuzz targets' checks (fuzz/src/checks.rs) replayed on their committed inputs: the
//! seeds every fuzz run starts from (fuzz/seeds/TARGET) and every input that once failed
//! (fuzz/regressions/TARGET). So a bug a fuzzer found stays fixed without cargo-fuzz.

#[path = "../fuzz/src/checks.rs"]
mod checks;
#[path = "../fuzz/src/data.rs"]
mod data;
#[path = "../fuzz/src/slow.rs"]
mod slow;

use std::fs;
use std::path::Path;

/// Every file under `fuzz/<kind>/<target>`, sorted, with its contents.
fn inputs(kind: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .map(|path| (path.display().to_string(), fs::read(&path).expect("readable input")))
        .collect();
    files.sort();
    files
}

fn replay(target: &str, check: fn(&[u8])) {
    let seeds = inputs("seeds", target);
    assert!(!seeds.is_empty(), "no seeds for {target}");
    for (name, data) in seeds.iter().chain(inputs("regressions", target).iter()) {
        let outcome = std::panic::catch_unwind(|| check(data));
        assert!(outcome.is_ok(), "fuzz target {target} fails on {name}");
    }
}

#[test]
fn fen_inputs() {
    replay("fen", checks::fen);
}

#[test]
fn move_inputs() {
    replay("moves", checks::moves);
}

#[test]
fn protocol_inputs() {
    replay("protocol", checks::protocol);
}

#[test]
fn rules_inputs() {
    replay("rules", checks::rules);
}

/// The slow model agrees with the engine on the start positions of the fuzz targets, and a
/// list missing one move would not pass for the engine's.
#[test]
fn the_slow_model_agrees_with_the_engine_on_the_start_positions() {
    for fen in checks::START_FENS {
        let position = veil::rules::Position::from_fen(fen).expect("valid");
        let mut engine: Vec<slow::Triple> = position
            .legal_moves()
            .iter()
            .map(|m| (m.from().index(), m.to().index(), m.promotion_role()))
            .collect();
        engine.sort();
        let model = slow::legal_moves(&position);
        assert_eq!(engine, model, "{fen}");
        assert_ne!(&engine[1..], &model[..]);
        checks::check_position(&position, true);
    }
}

/// Found by the rules target: a position played on from a FEN with its clocks near their
/// bounds had a FEN that did not read back (`... 10001 100000`). Play now stops both clocks
/// at the bounds.
#[test]
fn clocks_stop_at_the_fen_bounds() {
    use veil::rules::{Position, MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK};
    let mut position = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 9999 99999").expect("valid");
    for text in ["a1b1", "a8b8", "b1a1", "b8a8"] {
        let (m, reveal) = position.parse_played_move(text).expect("legal");
        position.play_mut(m, reveal);
        let fen = position.to_fen();
        let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.to_fen(), fen);
    }
    assert_eq!(position.halfmove_clock(), MAX_HALFMOVE_CLOCK);
    assert_eq!(position.fullmove_number(), MAX_FULLMOVE_NUMBER);
    checks::check_position(&position, true);
}

#[test]
fn data_inputs() {
    replay("data", data::data);
}
