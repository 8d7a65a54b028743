//! The two loops inference spends its time in: adding and subtracting weight rows to an
//! accumulator, and the output layer's squared-clipped-ReLU dot product. Each is written
//! once as plain loops over fixed-size arrays, which the compiler vectorises; on x86-64 a
//! second copy is compiled for AVX2 and chosen at run time when the processor has it (the
//! dot product's AVX2 copy is written by hand, below). The portable copy is the one every
//! other machine runs.

use super::network::{HIDDEN, QA};

type Row = [i16; HIDDEN];

/// Accumulator lanes an update keeps in registers while it adds every changed row: the
/// accumulator is loaded and stored once per tile, not once per feature.
const TILE: usize = 64;

#[inline(always)]
fn update_portable(acc: &mut Row, weights: &[Row], added: &[u16], removed: &[u16]) {
    for start in (0..HIDDEN).step_by(TILE) {
        let mut tile: [i16; TILE] = acc[start..start + TILE]
            .try_into()
            .expect("HIDDEN is a multiple of TILE");
        for &feature in added {
            let row = &weights[feature as usize][start..start + TILE];
            for (a, w) in tile.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
        for &feature in removed {
            let row = &weights[feature as usize][start..start + TILE];
            for (a, w) in tile.iter_mut().zip(row) {
                *a = a.wrapping_sub(*w);
            }
        }
        acc[start..start + TILE].copy_from_slice(&tile);
    }
}

#[inline(always)]
fn dot_portable(acc: &Row, weights: &Row) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(weights.iter()) {
        let v = (a as i32).clamp(0, QA);
        sum += v * v * w as i32;
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::Row;

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update(acc: &mut Row, weights: &[Row], added: &[u16], removed: &[u16]) {
        super::update_portable(acc, weights, added, removed)
    }

    /// The portable sum, as `Σ (v · w) · v` in pairs: `v · w` fits an `i16` because
    /// `v ≤ QA` and the output weights are at most
    /// [`MAX_OUTPUT_WEIGHT`](crate::nnue::network::MAX_OUTPUT_WEIGHT) in size (checked
    /// when a network is read), and `madd` multiplies and adds pairs into `i32`s.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dot(acc: &Row, weights: &Row) -> i32 {
        use super::{HIDDEN, QA};
        use std::arch::x86_64::*;
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(16) {
            // SAFETY: `i + 16 <= HIDDEN`, so both loads are within their rows.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), ceiling);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v));
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter)))
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// `acc += Σ weights[added] − Σ weights[removed]`, element-wise (wrapping: the quantised
/// sums stay in range by construction).
#[inline]
pub fn update(acc: &mut Row, weights: &[Row], added: &[u16], removed: &[u16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor supports AVX2 (checked just above).
        return unsafe { avx2::update(acc, weights, added, removed) };
    }
    update_portable(acc, weights, added, removed)
}

/// `Σ clamp(acc, 0, QA)² · weights`.
#[inline]
pub fn screlu_dot(acc: &Row, weights: &Row) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor supports AVX2 (checked just above).
        return unsafe { avx2::dot(acc, weights) };
    }
    dot_portable(acc, weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dispatched_loops_equal_the_portable_ones() {
        let weights: Vec<Row> = (0..8)
            .map(|r| std::array::from_fn(|i| ((i * 37 + r * 101) % 509) as i16 - 254))
            .collect();
        let start: Row = std::array::from_fn(|i| (i as i16 * 13) % 300 - 40);
        let (mut dispatched, mut portable) = (start, start);
        update(&mut dispatched, &weights, &[0, 3, 5], &[1, 7]);
        update_portable(&mut portable, &weights, &[0, 3, 5], &[1, 7]);
        assert_eq!(dispatched, portable);
        let limit = crate::nnue::network::MAX_OUTPUT_WEIGHT as usize;
        let output: Row = std::array::from_fn(|i| ((i * 53) % (2 * limit + 1)) as i16 - limit as i16);
        assert_eq!(screlu_dot(&dispatched, &output), dot_portable(&portable, &output));
        // The extremes: every hidden value at its ceiling, every weight at its largest.
        let full: Row = [QA as i16 + 7; HIDDEN];
        for weight in [limit as i16, -(limit as i16)] {
            let output: Row = [weight; HIDDEN];
            assert_eq!(screlu_dot(&full, &output), dot_portable(&full, &output));
            assert_eq!(dot_portable(&full, &output), HIDDEN as i32 * QA * QA * weight as i32);
        }
    }
}
