//! Extended FEN parser: any text is refused with a message or gives a position whose invariants hold.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| veil_fuzz::checks::fen(data));
