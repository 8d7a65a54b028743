//! The two loops inference spends its time in: adding and subtracting weight rows to an
//! accumulator, and the output layer's squared-clipped-ReLU dot product. Each is written
//! once as plain loops over fixed-size arrays, which the compiler vectorises; on x86-64 a
//! second copy is compiled for AVX2 and chosen at run time when the processor has it. The
//! portable copy is the one every other machine runs.

use super::network::{HIDDEN, QA};

type Row = [i16; HIDDEN];

#[inline(always)]
fn update_portable(acc: &mut Row, weights: &[Row], added: &[u16], removed: &[u16]) {
    for &feature in added {
        for (a, w) in acc.iter_mut().zip(weights[feature as usize].iter()) {
            *a = a.wrapping_add(*w);
        }
    }
    for &feature in removed {
        for (a, w) in acc.iter_mut().zip(weights[feature as usize].iter()) {
            *a = a.wrapping_sub(*w);
        }
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

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dot(acc: &Row, weights: &Row) -> i32 {
        super::dot_portable(acc, weights)
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
        assert_eq!(
            screlu_dot(&dispatched, &weights[2]),
            dot_portable(&portable, &weights[2])
        );
    }
}
