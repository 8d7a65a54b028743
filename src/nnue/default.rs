//! The networks compiled into the binary, each read once on first use:
//! `networks/default.nnue`, the engine's at full strength in covered chess,
//! `networks/plain.nnue`, its plain-chess network (trained on plain chess alone), and
//! `networks/levels.nnue`, the one the weaker levels were tuned with (so that a new default
//! network does not move their Elos; retuning the levels moves them to it).

use super::Network;
use once_cell::sync::Lazy;
use std::sync::Arc;

static BYTES: &[u8] = include_bytes!("../../networks/default.nnue");
static LEVELS_BYTES: &[u8] = include_bytes!("../../networks/levels.nnue");
static PLAIN_BYTES: &[u8] = include_bytes!("../../networks/plain.nnue");

static DEFAULT: Lazy<Arc<Network>> =
    Lazy::new(|| Arc::new(Network::from_bytes(BYTES).expect("the embedded network is a valid network file")));
static PLAIN: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(PLAIN_BYTES).expect("the embedded plain-chess network is a valid network file"))
});
static LEVELS: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(LEVELS_BYTES).expect("the embedded levels' network is a valid network file"))
});

/// The embedded network.
pub fn default_network() -> Arc<Network> {
    Arc::clone(&DEFAULT)
}

/// The embedded plain-chess network.
pub fn plain_network() -> Arc<Network> {
    Arc::clone(&PLAIN)
}

/// The embedded network of the levels whose row says `network`.
pub fn levels_network() -> Arc<Network> {
    Arc::clone(&LEVELS)
}
