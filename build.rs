//! Builds the attack tables into `OUT_DIR/tables.rs` before the crate compiles, so the
//! engine starts with every table ready and needs no lazy global.
//!
//! Sliding attacks use "fancy" magic bitboards (Pradyumna Kannan, 2007): for each square a
//! mask of relevant blockers, a multiplier found here by a seeded random search, and an
//! offset into one shared attack array.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn bit(file: i32, rank: i32) -> u64 {
    1u64 << (rank * 8 + file)
}

fn leaper(square: i32, deltas: &[(i32, i32)]) -> u64 {
    let (file, rank) = (square % 8, square / 8);
    deltas
        .iter()
        .filter(|(df, dr)| on_board(file + df, rank + dr))
        .fold(0, |acc, (df, dr)| acc | bit(file + df, rank + dr))
}

fn slide(square: i32, dirs: &[(i32, i32)], occupied: u64) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut file, mut rank) = (square % 8 + df, square / 8 + dr);
        while on_board(file, rank) {
            attacks |= bit(file, rank);
            if occupied & bit(file, rank) != 0 {
                break;
            }
            file += df;
            rank += dr;
        }
    }
    attacks
}

/// Blockers that matter for a slider on `square`: its rays without their last square.
fn relevant_mask(square: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut file, mut rank) = (square % 8 + df, square / 8 + dr);
        while on_board(file + df, rank + dr) {
            mask |= bit(file, rank);
            file += df;
            rank += dr;
        }
    }
    mask
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    multiplier: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for square in 0..64 {
        let mask = relevant_mask(square, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut subsets = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            subsets.push((subset, slide(square, dirs, subset)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let multiplier = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let ok = subsets.iter().all(|&(occupied, attacks)| {
                let index = (occupied.wrapping_mul(candidate) >> shift) as usize;
                if epoch[index] != attempt {
                    epoch[index] = attempt;
                    used[index] = attacks;
                    true
                } else {
                    used[index] == attacks
                }
            });
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occupied, attacks) in &subsets {
            let index = (occupied.wrapping_mul(multiplier) >> shift) as usize;
            table[offset + index] = attacks;
        }
        magics.push(Magic {
            mask,
            multiplier,
            shift,
            offset,
        });
    }
    magics
}

fn write_array(out: &mut String, name: &str, ty: &str, values: &[u64]) {
    writeln!(out, "pub static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "{},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "pub static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "Magic {{ mask: {:#x}, multiplier: {:#x}, shift: {}, offset: {} }},",
            m.mask, m.multiplier, m.shift, m.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let knight_deltas = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let king_deltas = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

    let knight: Vec<u64> = (0..64).map(|s| leaper(s, &knight_deltas)).collect();
    let king: Vec<u64> = (0..64).map(|s| leaper(s, &king_deltas)).collect();
    let mut pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, 1), (1, 1)])).collect();
    pawn.extend((0..64).map(|s| leaper(s, &[(-1, -1), (1, -1)])));

    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            let from_a = slide(a, dirs, 0);
            for b in 0..64 {
                if a == b || from_a & (1u64 << b) == 0 {
                    continue;
                }
                let index = (a * 64 + b) as usize;
                between[index] = slide(a, dirs, 1u64 << b) & slide(b, dirs, 1u64 << a);
                line[index] = (from_a & slide(b, dirs, 0)) | (1u64 << a) | (1u64 << b);
            }
        }
    }

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut sliding = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut sliding);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut sliding);

    let mut out = String::new();
    out.push_str("// Generated by build.rs: attack tables. Do not edit.\n");
    write_array(&mut out, "KNIGHT", "u64", &knight);
    write_array(&mut out, "KING", "u64", &king);
    write_array(&mut out, "PAWN", "u64", &pawn);
    write_array(&mut out, "BETWEEN", "u64", &between);
    write_array(&mut out, "LINE", "u64", &line);
    write_array(&mut out, "SLIDING", "u64", &sliding);
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);

    let path = Path::new(&env::var("OUT_DIR").unwrap()).join("tables.rs");
    fs::write(path, out).unwrap();
}
