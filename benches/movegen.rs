//! Move generation benchmarks: legal move generation, copy-make of every legal move, and
//! perft on the standard and covered start positions.
//!
//! Each benchmark is kept short (10 samples, about a second of measurement) so that
//! `cargo bench` finishes in a couple of minutes; pass a name filter to run a subset,
//! e.g. `cargo bench --bench movegen -- legal_moves`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode};
use std::time::Duration;
use veil::rules::perft::perft;
use veil::rules::{Position, COVERED_START_FEN, STANDARD_START_FEN};

/// Named positions: two standard, one covered start, three covered midgames
/// (from the covered perft reference suite).
const POSITIONS: &[(&str, &str)] = &[
    ("start", STANDARD_START_FEN),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("covered_start", COVERED_START_FEN),
    (
        "covered_mid_a",
        "x2xk1xx/2xp2x1/ppr4p/1N3n2/1p2P3/2P2P1B/XXXX2X1/X1XXK2X w KQkq - 0 9 Q1R2B1P5q1r1b2n1p2",
    ),
    (
        "covered_mid_b",
        "xx1xk2x/1q1x2p1/np4P1/1Pp2n2/3R4/P1P1NP2/1XQ1P2X/X2XK2X w KQkq - 0 15 R1B2N1P1b1p4",
    ),
    (
        "covered_mid_c",
        "x2x2kx/xn2x1p1/p1p1PB1P/8/r5P1/B6P/X3P2X/X2XK2X b KQ - 2 18 Q1R1N1P2q1r1b1p3",
    ),
];

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("bad benchmark FEN {fen}: {error}"))
}

fn configure() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

fn bench_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for &(name, fen) in POSITIONS {
        let root = position(fen);
        group.bench_function(name, |b| b.iter(|| black_box(black_box(&root).legal_moves())));
    }
    group.finish();
}

fn bench_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("play_every_move");
    for &(name, fen) in POSITIONS {
        let root = position(fen);
        // Every legal move, and for a reveal every role the pool can yield.
        let branches: Vec<_> = root
            .legal_moves()
            .iter()
            .flat_map(|&m| root.reveal_outcomes(m).into_iter().map(move |(role, _)| (m, role)))
            .collect();
        group.bench_function(name, |b| {
            b.iter(|| {
                let root = black_box(&root);
                for &(m, role) in &branches {
                    black_box(root.play(m, role));
                }
            })
        });
    }
    group.finish();
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // The deepest run takes over a tenth of a second: one iteration per sample.
    group.sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(3));
    for (name, fen) in [("start", STANDARD_START_FEN), ("covered_start", COVERED_START_FEN)] {
        let root = position(fen);
        for depth in [3, 4] {
            group.bench_function(format!("{name}/{depth}"), |b| {
                b.iter(|| black_box(perft(black_box(&root), depth)))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = configure();
    targets = bench_legal_moves, bench_play, bench_perft
}
criterion_main!(benches);
