//! Which game is played: plain chess, or covered chess from its covered start.

use super::Position;

/// Plain chess or covered chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Chess,
    Covered,
}

impl Variant {
    /// The name used in `UCI_Variant`, on the command line and in the PGN `Variant` tag.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Covered => "covered",
        }
    }

    /// The variant's start position.
    pub fn start_position(self) -> Position {
        match self {
            Variant::Chess => Position::standard_start(),
            Variant::Covered => Position::covered_start(),
        }
    }
}
