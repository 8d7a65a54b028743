//! Checks for the training and network files: any bytes either decode or are refused with a
//! typed error; what decodes re-encodes to the same bytes.

use veil::nnue::network::VERSION;
use veil::nnue::{evaluate_from_scratch, Network};
use veil::training::format::{Record, RECORD_SIZE};

/// The first byte picks the reader: a training record or a network file.
pub fn data(data: &[u8]) {
    match data.split_first() {
        Some((&kind, rest)) if kind % 2 == 0 => record(rest),
        Some((_, rest)) => network(rest),
        None => {}
    }
}

/// A 32-byte record: refused, or a position whose record is the same bytes up to the
/// unused nibbles and castling rights the position does not allow.
fn record(data: &[u8]) {
    let mut bytes = [0u8; RECORD_SIZE];
    let n = data.len().min(RECORD_SIZE);
    bytes[..n].copy_from_slice(&data[..n]);
    if let Ok(record) = Record::decode(&bytes) {
        let again = Record::decode(&record.encode()).expect("an encoded record decodes");
        assert_eq!(again, record);
    }
}

/// A network file: refused unless it is exactly one (size, magic, version, shape, base,
/// checksum); a file that reads writes back as the same bytes (a version 1 file as the same
/// network in the current version) and evaluates the start positions without panicking.
fn network(data: &[u8]) {
    if let Ok(network) = Network::from_bytes(data) {
        let written = network.to_bytes();
        if data[8..12] == VERSION.to_le_bytes() {
            assert_eq!(written, data);
        } else {
            let again = Network::from_bytes(&written).expect("a written network reads back");
            assert_eq!(again.to_bytes(), written);
        }
        for position in [
            veil::rules::Position::covered_start(),
            veil::rules::Position::standard_start(),
        ] {
            let _ = evaluate_from_scratch(&network, &position);
        }
    }
}
