//! What each fuzz target checks on one input. Every function takes arbitrary bytes, must not
//! panic on any of them, and asserts the invariants it names; a failed assertion is a bug
//! found. The same functions replay the committed seeds and regressions in the main test
//! suite (tests/fuzz_corpus.rs).

use crate::slow;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::OnceLock;
use veil::protocol::command::{self, Command, Start};
use veil::protocol::display;
use veil::protocol::input::{InputLine, LineReader};
use veil::protocol::limits::{MAX_BENCH_DEPTH, MAX_GO_DEPTH, MAX_PERFT_DEPTH, MAX_POSITION_MOVES};
use veil::protocol::options::{OperatorLimits, Options, Variant, LEVELS_FILE_MAX_BYTES};
use veil::protocol::position::read_position;
use veil::rules::perft::{divide, perft};
use veil::rules::{
    Castling, CastlingRights, Color, Move, MoveError, MoveKind, MoveStatus, Piece, Position, Role, Square, UciMove,
    COVERED_START_FEN, MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK, STANDARD_START_FEN,
};

/// Positions the move and rules targets start from (picked by the input's first byte).
pub const START_FENS: [&str; 10] = [
    COVERED_START_FEN,
    STANDARD_START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "x2xk1xx/2xp2x1/ppr4p/1N3n2/1p2P3/2P2P1B/XXXX2X1/X1XXK2X w KQkq - 0 9 Q1R2B1P5q1r1b2n1p2",
    "xx1xk2x/1q1x2p1/np4P1/1Pp2n2/3R4/P1P1NP2/1XQ1P2X/X2XK2X w KQkq - 0 15 R1B2N1P1b1p4",
    // Covered corner pieces: castling reveals, a covered rook-cover reaching the last rank.
    "x3k2x/8/8/8/8/8/8/X3K2X w KQkq - 0 1 R1P1r1p1",
    // En passant available, and an en passant capture that would expose the king.
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
    // Promotions of revealed pawns, and a covered queen-cover with pawns in the pool.
    "1n2k3/P6P/8/8/8/8/p6p/4K1N1 w - - 0 1",
    "x3kxx1/2P5/8/8/8/8/2p5/XX1XK3 w - - 0 1 Q1B1P2q1n1p2",
];

/// The start position named by a byte.
fn start_position(byte: u8) -> Position {
    let fen = START_FENS[byte as usize % START_FENS.len()];
    Position::from_fen(fen).expect("the start FENs are valid")
}

// ----- invariants of one position ----------------------------------------------------------

/// A move as the slow model writes it.
fn triple(m: Move) -> slow::Triple {
    (m.from().index(), m.to().index(), m.promotion_role())
}

/// The invariants of a position: hash, FEN round trip, legal moves against the slow model,
/// leaf counts, check and game status; if `deep`, also perft(2) against its divide.
pub fn check_position(position: &Position, deep: bool) {
    let fen = position.to_fen();
    assert_eq!(position.hash(), position.compute_hash(), "incremental hash of {fen}");

    let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("FEN {fen} does not read back: {e}"));
    assert_eq!(again.to_fen(), fen, "FEN round trip");
    assert_eq!(again.hash(), position.hash(), "hash after the FEN round trip of {fen}");

    let legal = position.legal_moves();
    let mut engine: Vec<slow::Triple> = legal.iter().map(|&m| triple(m)).collect();
    engine.sort();
    let count = engine.len();
    engine.dedup();
    assert_eq!(engine.len(), count, "a move generated twice in {fen}");
    assert_eq!(
        engine,
        slow::legal_moves(position),
        "legal moves of {fen} (engine, slow model)"
    );

    let branches = u64::from(position.pool(position.side_to_move()).distinct());
    let leaves: u64 = legal
        .iter()
        .map(|&m| if position.is_reveal(m) { branches } else { 1 })
        .sum();
    assert_eq!(position.count_leaves(), leaves, "leaves one ply below {fen}");
    assert_eq!(perft(position, 1), leaves, "perft(1) of {fen}");

    let check = slow::in_check(position);
    assert_eq!(position.is_check(), check, "check in {fen}");
    let status = match (legal.is_empty(), check) {
        (false, _) => MoveStatus::Ongoing,
        (true, true) => MoveStatus::Checkmate,
        (true, false) => MoveStatus::Stalemate,
    };
    assert_eq!(position.move_status(), status, "game status of {fen}");
    if deep {
        check_perft(position, &fen);
    }
}

/// perft(2) equals the sum of its divide, and each root move's count the leaves below its
/// reveals.
fn check_perft(position: &Position, fen: &str) {
    let legal = position.legal_moves();

    let split = divide(position, 2);
    assert_eq!(split.len(), legal.len(), "divide(2) root moves of {fen}");
    for &(m, count) in &split {
        let below: u64 = position
            .reveal_outcomes(m)
            .iter()
            .map(|&(reveal, _)| position.play(m, reveal).count_leaves())
            .sum();
        assert_eq!(count, below, "divide(2) of {m} in {fen}");
    }
    let total: u64 = split.iter().map(|&(_, count)| count).sum();
    assert_eq!(perft(position, 2), total, "perft(2) of {fen} against its divide");
}

/// What `play(m, reveal)` must have done to `before`, by the rules (RULES.md §2–7) on the
/// slow board.
pub fn check_play(before: &Position, m: Move, reveal: Option<Role>, after: &Position) {
    let context = format!("{} after {}", before.to_fen(), before.move_text(m, reveal));
    let us = before.side_to_move();
    let (from, to) = (m.from().index(), m.to().index());
    let board = slow::board(before);
    let mover = board[from].expect("a piece on the from square");
    let covered = matches!(mover, Piece::Covered { .. });
    assert!(
        !(covered && reveal.is_none()),
        "a covered piece moved without a reveal: {context}"
    );

    let mut expected = board;
    expected[from] = None;
    let castling = m.kind() == MoveKind::Castle;
    let mut captured = board[to].is_some_and(|p| p.color() != us);
    let role_after = match mover {
        Piece::Covered { .. } => reveal.expect("checked above"),
        Piece::Revealed { role, .. } => role,
    };
    if castling {
        assert_eq!(
            slow::moves_as(mover, from),
            Role::King,
            "castling moves the king: {context}"
        );
        let (corner, corner_to) = if to > from {
            (from + 3, from + 1)
        } else {
            (from - 4, from - 1)
        };
        let corner_piece = board[corner].expect("a corner piece");
        let corner_role = match corner_piece {
            Piece::Covered { .. } => reveal.expect("castling with a covered corner reveals it"),
            Piece::Revealed { role, .. } => role,
        };
        expected[corner] = None;
        expected[corner_to] = Some(Piece::Revealed {
            color: us,
            role: corner_role,
        });
        expected[to] = Some(mover);
    } else {
        let pawn_mover = slow::moves_as(mover, from) == Role::Pawn;
        if pawn_mover && from % 8 != to % 8 && board[to].is_none() {
            let victim = slow::step(to, 0, -slow::forward(us)).expect("an en passant victim square");
            assert!(
                board[victim]
                    == Some(Piece::Revealed {
                        color: !us,
                        role: Role::Pawn
                    }),
                "en passant takes a revealed pawn: {context}"
            );
            expected[victim] = None;
            captured = true;
        }
        let landed = match m.promotion_role() {
            Some(promotion) if role_after == Role::Pawn => promotion,
            _ => role_after,
        };
        expected[to] = Some(Piece::Revealed {
            color: us,
            role: landed,
        });
    }
    assert_eq!(slow::board(after), expected, "board of {context}");

    let mut pool = *before.pool(us);
    if let Some(role) = reveal {
        pool.remove(role);
    }
    assert_eq!(*after.pool(us), pool, "mover's pool: {context}");
    assert_eq!(after.pool(!us), before.pool(!us), "other pool: {context}");
    assert_eq!(after.side_to_move(), !us, "side to move: {context}");
    // Both clocks stop at the largest values a FEN holds.
    let fullmove = (before.fullmove_number() + u32::from(us == Color::Black)).min(MAX_FULLMOVE_NUMBER);
    assert_eq!(after.fullmove_number(), fullmove, "fullmove number: {context}");
    let resets = captured || reveal.is_some() || role_after == Role::Pawn && !castling;
    let halfmove = if resets {
        0
    } else {
        (before.halfmove_clock() + 1).min(MAX_HALFMOVE_CLOCK)
    };
    assert_eq!(after.halfmove_clock(), halfmove, "halfmove clock: {context}");

    let mut rights = CastlingRights::NONE;
    for castling in Castling::ALL {
        let rank = if castling.color == Color::White { 0 } else { 56 };
        let corner = if castling.king_side { rank + 7 } else { rank };
        let touched = [rank + 4, corner].iter().any(|&s| s == from || s == to);
        if before.castling_rights().has(castling) && !touched {
            rights.add(castling);
        }
    }
    assert_eq!(after.castling_rights(), rights, "castling rights: {context}");

    // A two-square pawn advance by a piece that is a pawn after it (RULES §5): a covered
    // rook-cover moving two squares and revealed as a pawn advanced as a rook.
    let pawn_advance = !castling && slow::moves_as(mover, from) == Role::Pawn && role_after == Role::Pawn;
    let double_step = pawn_advance && from.abs_diff(to) == 16;
    let en_passant = double_step
        .then(|| (from + to) / 2)
        .filter(|&square| slow::en_passant_capture_exists(after, square, to));
    assert_eq!(
        after.en_passant().map(Square::index),
        en_passant,
        "en passant square: {context}"
    );
}

// ----- the targets ---------------------------------------------------------------------------

/// Target `fen`: any text read as an extended FEN is refused with a message, or gives a
/// position whose invariants hold.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match Position::from_fen(&text) {
        Ok(position) => {
            check_position(&position, true);
            let _ = display::render(&position);
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
}

/// Target `moves`: any text read as a move, plain or with a reveal suffix, in one of the
/// start positions (first byte), then as a sequence of moves.
pub fn moves(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let position = start_position(first);
    let text = String::from_utf8_lossy(rest);
    let legal = position.legal_moves();

    if let Ok(parsed) = UciMove::parse(&text) {
        assert_ne!(parsed.from, parsed.to, "{text:?}");
        assert!(parsed.reveal != Some(Role::King), "{text:?}");
    }
    let played = position.parse_played_move(&text);
    let plain = position.parse_uci_move(&text);
    if let Err(error) = &played {
        assert!(!error.to_string().is_empty());
    }
    if let Err(error) = &plain {
        assert!(!error.to_string().is_empty());
    }
    if let Ok((m, reveal)) = played {
        assert!(legal.contains(m), "{text:?} read as {m}, not legal");
        assert_eq!(reveal.is_some(), position.is_reveal(m), "{text:?}: reveal suffix");
        if let Some(role) = reveal {
            assert!(position.pool(position.side_to_move()).contains(role), "{text:?}");
        }
        let written = position.move_text(m, reveal);
        assert_eq!(
            position.parse_played_move(&written),
            Ok((m, reveal)),
            "{text:?} as {written:?}"
        );
        let next = position.play(m, reveal);
        check_play(&position, m, reveal, &next);
        if !position.is_reveal(m) {
            assert_eq!(plain, Ok(m), "{text:?}: a move without reveal reads the same both ways");
        }
    }
    if let Ok(m) = plain {
        assert!(legal.contains(m), "{text:?} read as {m}, not legal");
        assert!(!text.contains('='), "{text:?}");
        assert_eq!(position.parse_uci_move(&m.to_string()), Ok(m));
        if position.is_reveal(m) {
            assert!(
                matches!(position.parse_played_move(&text), Err(MoveError::MissingReveal(_))),
                "{text:?} reveals, so as played it needs a suffix"
            );
        }
    }

    // The same text as a `position ... moves` list.
    let tokens: Vec<String> = text.split_whitespace().take(64).map(str::to_string).collect();
    let start = Start::Fen(position.to_fen());
    if let Ok(game) = read_position(&start, &tokens, Variant::Covered) {
        assert_eq!(game.history.len(), tokens.len());
        assert_eq!(game.history.first().copied(), tokens.first().map(|_| position.hash()));
        check_position(&game.position, true);
    }
}

/// Target `protocol`: arbitrary bytes through the bounded line reader (with a tiny bound and
/// buffer chosen by the first byte), every line through the command parser, and each parsed
/// command through what the engine does with it short of searching.
pub fn protocol(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let max = 1 + usize::from(first & 0x3f);
    let capacity = 1 + usize::from(first >> 6) * 7;
    let mut reader = LineReader::new(BufReader::with_capacity(capacity, rest), max);
    let mut consumed = 0usize;
    let mut lines = Vec::new();
    loop {
        match reader.next_line() {
            InputLine::End => break,
            InputLine::TooLong { bytes } => {
                assert!(bytes > max);
                consumed += bytes + 1;
            }
            InputLine::Line(bytes) => {
                assert!(bytes.len() <= max && !bytes.contains(&b'\n'));
                consumed += bytes.len() + 1;
                lines.push(bytes.to_vec());
            }
        }
    }
    // Every byte is accounted for (the last line may lack its newline).
    assert!(
        consumed == rest.len() || consumed == rest.len() + 1,
        "{consumed} of {}",
        rest.len()
    );

    // The parser on every line of the whole input, however long.
    let variant = if first & 1 == 0 {
        Variant::Chess
    } else {
        Variant::Covered
    };
    for line in rest.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        let parsed = command::parse(&text);
        assert_eq!(command::parse(&format!(" \t{text} \r")), parsed, "surrounding blanks");
        match parsed {
            Err(error) => assert!(!error.to_string().is_empty()),
            Ok(Command::SetOption { name, value }) => set_option(first, &name, value.as_deref()),
            Ok(Command::Position { start, moves }) => {
                assert!(moves.len() <= MAX_POSITION_MOVES);
                match read_position(&start, &moves, variant) {
                    Ok(game) => {
                        assert_eq!(game.history.len(), moves.len());
                        assert_eq!(game.position.hash(), game.position.compute_hash());
                        let _ = display::render(&game.position);
                    }
                    Err(error) => assert!(!error.to_string().is_empty()),
                }
            }
            Ok(Command::Go { params, problems }) => {
                assert!(params.depth.is_none_or(|d| d <= MAX_GO_DEPTH));
                assert!(params.perft.is_none_or(|d| d <= MAX_PERFT_DEPTH));
                for problem in problems {
                    assert!(!problem.to_string().is_empty());
                }
            }
            Ok(Command::Bench(depth)) => assert!(depth.is_none_or(|d| d <= MAX_BENCH_DEPTH)),
            Ok(_) => {}
        }
    }
}

/// Text in every hostile file's content, which no message may ever show.
const SECRET: &str = "SECRET-CONTENT-3f9a";

/// Hostile files for the options that name one, made once per process in a scratch directory:
/// `$0`..`$9` in a `setoption` value stand for them. Besides these the fuzzer may name any
/// path (`/dev/zero`, `/etc/passwd`), as the seeds do. Replayed as a test (which cargo gives a
/// directory for its files in the build's target directory), they are made there, so a test
/// run leaves nothing in the system's temporary directory; a fuzzer's processes each make
/// their own there.
fn hostile_files() -> &'static [PathBuf] {
    static FILES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = match option_env!("CARGO_TARGET_TMPDIR") {
            Some(tests) => PathBuf::from(tests).join("veil-fuzz-files"),
            None => std::env::temp_dir().join(format!("veil-fuzz-files-{}", std::process::id())),
        };
        let _ = std::fs::create_dir_all(&dir);
        let file = |name: &str| dir.join(name);
        let levels = veil::search::level::LevelTable::default().to_toml();
        let _ = std::fs::write(file("levels.toml"), &levels);
        let mut binary: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        binary.extend_from_slice(SECRET.as_bytes());
        let _ = std::fs::write(file("binary"), &binary);
        let _ = std::fs::write(file("secret.toml"), format!("[[level]]\n{SECRET} = 1\n"));
        if let Ok(sparse) = std::fs::File::create(file("sparse")) {
            let _ = sparse.set_len(1 << 30);
        }
        let mut over = vec![b'#'; LEVELS_FILE_MAX_BYTES as usize];
        over.extend_from_slice(SECRET.as_bytes());
        let _ = std::fs::write(file("over.toml"), over);
        let _ = std::process::Command::new("mkfifo").arg(file("fifo")).status();
        let _ = std::fs::create_dir_all(file("directory"));
        #[cfg(unix)]
        {
            let _ = std::os::unix::fs::symlink("/dev/zero", file("to-zero"));
            let _ = std::os::unix::fs::symlink(file("levels.toml"), file("to-levels"));
            let _ = std::os::unix::fs::symlink(file("loop"), file("loop"));
        }
        [
            "levels.toml",
            "binary",
            "secret.toml",
            "sparse",
            "over.toml",
            "fifo",
            "directory",
            "to-zero",
            "to-levels",
            "loop",
        ]
        .iter()
        .map(|name| file(name))
        .collect()
    })
}

/// A `setoption` on fresh options (under operator limits when the first byte says so): a
/// refused one changes nothing and its message shows no file's content; an accepted one stays
/// within the limits.
fn set_option(first: u8, name: &str, value: Option<&str>) {
    let limits = if first & 2 != 0 {
        OperatorLimits {
            max_hash_mb: Some(64),
            max_threads: Some(2),
            no_file_options: first & 4 != 0,
        }
    } else {
        OperatorLimits::default()
    };
    let value = value.map(|value| {
        let mut value = value.to_string();
        for (i, path) in hostile_files().iter().enumerate() {
            value = value.replace(&format!("${i}"), &path.display().to_string());
        }
        value
    });
    let mut options = Options::with_limits(limits);
    let before = format!("{options:?}");
    match options.set(name, value.as_deref()) {
        Err(error) => {
            assert_eq!(format!("{options:?}"), before, "a refused option changed nothing");
            let message = error.to_string();
            assert!(!message.is_empty());
            // Text from a file shows only if the input itself spelt it.
            let sent = |text: &str| name.contains(text) || value.as_deref().is_some_and(|v| v.contains(text));
            for content in [SECRET, "root:x:"] {
                assert!(
                    sent(content) || !message.contains(content),
                    "a file's content in {message:?}"
                );
            }
        }
        Ok(_) => {
            assert!(options.threads <= 2 || limits.max_threads.is_none());
            assert!(options.effective_hash_mb() <= 64 || limits.max_hash_mb.is_none());
            assert!(!(limits.no_file_options && name.eq_ignore_ascii_case("levelsfile")));
        }
    }
}

/// Most plies the rules target plays from one input.
const MAX_PLIES: usize = 256;

/// Target `rules`: a position (one of the start positions, or a FEN given as `fen:<FEN>\n`),
/// then a game chosen by the bytes (two a ply: which legal move, which reveal), every
/// invariant checked at every ply.
pub fn rules(data: &[u8]) {
    let (mut position, choices) = match data.strip_prefix(b"fen:") {
        Some(rest) => {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let Ok(position) = Position::from_fen(&String::from_utf8_lossy(&rest[..end])) else {
                return;
            };
            (position, rest.get(end + 1..).unwrap_or(&[]))
        }
        None => match data.split_first() {
            Some((&first, rest)) => (start_position(first), rest),
            None => return,
        },
    };
    check_position(&position, true);
    let plies = choices.len().div_ceil(2).min(MAX_PLIES);
    for (index, ply) in choices.chunks(2).take(MAX_PLIES).enumerate() {
        let legal = position.legal_moves();
        if legal.is_empty() {
            return;
        }
        let m = legal.as_slice()[ply[0] as usize % legal.len()];
        let reveal = position.is_reveal(m).then(|| {
            let outcomes: Vec<Role> = position
                .pool(position.side_to_move())
                .outcomes()
                .map(|(r, _)| r)
                .collect();
            outcomes[usize::from(ply.get(1).copied().unwrap_or(0)) % outcomes.len()]
        });
        let text = position.move_text(m, reveal);
        assert_eq!(
            position.parse_played_move(&text),
            Ok((m, reveal)),
            "{text} in {}",
            position.to_fen()
        );
        let next = position.play(m, reveal);
        let mut in_place = position.clone();
        in_place.play_mut(m, reveal);
        assert_eq!(in_place.to_fen(), next.to_fen(), "play and play_mut");
        assert_eq!(in_place.hash(), next.hash(), "play and play_mut");
        check_play(&position, m, reveal, &next);
        position = next;
        // perft(2) and its divide on every eighth position and the last.
        check_position(&position, index % 8 == 7 || index + 1 == plies);
    }
}
