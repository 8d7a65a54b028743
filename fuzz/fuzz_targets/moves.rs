//! Move parser with reveal suffixes, on a start position picked by the first byte.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| veil_fuzz::checks::moves(data));
