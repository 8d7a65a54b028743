//! Helpers shared by the integration tests.

use veil::tools::perft::{read_suite, SuiteEntry};

/// The entries of `perft/<name>` in the repository.
#[allow(dead_code)]
pub fn suite(name: &str) -> Vec<SuiteEntry> {
    let path = format!("{}/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    read_suite(&path).unwrap_or_else(|error| panic!("{error}"))
}

/// The FEN of every line of both perft suites, covered first.
#[allow(dead_code)]
pub fn suite_fens() -> Vec<String> {
    ["covered.epd", "standard.epd"]
        .into_iter()
        .flat_map(suite)
        .map(|entry| entry.fen)
        .collect()
}

/// Runs the `veil` binary with `args` to its end.
#[allow(dead_code)]
pub fn veil(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_veil"))
        .args(args)
        .output()
        .expect("veil runs")
}
