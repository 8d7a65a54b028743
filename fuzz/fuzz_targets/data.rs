//! Training records and network files: any bytes are refused with a typed error or decode to
//! something that encodes back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| veil_fuzz::data::data(data));
