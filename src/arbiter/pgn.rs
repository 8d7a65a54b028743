//! PGN (placeholder until the writer lands).
use super::record::GameRecord;
pub fn write_game(record: &GameRecord, _event: &str) -> String {
    format!("[Result \"{}\"]\n\n{}\n", record.result.pgn(), record.result.pgn())
}
