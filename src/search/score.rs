//! Scores: the internal centipawn scale with its mate band, and the score as UCI shows it.

/// Scores at or beyond this are mates.
pub const MATE: i32 = 32_000;
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The largest score that is not a mate: a decisive material edge.
pub const WIN: i32 = MATE_BOUND - 1;
pub const INFINITY: i32 = MATE + 1;

/// A score as UCI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, with a mate as ±30,000 less its distance (for comparing lines).
    pub fn as_centipawns(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp,
            Score::Mate(n) if n > 0 => 30_000 - n,
            Score::Mate(n) => -30_000 - n,
        }
    }

    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score + 1) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

/// Whether a reported score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}
