//! Star1/Star2 pruning at chance nodes, measured: on the covered bench positions, the root
//! value and node count at fixed depths with full windows at chance nodes, with Star1
//! windows, and with Star1 windows and Star2 probes (the selective parts of the search off,
//! so all three must agree on the value).
//!
//!     cargo run --release --example star_ratio -- 4

use veil::rules::Position;
use veil::search::{bench, verify::root_value, SearchConfig};

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(3);
    let exact = |chance_windows, star2| SearchConfig {
        chance_windows,
        star2,
        selective: false,
        ..SearchConfig::default()
    };
    let (mut full_nodes, mut star1_nodes, mut star2_nodes) = (0u64, 0u64, 0u64);
    println!(
        "{:>10} {:>10} {:>10} {:>7} {:>7}  position",
        "full", "star1", "star1+2", "ratio1", "ratio2"
    );
    for fen in bench::BENCH_FENS.iter().filter(|fen| fen.contains(['x', 'X'])) {
        let position = Position::from_fen(fen).expect("bench FEN");
        let (full, full_n) = root_value(&position, depth, exact(false, false));
        let (star1, star1_n) = root_value(&position, depth, exact(true, false));
        let (star2, star2_n) = root_value(&position, depth, exact(true, true));
        assert_eq!((star1, star2), (full, full), "{fen}");
        println!(
            "{full_n:>10} {star1_n:>10} {star2_n:>10} {:>7.3} {:>7.3}  {fen}",
            star1_n as f64 / full_n as f64,
            star2_n as f64 / full_n as f64
        );
        full_nodes += full_n;
        star1_nodes += star1_n;
        star2_nodes += star2_n;
    }
    println!(
        "depth {depth}: full-window {full_nodes}, Star1 {star1_nodes} ({:.3}), Star1+Star2 {star2_nodes} ({:.3})",
        star1_nodes as f64 / full_nodes as f64,
        star2_nodes as f64 / full_nodes as f64
    );
}
