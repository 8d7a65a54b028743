//! PGN: SAN on tricky positions, write -> read -> replay round trips on seeded random games
//! and on games built to end in each kind of ending, corrupted and garbage texts reported
//! (never a panic), `veil replay` exit statuses, and python-chess reading what we write.
//!
//! python-chess comes from `scripts/setup.sh`; the python-chess test fails without it.

mod common;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;
use std::process::Command;
use veil::arbiter::pgn::{read_games, write_game, EngineNote, PgnErrorKind, TokenKind};
use veil::arbiter::record::{Ending, EngineScore, GameRecord, PlayedMove, Variant};
use veil::arbiter::replay::{replay_text, verified_records, verify_record, MoveFault, ReplayError};
use veil::rules::{Color, Game, MoveError, Position, Role, SanError, STANDARD_START_FEN};

// ----- helpers -------------------------------------------------------------------------------

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The SAN of every move of `line` (given in SAN or UCI with reveals) from `fen`.
fn san_line(fen: &str, line: &str) -> Vec<String> {
    let mut p = position(fen);
    let mut out = Vec::new();
    for text in line.split_whitespace() {
        let (m, reveal) = parse_any(&p, text);
        out.push(p.san(m));
        p.play_mut(m, reveal);
    }
    out
}

fn parse_any(p: &Position, text: &str) -> (veil::rules::Move, Option<Role>) {
    match p.parse_played_move(text) {
        Ok(found) => found,
        Err(_) => (p.parse_san(text).unwrap_or_else(|e| panic!("{text}: {e}")), None),
    }
}

fn plain(m: veil::rules::Move, reveal: Option<Role>) -> PlayedMove {
    PlayedMove {
        m,
        reveal,
        score: None,
        depth: None,
        millis: None,
    }
}

/// A record of `line` (SAN or UCI with reveals) from `start`.
fn record_of(variant: Variant, start: Position, line: &str, ending: Ending, detail: Option<&str>) -> GameRecord {
    let mut p = start.clone();
    let mut moves = Vec::new();
    for text in line.split_whitespace() {
        let (m, reveal) = parse_any(&p, text);
        moves.push(plain(m, reveal));
        p.play_mut(m, reveal);
    }
    GameRecord {
        variant,
        white: "Veil \"dev\" 0.1".to_string(),
        black: "Other\\Engine".to_string(),
        start,
        moves,
        result: ending.result(),
        ending,
        detail: detail.map(str::to_string),
        time_control: "10+0.1".to_string(),
        seed: 12345,
        pair: 3,
        game_in_pair: 1,
        date: "2025.01.31".to_string(),
    }
}

/// Writes, reads and replays `record`, and checks that the same record comes back.
fn round_trip(record: &GameRecord) -> String {
    verify_record(record).unwrap_or_else(|e| panic!("the record itself does not verify: {e}"));
    let text = write_game(record, "Round trip");
    for line in text.lines() {
        if !line.starts_with('[') {
            assert!(line.chars().count() <= 79, "line longer than 79: {line:?}");
        }
    }
    let records = verified_records(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0], *record, "\n{text}");
    text
}

fn random_note(rng: &mut Xoshiro256PlusPlus) -> (Option<EngineScore>, Option<u32>, Option<u64>) {
    let score = match rng.gen_range(0..4) {
        0 => None,
        1 => Some(EngineScore::Mate(rng.gen_range(-30..=30))),
        _ => Some(EngineScore::Centipawns(rng.gen_range(-3000..=3000))),
    };
    let depth = rng.gen_bool(0.8).then(|| rng.gen_range(1..40));
    let millis = rng.gen_bool(0.7).then(|| rng.gen_range(0..100_000));
    (score, depth, millis)
}

/// A seeded random game: uniform legal moves, reveals drawn from the pool by count, engine
/// notes on some moves, up to `max_plies` or an automatic end. The ending is the automatic
/// one, else one of those that fit the final position.
fn random_record(variant: Variant, seed: u64, max_plies: usize) -> GameRecord {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(variant.start_position());
    let mut moves = Vec::new();
    while moves.len() < max_plies && game.outcome().is_none() {
        let p = game.position();
        let legal = p.legal_moves();
        let m = legal.as_slice()[rng.gen_range(0..legal.len())];
        let reveal = if p.is_reveal(m) {
            let pool = p.pool(p.side_to_move());
            let mut pick = rng.gen_range(0..pool.total());
            let mut chosen = None;
            for (role, count) in pool.outcomes() {
                if pick < count as u32 {
                    chosen = Some(role);
                    break;
                }
                pick -= count as u32;
            }
            chosen
        } else {
            None
        };
        let (score, depth, millis) = if rng.gen_bool(0.5) {
            random_note(&mut rng)
        } else {
            (None, None, None)
        };
        moves.push(PlayedMove {
            m,
            reveal,
            score,
            depth,
            millis,
        });
        game.play(m, reveal);
    }
    let p = game.position();
    let to_move = p.side_to_move();
    let (ending, detail) = match game.outcome() {
        Some(outcome) => (Ending::from_outcome(outcome), None),
        None if game.repetitions() >= 3 && rng.gen_bool(0.5) => (Ending::ThreefoldRepetition, None),
        None if p.halfmove_clock() >= 100 && rng.gen_bool(0.5) => (Ending::FiftyMoveRule, None),
        None => match rng.gen_range(0..6) {
            0 if p.can_mate(!to_move) => (Ending::TimeForfeit(to_move), Some("no bestmove within 1.2 s")),
            0 => (Ending::TimeoutNoMate(to_move), None),
            1 => (Ending::IllegalMove(to_move), Some("e2e5")),
            2 => (Ending::Disconnect(to_move), Some("the process exited with status 3")),
            3 => (
                Ending::Resignation(if rng.gen_bool(0.5) { Color::White } else { Color::Black }),
                None,
            ),
            4 => (Ending::AdjudicatedDraw, None),
            _ => (Ending::MaxPlies, None),
        },
    };
    GameRecord {
        variant,
        white: format!("engine-{}", seed % 7),
        black: "Veil 0.1".to_string(),
        start: variant.start_position(),
        moves,
        result: ending.result(),
        ending,
        detail: detail.map(str::to_string),
        time_control: if seed.is_multiple_of(2) { "depth=6" } else { "8+0.08" }.to_string(),
        seed: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        pair: seed / 2,
        game_in_pair: (seed % 2) as u8,
        date: "2025.02.01".to_string(),
    }
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = common::shared_dir("pgn-test").join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

// ----- SAN -----------------------------------------------------------------------------------

#[test]
fn san_disambiguates_by_file_rank_and_square() {
    let knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    assert_eq!(san_line(knights, "b1d2"), ["Nbd2"]);
    assert_eq!(san_line(knights, "f1d2"), ["Nfd2"]);
    assert_eq!(san_line(knights, "b1c3"), ["Nc3"]);
    let rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
    assert_eq!(san_line(rooks, "a1a3"), ["R1a3"]);
    assert_eq!(san_line(rooks, "a5a3"), ["R5a3"]);
    assert_eq!(san_line(rooks, "a1b1"), ["Rb1"]);
    let queens = "k7/8/8/8/3Q1Q2/8/3Q4/7K w - - 0 1";
    assert_eq!(san_line(queens, "d4e3"), ["Qd4e3"]);
    assert_eq!(san_line(queens, "f4e3"), ["Qfe3"]);
    assert_eq!(san_line(queens, "d2e3"), ["Q2e3"]);
    // A pinned rival needs no disambiguation: only one knight can legally go to d2.
    let pinned = "4k3/8/8/8/8/8/8/rN1K1N2 w - - 0 1";
    assert_eq!(san_line(pinned, "f1d2"), ["Nd2"]);
    let p = position(queens);
    assert!(matches!(p.parse_san("Qe3"), Err(SanError::Ambiguous(_))));
    assert!(matches!(p.parse_san("Qde3"), Err(SanError::Ambiguous(_))));
    assert_eq!(p.parse_san("Qd4e3").unwrap().to_string(), "d4e3");
    assert_eq!(p.parse_san("Q2e3").unwrap().to_string(), "d2e3");
}

#[test]
fn san_pawns_promotions_castling_en_passant_and_mate() {
    assert_eq!(san_line("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"), ["exd8=Q+"]);
    assert_eq!(san_line("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n"), ["exd8=N"]);
    assert_eq!(san_line("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r"), ["e8=R+"]);
    assert_eq!(san_line("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), ["O-O"]);
    assert_eq!(
        san_line("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1 e8g8"),
        ["O-O-O", "O-O"]
    );
    assert_eq!(san_line("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), ["O-O+"]);
    assert_eq!(san_line("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), ["exd6"]);
    assert_eq!(san_line("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5e6"), ["e6"]);
    assert_eq!(
        san_line(STANDARD_START_FEN, "f2f3 e7e5 g2g4 d8h4"),
        ["f3", "e5", "g4", "Qh4#"]
    );
    assert_eq!(san_line("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), ["Ra8#"]);
    assert_eq!(
        san_line(STANDARD_START_FEN, "e2e4 d7d5 e4d5 d8d5"),
        ["e4", "d5", "exd5", "Qxd5"]
    );
    // A push and a capture to the same square.
    let p = position("4k3/8/8/3p4/2P1P3/8/8/4K3 b - - 0 1");
    assert_eq!(p.parse_san("dxe4").unwrap().to_string(), "d5e4");
    assert_eq!(p.parse_san("dxc4").unwrap().to_string(), "d5c4");
    assert_eq!(p.parse_san("d4").unwrap().to_string(), "d5d4");
}

#[test]
fn parse_san_is_lenient_where_readers_usually_are() {
    let start = Position::standard_start();
    for (text, uci) in [
        ("Nf3", "g1f3"),
        ("Nf3+", "g1f3"),
        ("Nf3#", "g1f3"),
        ("Nf3!?", "g1f3"),
        ("Ng1f3", "g1f3"),
        ("Ng1-f3", "g1f3"),
        ("g1f3", "g1f3"),
        ("e4", "e2e4"),
        ("Pe4", "e2e4"),
        ("e4!!", "e2e4"),
    ] {
        assert_eq!(
            start.parse_san(text).map(|m| m.to_string()),
            Ok(uci.to_string()),
            "{text}"
        );
    }
    let castles = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for text in ["O-O", "0-0", "O-O+", "0-0!"] {
        assert_eq!(castles.parse_san(text).unwrap().to_string(), "e1g1", "{text}");
    }
    for text in ["O-O-O", "0-0-0"] {
        assert_eq!(castles.parse_san(text).unwrap().to_string(), "e1c1", "{text}");
    }
    let promote = position("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    for (text, uci) in [
        ("exd8=Q", "e7d8q"),
        ("exd8=Q+", "e7d8q"),
        ("exd8Q", "e7d8q"),
        ("ed8=N", "e7d8n"),
        ("e8=R", "e7e8r"),
        ("e7e8b", "e7e8b"),
    ] {
        assert_eq!(promote.parse_san(text).unwrap().to_string(), uci, "{text}");
    }
    let ep = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(ep.parse_san("exd6e.p.").unwrap().to_string(), "e5d6");
    assert_eq!(ep.parse_san("exd6").unwrap().to_string(), "e5d6");
}

#[test]
fn parse_san_reports_bad_moves() {
    let start = Position::standard_start();
    for text in [
        "", "Zf3", "N", "Nf9", "e9", "xx", "O-O-O-O", "e8=K", "Nf3=Q", "é4", "+", "e2e4e5",
    ] {
        assert!(
            matches!(start.parse_san(text), Err(SanError::Syntax(_))),
            "{text}: {:?}",
            start.parse_san(text)
        );
    }
    for text in ["Nf4", "e5", "O-O", "Ke2", "exd3", "Bb5", "e2e5"] {
        assert!(
            matches!(start.parse_san(text), Err(SanError::Illegal(_))),
            "{text}: {:?}",
            start.parse_san(text)
        );
    }
    let knights = position("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert!(matches!(knights.parse_san("Nd2"), Err(SanError::Ambiguous(_))));
    let promote = position("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(promote.parse_san("exd8"), Err(SanError::MissingPromotion(_))));
    assert!(matches!(promote.parse_san("e7d8"), Err(SanError::MissingPromotion(_))));
    for error in [SanError::Syntax("x".into()), SanError::Ambiguous("Nd2".into())] {
        assert!(!error.to_string().is_empty());
    }
}

#[test]
fn san_of_covered_moves_is_uci_and_reads_back() {
    let start = Position::covered_start();
    let m = start.parse_played_move("g1f3=P").unwrap().0;
    assert_eq!(start.san(m), "g1f3");
    assert_eq!(start.parse_san("g1f3"), Ok(m));
    // A covered piece has no role to be named by: SAN does not reach it.
    assert!(matches!(start.parse_san("Nf3"), Err(SanError::Illegal(_))));
    let after = start.play(m, Some(Role::Pawn));
    let reply = after.parse_played_move("e7e5=N").unwrap().0;
    let after = after.play(reply, Some(Role::Knight));
    assert_eq!(after.san(after.parse_uci_move("f3f4").unwrap()), "f4");
    // The revealed knight is named without disambiguation: the covered b1 piece that could
    // also go to c3 has no role to be confused with.
    let p = position("4k3/8/8/8/4N3/8/8/1X2K3 w - - 0 1 N1");
    let knight = p.parse_uci_move("e4c3").unwrap();
    let covered = p.parse_uci_move("b1c3").unwrap();
    assert_eq!(p.san(knight), "Nc3");
    assert_eq!(p.san(covered), "b1c3");
    assert_eq!(p.parse_san("Nc3"), Ok(knight));
    assert_eq!(p.parse_san("b1c3"), Ok(covered));
}

#[test]
fn san_round_trips_on_random_positions() {
    for variant in [Variant::Chess, Variant::Covered] {
        for seed in 0..12 {
            let record = random_record(variant, 1000 + seed, 200);
            let mut p = record.start.clone();
            for played in &record.moves {
                let legal = p.legal_moves();
                let mut texts: Vec<String> = legal.iter().map(|&m| p.san(m)).collect();
                for (&m, text) in legal.iter().zip(&texts) {
                    assert_eq!(p.parse_san(text), Ok(m), "{} in {}", text, p.to_fen());
                }
                texts.sort();
                texts.dedup();
                assert_eq!(texts.len(), legal.len(), "SAN texts not unique in {}", p.to_fen());
                p.play_mut(played.m, played.reveal);
            }
        }
    }
}

// ----- writing -------------------------------------------------------------------------------

#[test]
fn writes_the_documented_encoding() {
    let mut record = record_of(
        Variant::Chess,
        Position::standard_start(),
        "f3 e5 g4 Qh4#",
        Ending::Checkmate(Color::White),
        None,
    );
    record.moves[1].score = Some(EngineScore::Centipawns(31));
    record.moves[1].depth = Some(12);
    record.moves[1].millis = Some(412);
    record.moves[3].score = Some(EngineScore::Mate(1));
    record.moves[3].millis = Some(1500);
    let text = round_trip(&record);
    let expected = "[Event \"Round trip\"]
[Site \"?\"]
[Date \"2025.01.31\"]
[Round \"4.2\"]
[White \"Veil \\\"dev\\\" 0.1\"]
[Black \"Other\\\\Engine\"]
[Result \"0-1\"]
[TimeControl \"10+0.1\"]
[Termination \"normal\"]
[Ending \"checkmate\"]
[EndingSide \"White\"]
[Seed \"12345\"]
[PlyCount \"4\"]

1. f3 e5 {+0.31/12 0.412s} 2. g4 Qh4# {+M1 1.500s} {Black mates} 0-1

";
    assert_eq!(text, expected);

    let covered = record_of(
        Variant::Covered,
        Position::covered_start(),
        "f2f3=P e7e5=P g2g4=P d8h4=Q",
        Ending::Checkmate(Color::White),
        None,
    );
    let text = round_trip(&covered);
    assert!(text.contains("[Variant \"Covered\"]\n[SetUp \"1\"]\n[FEN \"xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8\"]\n"));
    assert!(
        text.contains("\n1. f2f3=P e7e5=P 2. g2g4=P d8h4=Q {Black mates} 0-1\n"),
        "{text}"
    );
}

#[test]
fn final_comment_carries_the_detail_and_notes_parse_back() {
    let record = record_of(
        Variant::Chess,
        Position::standard_start(),
        "e4",
        Ending::IllegalMove(Color::Black),
        Some("e7e4"),
    );
    let text = round_trip(&record);
    assert!(text.contains("{Black makes an illegal move: e7e4} 1-0"), "{text}");
    for (note, text) in [
        ((Some(EngineScore::Centipawns(-5)), Some(3), None), "-0.05/3"),
        ((Some(EngineScore::Centipawns(0)), None, None), "+0.00"),
        ((Some(EngineScore::Mate(-3)), Some(20), Some(7)), "-M3/20 0.007s"),
        ((None, Some(12), None), "/12"),
        ((None, None, Some(61_000)), "61.000s"),
    ] {
        let note = EngineNote {
            score: note.0,
            depth: note.1,
            millis: note.2,
        };
        assert_eq!(note.text().as_deref(), Some(text));
        assert_eq!(EngineNote::parse(text), Some(note));
    }
    for text in [
        "",
        "checkmate",
        "+0.3/12",
        "+M/3",
        "1.5s",
        "+0.31/12 0.412",
        "a b c",
        "+99999999999.00",
    ] {
        assert_eq!(EngineNote::parse(text), None, "{text}");
    }
}

#[test]
fn writer_survives_records_that_break_the_rules() {
    // An illegal move, then a reveal the pool cannot give: written as given, never played.
    let mut record = record_of(
        Variant::Covered,
        Position::covered_start(),
        "e2e4=N e7e5=P",
        Ending::MaxPlies,
        None,
    );
    record.moves[1].m = Position::covered_start().parse_uci_move("d2d4").unwrap();
    let text = write_game(&record, "t");
    assert!(text.contains("1. e2e4=N d2d4=P {Draw at the ply limit}"), "{text}");
    assert!(matches!(replay_error(&text), ReplayError::BadMove { ply: 2, .. }));
    let mut record = record_of(
        Variant::Covered,
        Position::covered_start(),
        "e2e4=Q d7d5=P",
        Ending::MaxPlies,
        None,
    );
    record.moves.push(PlayedMove {
        m: record.start.parse_uci_move("d2d4").unwrap(),
        reveal: Some(Role::Queen),
        score: None,
        depth: None,
        millis: None,
    });
    assert!(matches!(
        verify_record(&record),
        Err(ReplayError::BadMove {
            ply: 3,
            fault: MoveFault::WrongReveal,
            ..
        })
    ));
    let text = write_game(&record, "t");
    assert!(text.contains("2. d2d4=Q {Draw"), "{text}");
    assert!(matches!(replay_error(&text), ReplayError::BadMove { ply: 3, .. }));
    // A plain-chess record from a covered start cannot be written in SAN: refused on replay.
    let record = record_of(
        Variant::Chess,
        Position::covered_start(),
        "e2e4=N",
        Ending::MaxPlies,
        None,
    );
    assert_eq!(verify_record(&record), Err(ReplayError::CoveredStartInChess));
    assert_eq!(
        replay_error(&write_game(&record, "t")),
        ReplayError::CoveredStartInChess
    );
}

#[test]
fn the_example_in_protocol_md_is_what_the_writer_writes() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).expect("protocol.md");
    let start = doc.find("[Event \"veil match\"]").expect("the PGN example");
    let example = &doc[start..start + doc[start..].find("```").expect("end of the example")];
    let records = verified_records(example).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(records.len(), 1);
    assert_eq!(write_game(&records[0], "veil match"), format!("{example}\n"));
}

// ----- round trips -----------------------------------------------------------------------------

#[test]
fn random_plain_games_round_trip() {
    let mut endings = std::collections::HashSet::new();
    for seed in 0..40 {
        let record = random_record(Variant::Chess, seed, [10, 60, 400][seed as usize % 3]);
        endings.insert(record.ending.slug());
        round_trip(&record);
    }
    assert!(endings.len() >= 6, "{endings:?}");
}

#[test]
fn random_covered_games_round_trip() {
    let mut endings = std::collections::HashSet::new();
    for seed in 0..40 {
        let record = random_record(Variant::Covered, seed, [10, 60, 400][seed as usize % 3]);
        endings.insert(record.ending.slug());
        round_trip(&record);
    }
    assert!(endings.len() >= 6, "{endings:?}");
}

#[test]
fn games_write_one_after_another_into_a_file() {
    let records: Vec<GameRecord> = (0..6)
        .map(|seed| {
            let variant = if seed % 2 == 0 {
                Variant::Chess
            } else {
                Variant::Covered
            };
            random_record(variant, 500 + seed, 80)
        })
        .collect();
    let text: String = records.iter().map(|r| write_game(r, "veil match")).collect();
    assert_eq!(verified_records(&text).unwrap(), records);
    let games = read_games(&text).unwrap();
    assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(games[0].line, 1);
}

/// Each ending, on a game built to reach it; every one must round-trip and verify.
fn constructed_endings() -> Vec<GameRecord> {
    let knights = "Nf3 Nf6 Ng1 Ng8 ";
    let covered_pool = "8/8/8/4k3/8/8/4p3/4K3 w - - 0 1 Q1r2";
    vec![
        record_of(
            Variant::Chess,
            Position::standard_start(),
            "f3 e5 g4 Qh4#",
            Ending::Checkmate(Color::White),
            None,
        ),
        record_of(
            Variant::Covered,
            Position::covered_start(),
            "f2f3=P e7e5=P g2g4=P d8h4=Q",
            Ending::Checkmate(Color::White),
            None,
        ),
        record_of(
            Variant::Chess,
            position("7k/8/8/5Q2/8/8/8/K7 w - - 0 1"),
            "Qf7",
            Ending::Stalemate,
            None,
        ),
        record_of(
            Variant::Chess,
            Position::standard_start(),
            &knights.repeat(4),
            Ending::FivefoldRepetition,
            None,
        ),
        record_of(
            Variant::Covered,
            Position::covered_start(),
            "g1f3=N g8f6=N f3g1 f6g8",
            Ending::MaxPlies,
            None,
        ),
        record_of(
            Variant::Chess,
            Position::standard_start(),
            &knights.repeat(2),
            Ending::ThreefoldRepetition,
            None,
        ),
        record_of(
            Variant::Chess,
            position("4k3/8/8/8/8/8/8/R3K3 w - - 149 80"),
            "Ra2",
            Ending::SeventyFiveMoveRule,
            None,
        ),
        record_of(
            Variant::Chess,
            position("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"),
            "Ra2",
            Ending::FiftyMoveRule,
            None,
        ),
        record_of(
            Variant::Chess,
            position("8/8/8/4k3/8/8/4p3/4K3 w - - 0 1"),
            "Kxe2",
            Ending::InsufficientMaterial,
            None,
        ),
        record_of(
            Variant::Covered,
            position(covered_pool),
            "e1e2",
            Ending::InsufficientMaterial,
            None,
        ),
        record_of(
            Variant::Chess,
            Position::standard_start(),
            "e4",
            Ending::TimeForfeit(Color::Black),
            Some("no bestmove within 1.2 s"),
        ),
        record_of(
            Variant::Covered,
            Position::covered_start(),
            "e2e4=Q",
            Ending::TimeForfeit(Color::Black),
            None,
        ),
        record_of(
            Variant::Chess,
            position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
            "",
            Ending::TimeoutNoMate(Color::White),
            None,
        ),
        record_of(
            Variant::Chess,
            position("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"),
            "Kd7",
            Ending::TimeoutNoMate(Color::White),
            None,
        ),
        record_of(
            Variant::Covered,
            Position::covered_start(),
            "e2e4=N",
            Ending::IllegalMove(Color::Black),
            Some("e7e4"),
        ),
        record_of(
            Variant::Chess,
            Position::standard_start(),
            "d4 d5",
            Ending::Disconnect(Color::White),
            Some("no answer to isready within 5 s"),
        ),
        record_of(
            Variant::Covered,
            Position::covered_start(),
            "d2d4=R d7d5=P",
            Ending::Resignation(Color::Black),
            None,
        ),
        record_of(
            Variant::Chess,
            Position::standard_start(),
            "c4 c5",
            Ending::AdjudicatedDraw,
            None,
        ),
        record_of(Variant::Chess, Position::standard_start(), "", Ending::MaxPlies, None),
    ]
}

#[test]
fn every_constructed_ending_round_trips() {
    let records = constructed_endings();
    let mut slugs: Vec<&str> = records.iter().map(|r| r.ending.slug()).collect();
    slugs.sort();
    slugs.dedup();
    assert_eq!(slugs.len(), 14, "every kind of ending: {slugs:?}");
    for record in &records {
        round_trip(record);
    }
}

// ----- corrupted texts -------------------------------------------------------------------------

fn replay_error(text: &str) -> ReplayError {
    let reports = replay_text(text).unwrap_or_else(|e| panic!("read error {e}\n{text}"));
    assert_eq!(reports.len(), 1);
    match &reports[0].verdict {
        Ok(_) => panic!("verified but should not:\n{text}"),
        Err(error) => {
            assert!(!error.to_string().is_empty());
            error.clone()
        }
    }
}

#[test]
fn corrupted_moves_and_reveals_are_reported() {
    let plain = write_game(&constructed_endings()[0], "t");
    let covered = write_game(&constructed_endings()[1], "t");
    let bad = replay_error(&plain.replace("2. g4", "2. g5"));
    assert!(
        matches!(
            bad,
            ReplayError::BadMove {
                ply: 3,
                line: Some(_),
                fault: MoveFault::San(SanError::Illegal(_)),
                ..
            }
        ),
        "{bad:?}"
    );
    // The covered fool's mate, with each kind of wrong reveal.
    for (from, to, expected) in [
        ("g2g4=P", "g2g4", "missing"),
        ("g2g4=P", "g2g4=K", "bad"),
        // Black's one queen revealed on e5, so the d8 reveal cannot draw a queen.
        ("e7e5=P", "e7e5=Q", "pool"),
        ("g2g4=P", "g2g5=P", "illegal"),
    ] {
        let error = replay_error(&covered.replace(from, to));
        let fault = match &error {
            ReplayError::BadMove {
                fault: MoveFault::Played(fault),
                ..
            } => fault.clone(),
            other => panic!("{expected}: {other:?}"),
        };
        match expected {
            "missing" => assert!(matches!(fault, MoveError::MissingReveal(_)), "{fault:?}"),
            "bad" => assert!(matches!(fault, MoveError::BadReveal(_)), "{fault:?}"),
            "pool" => assert!(
                matches!(fault, MoveError::RoleNotInPool { role: Role::Queen, .. }),
                "{fault:?}"
            ),
            _ => assert!(matches!(fault, MoveError::Illegal(_)), "{fault:?}"),
        }
    }
    // A suffix on a move that reveals nothing.
    let record = record_of(
        Variant::Covered,
        Position::covered_start(),
        "g1f3=N g8f6=N f3g1",
        Ending::MaxPlies,
        None,
    );
    let text = write_game(&record, "t").replace("f3g1", "f3g1=N");
    let error = replay_error(&text);
    assert!(
        matches!(
            error,
            ReplayError::BadMove {
                fault: MoveFault::Played(MoveError::UnexpectedReveal(_)),
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn inconsistent_endings_and_results_are_reported() {
    let mate = write_game(&constructed_endings()[0], "t");
    let error = replay_error(&mate.replace("[Result \"0-1\"]", "[Result \"1-0\"]"));
    assert!(matches!(error, ReplayError::ResultMarker { .. }), "{error:?}");
    let error = replay_error(
        &mate
            .replace("[Result \"0-1\"]", "[Result \"1-0\"]")
            .replace("} 0-1", "} 1-0"),
    );
    assert!(matches!(error, ReplayError::ResultMismatch { .. }), "{error:?}");
    let error = replay_error(&mate.replace("[EndingSide \"White\"]", "[EndingSide \"Black\"]"));
    assert!(matches!(error, ReplayError::EndingMismatch { .. }), "{error:?}");
    let error = replay_error(&mate.replace("[EndingSide \"White\"]\n", ""));
    assert!(matches!(error, ReplayError::BadTag { name: "Ending", .. }), "{error:?}");
    let error = replay_error(&mate.replace("[PlyCount \"4\"]", "[PlyCount \"5\"]"));
    assert!(matches!(error, ReplayError::PlyCount { tag: 5, moves: 4 }), "{error:?}");
    let error = replay_error(&mate.replace("[Ending \"checkmate\"]\n", ""));
    assert!(matches!(error, ReplayError::MissingTag("Ending")), "{error:?}");

    // Endings that do not fit the final position.
    let claims = [
        (Ending::Checkmate(Color::Black), "e4"),
        (Ending::Stalemate, "e4"),
        (Ending::FivefoldRepetition, "Nf3 Nf6 Ng1 Ng8"),
        (Ending::ThreefoldRepetition, "Nf3 Nf6 Ng1"),
        (Ending::FiftyMoveRule, "e4"),
        (Ending::TimeForfeit(Color::White), "e4"),
        (Ending::IllegalMove(Color::White), "e4"),
        (Ending::Disconnect(Color::Black), "e4 e5"),
        (Ending::TimeoutNoMate(Color::Black), "e4"),
    ];
    for (ending, line) in claims {
        let mut record = record_of(Variant::Chess, Position::standard_start(), "", ending, None);
        let mut p = record.start.clone();
        for text in line.split_whitespace() {
            let m = p.parse_san(text).unwrap();
            record.moves.push(plain(m, None));
            p.play_mut(m, None);
        }
        let error = verify_record(&record).unwrap_err();
        assert!(
            matches!(error, ReplayError::EndingMismatch { .. }),
            "{ending:?}: {error:?}"
        );
        let error = replay_error(&write_game(&record, "t"));
        assert!(
            matches!(error, ReplayError::EndingMismatch { .. }),
            "{ending:?}: {error:?}"
        );
    }
    // A lone king cannot mate: White's flag falling draws, so a forfeit is wrong.
    let lone = record_of(
        Variant::Chess,
        position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        "",
        Ending::TimeForfeit(Color::White),
        None,
    );
    assert!(matches!(verify_record(&lone), Err(ReplayError::EndingMismatch { .. })));
    // Mate on the board, recorded as a time forfeit of the mated side.
    let mut missed = constructed_endings()[0].clone();
    missed.ending = Ending::TimeForfeit(Color::White);
    assert!(matches!(
        verify_record(&missed),
        Err(ReplayError::EndingMismatch { .. })
    ));
}

#[test]
fn moves_after_the_end_are_reported() {
    // Fivefold after 16 plies, then the game goes on.
    let record = record_of(
        Variant::Chess,
        Position::standard_start(),
        &format!("{}Nf3", "Nf3 Nf6 Ng1 Ng8 ".repeat(4)),
        Ending::FivefoldRepetition,
        None,
    );
    let expected = ReplayError::EndedEarly {
        ply: 16,
        ending: Ending::FivefoldRepetition,
    };
    assert_eq!(verify_record(&record), Err(expected.clone()));
    assert_eq!(replay_error(&write_game(&record, "t")), expected);
    // A dead position, then more moves.
    let mut dead = record_of(
        Variant::Chess,
        position("8/8/8/4k3/8/8/4p3/4K3 w - - 0 1"),
        "Kxe2 Kd4",
        Ending::MaxPlies,
        None,
    );
    assert!(matches!(
        verify_record(&dead),
        Err(ReplayError::EndedEarly {
            ply: 1,
            ending: Ending::InsufficientMaterial
        })
    ));
    dead.moves.pop();
    assert!(matches!(verify_record(&dead), Err(ReplayError::EndingMismatch { .. })));
}

#[test]
fn bad_starts_and_tags_are_reported() {
    let base = write_game(&constructed_endings()[0], "t");
    let with_fen = |fen: &str| base.replace("[TimeControl", &format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n[TimeControl"));
    let error = replay_error(&with_fen("not a fen"));
    assert!(matches!(error, ReplayError::BadFen { .. }), "{error:?}");
    let error = replay_error(&with_fen(
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
    ));
    assert!(matches!(error, ReplayError::CoveredStartInChess), "{error:?}");
    let error = replay_error(&base.replace("[Seed \"12345\"]", "[Seed \"-1\"]"));
    assert!(matches!(error, ReplayError::BadTag { name: "Seed", .. }), "{error:?}");
    let error = replay_error(&base.replace("[Round \"4.2\"]", "[Round \"0.1\"]"));
    assert!(matches!(error, ReplayError::BadTag { name: "Round", .. }), "{error:?}");
    let error = replay_error(&base.replace("[Event", "[Variant \"crazyhouse\"]\n[Event"));
    assert!(
        matches!(error, ReplayError::BadTag { name: "Variant", .. }),
        "{error:?}"
    );
    // A covered game without a FEN starts from the covered start.
    let covered = write_game(&constructed_endings()[1], "t");
    let stripped: String = covered
        .lines()
        .filter(|l| !l.starts_with("[FEN") && !l.starts_with("[SetUp"))
        .map(|l| format!("{l}\n"))
        .collect();
    let records = verified_records(&stripped).unwrap();
    assert_eq!(records[0], constructed_endings()[1]);
}

#[test]
fn truncated_texts_are_reported_never_a_panic() {
    let records: Vec<GameRecord> = constructed_endings().into_iter().take(4).collect();
    let text: String = records.iter().map(|r| write_game(r, "t")).collect();
    let last_result = text.trim_end().len();
    let last_game_start = text[..last_result].rfind("[Event").unwrap();
    for cut in (0..last_result).filter(|&i| text.is_char_boundary(i)) {
        let prefix = &text[..cut];
        match replay_text(prefix) {
            Err(error) => assert!(!error.to_string().is_empty()),
            Ok(reports) => {
                let all_ok = reports.iter().all(|r| r.verdict.is_ok());
                assert!(
                    reports.len() < records.len() || !all_ok,
                    "a text cut at {cut} verified whole:\n{prefix}"
                );
                if cut > last_game_start + 1 {
                    panic!("a text cut inside the last game read without error at {cut}:\n{prefix}");
                }
            }
        }
    }
    // Cut before the result, the reader says so with the game's number.
    let cut = &text[..last_result - 3];
    let error = read_games(cut).unwrap_err();
    assert_eq!(error.game, 4);
    assert_eq!(error.kind, PgnErrorKind::MissingResult);
}

#[test]
fn garbage_is_reported_never_a_panic() {
    for text in [
        "",
        "\u{feff}",
        "garbage",
        "[",
        "[Event",
        "[Event \"x",
        "[Event \"x\"",
        "[Event x]",
        "[\"x\"]",
        "[Event \"a\\q\"] *",
        "{never closed",
        "(never closed",
        "1. e4 (1... e5 {x} (2. Nf3)",
        ")",
        "1. e4 e5 @",
        "1. e4 e5 1-0 [Event \"x\"]",
        "1. e4 [Event \"x\"] 1-0",
        "% escaped line\n*",
        "$1 $ 1.. ... 1-0",
        "1-0 0-1 1/2-1/2 *",
        "1/2",
        "\u{0}\u{1}\u{7f}",
        "[Event \"é\"] 1. é4 *",
        "99999999999999999999999. e4 *",
    ] {
        if let Ok(reports) = replay_text(text) {
            for report in reports {
                if let Err(error) = report.verdict {
                    assert!(!error.to_string().is_empty());
                }
            }
        }
    }
    let error = read_games("1. e4 e5 @").unwrap_err();
    assert_eq!(
        (error.game, error.line, error.kind),
        (1, 1, PgnErrorKind::UnexpectedChar('@'))
    );
    let error = read_games("[Event \"x\"]\n*\n\n[Event \"y\"]\n{open").unwrap_err();
    assert_eq!(
        (error.game, error.line, error.kind),
        (2, 5, PgnErrorKind::UnterminatedComment)
    );
    // A standard reader's leniencies: move numbers run into moves, variations, NAGs, `;`.
    let games = read_games("[Event \"x\"]\n1.e4 $1 (1.d4 {alt}) e5!? ; rest\n2.Nf3 *").unwrap();
    let moves: Vec<&str> = games[0]
        .movetext
        .iter()
        .filter_map(|t| match &t.kind {
            TokenKind::Move(m) => Some(m.as_str()),
            TokenKind::Comment(_) => None,
        })
        .collect();
    assert_eq!(moves, ["e4", "e5!?", "Nf3"]);
    assert_eq!(games[0].result, None);

    // Random bytes, and random soups of PGN's own characters.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let alphabet: Vec<char> = "[]{}()\"\\;%$*.- \n\t0123456789abcdefghNBRQKOx=+#!?/".chars().collect();
    let valid = write_game(&constructed_endings()[1], "t");
    for round in 0..3000 {
        let text: String = match round % 3 {
            0 => {
                let bytes: Vec<u8> = (0..rng.gen_range(0..200)).map(|_| rng.gen()).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            1 => (0..rng.gen_range(0..200))
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect(),
            _ => {
                // A valid game with a few characters changed.
                let mut chars: Vec<char> = valid.chars().collect();
                for _ in 0..rng.gen_range(1..4) {
                    let i = rng.gen_range(0..chars.len());
                    chars[i] = alphabet[rng.gen_range(0..alphabet.len())];
                }
                chars.into_iter().collect()
            }
        };
        if let Ok(reports) = replay_text(&text) {
            for report in reports {
                if let Ok(record) = report.verdict {
                    verify_record(&record).expect("a verdict of ok verifies");
                }
            }
        }
    }
}

// ----- veil replay -----------------------------------------------------------------------------

#[test]
fn veil_replay_exit_statuses() {
    let good: String = constructed_endings().iter().map(|r| write_game(r, "t")).collect();
    let bad = good.replacen("2. g4", "2. g5", 1);
    let cases = [
        ("good.pgn", good.as_str(), 0, "19 games: 19 verified, 0 with errors"),
        ("bad.pgn", bad.as_str(), 1, "19 games: 18 verified, 1 with errors"),
        ("garbage.pgn", "1. e4 {", 2, ""),
        ("empty.pgn", "\n", 2, ""),
    ];
    for (name, text, status, summary) in cases {
        let path = temp_file(name, text);
        let output = Command::new(env!("CARGO_BIN_EXE_veil"))
            .arg("replay")
            .arg(&path)
            .output()
            .expect("run veil replay");
        let _ = std::fs::remove_file(&path);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(status), "{name}: {stdout}");
        assert!(stdout.contains(summary), "{name}: {stdout}");
        if status == 1 {
            assert!(
                stdout.contains("game 1 (line 1): error: ply 3 (line 15), 'g5': "),
                "{stdout}"
            );
        }
        if status == 2 {
            assert!(!output.stderr.is_empty());
        }
    }
    let output = Command::new(env!("CARGO_BIN_EXE_veil"))
        .args(["replay", "/nonexistent/veil/games.pgn"])
        .output()
        .expect("run veil replay");
    assert_eq!(output.status.code(), Some(2));
}

// ----- python-chess ----------------------------------------------------------------------------

/// Reads every game of a PGN file with python-chess and prints, per game, its SAN moves,
/// the final FEN and any errors python-chess noted.
const PYTHON_READER: &str = r#"
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.board()
        sans = []
        for move in game.mainline_moves():
            sans.append(board.san(move))
            board.push(move)
        print("SAN " + " ".join(sans))
        print("FEN " + board.fen())
        print("ERRORS " + str(len(game.errors)) + " " + " ".join(str(e) for e in game.errors))
        print("RESULT " + game.headers.get("Result", "?"))
"#;

#[test]
fn python_chess_reads_plain_games_as_we_do() {
    let available = Command::new("python3").args(["-c", "import chess.pgn"]).output();
    match available {
        Ok(output) if output.status.success() => {}
        Ok(output) => panic!(
            "python3 cannot import chess.pgn ({}); run scripts/setup.sh to install python-chess",
            String::from_utf8_lossy(&output.stderr).trim()
        ),
        Err(error) => panic!("cannot run python3 ({error}); run scripts/setup.sh to install python-chess"),
    }
    let mut records: Vec<GameRecord> = (0..30)
        .map(|seed| random_record(Variant::Chess, 2000 + seed, 400))
        .collect();
    records.extend(
        constructed_endings()
            .into_iter()
            .filter(|r| r.variant == Variant::Chess),
    );
    let text: String = records.iter().map(|r| write_game(r, "veil match")).collect();
    let path = temp_file("python.pgn", &text);
    let output = Command::new("python3")
        .args(["-c", PYTHON_READER])
        .arg(&path)
        .output()
        .expect("run python3");
    let _ = std::fs::remove_file(&path);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), records.len() * 4, "{stdout}");
    let mut promotions = 0;
    let mut castles = 0;
    for (record, answer) in records.iter().zip(lines.chunks(4)) {
        let mut p = record.start.clone();
        let mut sans = Vec::new();
        for played in &record.moves {
            sans.push(p.san(played.m));
            p.play_mut(played.m, None);
        }
        promotions += sans.iter().filter(|s| s.contains('=')).count();
        castles += sans.iter().filter(|s| s.starts_with("O-O")).count();
        assert_eq!(
            answer[0].strip_prefix("SAN ").unwrap_or(answer[0]).trim(),
            sans.join(" ")
        );
        assert_eq!(answer[1], format!("FEN {}", p.to_fen()));
        assert_eq!(answer[2].trim(), "ERRORS 0");
        assert_eq!(answer[3], format!("RESULT {}", record.result.pgn()));
    }
    assert!(
        promotions > 0 && castles > 0,
        "promotions {promotions}, castles {castles}"
    );
}
