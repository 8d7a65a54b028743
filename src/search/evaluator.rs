//! Which static evaluation a search uses: the learnt network ([`crate::nnue`]) or the
//! hand-written terms ([`super::eval`]).
//!
//! The engine plays with an embedded network where a generation has won its match against
//! the hand-written evaluation, and with the hand-written evaluation elsewhere (see
//! `docs/networks.md`). Covered chess and plain chess have networks of their own
//! ([`default_network`], [`plain_network`]). Which one a search uses is decided once, by its
//! root: a root with nothing left to chance ([`Position::is_plain_chess`]) is plain chess.

use super::eval::{base_score, evaluate};
use super::score::WIN;
use crate::nnue::{default_network, evaluate_from_scratch, plain_network, Base, Network};
use crate::rules::Position;
use std::sync::Arc;

/// Whether the engine plays covered chess with the embedded network unless told otherwise.
pub const NETWORK_IN_COVERED_CHESS: bool = true;
/// Whether the engine plays plain chess with the embedded plain-chess network unless told
/// otherwise.
pub const NETWORK_IN_PLAIN_CHESS: bool = true;

/// A network's evaluation: its `output` added to its `base`'s score, kept off the mate scores.
#[inline]
pub fn with_base(base: i32, output: i32) -> i32 {
    (base + output).clamp(-WIN + 1, WIN - 1)
}

/// A position's static evaluation and its parts, in centipawns for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The network that evaluates the position, if one does: its generation, its base and
    /// its output.
    pub network: Option<(u32, Base, i32)>,
    /// The hand-written part: the whole evaluation without a network, the network's base
    /// with one (none for a whole network).
    pub base: Option<i32>,
    /// The evaluation a search from the position starts from.
    pub total: i32,
}

/// The static evaluation of a search.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The hand-written evaluation everywhere.
    HandWritten,
    /// `network` in covered chess; `plain` in plain chess, or the hand-written evaluation
    /// there if none.
    Network {
        network: Arc<Network>,
        plain: Option<Arc<Network>>,
    },
}

impl Evaluator {
    /// The engine's default ([`NETWORK_IN_COVERED_CHESS`], [`NETWORK_IN_PLAIN_CHESS`]).
    pub fn standard() -> Evaluator {
        if NETWORK_IN_COVERED_CHESS {
            Evaluator::Network {
                network: default_network(),
                plain: NETWORK_IN_PLAIN_CHESS.then(plain_network),
            }
        } else {
            Evaluator::HandWritten
        }
    }

    /// The embedded networks, each in its own variant: the covered-chess network in covered
    /// chess, the plain-chess network in plain chess (what [`Evaluator::standard`] gives with
    /// both constants on).
    pub fn embedded() -> Evaluator {
        Evaluator::Network {
            network: default_network(),
            plain: Some(plain_network()),
        }
    }

    /// `network` in every position, plain chess included.
    pub fn everywhere(network: Arc<Network>) -> Evaluator {
        Evaluator::Network {
            plain: Some(Arc::clone(&network)),
            network,
        }
    }

    /// The network that evaluates a search from `root`, if a network does.
    pub fn network_for(&self, root: &Position) -> Option<&Arc<Network>> {
        match self {
            Evaluator::Network { network, plain } => {
                if root.is_plain_chess() {
                    plain.as_ref()
                } else {
                    Some(network)
                }
            }
            Evaluator::HandWritten => None,
        }
    }

    /// The static evaluation of `position` as a search from it sees it (before a weaker
    /// level's noise and cover misjudgement and the correction history), with its parts.
    pub fn breakdown(&self, position: &Position) -> Breakdown {
        match self.network_for(position) {
            None => {
                let score = evaluate(position);
                Breakdown {
                    network: None,
                    base: Some(score),
                    total: score,
                }
            }
            Some(network) => {
                let base = base_score(network.base, position, false);
                let output = evaluate_from_scratch(network, position);
                Breakdown {
                    network: Some((network.generation, network.base, output)),
                    base: (network.base != Base::Nothing).then_some(base),
                    total: with_base(base, output),
                }
            }
        }
    }

    /// A key naming the evaluation of a search from `root`, for caches of its values (0:
    /// the hand-written one).
    pub fn key_for(&self, root: &Position) -> u64 {
        self.network_for(root).map_or(0, |network| network.checksum | 1)
    }
}
