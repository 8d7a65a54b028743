//! A slow, independent statement of the move rules (RULES.md §2–6) for the fuzz checks: a
//! board of 64 squares read off the position, attacks found by walking one square at a time,
//! candidate moves filtered by playing them on a copy of the board and looking for an
//! attack on the mover's king. It shares nothing with the engine's move generator (no
//! bitboards, no attack tables, no pins); it reads only the position's squares, pools,
//! rights and en passant square.

use veil::rules::{cover, Castling, Color, Piece, Position, Role, Square};

/// What stands on each square, a1 = 0 .. h8 = 63.
pub type Board = [Option<Piece>; 64];

/// A move as (from, to, promotion), the way the engine's moves are compared with these.
pub type Triple = (usize, usize, Option<Role>);

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const LINES: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The board of `position`.
pub fn board(position: &Position) -> Board {
    let mut board = [None; 64];
    for (index, square) in board.iter_mut().enumerate() {
        *square = position.piece_at(Square::new(index as u8));
    }
    board
}

/// The square `(df, dr)` away from `square`, if on the board.
pub fn step(square: usize, df: i32, dr: i32) -> Option<usize> {
    let file = (square % 8) as i32 + df;
    let rank = (square / 8) as i32 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then_some((rank * 8 + file) as usize)
}

/// +1 for White (towards rank 8), -1 for Black.
pub fn forward(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// The rank (0..8) a side's pawns promote on.
pub fn last_rank(color: Color) -> usize {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// What the piece on `square` moves as: its role, or the cover of its square if covered.
pub fn moves_as(piece: Piece, square: usize) -> Role {
    match piece {
        Piece::Revealed { role, .. } => role,
        Piece::Covered { .. } => cover(Square::new(square as u8)).expect("a covered piece off its start squares"),
    }
}

fn color_at(board: &Board, square: usize) -> Option<Color> {
    board[square].map(Piece::color)
}

/// The squares a `role` of `color` on `from` attacks (for a pawn: its two diagonals).
fn attacked_squares(board: &Board, from: usize, role: Role, color: Color) -> Vec<usize> {
    let jumps = |deltas: &[(i32, i32)]| deltas.iter().filter_map(|&(df, dr)| step(from, df, dr)).collect();
    let rays = |directions: &[(i32, i32)]| {
        let mut squares = Vec::new();
        for &(df, dr) in directions {
            let mut at = from;
            while let Some(next) = step(at, df, dr) {
                squares.push(next);
                if board[next].is_some() {
                    break;
                }
                at = next;
            }
        }
        squares
    };
    match role {
        Role::Pawn => jumps(&[(1, forward(color)), (-1, forward(color))]),
        Role::Knight => jumps(&KNIGHT),
        Role::King => jumps(&KING),
        Role::Bishop => rays(&DIAGONALS),
        Role::Rook => rays(&LINES),
        Role::Queen => [rays(&DIAGONALS), rays(&LINES)].concat(),
    }
}

/// Whether a `role` of `color` on `from` attacks `target`: the geometry of its move, and
/// for sliders every square strictly between empty.
fn attacks(board: &Board, from: usize, role: Role, color: Color, target: usize) -> bool {
    let df = (target % 8) as i32 - (from % 8) as i32;
    let dr = (target / 8) as i32 - (from / 8) as i32;
    let clear = || {
        let (sf, sr) = (df.signum(), dr.signum());
        let mut at = step(from, sf, sr).expect("on the way to the target");
        while at != target {
            if board[at].is_some() {
                return false;
            }
            at = step(at, sf, sr).expect("on the way to the target");
        }
        true
    };
    let diagonal = df != 0 && df.abs() == dr.abs();
    let straight = (df == 0) != (dr == 0);
    match role {
        Role::Pawn => dr == forward(color) && df.abs() == 1,
        Role::Knight => (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1),
        Role::King => df.abs().max(dr.abs()) == 1,
        Role::Bishop => diagonal && clear(),
        Role::Rook => straight && clear(),
        Role::Queen => (diagonal || straight) && clear(),
    }
}

/// Whether any piece of `by` attacks `square`.
pub fn attacked(board: &Board, square: usize, by: Color) -> bool {
    (0..64).any(|from| match board[from] {
        Some(piece) if piece.color() == by => attacks(board, from, moves_as(piece, from), by, square),
        _ => false,
    })
}

fn king_square(board: &Board, color: Color) -> usize {
    (0..64)
        .find(|&s| {
            board[s]
                == Some(Piece::Revealed {
                    color,
                    role: Role::King,
                })
        })
        .expect("a king")
}

/// Whether the side to move of `position` is in check, by the slow board.
pub fn in_check(position: &Position) -> bool {
    let board = board(position);
    let us = position.side_to_move();
    attacked(&board, king_square(&board, us), !us)
}

/// A candidate move's effect on the board, enough to judge the mover's king safety.
struct Candidate {
    from: usize,
    to: usize,
    promotion: Option<Role>,
    /// The square of a pawn taken en passant.
    en_passant_victim: Option<usize>,
    /// The corner piece's move when castling.
    castling_rook: Option<(usize, usize)>,
}

fn leaves_king_safe(board: &Board, us: Color, candidate: &Candidate) -> bool {
    let mut after = *board;
    let mover = after[candidate.from].take();
    if let Some(victim) = candidate.en_passant_victim {
        after[victim] = None;
    }
    after[candidate.to] = mover;
    if let Some((corner, corner_to)) = candidate.castling_rook {
        after[corner_to] = after[corner].take();
    }
    // The mover's own role, whatever the reveal, cannot attack its own king (RULES §3), so
    // the piece is left as it was: only the other side's attacks are looked at.
    !attacked(&after, king_square(&after, us), !us)
}

/// Every legal move of `position`, found the slow way.
pub fn legal_moves(position: &Position) -> Vec<Triple> {
    let board = board(position);
    let us = position.side_to_move();
    let pool_has_pawn = position.pool(us).contains(Role::Pawn);
    let en_passant = position.en_passant().map(Square::index);
    let mut candidates = Vec::new();
    let mut add = |from: usize, to: usize, en_passant_victim: Option<usize>, covered: bool, role: Role| {
        let on_last_rank = to / 8 == last_rank(us);
        // A revealed pawn always promotes; a covered piece promotes if it reveals a pawn, so
        // it has four versions while its pool holds a pawn (RULES §6).
        let promotes = on_last_rank && ((!covered && role == Role::Pawn) || (covered && pool_has_pawn));
        let promotions: Vec<Option<Role>> = if promotes {
            PROMOTIONS.iter().copied().map(Some).collect()
        } else {
            vec![None]
        };
        for promotion in promotions {
            candidates.push(Candidate {
                from,
                to,
                promotion,
                en_passant_victim,
                castling_rook: None,
            });
        }
    };
    for from in 0..64 {
        let Some(piece) = board[from] else { continue };
        if piece.color() != us {
            continue;
        }
        let covered = matches!(piece, Piece::Covered { .. });
        let role = moves_as(piece, from);
        if role == Role::Pawn {
            let start_rank = match us {
                Color::White => 1,
                Color::Black => 6,
            };
            if let Some(one) = step(from, 0, forward(us)).filter(|&s| board[s].is_none()) {
                add(from, one, None, covered, role);
                if from / 8 == start_rank {
                    if let Some(two) = step(one, 0, forward(us)).filter(|&s| board[s].is_none()) {
                        add(from, two, None, covered, role);
                    }
                }
            }
            for df in [-1, 1] {
                let Some(to) = step(from, df, forward(us)) else {
                    continue;
                };
                if color_at(&board, to) == Some(!us) {
                    add(from, to, None, covered, role);
                } else if Some(to) == en_passant {
                    let victim = step(to, 0, -forward(us)).expect("the pawn that passed");
                    add(from, to, Some(victim), covered, role);
                }
            }
        } else {
            for to in attacked_squares(&board, from, role, us) {
                if color_at(&board, to) != Some(us) {
                    add(from, to, None, covered, role);
                }
            }
        }
    }
    for castling in Castling::ALL {
        if castling.color != us || !position.castling_rights().has(castling) {
            continue;
        }
        let rank = if us == Color::White { 0 } else { 56 };
        let (king_to, corner, corner_to, between, passage): (usize, usize, usize, &[usize], usize) =
            if castling.king_side {
                (rank + 6, rank + 7, rank + 5, &[5, 6], rank + 5)
            } else {
                (rank + 2, rank, rank + 3, &[1, 2, 3], rank + 3)
            };
        let king_from = rank + 4;
        let corner_ok = match board[corner] {
            Some(Piece::Covered { color }) => color == us,
            Some(Piece::Revealed { color, role }) => color == us && role == Role::Rook,
            None => false,
        };
        let king_there = board[king_from]
            == Some(Piece::Revealed {
                color: us,
                role: Role::King,
            });
        let empty = between.iter().all(|&file| board[rank + file].is_none());
        let safe = [king_from, passage, king_to].iter().all(|&s| !attacked(&board, s, !us));
        if corner_ok && king_there && empty && safe {
            candidates.push(Candidate {
                from: king_from,
                to: king_to,
                promotion: None,
                en_passant_victim: None,
                castling_rook: Some((corner, corner_to)),
            });
        }
    }
    let mut legal: Vec<Triple> = candidates
        .iter()
        .filter(|c| leaves_king_safe(&board, us, c))
        .map(|c| (c.from, c.to, c.promotion))
        .collect();
    legal.sort();
    legal
}

/// Whether `side` (to move) could take en passant on `square`, the pawn that just passed
/// it standing on `victim`: some pawn-mover of `side` attacks the square and the capture
/// leaves its king safe.
pub fn en_passant_capture_exists(position: &Position, square: usize, victim: usize) -> bool {
    let board = board(position);
    let side = position.side_to_move();
    (0..64).any(|from| match board[from] {
        Some(piece) if piece.color() == side && moves_as(piece, from) == Role::Pawn => {
            attacks(&board, from, Role::Pawn, side, square)
                && leaves_king_safe(
                    &board,
                    side,
                    &Candidate {
                        from,
                        to: square,
                        promotion: None,
                        en_passant_victim: Some(victim),
                        castling_rook: None,
                    },
                )
        }
        _ => false,
    })
}
