//! `veil tune` end to end: a short match writes a PGN, the tuner reads it, fits, and writes a
//! weights file in the form `src/search/weights/values.rs` has.

mod common;

use common::veil;

#[test]
fn tune_fits_weights_to_match_games() {
    let dir = common::scratch_dir("tune-weights");
    let pgn = dir.join("games.pgn");
    let out = dir.join("values.rs");
    let me = env!("CARGO_BIN_EXE_veil");
    let (cmd, name_a, name_b) = (format!("cmd={me}"), "name=a", "name=b");
    let played = veil(&[
        "match",
        "--engine",
        name_a,
        &cmd,
        "--engine",
        name_b,
        &cmd,
        "--variant",
        "covered",
        "--games",
        "4",
        "--tc",
        "nodes=400",
        "--concurrency",
        "2",
        "--quiet",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let tuned = veil(&[
        "tune",
        "--pgn",
        pgn.to_str().unwrap(),
        "--epochs",
        "100",
        "--min-positions",
        "1",
        "--holdout-every",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&tuned.stdout);
    assert!(
        tuned.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&tuned.stderr)
    );
    assert!(stdout.contains("4 games"), "{stdout}");
    assert!(stdout.contains("loss after"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("//! The linear evaluation weights, written by `veil tune`"));
    assert!(text.contains("pub const PST: [[S; 64]; 6]"));
    // Bad input: a missing file is an error, not a crash.
    let missing = veil(&["tune", "--pgn", dir.join("none.pgn").to_str().unwrap(), "--dry-run"]);
    assert_eq!(missing.status.code(), Some(2));
}
