//! Zobrist keys (Zobrist 1970), built at compile time from a fixed SplitMix64 stream.
//!
//! Covered chess needs two kinds of key plain chess lacks: one per covered piece (colour and
//! square, since the cover follows from the square) and one per pool count (colour, role and
//! count). The key of count 0 is zero, so a position with empty pools hashes as plain chess.

use super::splitmix;
use super::{Color, Role, Square};

/// Largest pool count a key exists for (the start pool holds 8 pawns).
pub const MAX_POOL_COUNT: usize = 8;

struct Keys {
    piece: [[[u64; 64]; 6]; 2],
    covered: [[u64; 64]; 2],
    pool: [[[u64; MAX_POOL_COUNT + 1]; 5]; 2],
    castling: [u64; 16],
    en_passant_file: [u64; 8],
    black_to_move: u64,
}

const fn build() -> Keys {
    let mut keys = Keys {
        piece: [[[0; 64]; 6]; 2],
        covered: [[0; 64]; 2],
        pool: [[[0; MAX_POOL_COUNT + 1]; 5]; 2],
        castling: [0; 16],
        en_passant_file: [0; 8],
        black_to_move: 0,
    };
    let mut state = 0x5665_696C_2043_6865; // any fixed seed
    let mut color = 0;
    while color < 2 {
        let mut square = 0;
        while square < 64 {
            let mut role = 0;
            while role < 6 {
                let (s, key) = splitmix::next(state);
                state = s;
                keys.piece[color][role][square] = key;
                role += 1;
            }
            let (s, key) = splitmix::next(state);
            state = s;
            keys.covered[color][square] = key;
            square += 1;
        }
        let mut role = 0;
        while role < 5 {
            let mut count = 1;
            while count <= MAX_POOL_COUNT {
                let (s, key) = splitmix::next(state);
                state = s;
                keys.pool[color][role][count] = key;
                count += 1;
            }
            role += 1;
        }
        color += 1;
    }
    // Castling keys are XORs of one key per right, so updates can XOR rights in and out.
    let mut right_keys = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (s, key) = splitmix::next(state);
        state = s;
        right_keys[i] = key;
        i += 1;
    }
    let mut rights = 0;
    while rights < 16 {
        let mut key = 0;
        let mut i = 0;
        while i < 4 {
            if rights & (1 << i) != 0 {
                key ^= right_keys[i];
            }
            i += 1;
        }
        keys.castling[rights] = key;
        rights += 1;
    }
    let mut file = 0;
    while file < 8 {
        let (s, key) = splitmix::next(state);
        state = s;
        keys.en_passant_file[file] = key;
        file += 1;
    }
    let (_, key) = splitmix::next(state);
    keys.black_to_move = key;
    keys
}

static KEYS: Keys = build();

#[inline]
pub fn piece(color: Color, role: Role, square: Square) -> u64 {
    KEYS.piece[color.index()][role.index()][square.index()]
}

#[inline]
pub fn covered(color: Color, square: Square) -> u64 {
    KEYS.covered[color.index()][square.index()]
}

/// The key for `color`'s pool holding `count` of `role` (zero for a count of zero).
#[inline]
pub fn pool(color: Color, role: Role, count: u8) -> u64 {
    KEYS.pool[color.index()][role.index()][(count as usize).min(MAX_POOL_COUNT)]
}

#[inline]
pub fn castling(rights: u8) -> u64 {
    KEYS.castling[rights as usize & 15]
}

#[inline]
pub fn en_passant(square: Square) -> u64 {
    KEYS.en_passant_file[square.file() as usize]
}

#[inline]
pub fn black_to_move() -> u64 {
    KEYS.black_to_move
}
