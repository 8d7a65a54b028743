//! Rules core: a game picked by the bytes, every invariant checked at every ply.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| veil_fuzz::checks::rules(data));
