//! SplitMix64 (Steele, Lea & Flood 2014): the one small mixing function the crate uses
//! wherever it needs well-spread bits from a counter or a seed. The zobrist keys are its
//! stream from a fixed state; the strength levels' noise and the arbiter's reveal seeds hash
//! with its output function. A pure function, so the rules stay free of randomness.

/// The golden-ratio increment between two states of the stream.
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The output for state `z`: the state advanced by [`GAMMA`], then finalised. Also a
/// well-spread hash of any 64-bit value.
#[inline]
pub const fn mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of the stream: the next state and the output drawn from this one.
#[inline]
pub const fn next(state: u64) -> (u64, u64) {
    (state.wrapping_add(GAMMA), mix(state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_from_zero_is_the_published_one() {
        // The first outputs of SplitMix64 seeded with 0, as in the reference implementation.
        let (state, first) = next(0);
        let (_, second) = next(state);
        assert_eq!(first, 0xE220_A839_7B1D_CDAF);
        assert_eq!(second, 0x6E78_9E6A_A1B9_65F4);
    }
}
