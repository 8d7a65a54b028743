//! PGN for the games `veil match` plays: the writer, and a reader that splits a file into tag
//! pairs and movetext tokens (the replayer, `replay.rs`, gives them meaning).
//!
//! The encoding (protocol.md, "Game records in PGN"): the seven-tag roster, then `Variant`
//! (`Covered`, left out for plain chess so that any chess reader takes the game), `SetUp` and
//! `FEN` when the start is not the standard one (always for covered games), `TimeControl`,
//! `Termination`, `Ending`, `EndingSide`, `Seed`, `PlyCount`. Plain-chess moves are in SAN;
//! covered moves in UCI notation with the reveal suffix, exactly as `position ... moves`
//! takes them. A move the engine commented gets `{+0.31/12 0.412s}` (score in pawns from the
//! mover's side, depth, thinking time), and a last comment says why the game ended.

use super::record::{Ending, EngineScore, GameRecord, GameResult, PlayedMove, Variant};
use crate::rules::{Color, Position, STANDARD_START_FEN};
use std::fmt;

/// Movetext lines are at most this long (the PGN export format's limit, inside 80 columns).
pub const LINE_WIDTH: usize = 79;

// ----- writing -------------------------------------------------------------------------------

/// The game in PGN: tag pairs, a blank line, the movetext and a blank line, so that games
/// written one after another make a PGN file.
pub fn write_game(record: &GameRecord, event: &str) -> String {
    let mut out = String::with_capacity(1024);
    let mut tag = |name: &str, value: &str| {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        out.push_str(&escape_tag_value(value));
        out.push_str("\"]\n");
    };
    tag("Event", event);
    tag("Site", "?");
    tag("Date", &record.date);
    tag(
        "Round",
        &format!("{}.{}", record.pair + 1, u64::from(record.game_in_pair) + 1),
    );
    tag("White", &record.white);
    tag("Black", &record.black);
    tag("Result", record.result.pgn());
    if record.variant == Variant::Covered {
        tag("Variant", "Covered");
    }
    let fen = record.start.to_fen();
    if record.variant == Variant::Covered || fen != STANDARD_START_FEN {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    tag("TimeControl", &record.time_control);
    tag("Termination", record.ending.termination());
    tag("Ending", record.ending.slug());
    if let Some(side) = record.ending.side() {
        tag("EndingSide", side_name(side));
    }
    tag("Seed", &record.seed.to_string());
    tag("PlyCount", &record.moves.len().to_string());
    out.push('\n');
    out.push_str(&wrap(&movetext_words(record), LINE_WIDTH));
    out.push('\n');
    out
}

/// `White` or `Black`, as the `EndingSide` tag and the final comment write a side.
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The readable reason of the final comment, without the detail (`White loses on time`).
pub fn ending_reason(ending: Ending) -> String {
    let side = |c: Color| side_name(c);
    match ending {
        Ending::Checkmate(loser) => format!("{} mates", side(!loser)),
        Ending::Stalemate => "Draw by stalemate".to_string(),
        Ending::FivefoldRepetition => "Draw by fivefold repetition".to_string(),
        Ending::SeventyFiveMoveRule => "Draw by the seventy-five-move rule".to_string(),
        Ending::InsufficientMaterial => "Draw by insufficient material".to_string(),
        Ending::ThreefoldRepetition => "Draw by threefold repetition, claimed".to_string(),
        Ending::FiftyMoveRule => "Draw by the fifty-move rule, claimed".to_string(),
        Ending::TimeForfeit(c) => format!("{} loses on time", side(c)),
        Ending::TimeoutNoMate(c) => format!("{} runs out of time but {} cannot mate: draw", side(c), side(!c)),
        Ending::IllegalMove(c) => format!("{} makes an illegal move", side(c)),
        Ending::Disconnect(c) => format!("{} disconnects", side(c)),
        Ending::Resignation(c) => format!("{} loses by adjudication", side(c)),
        Ending::AdjudicatedDraw => "Draw by adjudication".to_string(),
        Ending::MaxPlies => "Draw at the ply limit".to_string(),
    }
}

/// The final comment's text: the reason, then `: ` and the detail if there is one.
pub fn final_comment(ending: Ending, detail: Option<&str>) -> String {
    let reason = ending_reason(ending);
    match detail.map(comment_text).filter(|d| !d.is_empty()) {
        Some(detail) => format!("{reason}: {detail}"),
        None => reason,
    }
}

/// What an engine said of its move, as the per-move comment carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineNote {
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub millis: Option<u64>,
}

impl EngineNote {
    pub fn of(played: &PlayedMove) -> EngineNote {
        EngineNote {
            score: played.score,
            depth: played.depth,
            millis: played.millis,
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == EngineNote::default()
    }

    /// The comment text (`+0.31/12 0.412s`, `-M3/20`, `/12`, `1.500s`), or `None` when the
    /// engine said nothing.
    pub fn text(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut text = String::new();
        match self.score {
            Some(EngineScore::Centipawns(cp)) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let magnitude = cp.unsigned_abs();
                text.push_str(&format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100));
            }
            Some(EngineScore::Mate(n)) => {
                let sign = if n < 0 { '-' } else { '+' };
                text.push_str(&format!("{sign}M{}", n.unsigned_abs()));
            }
            None => {}
        }
        if let Some(depth) = self.depth {
            text.push_str(&format!("/{depth}"));
        }
        if let Some(millis) = self.millis {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&format!("{}.{:03}s", millis / 1000, millis % 1000));
        }
        Some(text)
    }

    /// Reads a comment written by [`EngineNote::text`]; `None` if it is anything else.
    pub fn parse(comment: &str) -> Option<EngineNote> {
        let words: Vec<&str> = comment.split_whitespace().collect();
        let (head, time) = match words.as_slice() {
            [one] if one.ends_with('s') => (None, Some(*one)),
            [one] => (Some(*one), None),
            [head, time] => (Some(*head), Some(*time)),
            _ => return None,
        };
        let mut note = EngineNote::default();
        if let Some(head) = head {
            let (score, depth) = match head.split_once('/') {
                Some((score, depth)) => (score, Some(depth)),
                None => (head, None),
            };
            if !score.is_empty() {
                note.score = Some(parse_score(score)?);
            }
            if let Some(depth) = depth {
                note.depth = Some(parse_digits(depth)?);
            }
        }
        if let Some(time) = time {
            let (seconds, fraction) = time.strip_suffix('s')?.split_once('.')?;
            let fraction: u64 = match fraction.len() {
                3 => parse_digits(fraction)?,
                _ => return None,
            };
            let seconds: u64 = parse_digits(seconds)?;
            note.millis = Some(seconds.checked_mul(1000)?.checked_add(fraction)?);
        }
        (!note.is_empty()).then_some(note)
    }
}

/// Digits only (no sign, no spaces), fitting the type.
fn parse_digits<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_score(text: &str) -> Option<EngineScore> {
    let (negative, body) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(distance) = body.strip_prefix('M') {
        let n: i32 = parse_digits(distance)?;
        return Some(EngineScore::Mate(sign * n));
    }
    let (pawns, hundredths) = body.split_once('.')?;
    if hundredths.len() != 2 {
        return None;
    }
    let pawns: i32 = parse_digits(pawns)?;
    let hundredths: i32 = parse_digits(hundredths)?;
    Some(EngineScore::Centipawns(
        sign * pawns.checked_mul(100)?.checked_add(hundredths)?,
    ))
}

/// A tag value with `\` and `"` escaped and control characters turned into spaces.
fn escape_tag_value(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            c if c.is_control() => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Text made safe for a `{...}` comment: no `}`, whitespace runs as single spaces.
fn comment_text(text: &str) -> String {
    text.replace('}', ")").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The movetext as units of wrapping (move numbers, moves, comments, the result).
fn movetext_words(record: &GameRecord) -> Vec<String> {
    let mut words = Vec::with_capacity(record.moves.len() * 2 + 8);
    let mut position: Option<Position> = Some(record.start.clone());
    let mut side = record.start.side_to_move();
    let mut number = record.start.fullmove_number();
    let mut needs_number = true;
    for played in &record.moves {
        let prefix = match side {
            Color::White => format!("{number}. "),
            Color::Black if needs_number => format!("{number}... "),
            Color::Black => String::new(),
        };
        needs_number = false;
        // A record holds legal moves with fitting reveals; should one not, its text is
        // written as given and the position is no longer followed, rather than playing it.
        let text = match position.as_ref() {
            Some(p) if fits(p, played) => match record.variant {
                Variant::Chess => p.san(played.m),
                Variant::Covered => p.move_text(played.m, played.reveal),
            },
            _ => {
                position = None;
                match played.reveal {
                    Some(role) => format!("{}={}", played.m, role.upper_char()),
                    None => played.m.to_string(),
                }
            }
        };
        // A move number stays on the line of its move.
        words.push(prefix + &text);
        if let Some(p) = position.as_mut() {
            p.play_mut(played.m, played.reveal);
        }
        if let Some(note) = EngineNote::of(played).text() {
            push_comment(&mut words, &note);
            needs_number = true;
        }
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    push_comment(&mut words, &final_comment(record.ending, record.detail.as_deref()));
    words.push(record.result.pgn().to_string());
    words
}

/// Whether `played` is a legal move here with its reveal present exactly when it reveals and
/// held by the pool.
fn fits(position: &Position, played: &PlayedMove) -> bool {
    let reveals = position.is_reveal(played.m);
    position.is_legal(played.m)
        && match played.reveal {
            None => !reveals,
            Some(role) => reveals && position.pool(position.side_to_move()).contains(role),
        }
}

/// A comment as one unit of wrapping when it fits on a line, else word by word.
fn push_comment(words: &mut Vec<String>, text: &str) {
    let comment = format!("{{{}}}", comment_text(text));
    if comment.chars().count() <= LINE_WIDTH {
        words.push(comment);
    } else {
        words.extend(comment.split(' ').map(str::to_string));
    }
}

/// Joins units (which may hold spaces) with spaces into lines of at most `width` characters
/// (a longer unit stands alone on its line), each ended by a newline.
fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in words {
        let length = word.chars().count();
        if line > 0 && line + 1 + length > width {
            out.push('\n');
            line = 0;
        }
        if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += length;
    }
    out.push('\n');
    out
}

// ----- reading -------------------------------------------------------------------------------

/// One game of a PGN file, split but not interpreted.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// 1 for the file's first game.
    pub number: usize,
    /// The line the game starts on, from 1.
    pub line: usize,
    /// The tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Moves and comments in order (move numbers, NAGs and variations left out).
    pub movetext: Vec<Token>,
    /// The game termination marker: a result, or `None` for `*`.
    pub result: Option<GameResult>,
}

impl PgnGame {
    /// The value of the first tag of this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// A movetext token with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub line: usize,
    pub kind: TokenKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A move as written (`Nf3+`, `e2e4=N`), annotations attached included.
    Move(String),
    /// A `{...}` or `;` comment, its whitespace runs made single spaces.
    Comment(String),
}

/// Why a PGN text cannot be split into games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game (from 1) being read.
    pub game: usize,
    /// The line (from 1) of the fault.
    pub line: usize,
    pub kind: PgnErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A `[Name "value"]` pair that is not well formed; says what is wrong.
    BadTag(&'static str),
    /// A `{` comment never closed.
    UnterminatedComment,
    /// A `(` variation never closed.
    UnterminatedVariation,
    /// A character that has no place in movetext.
    UnexpectedChar(char),
    /// The game's movetext ends (at the end of the text, or where the next game's tags start)
    /// without a result: the text was cut or a game is missing its end.
    MissingResult,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, line {}: ", self.game, self.line)?;
        match &self.kind {
            PgnErrorKind::BadTag(what) => write!(f, "bad tag pair: {what}"),
            PgnErrorKind::UnterminatedComment => write!(f, "comment opened with '{{' is never closed"),
            PgnErrorKind::UnterminatedVariation => write!(f, "variation opened with '(' is never closed"),
            PgnErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {c:?} in movetext"),
            PgnErrorKind::MissingResult => {
                write!(
                    f,
                    "the game ends without a result (1-0, 0-1, 1/2-1/2 or *); is the text cut?"
                )
            }
        }
    }
}

impl std::error::Error for PgnError {}

/// Splits a PGN text into games. Any text gives games or an error, never a panic.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    Reader::new(text).read_all()
}

/// A character cursor that counts lines.
struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    at_line_start: bool,
    games: Vec<PgnGame>,
}

/// Characters a move, move number or result may hold.
fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_+#=:-/!?.".contains(c)
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            chars: text.strip_prefix('\u{feff}').unwrap_or(text).chars().peekable(),
            line: 1,
            at_line_start: true,
            games: Vec::new(),
        }
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.at_line_start = c == '\n';
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn error(&self, line: usize, kind: PgnErrorKind) -> PgnError {
        PgnError {
            game: self.games.len() + 1,
            line,
            kind,
        }
    }

    fn skip_line(&mut self) -> String {
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            text.push(c);
            self.next();
        }
        text
    }

    fn read_all(mut self) -> Result<Vec<PgnGame>, PgnError> {
        let mut game = PgnGame {
            number: 1,
            line: 0,
            tags: Vec::new(),
            movetext: Vec::new(),
            result: None,
        };
        loop {
            let line_start = self.at_line_start;
            let Some(c) = self.peek() else { break };
            if c.is_whitespace() {
                self.next();
                continue;
            }
            if game.line == 0 {
                game.line = self.line;
            }
            let line = self.line;
            match c {
                '%' if line_start => {
                    self.skip_line();
                }
                '[' => {
                    if !game.movetext.is_empty() {
                        return Err(self.error(line, PgnErrorKind::MissingResult));
                    }
                    self.next();
                    let pair = self.read_tag()?;
                    game.tags.push(pair);
                }
                '{' => {
                    self.next();
                    let comment = self.read_brace_comment(line)?;
                    game.movetext.push(Token {
                        line,
                        kind: TokenKind::Comment(comment),
                    });
                }
                ';' => {
                    self.next();
                    let comment = self.skip_line().split_whitespace().collect::<Vec<_>>().join(" ");
                    game.movetext.push(Token {
                        line,
                        kind: TokenKind::Comment(comment),
                    });
                }
                '(' => {
                    self.next();
                    self.skip_variation(line)?;
                }
                '$' => {
                    self.next();
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.next();
                    }
                }
                '*' => {
                    self.next();
                    self.finish(&mut game, None);
                }
                c if is_symbol_char(c) => {
                    let symbol = self.read_symbol();
                    if let Some(result) = GameResult::from_pgn(&symbol) {
                        self.finish(&mut game, Some(result));
                        continue;
                    }
                    // A move number (`12.`, `12...`), perhaps run into its move (`12.e4`).
                    let digits = symbol.bytes().take_while(u8::is_ascii_digit).count();
                    let rest = &symbol[digits..];
                    let symbol = if digits > 0 && rest.starts_with('.') {
                        rest.trim_start_matches('.')
                    } else {
                        &symbol
                    };
                    // Annotations standing alone (`!?`) are not moves.
                    if !symbol.is_empty() && !symbol.chars().all(|c| c == '!' || c == '?') {
                        game.movetext.push(Token {
                            line,
                            kind: TokenKind::Move(symbol.to_string()),
                        });
                    }
                }
                c => return Err(self.error(line, PgnErrorKind::UnexpectedChar(c))),
            }
        }
        if !game.tags.is_empty() || !game.movetext.is_empty() {
            return Err(self.error(self.line, PgnErrorKind::MissingResult));
        }
        Ok(self.games)
    }

    fn finish(&mut self, game: &mut PgnGame, result: Option<GameResult>) {
        let number = self.games.len() + 2;
        let mut done = std::mem::replace(
            game,
            PgnGame {
                number,
                line: 0,
                tags: Vec::new(),
                movetext: Vec::new(),
                result: None,
            },
        );
        done.result = result;
        self.games.push(done);
    }

    fn read_symbol(&mut self) -> String {
        let mut symbol = String::new();
        while let Some(c) = self.peek().filter(|&c| is_symbol_char(c)) {
            symbol.push(c);
            self.next();
        }
        symbol
    }

    /// Reads `Name "value"]` (the `[` already taken).
    fn read_tag(&mut self) -> Result<(String, String), PgnError> {
        let line = self.line;
        let bad = |reader: &Self, what| reader.error(line, PgnErrorKind::BadTag(what));
        self.skip_blanks();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || *c == '_') {
            name.push(c);
            self.next();
        }
        if name.is_empty() {
            return Err(bad(self, "the tag has no name"));
        }
        self.skip_blanks();
        if self.next() != Some('"') {
            return Err(bad(self, "the name is not followed by a quoted value"));
        }
        let mut value = String::new();
        loop {
            match self.next() {
                Some('"') => break,
                Some('\\') => match self.next() {
                    Some(c @ ('\\' | '"')) => value.push(c),
                    _ => return Err(bad(self, "a backslash in the value escapes neither '\\' nor '\"'")),
                },
                Some('\n') | None => return Err(bad(self, "the value's closing quote is missing")),
                Some(c) => value.push(c),
            }
        }
        self.skip_blanks();
        if self.next() != Some(']') {
            return Err(bad(self, "the closing ']' is missing"));
        }
        Ok((name, value))
    }

    /// Skips spaces and tabs, not line ends.
    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t' || c == '\r') {
            self.next();
        }
    }

    /// Reads a comment up to its `}` (the `{` already taken).
    fn read_brace_comment(&mut self, line: usize) -> Result<String, PgnError> {
        let mut text = String::new();
        loop {
            match self.next() {
                Some('}') => break,
                Some(c) => text.push(c),
                None => return Err(self.error(line, PgnErrorKind::UnterminatedComment)),
            }
        }
        Ok(text.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// Skips a variation and those nested in it (the `(` already taken).
    fn skip_variation(&mut self, line: usize) -> Result<(), PgnError> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.next() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => {
                    let comment_line = self.line;
                    self.read_brace_comment(comment_line)?;
                }
                Some(';') => {
                    self.skip_line();
                }
                Some(_) => {}
                None => return Err(self.error(line, PgnErrorKind::UnterminatedVariation)),
            }
        }
        Ok(())
    }
}
