//! `veil bench`: a fixed set of positions searched to a fixed depth on one thread; the total
//! node count is the signature of the search (`Bench: N` in commit messages).

use super::{run, Limits, SearchControl, SearchJob, TranspositionTable};
use crate::rules::Position;
use std::time::{Duration, Instant};

/// Positions of the bench: plain and covered, openings to endgames.
pub const BENCH_FENS: [&str; 8] = [
    "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "x2xk1xx/2xp2x1/ppr4p/1N3n2/1p2P3/2P2P1B/XXXX2X1/X1XXK2X w KQkq - 0 9 Q1R2B1P5q1r1b2n1p2",
    "xx1xk2x/1q1x2p1/np4P1/1Pp2n2/3R4/P1P1NP2/1XQ1P2X/X2XK2X w KQkq - 0 15 R1B2N1P1b1p4",
    "5n2/x3p2k/pp2p3/4Pn2/7p/P1R2Q1P/1P2P2X/4K2X w K - 0 26 R1P1r1b1p1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "x2x4/5k2/5p1B/p3PP2/P5P1/2p4B/2P1K3/3X3X w - - 0 31 P3b2n1p1",
];

pub const BENCH_DEPTH: u32 = 4;

/// Searches every bench position and returns (nodes, time).
pub fn bench(depth: u32) -> (u64, Duration) {
    let start = Instant::now();
    let mut nodes = 0;
    for fen in BENCH_FENS {
        let position = Position::from_fen(fen).expect("bench FENs are valid");
        let tt = TranspositionTable::new(16);
        let control = SearchControl::new();
        let job = SearchJob {
            position,
            history: Vec::new(),
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            multipv: 1,
            threads: 1,
            move_overhead: Duration::ZERO,
            level: super::level::LevelParams::FULL,
            seed: 0,
        };
        nodes += run(&job, &tt, &control, |_| {}).nodes;
    }
    (nodes, start.elapsed())
}
