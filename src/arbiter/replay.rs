//! `veil replay`: reads a PGN file back into game records and checks that every game is one
//! the rules allow, from its start to the ending it claims.
//!
//! A game verifies when its start parses, every move is legal with a reveal exactly when it
//! reveals (naming a role the pool holds), no automatic end (RULES.md §7) came before the last
//! move, the recorded ending fits the final position, and the result is the ending's.

use super::pgn::{ending_reason, final_comment, read_games, EngineNote, PgnError, PgnGame, TokenKind};
use super::record::{Ending, GameRecord, GameResult, PlayedMove, Variant};
use crate::rules::{Color, FenError, Game, MoveError, Position, SanError};
use std::fmt;
use std::io::Write;
use std::path::Path;

/// Why a game does not verify.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayError {
    /// A tag the record needs is missing.
    MissingTag(&'static str),
    /// A tag's value cannot be read.
    BadTag {
        name: &'static str,
        value: String,
        expected: &'static str,
    },
    BadFen {
        fen: String,
        error: FenError,
    },
    /// A plain-chess game whose start has covered pieces or pools.
    CoveredStartInChess,
    /// `PlyCount` disagrees with the moves.
    PlyCount {
        tag: usize,
        moves: usize,
    },
    /// A move that cannot be played where it stands.
    BadMove {
        /// The ply, from 1.
        ply: usize,
        /// The PGN line, when the game came from text.
        line: Option<usize>,
        text: String,
        fault: MoveFault,
    },
    /// An automatic end (mate, stalemate, dead position, fivefold, 75 moves) came after
    /// `ply` plies, yet the game went on.
    EndedEarly {
        ply: usize,
        ending: Ending,
    },
    /// The result marker after the moves disagrees with the `Result` tag.
    ResultMarker {
        tag: GameResult,
        marker: Option<GameResult>,
    },
    /// The result is not the one the ending gives.
    ResultMismatch {
        ending: Ending,
        result: GameResult,
    },
    /// The ending does not fit the final position; says why.
    EndingMismatch {
        ending: Ending,
        why: String,
    },
}

/// What is wrong with a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveFault {
    /// A plain-chess move in SAN.
    San(SanError),
    /// A covered-chess move in UCI notation with its reveal.
    Played(MoveError),
    /// A recorded move (not from text) that is not legal.
    NotLegal,
    /// A recorded reveal missing on a revealing move, present on another, or naming a role
    /// the pool lacks.
    WrongReveal,
}

impl fmt::Display for MoveFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveFault::San(error) => write!(f, "{error}"),
            MoveFault::Played(error) => write!(f, "{error}"),
            MoveFault::NotLegal => write!(f, "not legal in this position"),
            MoveFault::WrongReveal => write!(f, "reveal missing, unexpected, or not in the pool"),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::MissingTag(name) => write!(f, "no {name} tag"),
            ReplayError::BadTag { name, value, expected } => {
                write!(f, "tag {name} is {value:?}, expected {expected}")
            }
            ReplayError::BadFen { fen, error } => write!(f, "FEN {fen:?}: {error}"),
            ReplayError::CoveredStartInChess => {
                write!(
                    f,
                    "a plain-chess game (no Variant tag) starts from a FEN with covered pieces or pools"
                )
            }
            ReplayError::PlyCount { tag, moves } => write!(f, "PlyCount says {tag} but the game has {moves} plies"),
            ReplayError::BadMove { ply, line, text, fault } => {
                write!(f, "ply {ply}")?;
                if let Some(line) = line {
                    write!(f, " (line {line})")?;
                }
                write!(f, ", '{text}': {fault}")
            }
            ReplayError::EndedEarly { ply, ending } => {
                write!(f, "the game was over after ply {ply} ({}) but goes on", ending.slug())
            }
            ReplayError::ResultMarker { tag, marker } => write!(
                f,
                "the Result tag says {} but the movetext ends with {}",
                tag.pgn(),
                marker.map_or("*", GameResult::pgn)
            ),
            ReplayError::ResultMismatch { ending, result } => write!(
                f,
                "result {} does not follow from the ending {} (which gives {})",
                result.pgn(),
                ending.slug(),
                ending.result().pgn()
            ),
            ReplayError::EndingMismatch { ending, why } => write!(f, "ending {}: {why}", ending_name(*ending)),
        }
    }
}

impl std::error::Error for ReplayError {}

fn ending_name(ending: Ending) -> String {
    match ending.side() {
        Some(side) => format!("{} ({})", ending.slug(), side_word(side)),
        None => ending.slug().to_string(),
    }
}

fn side_word(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn required<'a>(game: &'a PgnGame, name: &'static str) -> Result<&'a str, ReplayError> {
    game.tag(name).ok_or(ReplayError::MissingTag(name))
}

fn bad_tag(name: &'static str, value: &str, expected: &'static str) -> ReplayError {
    ReplayError::BadTag {
        name,
        value: value.to_string(),
        expected,
    }
}

fn read_variant(game: &PgnGame) -> Result<Variant, ReplayError> {
    match game.tag("Variant") {
        None => Ok(Variant::Chess),
        Some(v) if v.eq_ignore_ascii_case("covered") => Ok(Variant::Covered),
        Some(v) if v.eq_ignore_ascii_case("chess") || v.eq_ignore_ascii_case("standard") => Ok(Variant::Chess),
        Some(v) => Err(bad_tag("Variant", v, "Covered, or no Variant tag for plain chess")),
    }
}

fn read_start(game: &PgnGame, variant: Variant) -> Result<Position, ReplayError> {
    let Some(fen) = game.tag("FEN") else {
        return Ok(variant.start_position());
    };
    let start = Position::from_fen(fen).map_err(|error| ReplayError::BadFen {
        fen: fen.to_string(),
        error,
    })?;
    if variant == Variant::Chess && !start.pool_field().is_empty() {
        return Err(ReplayError::CoveredStartInChess);
    }
    Ok(start)
}

fn read_ending(game: &PgnGame) -> Result<Ending, ReplayError> {
    let slug = required(game, "Ending")?;
    let side = match game.tag("EndingSide") {
        None => None,
        Some("White") => Some(Color::White),
        Some("Black") => Some(Color::Black),
        Some(other) => return Err(bad_tag("EndingSide", other, "White or Black")),
    };
    Ending::from_slug(slug, side)
        .ok_or_else(|| bad_tag("Ending", slug, "an ending slug (with EndingSide when it names a side)"))
}

/// `Round "p.g"`: the pair from 1 and the game in it from 1; `?` or missing reads as 1.1.
fn read_round(game: &PgnGame) -> Result<(u64, u8), ReplayError> {
    let value = match game.tag("Round") {
        None | Some("?") | Some("-") | Some("") => return Ok((0, 0)),
        Some(value) => value,
    };
    let expected = "<pair>.<game> counted from 1, like 3.2";
    let parsed = value.split_once('.').and_then(|(pair, game)| {
        let pair: u64 = pair.parse().ok().filter(|&p| p >= 1)?;
        let game: u16 = game.parse().ok().filter(|&g| (1..=256).contains(&g))?;
        Some((pair - 1, (game - 1) as u8))
    });
    parsed.ok_or_else(|| bad_tag("Round", value, expected))
}

/// Reads a game of a PGN file into a record, playing its moves (each must be legal, with its
/// reveal as it should be). The ending is not judged here: see [`verify_record`].
pub fn record_from_pgn(game: &PgnGame) -> Result<GameRecord, ReplayError> {
    let variant = read_variant(game)?;
    let start = read_start(game, variant)?;
    let result_text = required(game, "Result")?;
    let result =
        GameResult::from_pgn(result_text).ok_or_else(|| bad_tag("Result", result_text, "1-0, 0-1 or 1/2-1/2"))?;
    if game.result != Some(result) {
        return Err(ReplayError::ResultMarker {
            tag: result,
            marker: game.result,
        });
    }
    let ending = read_ending(game)?;
    let (pair, game_in_pair) = read_round(game)?;
    let seed = match game.tag("Seed") {
        None => 0,
        Some(value) => value.parse().map_err(|_| bad_tag("Seed", value, "a whole number"))?,
    };

    let mut position = start.clone();
    let mut moves: Vec<PlayedMove> = Vec::new();
    let mut annotated = false;
    let mut last_comment: Option<&str> = None;
    for token in &game.movetext {
        match &token.kind {
            TokenKind::Move(text) => {
                let ply = moves.len() + 1;
                let bad = |fault| ReplayError::BadMove {
                    ply,
                    line: Some(token.line),
                    text: text.clone(),
                    fault,
                };
                let (m, reveal) = match variant {
                    Variant::Chess => (position.parse_san(text).map_err(|e| bad(MoveFault::San(e)))?, None),
                    Variant::Covered => position
                        .parse_played_move(text)
                        .map_err(|e| bad(MoveFault::Played(e)))?,
                };
                position.play_mut(m, reveal);
                moves.push(PlayedMove {
                    m,
                    reveal,
                    score: None,
                    depth: None,
                    millis: None,
                });
                annotated = false;
                last_comment = None;
            }
            TokenKind::Comment(text) => match (moves.last_mut(), EngineNote::parse(text)) {
                (Some(played), Some(note)) if !annotated => {
                    played.score = note.score;
                    played.depth = note.depth;
                    played.millis = note.millis;
                    annotated = true;
                }
                _ => last_comment = Some(text),
            },
        }
    }
    if let Some(count) = game.tag("PlyCount") {
        let tag: usize = count
            .parse()
            .map_err(|_| bad_tag("PlyCount", count, "a whole number"))?;
        if tag != moves.len() {
            return Err(ReplayError::PlyCount {
                tag,
                moves: moves.len(),
            });
        }
    }
    // The final comment is the reason, then `: ` and the detail.
    let reason = final_comment(ending, None);
    let detail = last_comment
        .and_then(|c| c.strip_prefix(reason.as_str()))
        .and_then(|rest| rest.strip_prefix(": "))
        .map(str::to_string);

    Ok(GameRecord {
        variant,
        white: game.tag("White").unwrap_or("?").to_string(),
        black: game.tag("Black").unwrap_or("?").to_string(),
        start,
        moves,
        result,
        ending,
        detail,
        time_control: game.tag("TimeControl").unwrap_or("").to_string(),
        seed,
        pair,
        game_in_pair,
        date: game.tag("Date").unwrap_or("????.??.??").to_string(),
    })
}

/// Checks a record against the rules: legal moves with their reveals as they should be, no
/// automatic end before the last move, an ending that fits the final position and a result
/// that is the ending's.
pub fn verify_record(record: &GameRecord) -> Result<(), ReplayError> {
    if record.variant == Variant::Chess && !record.start.pool_field().is_empty() {
        return Err(ReplayError::CoveredStartInChess);
    }
    let mut game = Game::new(record.start.clone());
    for (index, played) in record.moves.iter().enumerate() {
        if let Some(outcome) = game.outcome() {
            return Err(ReplayError::EndedEarly {
                ply: index,
                ending: Ending::from_outcome(outcome),
            });
        }
        let position = game.position();
        let bad = |fault| ReplayError::BadMove {
            ply: index + 1,
            line: None,
            text: position.move_text(played.m, played.reveal),
            fault,
        };
        if !position.is_legal(played.m) {
            return Err(bad(MoveFault::NotLegal));
        }
        let reveal_fits = match played.reveal {
            None => !position.is_reveal(played.m),
            Some(role) => position.is_reveal(played.m) && position.pool(position.side_to_move()).contains(role),
        };
        if !reveal_fits {
            return Err(bad(MoveFault::WrongReveal));
        }
        game.play(played.m, played.reveal);
    }
    check_ending(&game, record.ending)?;
    if record.result != record.ending.result() {
        return Err(ReplayError::ResultMismatch {
            ending: record.ending,
            result: record.result,
        });
    }
    Ok(())
}

/// Whether `ending` fits the game's final position.
fn check_ending(game: &Game, ending: Ending) -> Result<(), ReplayError> {
    let position = game.position();
    let to_move = position.side_to_move();
    let automatic = game.outcome().map(Ending::from_outcome);
    let mismatch = |why: String| Err(ReplayError::EndingMismatch { ending, why });
    let is_automatic = matches!(
        ending,
        Ending::Checkmate(_)
            | Ending::Stalemate
            | Ending::FivefoldRepetition
            | Ending::SeventyFiveMoveRule
            | Ending::InsufficientMaterial
    );
    if is_automatic {
        return match automatic {
            Some(reached) if reached == ending => Ok(()),
            Some(reached) => mismatch(format!("the final position ends the game by {}", ending_name(reached))),
            None => mismatch("the final position does not end the game so".to_string()),
        };
    }
    if let Some(reached) = automatic {
        return mismatch(format!(
            "the final position had already ended the game by {}",
            ending_name(reached)
        ));
    }
    match ending {
        Ending::ThreefoldRepetition if game.repetitions() < 3 => mismatch(format!(
            "the final position has occurred {} time(s), not 3",
            game.repetitions()
        )),
        Ending::FiftyMoveRule if position.halfmove_clock() < 100 => mismatch(format!(
            "the halfmove clock is {}, not 100 or more",
            position.halfmove_clock()
        )),
        // An engine that cannot be started (or does not finish the handshake) loses before
        // the first move, whichever side it plays.
        Ending::Disconnect(_) if game.moves().is_empty() => Ok(()),
        Ending::TimeForfeit(side)
        | Ending::TimeoutNoMate(side)
        | Ending::IllegalMove(side)
        | Ending::Disconnect(side)
            if side != to_move =>
        {
            mismatch(format!(
                "it names {} but {} is to move",
                side_word(side),
                side_word(to_move)
            ))
        }
        Ending::TimeForfeit(side) if !position.can_mate(!side) => mismatch(format!(
            "{} cannot mate, so running out of time draws",
            side_word(!side)
        )),
        Ending::TimeoutNoMate(side) if position.can_mate(!side) => mismatch(format!(
            "{} can still mate, so running out of time loses",
            side_word(!side)
        )),
        _ => Ok(()),
    }
}

/// The verdict on one game of a file.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// From 1.
    pub number: usize,
    /// The line the game starts on.
    pub line: usize,
    pub verdict: Result<GameRecord, ReplayError>,
}

/// Reads and verifies every game of a PGN text; `Err` only when the text cannot be split
/// into games.
pub fn replay_text(text: &str) -> Result<Vec<GameReport>, PgnError> {
    Ok(read_games(text)?
        .iter()
        .map(|game| GameReport {
            number: game.number,
            line: game.line,
            verdict: record_from_pgn(game).and_then(|record| verify_record(&record).map(|()| record)),
        })
        .collect())
}

/// Why a PGN text did not verify as a whole.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayFailure {
    Read(PgnError),
    Game { number: usize, error: ReplayError },
}

impl fmt::Display for ReplayFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayFailure::Read(error) => write!(f, "{error}"),
            ReplayFailure::Game { number, error } => write!(f, "game {number}: {error}"),
        }
    }
}

impl std::error::Error for ReplayFailure {}

/// The records of a PGN text whose every game verifies, or the first fault.
pub fn verified_records(text: &str) -> Result<Vec<GameRecord>, ReplayFailure> {
    replay_text(text)
        .map_err(ReplayFailure::Read)?
        .into_iter()
        .map(|report| {
            report.verdict.map_err(|error| ReplayFailure::Game {
                number: report.number,
                error,
            })
        })
        .collect()
}

/// Exit status of `veil replay`: every game verifies.
pub const EXIT_OK: u8 = 0;
/// Exit status of `veil replay`: some game does not verify.
pub const EXIT_INVALID: u8 = 1;
/// Exit status of `veil replay`: the file cannot be read as PGN (or holds no game).
pub const EXIT_UNREADABLE: u8 = 2;

/// `veil replay FILE`: one line per game (`ok` or `error` with the reason), then a summary;
/// returns the exit status. Write errors on `out` are ignored (the status still tells).
pub fn run(path: &Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let text = match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                let _ = writeln!(err, "error: {} is not UTF-8 text", path.display());
                return EXIT_UNREADABLE;
            }
        },
        Err(error) => {
            let _ = writeln!(err, "error: cannot read {}: {error}", path.display());
            return EXIT_UNREADABLE;
        }
    };
    let reports = match replay_text(&text) {
        Ok(reports) => reports,
        Err(error) => {
            let _ = writeln!(err, "error: {}: {error}", path.display());
            return EXIT_UNREADABLE;
        }
    };
    if reports.is_empty() {
        let _ = writeln!(err, "error: {}: no games", path.display());
        return EXIT_UNREADABLE;
    }
    let mut failed = 0;
    for report in &reports {
        match &report.verdict {
            Ok(record) => {
                let _ = writeln!(
                    out,
                    "game {} (line {}): ok: {} vs {}, {} ({}) after {} plies",
                    report.number,
                    report.line,
                    record.white,
                    record.black,
                    record.result.pgn(),
                    ending_reason(record.ending),
                    record.moves.len()
                );
            }
            Err(error) => {
                failed += 1;
                let _ = writeln!(out, "game {} (line {}): error: {error}", report.number, report.line);
            }
        }
    }
    let _ = writeln!(
        out,
        "{} games: {} verified, {} with errors",
        reports.len(),
        reports.len() - failed,
        failed
    );
    if failed == 0 {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}
