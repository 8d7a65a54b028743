//! The network compiled into the binary (`networks/default.nnue`), read once on first use.

use super::Network;
use once_cell::sync::Lazy;
use std::sync::Arc;

static BYTES: &[u8] = include_bytes!("../../networks/default.nnue");

static DEFAULT: Lazy<Arc<Network>> =
    Lazy::new(|| Arc::new(Network::from_bytes(BYTES).expect("the embedded network is a valid network file")));

/// The embedded network.
pub fn default_network() -> Arc<Network> {
    Arc::clone(&DEFAULT)
}
