//! Extended FEN input: every malformed FEN is rejected with the error that names its fault,
//! canonical FENs survive a round trip, and no input (FEN or move text) makes the parser panic.

mod common;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::panic::{catch_unwind, AssertUnwindSafe};
use veil::rules::{Color, FenError, Position, Square, UciMove, COVERED_START_FEN, STANDARD_START_FEN};

fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

/// Parses `fen` inside `catch_unwind`, so a panic is reported as a failure of this FEN.
fn parse(fen: &str) -> Result<Position, FenError> {
    match catch_unwind(AssertUnwindSafe(|| Position::from_fen(fen))) {
        Ok(result) => result,
        Err(_) => panic!("from_fen panicked on {fen:?}"),
    }
}

/// Asserts that `fen` is rejected with an error matching the pattern, and that the error has
/// a message.
macro_rules! rejects {
    ($fen:expr, $pattern:pat) => {
        rejects!($fen, $pattern if true)
    };
    ($fen:expr, $pattern:pat if $guard:expr) => {{
        let fen: &str = $fen;
        match parse(fen) {
            Err(error) => {
                assert!(
                    matches!(error, $pattern if $guard),
                    "{fen:?}: expected {}, got {error:?}",
                    stringify!($pattern)
                );
                assert!(!error.to_string().is_empty());
            }
            Ok(position) => panic!("{fen:?} accepted as {}", position.to_fen()),
        }
    }};
}

// ----- malformed FENs, one fault each ------------------------------------------------------

#[test]
fn empty_input() {
    rejects!("", FenError::Empty);
    rejects!("   \t  \n", FenError::Empty);
}

#[test]
fn wrong_field_count() {
    rejects!("4k3/8/8/8/8/8/8/4K3", FenError::FieldCount(1));
    rejects!("4k3/8/8/8/8/8/8/4K3 w", FenError::FieldCount(2));
    rejects!("4k3/8/8/8/8/8/8/4K3 w -", FenError::FieldCount(3));
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - extra", FenError::FieldCount(8));
}

#[test]
fn wrong_rank_count() {
    rejects!("4k3/8/8/8/8/8/4K3 w - - 0 1", FenError::RankCount(7));
    rejects!("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", FenError::RankCount(9));
}

#[test]
fn wrong_rank_length() {
    rejects!(
        "4k4/8/8/8/8/8/8/4K3 w - - 0 1",
        FenError::RankLength { rank: 7, squares: 9 }
    );
    rejects!(
        "4k3/8/8/7/8/8/8/4K3 w - - 0 1",
        FenError::RankLength { rank: 4, squares: 7 }
    );
    rejects!(
        "4k3/9/8/8/8/8/8/4K3 w - - 0 1",
        FenError::RankLength { rank: 6, squares: 9 }
    );
    rejects!(
        "4k3/8/8//8/8/8/4K3 w - - 0 1",
        FenError::RankLength { rank: 4, squares: 0 }
    );
}

#[test]
fn bad_piece_characters() {
    rejects!("4k3/8/8/3z4/8/8/8/4K3 w - - 0 1", FenError::BadPieceChar('z'));
    rejects!("4k3/8/8/08/8/8/8/4K3 w - - 0 1", FenError::BadPieceChar('0'));
    rejects!("4k3/8/8/3\u{e9}4/8/8/8/4K3 w - - 0 1", FenError::BadPieceChar('\u{e9}'));
    rejects!("4k3/8/8/3Y4/8/8/8/4K3 w - - 0 1", FenError::BadPieceChar('Y'));
}

#[test]
fn consecutive_digits() {
    rejects!(
        "4k3/8/8/44/8/8/8/4K3 w - - 0 1",
        FenError::ConsecutiveDigits { rank: 4 }
    );
    rejects!(
        "4k3/8/8/8/8/8/8/K115 w - - 0 1",
        FenError::ConsecutiveDigits { rank: 0 }
    );
}

#[test]
fn covered_piece_off_its_start_squares() {
    rejects!(
        "4k3/8/8/8/8/8/8/K3X3 w - - 0 1 P1",
        FenError::CoveredOffStartSquare { color: Color::White, square } if square == sq("e1")
    );
    rejects!(
        "4k3/8/8/8/8/X7/8/4K3 w - - 0 1 P1",
        FenError::CoveredOffStartSquare { color: Color::White, square } if square == sq("a3")
    );
    rejects!(
        "4k3/X7/8/8/8/8/8/4K3 w - - 0 1 P1",
        FenError::CoveredOffStartSquare { color: Color::White, square } if square == sq("a7")
    );
    rejects!(
        "k3x3/8/8/8/8/8/8/4K3 b - - 0 1 p1",
        FenError::CoveredOffStartSquare { color: Color::Black, square } if square == sq("e8")
    );
    rejects!(
        "4k3/8/8/8/8/8/x7/4K3 w - - 0 1 p1",
        FenError::CoveredOffStartSquare { color: Color::Black, square } if square == sq("a2")
    );
}

#[test]
fn king_counts() {
    rejects!(
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        FenError::KingCount {
            color: Color::White,
            count: 0
        }
    );
    rejects!(
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        FenError::KingCount {
            color: Color::White,
            count: 2
        }
    );
    rejects!(
        "4k2k/8/8/8/8/8/8/4K3 w - - 0 1",
        FenError::KingCount {
            color: Color::Black,
            count: 2
        }
    );
    rejects!(
        "8/8/8/8/8/8/8/4K3 b - - 0 1",
        FenError::KingCount {
            color: Color::Black,
            count: 0
        }
    );
}

#[test]
fn too_many_pieces() {
    rejects!(
        "4k3/8/8/8/8/P7/PPPPPPPP/RNBQKBNR w - - 0 1",
        FenError::TooManyPieces {
            color: Color::White,
            count: 17
        }
    );
}

#[test]
fn pawn_on_its_promotion_rank() {
    rejects!(
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        FenError::PawnOnPromotionRank { color: Color::White, square } if square == sq("a8")
    );
    rejects!(
        "4k3/8/8/8/8/8/8/4K2p w - - 0 1",
        FenError::PawnOnPromotionRank { color: Color::Black, square } if square == sq("h1")
    );
}

#[test]
fn bad_side_to_move() {
    rejects!("4k3/8/8/8/8/8/8/4K3 x - - 0 1", FenError::BadSideToMove(ref s) if s == "x");
    rejects!("4k3/8/8/8/8/8/8/4K3 W - - 0 1", FenError::BadSideToMove(ref s) if s == "W");
}

#[test]
fn bad_castling_field() {
    rejects!("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", FenError::BadCastling(ref s) if s == "KK");
    rejects!("r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", FenError::BadCastling(_));
    rejects!("r3k2r/8/8/8/8/8/8/R3K2R w A - 0 1", FenError::BadCastling(ref s) if s == "A");
}

#[test]
fn castling_without_king_and_corner_piece() {
    rejects!("4k3/8/8/8/8/8/8/4K3 w K - 0 1", FenError::CastlingWithoutPieces('K'));
    rejects!("r2k4/8/8/8/8/8/8/4K3 w q - 0 1", FenError::CastlingWithoutPieces('q'));
    // A knight is no castling partner, and neither is a piece of the other side.
    rejects!("4k3/8/8/8/8/8/8/N3K3 w Q - 0 1", FenError::CastlingWithoutPieces('Q'));
    rejects!("4k2R/8/8/8/8/8/8/4K3 b k - 0 1", FenError::CastlingWithoutPieces('k'));
    // A covered corner piece is fine, but only in the corner.
    rejects!(
        "4k3/8/8/8/8/8/7X/4K3 w K - 0 1 R1",
        FenError::CastlingWithoutPieces('K')
    );
}

#[test]
fn bad_en_passant_field() {
    rejects!("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", FenError::BadEnPassant(ref s) if s == "e3");
    rejects!("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", FenError::BadEnPassant(ref s) if s == "z9");
    rejects!("4k3/8/8/8/8/8/8/4K3 b - e", FenError::BadEnPassant(ref s) if s == "e");
}

#[test]
fn en_passant_square_without_a_double_step() {
    rejects!("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", FenError::EnPassantImpossible(s) if s == sq("e6"));
    rejects!("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", FenError::EnPassantImpossible(s) if s == sq("e6"));
    rejects!("4k3/8/8/4n3/8/8/8/4K3 w - e6 0 1", FenError::EnPassantImpossible(s) if s == sq("e6"));
    // A pawn of the side to move is not one that just advanced.
    rejects!("4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1", FenError::EnPassantImpossible(s) if s == sq("e6"));
}

#[test]
fn bad_clocks() {
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - -1 1", FenError::BadHalfmoveClock(ref s) if s == "-1");
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - x 1", FenError::BadHalfmoveClock(ref s) if s == "x");
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - 10001 1", FenError::BadHalfmoveClock(_));
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - 0 0", FenError::BadFullmoveNumber(ref s) if s == "0");
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - 0 abc", FenError::BadFullmoveNumber(ref s) if s == "abc");
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - 0 100001", FenError::BadFullmoveNumber(_));
}

#[test]
fn bad_pool_field() {
    let board = "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1";
    rejects!(&format!("{board} Q1R"), FenError::BadPoolField(_));
    rejects!(&format!("{board} K1Q1R2B2N2P8q1r2b2n2p8"), FenError::BadPoolField(_));
    rejects!(&format!("{board} Z1"), FenError::BadPoolField(_));
    rejects!(&format!("{board} Q123"), FenError::BadPoolField(_));
    rejects!(&format!("{board} 1Q"), FenError::BadPoolField(_));
    // Five fields: an alphabetic fifth field is a pool.
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - Q", FenError::BadPoolField(_));
}

#[test]
fn pool_role_listed_twice() {
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q1Q1", FenError::PoolRoleTwice('Q'));
    rejects!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 p1P1p0", FenError::PoolRoleTwice('p'));
}

#[test]
fn pool_count_above_the_start_pool() {
    rejects!(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q2",
        FenError::PoolCountTooLarge { role: 'Q', count: 2 }
    );
    rejects!(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 p9",
        FenError::PoolCountTooLarge { role: 'p', count: 9 }
    );
    rejects!(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 N3",
        FenError::PoolCountTooLarge { role: 'N', count: 3 }
    );
}

#[test]
fn covered_pieces_need_a_pool() {
    rejects!(
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1",
        FenError::CoveredWithoutPool
    );
    rejects!(
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq -",
        FenError::CoveredWithoutPool
    );
    rejects!(
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 -",
        FenError::PoolSmallerThanCovered {
            color: Color::White,
            pool: 0,
            covered: 15
        }
    );
    rejects!(
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P7q1r2b2n2p8",
        FenError::PoolSmallerThanCovered {
            color: Color::White,
            pool: 14,
            covered: 15
        }
    );
    rejects!(
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8",
        FenError::PoolSmallerThanCovered {
            color: Color::Black,
            pool: 0,
            covered: 15
        }
    );
}

#[test]
fn side_not_to_move_in_check() {
    rejects!("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", FenError::OpponentInCheck);
    // Covered pieces attack as their cover: the rook cover on a8 attacks a1.
    rejects!("x3k3/8/8/8/8/8/8/K7 b - - 0 1 r1", FenError::OpponentInCheck);
    // The pawn cover on d7 attacks e6.
    rejects!("4k3/3x4/4K3/8/8/8/8/8 b - - 0 1 p1", FenError::OpponentInCheck);
}

#[test]
fn three_checkers() {
    rejects!("k3r3/8/8/8/1b6/3n4/8/4K3 w - - 0 1", FenError::TooManyCheckers(3));
}

// ----- accepted FENs ---------------------------------------------------------------------

/// FENs already in canonical form: they come back unchanged.
const CANONICAL: &[&str] = &[
    COVERED_START_FEN,
    STANDARD_START_FEN,
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // A legal en passant capture (d4xe3) keeps its square.
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
    // Covered pieces with an en passant square (g4xf3).
    "1p1x1xx1/1xxkx3/p1pP1r1b/1P4B1/P3nPpB/8/X1X1X1XX/4KXXX b K f3 0 16 Q1R1N2P4q1r1b1n1p2",
    "x2xk1xx/2xp2x1/ppr4p/1N3n2/1p2P3/2P2P1B/XXXX2X1/X1XXK2X w KQkq - 0 9 Q1R2B1P5q1r1b2n1p2",
    "5n2/x3p2k/pp2p3/4Pn2/7p/P1R2Q1P/1P2P2X/4K2X w K - 0 26 R1P1r1b1p1",
    // Only Black has a pool.
    "k7/4x3/8/3P4/8/8/8/7K b - - 0 1 q1p1",
    // Pools with nothing covered (every covered piece was captured).
    "4k3/8/8/8/8/8/8/4K3 w - - 12 40 Q1r2",
    // Revealed pawns on their own back ranks.
    "5p1k/8/8/8/8/8/8/K1P5 w - - 0 1",
    // Castling rights with covered corners only on one side.
    "x3k3/8/8/8/8/8/8/4K2X b Kq - 3 7 R1n1",
    // Side to move in double check.
    "4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1",
];

#[test]
fn canonical_fens_round_trip() {
    for &fen in CANONICAL {
        let position = parse(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(position.to_fen(), fen);
        assert_eq!(position.to_string(), fen);
        let again = parse(&position.to_fen()).expect("reparse");
        assert_eq!(again, position, "{fen}");
        assert_eq!(again.hash(), position.hash());
    }
}

#[test]
fn start_positions_match_their_constructors() {
    assert_eq!(parse(COVERED_START_FEN).unwrap(), Position::covered_start());
    assert_eq!(parse(STANDARD_START_FEN).unwrap(), Position::standard_start());
    assert_eq!(Position::covered_start().to_fen(), COVERED_START_FEN);
    assert_eq!(Position::standard_start().to_fen(), STANDARD_START_FEN);
}

/// Inputs accepted in other spellings come out in canonical form.
#[test]
fn accepted_spellings_are_canonicalised() {
    let cases = [
        // Four fields: clocks 0 1.
        ("4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        // Five fields: a pool, or the halfmove clock.
        (
            "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - Q1R2B2N2P8q1r2b2n2p8",
            COVERED_START_FEN,
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 7", "4k3/8/8/8/8/8/8/4K3 w - - 7 1"),
        // Pool roles in any order, zero counts, '-' for empty pools.
        (
            "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 p8n2P8N2B2b2R2r2q1Q1",
            COVERED_START_FEN,
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q0p0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        // Castling letters in any order.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ),
        // An en passant square with no legal capture is dropped: b5xc6 would expose a5.
        ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1"),
        // ... and so is one no pawn can use.
        ("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"),
        // Extra white space between fields.
        (
            "  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1 ",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ),
    ];
    for (input, expected) in cases {
        let position = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(position.to_fen(), expected, "{input}");
        assert_eq!(parse(expected).unwrap(), position, "{input}");
    }
}

// ----- no panics on garbage --------------------------------------------------------------

const FEN_ALPHABET: &[u8] = b"pnbrqkxPNBRQKX0123456789/ -wbKQkqacdefgh=+\t";

fn random_string(rng: &mut Xoshiro256PlusPlus, alphabet: &[u8], max_len: usize) -> String {
    let len = rng.gen_range(0..=max_len);
    let mut text: String = (0..len)
        .map(|_| alphabet[rng.gen_range(0..alphabet.len())] as char)
        .collect();
    // Now and then a character from outside ASCII.
    if rng.gen_bool(0.05) {
        let at = rng.gen_range(0..=text.chars().count());
        let byte_index = text.char_indices().nth(at).map_or(text.len(), |(i, _)| i);
        let c = ['\u{e9}', '\u{2013}', '\u{1f600}', '\0', '\u{663}'][rng.gen_range(0..5)];
        text.insert(byte_index, c);
    }
    text
}

fn mutate(rng: &mut Xoshiro256PlusPlus, fen: &str) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    for _ in 0..rng.gen_range(1..=3) {
        let choice = rng.gen_range(0..7);
        let at = if chars.is_empty() {
            0
        } else {
            rng.gen_range(0..chars.len())
        };
        let random_char = FEN_ALPHABET[rng.gen_range(0..FEN_ALPHABET.len())] as char;
        match choice {
            0 if !chars.is_empty() => chars[at] = random_char,
            1 if !chars.is_empty() => {
                chars.remove(at);
            }
            2 => chars.insert(at.min(chars.len()), random_char),
            3 => chars.truncate(at),
            4 | 5 => {
                // Swap or duplicate whole fields.
                let text: String = chars.iter().collect();
                let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
                let i = rng.gen_range(0..fields.len());
                let j = rng.gen_range(0..fields.len());
                if choice == 4 {
                    fields.swap(i, j);
                } else {
                    let field = fields[i].clone();
                    fields.insert(j, field);
                }
                chars = fields.join(" ").chars().collect();
            }
            _ => {
                // Swap two squares' worth of board text.
                if chars.len() > 2 {
                    let other = rng.gen_range(0..chars.len());
                    chars.swap(at, other);
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Parses `text` as a FEN; if it is accepted, its FEN must round-trip and its moves must
/// generate and parse back. Returns whether it was accepted.
fn exercise_fen(text: &str) -> bool {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let Ok(position) = Position::from_fen(text) else {
            return false;
        };
        let fen = position.to_fen();
        let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{text:?} -> {fen:?} rejected: {e}"));
        assert_eq!(again, position, "{text:?}");
        assert_eq!(again.to_fen(), fen);
        assert_eq!(position.hash(), position.compute_hash());
        for &m in position.legal_moves().iter() {
            let text = m.to_string();
            let _ = position.parse_uci_move(&text);
            let _ = position.parse_played_move(&text);
            let _ = position.parse_played_move(&format!("{text}=P"));
            let _ = position.parse_played_move(&format!("{text}=q"));
        }
        true
    }));
    match outcome {
        Ok(accepted) => accepted,
        Err(_) => panic!("panic while handling {text:?}"),
    }
}

fn seed_fens() -> Vec<String> {
    let mut fens: Vec<String> = CANONICAL.iter().map(|s| s.to_string()).collect();
    fens.extend(common::suite_fens());
    fens
}

#[test]
fn random_strings_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_f0e1);
    for _ in 0..3000 {
        let text = random_string(&mut rng, FEN_ALPHABET, 90);
        exercise_fen(&text);
    }
    // Random boards written as FEN, with valid tails: many are accepted, so the move
    // generator and the move parser run on odd but legal setups too.
    let mut accepted = 0;
    let total = 3000;
    for _ in 0..total {
        let tail = [
            "w - - 0 1",
            "b - - 0 1",
            "w - - 0 1 Q1R2B2N2P8q1r2b2n2p8",
            "b - - 3 9 P8p8",
            "w - - 0 1 N1p1",
        ][rng.gen_range(0..5)];
        if exercise_fen(&format!("{} {tail}", random_board(&mut rng))) {
            accepted += 1;
        }
    }
    assert!(accepted > total / 10, "{accepted} of {total} random boards accepted");
}

/// A random board in FEN: both kings (nearly always), a few random pieces, covered pieces
/// mostly on covered start squares.
fn random_board(rng: &mut Xoshiro256PlusPlus) -> String {
    let mut squares = [None::<char>; 64];
    let mut place = |rng: &mut Xoshiro256PlusPlus, c: char| {
        let at = rng.gen_range(0..64);
        if squares[at].is_none() {
            squares[at] = Some(c);
        }
    };
    if rng.gen_bool(0.97) {
        place(rng, 'K');
    }
    if rng.gen_bool(0.97) {
        place(rng, 'k');
    }
    for _ in 0..rng.gen_range(0..10) {
        let c = b"PNBRQpnbrq"[rng.gen_range(0..10)] as char;
        place(rng, c);
    }
    for _ in 0..rng.gen_range(0..4) {
        let white = rng.gen_bool(0.5);
        let at = match (white, rng.gen_bool(0.9)) {
            (true, true) => [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15][rng.gen_range(0..15)],
            (false, true) => 63 - [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15][rng.gen_range(0..15)],
            _ => rng.gen_range(0..64),
        };
        if squares[at].is_none() {
            squares[at] = Some(if white { 'X' } else { 'x' });
        }
    }
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        text.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    text.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push(char::from(b'0' + empty));
        }
        ranks.push(text);
    }
    ranks.join("/")
}

#[test]
fn mutated_fens_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xfe11_0b57);
    let seeds = seed_fens();
    let mut accepted = 0;
    let total = 5000;
    for _ in 0..total {
        let seed = &seeds[rng.gen_range(0..seeds.len())];
        let text = mutate(&mut rng, seed);
        if exercise_fen(&text) {
            accepted += 1;
        }
    }
    // Both paths get exercised: some mutations are harmless, most are not.
    eprintln!("mutated FENs accepted: {accepted} of {total}");
    assert!(
        accepted > total / 50 && accepted < total * 9 / 10,
        "{accepted} of {total} accepted"
    );
}

#[test]
fn random_move_texts_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x0c1_0e5);
    let positions: Vec<Position> = seed_fens().iter().filter_map(|f| Position::from_fen(f).ok()).collect();
    let alphabet = b"abcdefghijklmnopqrstuvwxyz12345678900=QRBNPKqrbnpkX-+ ";
    for i in 0..6000 {
        let text = if i % 3 == 0 {
            // Near-moves: square pairs with random tails.
            let from = Square::new(rng.gen_range(0..64));
            let to = Square::new(rng.gen_range(0..64));
            let tail = random_string(&mut rng, b"qrbnkpQRBNKP=x", 3);
            format!("{from}{to}{tail}")
        } else {
            random_string(&mut rng, alphabet, 12)
        };
        let position = &positions[rng.gen_range(0..positions.len())];
        let result = catch_unwind(AssertUnwindSafe(|| {
            let parsed = UciMove::parse(&text);
            if let Ok(parsed) = parsed {
                assert_ne!(parsed.from, parsed.to);
            }
            let _ = position.parse_played_move(&text);
            let _ = position.parse_uci_move(&text);
        }));
        assert!(result.is_ok(), "panic on move text {text:?} in {}", position.to_fen());
    }
}

#[test]
fn move_syntax() {
    let ok = |text: &str| UciMove::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let m = ok("e2e4");
    assert_eq!((m.from, m.to, m.promotion, m.reveal), (sq("e2"), sq("e4"), None, None));
    let m = ok("e7e8q=P");
    assert_eq!(m.promotion, Some(veil::rules::Role::Queen));
    assert_eq!(m.reveal, Some(veil::rules::Role::Pawn));
    let m = ok("g1f3=n");
    assert_eq!(m.reveal, Some(veil::rules::Role::Knight));
    for bad in [
        "",
        "e2",
        "e2e",
        "e2e9",
        "i2e4",
        "e2e4=",
        "e2e4=K",
        "e2e4=NN",
        "e2e4k",
        "e2e4p",
        "e7e8qq",
        "e2e2",
        "e2e4 ",
        "E2E4",
        "e2e4==N",
        "=N",
        "\u{e9}2e4",
    ] {
        assert!(UciMove::parse(bad).is_err(), "{bad:?} accepted");
    }
}
