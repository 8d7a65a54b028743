//! Protocol input: the bounded line reader, the command parser, options and `position`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| veil_fuzz::checks::protocol(data));
