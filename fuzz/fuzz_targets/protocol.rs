//! Protocol input: the bounded line reader, the command parser, options and `position`.
//! Option values may name hostile files (`$0`..`$9` stand for a FIFO, a directory, a sparse
//! 1 GiB file, links, binary content; see `hostile_files` in fuzz/src/checks.rs) or any path,
//! and the first byte may put the options under operator limits.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| veil_fuzz::checks::protocol(data));
