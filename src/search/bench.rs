//! `veil bench`: a fixed set of positions searched to a fixed depth on one thread; the total
//! node count is the signature of the search (`Bench: N` in commit messages).

use super::control::SearchControl;
use super::driver::run;
use super::evaluator::Evaluator;
use super::job::SearchJob;
use super::limits::Limits;
use super::tt::TranspositionTable;
use crate::rules::{Position, Variant};
use std::time::{Duration, Instant};

/// Positions of the bench: plain chess (openings, middlegames, endgames) first, then covered
/// chess from the start to the endgame (positions from seeded self-play with random reveals).
pub const BENCH_FENS: [&str; 38] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 5",
    "rnbqk2r/ppp1bppp/4pn2/3p2B1/3PP3/2N5/PPP2PPP/R2QKBNR w KQkq - 2 5",
    "r1bqk1nr/pp1pppbp/2n3p1/2p5/4P3/2N3P1/PPPP1PBP/R1BQK1NR w KQkq - 2 5",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R1BQ1RK1 w - - 0 8",
    "2r3k1/pp3ppp/4p3/3p4/3P4/4PN2/PP3PPP/2R3K1 w - - 0 20",
    "r2q1rk1/pb1nbppp/1p2pn2/2pp4/3P4/1P1BPN2/PBPN1PPP/R2Q1RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/r7 w - - 0 40",
    "8/8/3bk3/8/8/2N1K3/4P3/8 w - - 0 60",
    "8/8/4k3/8/2K5/3P4/8/8 w - - 0 70",
    "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 50",
    "4r1k1/p4ppp/1p6/2pPn3/2P1P3/1P3B2/P4PPP/4R1K1 b - - 0 25",
    "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
    "x2xk1xx/2xp2x1/ppr4p/1N3n2/1p2P3/2P2P1B/XXXX2X1/X1XXK2X w KQkq - 0 9 Q1R2B1P5q1r1b2n1p2",
    "xx1xk2x/1q1x2p1/np4P1/1Pp2n2/3R4/P1P1NP2/1XQ1P2X/X2XK2X w KQkq - 0 15 R1B2N1P1b1p4",
    "5n2/x3p2k/pp2p3/4Pn2/7p/P1R2Q1P/1P2P2X/4K2X w K - 0 26 R1P1r1b1p1",
    "x2x4/5k2/5p1B/p3PP2/P5P1/2p4B/2P1K3/3X3X w - - 0 31 P3b2n1p1",
    "xxxxkx1x/xx3x1x/4bp2/2pb2p1/8/8/XXXXQRXX/XXXXKXXX w KQkq - 0 6 R1B2N2P8q1r2n2p5",
    "x3kx1x/xx3x1x/5p2/3qrpp1/P1p5/4P3/1XXQ1RXX/XX2KXXX w KQkq - 2 13 B1N2P6r1n2p4",
    "5k2/n2N1x2/rp2n3/8/P1P2pPP/1PB5/2X5/X4PK1 b - - 1 29 N1P1p1",
    "xxx1kxxx/x1x3xx/1p2p3/1P1p1q1P/Q2P1N1p/8/XXX3XX/XXX1K1XX b KQkq - 0 6 R2B2N1P5r2b2n2p4",
    "xxx4x/x2k3x/1p5B/1Pr1P2P/1p2P2p/8/XXX3XX/3R1K1X b - - 0 17 R1N1P4r1b1n1p3",
    "8/5r1x/b1p4P/p1p5/r3k1P1/1p4BP/1X6/2R3KX w - - 0 34 R1N1P1n1p1",
    "xxxxkxxx/1xx2xxx/3p4/3Bp3/3b4/8/XXXX1XXX/XXXXK1XX w - - 4 7 Q1R2B1N2P7q1r2b1n2p6",
    "x1x1kxxx/2x2xxx/3p4/1n1P4/5P1r/4N3/XXX3XX/XX3KXX w - - 0 15 Q1R1B1N1P5q1r1b1p6",
    "2x2x1x/2xk1xxx/3p3p/3P4/8/p5PP/X6X/nK3P2 b - - 1 25 Q1R1B1q1r1b1p4",
    "xx1xkxxx/xx2xxxx/8/3pR3/P2n2p1/3P4/1XX1RXXX/XX2KXXX w KQkq - 0 8 Q1B2N2P5q1r2b2n1p6",
    "x1r1kx1x/xQ2pxxx/7p/3p4/6pB/3P4/2XRnX1X/2KP1X1X w kq - 0 17 B1N1P3q1r1b2n1p4",
    "4kx1x/4pxxx/4b2p/3pR3/7B/3P1p2/2X2Q1X/2KP1X1X b - - 1 24 B1N1P2q1r1b1n1p4",
    "1xxx1kxx/1x1x1xxx/1p6/2b1p3/1p6/1P3B2/p1XX1XXX/XXXX1KXX w - - 0 7 Q1R2B1N2P6q1r2b1n2p4",
    "1xx1k1xx/1x1x1xxx/8/1p2p3/1p2B3/1P6/P1XX2KX/1XXX2XX w - - 1 12 Q1R2B1N2P5q1r2b1n1p4",
    "4k3/5xb1/1p6/1p2p3/1p4N1/1P5P/1q5X/5K1X w - - 6 27 Q1B1P3n1p2",
    "x1xxkxxx/x3xxxx/1p2r3/3p4/R7/2N1P3/XXX2XXX/XX2KXXX w KQkq - 0 7 Q1B2N1P7q1r1b1n2p6",
    "x3kxxx/x3xx1x/1p6/1Pr1n1n1/2P2P2/1QR5/X5XX/XX2K1XX b KQkq - 0 16 B2N1P4q1r1b1p5",
    "2p1k2x/5x1x/2q1p2p/p1Q5/2p2PP1/8/P3P2X/6K1 w k - 0 31 B1N1r1b1p1",
];

pub const BENCH_DEPTH: u32 = 8;

/// Searches every bench position with the engine's default evaluation and returns (nodes,
/// time).
pub fn bench(depth: u32) -> (u64, Duration) {
    bench_with(depth, &Evaluator::standard(), None)
}

/// [`bench`](fn@bench) with the given evaluation, on the positions of `only` (all of them
/// if `None`; a root with nothing left to chance is plain chess).
pub fn bench_with(depth: u32, evaluator: &Evaluator, only: Option<Variant>) -> (u64, Duration) {
    // One table for all positions, emptied before each: a position's search starts as in a
    // fresh engine, and the time is the searches', not the allocations'.
    let tt = TranspositionTable::new(16);
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for fen in BENCH_FENS {
        let position = Position::from_fen(fen).expect("bench FENs are valid");
        if only.is_some_and(|variant| position.is_plain_chess() != (variant == Variant::Chess)) {
            continue;
        }
        tt.clear();
        let control = SearchControl::new();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let job = SearchJob {
            evaluator: evaluator.clone(),
            ..SearchJob::new(position, limits)
        };
        let start = Instant::now();
        nodes += run(&job, &tt, &control, |_| {}).nodes;
        time += start.elapsed();
    }
    (nodes, time)
}
