//! Labels from a teacher: a network's static evaluation in place of a record's search
//! score, to distil one evaluation into another (`veil train --teacher`).
//!
//! The teacher evaluates as the search does: its base's score plus its own output. A
//! student trained on these labels with `λ = 0` learns to evaluate as the teacher does;
//! a whole network (no base) distilled from a correction (the hand-written evaluation and a
//! network, both at every node) costs one evaluation a node instead of two.

use super::format::Record;
use crate::nnue::{evaluate_from_scratch, Network};
use crate::search::eval::base_score;

/// `record` with `teacher`'s static evaluation of its position, for the side to move, as
/// its score (the result is kept).
pub fn taught(record: &Record, teacher: &Network) -> Record {
    let position = &record.position;
    let cp = base_score(teacher.base, position, false) + evaluate_from_scratch(teacher, position);
    Record {
        score: cp.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
        position: position.clone(),
        ..*record
    }
}
