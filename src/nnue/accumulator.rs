//! Accumulators: the hidden layer before its activation, one per perspective, and a stack
//! of them for the search.
//!
//! The search makes moves by copy, so the stack keeps, per ply, the accumulator and the
//! [`Snapshot`] it was computed for. To evaluate a position, the nearest usable entry (the
//! ply above, usually the parent, or this ply's last entry, usually a sibling such as
//! another outcome of the same reveal) is brought to the position by the features that
//! differ between the two snapshots: a quiet move changes two, a capture three, a reveal
//! three or four (the covered piece goes, the drawn role comes, a pool count falls).
//! Only beyond [`REFRESH_DISTANCE`] changes is it computed from scratch.

use super::features::Snapshot;
use super::network::{Network, HIDDEN};
use super::simd;
use crate::rules::{Color, Position};

/// Beyond this many changed features, a refresh is cheaper than an update.
pub const REFRESH_DISTANCE: u32 = 24;

/// An entry this near (a move, a capture or a reveal away) is taken without measuring how
/// near the other candidate is.
const NEAR_ENOUGH: u32 = 4;

/// The hidden layer of both perspectives, `[white's, black's]`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub values: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// Computed from scratch.
    pub fn refresh(network: &Network, snapshot: &Snapshot) -> Accumulator {
        let mut accumulator = Accumulator {
            values: [network.feature_bias; 2],
        };
        let mut features = Vec::with_capacity(64);
        for perspective in Color::ALL {
            snapshot.features(perspective, &mut features);
            simd::update(
                &mut accumulator.values[perspective.index()],
                &network.feature_weights,
                &features,
                &[],
            );
        }
        accumulator
    }

    /// Brings an accumulator computed for `from` to `to` (from scratch when they differ by
    /// more than [`MAX_CHANGES`] features).
    pub fn update(&mut self, network: &Network, from: &Snapshot, to: &Snapshot) {
        let mut changes = Changes::default();
        from.diff(to, |added, pair| changes.push(if added { 0 } else { 1 }, pair));
        if changes.overflow {
            *self = Accumulator::refresh(network, to);
            return;
        }
        for perspective in 0..2 {
            simd::update(
                &mut self.values[perspective],
                &network.feature_weights,
                changes.features(0, perspective),
                changes.features(1, perspective),
            );
        }
    }
}

/// Most features an update carries per direction.
pub const MAX_CHANGES: usize = 32;

/// Features that come (direction 0) and go (direction 1), for both perspectives.
#[derive(Default)]
struct Changes {
    features: [[[u16; MAX_CHANGES]; 2]; 2],
    len: [usize; 2],
    overflow: bool,
}

impl Changes {
    fn push(&mut self, direction: usize, pair: [usize; 2]) {
        let len = self.len[direction];
        if len == MAX_CHANGES {
            self.overflow = true;
            return;
        }
        self.features[direction][0][len] = pair[0] as u16;
        self.features[direction][1][len] = pair[1] as u16;
        self.len[direction] = len + 1;
    }

    fn features(&self, direction: usize, perspective: usize) -> &[u16] {
        &self.features[direction][perspective][..self.len[direction]]
    }
}

/// The network's score of `position` from its accumulator, in centipawns for its side to
/// move, by the output layer of its count of pieces ([`Network::bucket_of`]).
pub fn output(network: &Network, accumulator: &Accumulator, position: &Position) -> i32 {
    let side_to_move = position.side_to_move();
    let us = &accumulator.values[side_to_move.index()];
    let them = &accumulator.values[(!side_to_move).index()];
    let layer = &network.outputs[network.bucket_of(position)];
    let sum = simd::screlu_dot(us, &layer.weights[0]) + simd::screlu_dot(them, &layer.weights[1]);
    // In 64 bits: with a fine output scale the product can pass an `i32`'s range.
    let qa = super::network::QA as i64;
    let qb = network.output_scale as i64;
    ((sum as i64 / qa + layer.bias as i64) * super::network::SCALE as i64 / (qa * qb)) as i32
}

/// Scores `position` from scratch (for tests and tools).
pub fn evaluate_from_scratch(network: &Network, position: &Position) -> i32 {
    let accumulator = Accumulator::refresh(network, &Snapshot::of(position));
    output(network, &accumulator, position)
}

struct Entry {
    snapshot: Snapshot,
    accumulator: Accumulator,
    valid: bool,
}

/// One accumulator per ply of the search.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// Updates and refreshes done (for measuring).
    pub updates: u64,
    pub refreshes: u64,
}

impl AccumulatorStack {
    pub fn new(plies: usize) -> AccumulatorStack {
        let empty = Snapshot::of(&Position::standard_start());
        AccumulatorStack {
            entries: (0..plies.max(1))
                .map(|_| Entry {
                    snapshot: empty,
                    accumulator: Accumulator {
                        values: [[0; HIDDEN]; 2],
                    },
                    valid: false,
                })
                .collect(),
            updates: 0,
            refreshes: 0,
        }
    }

    /// Forgets every entry (another network).
    pub fn clear(&mut self) {
        for entry in &mut self.entries {
            entry.valid = false;
        }
    }

    /// Scores `position`, met at `ply`, for its side to move.
    pub fn evaluate(&mut self, network: &Network, position: &Position, ply: usize) -> i32 {
        let slot = ply.min(self.entries.len() - 1);
        let target = Snapshot::of(position);
        let mut best: Option<(usize, u32)> = None;
        for candidate in [slot.checked_sub(1), Some(slot)].into_iter().flatten() {
            let entry = &self.entries[candidate];
            if entry.valid {
                let distance = entry.snapshot.distance(&target);
                if best.is_none_or(|(_, d)| distance < d) {
                    best = Some((candidate, distance));
                }
                // One move from the parent: no sibling is nearer by enough to look.
                if distance <= NEAR_ENOUGH {
                    break;
                }
            }
        }
        match best {
            Some((from, distance)) if distance <= REFRESH_DISTANCE => {
                if from != slot {
                    let (before, rest) = self.entries.split_at_mut(slot);
                    rest[0].accumulator.clone_from(&before[from].accumulator);
                    rest[0].snapshot = before[from].snapshot;
                }
                let entry = &mut self.entries[slot];
                if distance > 0 {
                    entry.accumulator.update(network, &entry.snapshot, &target);
                }
                self.updates += 1;
            }
            _ => {
                self.entries[slot].accumulator = Accumulator::refresh(network, &target);
                self.refreshes += 1;
            }
        }
        let entry = &mut self.entries[slot];
        entry.snapshot = target;
        entry.valid = true;
        output(network, &entry.accumulator, position)
    }
}
