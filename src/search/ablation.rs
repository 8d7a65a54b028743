//! Parts of the selective search that a measurement can switch off one at a time
//! (`setoption name Ablate value lmr,nullmove`), so that a match of the engine against itself
//! with one part off says what that part is worth. Every search plays with all of them.

use std::fmt;

/// One switchable part of the selective search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Null-move pruning.
    NullMove,
    /// Late move reductions.
    Lmr,
    /// Reverse futility pruning (static null move).
    ReverseFutility,
    /// Futility pruning of quiet moves.
    Futility,
    /// Late move pruning (move-count pruning of quiet moves).
    LateMovePruning,
    /// Pruning of moves that lose material by static exchange.
    SeePruning,
    /// Internal iterative reduction.
    Iir,
    /// Reveal captures at the first quiescence ply, searched as exact chance nodes (off:
    /// quiescence tries no reveal).
    QuiescenceReveals,
    /// Correction history of the static evaluation by pawn structure.
    Correction,
    /// Capture history in the ordering of captures (off: it learns nothing, so orders by
    /// victim and attacker alone).
    CaptureHistory,
}

impl Feature {
    pub const ALL: [Feature; 10] = [
        Feature::NullMove,
        Feature::Lmr,
        Feature::ReverseFutility,
        Feature::Futility,
        Feature::LateMovePruning,
        Feature::SeePruning,
        Feature::Iir,
        Feature::QuiescenceReveals,
        Feature::Correction,
        Feature::CaptureHistory,
    ];

    /// The name `Ablate` takes.
    pub fn name(self) -> &'static str {
        match self {
            Feature::NullMove => "nullmove",
            Feature::Lmr => "lmr",
            Feature::ReverseFutility => "rfp",
            Feature::Futility => "futility",
            Feature::LateMovePruning => "lmp",
            Feature::SeePruning => "see",
            Feature::Iir => "iir",
            Feature::QuiescenceReveals => "qreveals",
            Feature::Correction => "correction",
            Feature::CaptureHistory => "caphist",
        }
    }

    fn bit(self) -> u16 {
        1 << self as u8
    }
}

/// The set of features switched off (empty: the engine as it plays).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ablation(u16);

/// A feature name `Ablate` does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFeature(pub String);

impl fmt::Display for UnknownFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
        write!(f, "unknown feature '{}' (known: {})", self.0, names.join(", "))
    }
}

impl Ablation {
    /// Parses a comma-separated list of feature names; empty, `none` and `<empty>` switch
    /// nothing off.
    pub fn parse(text: &str) -> Result<Ablation, UnknownFeature> {
        let mut set = Ablation::default();
        for word in text.split(',').map(str::trim) {
            if word.is_empty() || word.eq_ignore_ascii_case("none") || word == "<empty>" {
                continue;
            }
            let feature = Feature::ALL
                .into_iter()
                .find(|f| f.name().eq_ignore_ascii_case(word))
                .ok_or_else(|| UnknownFeature(word.to_string()))?;
            set.0 |= feature.bit();
        }
        Ok(set)
    }

    /// Whether `feature` is in use (not switched off).
    #[inline]
    pub fn uses(self, feature: Feature) -> bool {
        self.0 & feature.bit() == 0
    }
}

impl fmt::Display for Ablation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Feature::ALL
            .into_iter()
            .filter(|&feature| !self.uses(feature))
            .map(Feature::name)
            .collect();
        write!(f, "{}", names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_a_list() {
        let set = Ablation::parse(" lmr, NullMove ").unwrap();
        assert!(!set.uses(Feature::Lmr) && !set.uses(Feature::NullMove));
        assert!(set.uses(Feature::Iir));
        assert_eq!(set.to_string(), "nullmove,lmr");
        assert_eq!(Ablation::parse("").unwrap(), Ablation::default());
        assert_eq!(Ablation::parse("none").unwrap(), Ablation::default());
        assert_eq!(Ablation::parse("lmr,bogus"), Err(UnknownFeature("bogus".into())));
    }
}
