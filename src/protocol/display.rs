//! The `d` command: the board with covered pieces as `?` and their cover, both pools with
//! the reveal odds, the extended FEN, the hash key and the checkers; and the `eval` command:
//! the static evaluation and its parts.

use crate::nnue::Base;
use crate::rules::{cover, Color, Piece, Position, Role, Square};
use crate::search::Breakdown;
use std::fmt::Write as _;

fn cell(position: &Position, square: Square) -> String {
    match position.piece_at(square) {
        None => "   ".to_string(),
        Some(Piece::Revealed { color, role }) => {
            let c = if color == Color::White {
                role.upper_char()
            } else {
                role.char()
            };
            format!(" {c} ")
        }
        Some(Piece::Covered { color }) => {
            let role = cover(square).unwrap_or(Role::Pawn);
            let c = if color == Color::White {
                role.upper_char()
            } else {
                role.char()
            };
            format!("?{c} ")
        }
    }
}

/// One line per pool: counts and the chance of each role at the next reveal.
pub fn pool_lines(position: &Position) -> String {
    let mut text = String::new();
    for (color, name) in [(Color::White, "White"), (Color::Black, "Black")] {
        let pool = position.pool(color);
        let covered = (position.covered() & position.pieces(color)).count();
        let _ = write!(text, "{name} pool: ");
        if pool.is_empty() {
            text.push_str("empty");
        } else {
            let parts: Vec<String> = Role::POOL_ORDER
                .iter()
                .filter(|&&role| pool.count(role) > 0)
                .map(|&role| {
                    format!(
                        "{}{} ({:.1}%)",
                        role.upper_char(),
                        pool.count(role),
                        100.0 * pool.probability(role)
                    )
                })
                .collect();
            text.push_str(&parts.join(" "));
        }
        let _ = writeln!(text, "; {} in pool, {covered} covered on the board", pool.total());
    }
    text
}

/// The full `d` output, lines ending in `\n`.
pub fn render(position: &Position) -> String {
    let mut text = String::new();
    let border = " +---+---+---+---+---+---+---+---+\n";
    text.push('\n');
    text.push_str(border);
    for rank in (0..8).rev() {
        text.push_str(" |");
        for file in 0..8 {
            text.push_str(&cell(position, Square::from_coords(file, rank)));
            text.push('|');
        }
        let _ = writeln!(text, " {}", rank + 1);
        text.push_str(border);
    }
    text.push_str("   a   b   c   d   e   f   g   h\n\n");
    text.push_str("Covered pieces show as ? and the piece they move as (upper case white).\n");
    text.push_str(&pool_lines(position));
    let _ = writeln!(text, "Fen: {}", position.to_fen());
    let _ = writeln!(text, "Key: {:016X}", position.hash());
    text.push_str("Checkers:");
    for square in position.checkers() {
        let _ = write!(text, " {square}");
    }
    text.push('\n');
    text
}

/// Centipawns for the side to move of `position` as pawns for White: `+0.35`.
fn white_pawns(position: &Position, score: i32) -> String {
    let white = score * position.side_to_move().sign();
    format!("{:+.2}", f64::from(white) / 100.0)
}

/// The `eval` output, lines ending in `\n`: the hand-written part, the network's output and
/// their sum, each in pawns from White's side. As Stockfish's, the final line says `none`
/// when the side to move is in check (the search does not stand on a static evaluation there).
pub fn evaluation(position: &Position, breakdown: &Breakdown) -> String {
    let mut text = String::new();
    let base_name = match breakdown.network {
        Some((_, Base::Material, _)) => "Material part of the hand-written evaluation",
        _ => "Hand-written evaluation",
    };
    if let Some(base) = breakdown.base {
        let _ = writeln!(text, "{base_name}: {} (white side)", white_pawns(position, base));
    }
    if let Some((generation, base, output)) = breakdown.network {
        let role = match base {
            Base::Nothing => "the whole evaluation",
            Base::HandWritten | Base::Material => "a correction added to it",
        };
        // Plain chess has a network of its own, numbered on its own ("plain 5").
        let variant = if position.is_plain_chess() { "plain chess, " } else { "" };
        let _ = writeln!(
            text,
            "Network ({variant}generation {generation}, {role}): {} (white side)",
            white_pawns(position, output)
        );
    }
    if position.is_check() {
        text.push_str("Final evaluation: none (in check)\n");
    } else {
        let _ = writeln!(
            text,
            "Final evaluation: {} (white side)",
            white_pawns(position, breakdown.total)
        );
    }
    text
}
