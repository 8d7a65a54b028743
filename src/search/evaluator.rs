//! Which static evaluation a search uses: the learnt network ([`crate::nnue`]) or the
//! hand-written terms ([`super::eval`]).

use crate::nnue::{default_network, Network};
use std::sync::Arc;

/// Whether the engine plays with the embedded network unless told otherwise. It becomes the
/// default only when a network generation has won its match against the hand-written
/// evaluation (see `docs/networks.md`).
pub const NETWORK_BY_DEFAULT: bool = false;

/// The static evaluation of a search.
#[derive(Clone, Debug)]
pub enum Evaluator {
    HandWritten,
    Network(Arc<Network>),
}

impl Evaluator {
    /// The engine's default: the embedded network or the hand-written evaluation
    /// ([`NETWORK_BY_DEFAULT`]).
    pub fn standard() -> Evaluator {
        if NETWORK_BY_DEFAULT {
            Evaluator::Network(default_network())
        } else {
            Evaluator::HandWritten
        }
    }

    /// The network, if this is one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluator::Network(network) => Some(network),
            Evaluator::HandWritten => None,
        }
    }

    /// A key naming the evaluation, for caches of its values (0: the hand-written one).
    pub fn key(&self) -> u64 {
        self.network().map_or(0, |network| network.checksum | 1)
    }
}
