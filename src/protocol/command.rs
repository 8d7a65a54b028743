//! Protocol lines parsed into typed commands. Moves and FENs stay text here: they are read
//! against the current position by the engine loop.

use super::limits::{MAX_BENCH_DEPTH, MAX_GO_DEPTH, MAX_LINE_BYTES, MAX_PERFT_DEPTH, MAX_POSITION_MOVES};
use std::fmt;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    Fen(String),
}

/// The parameters of `go` (times in milliseconds, as sent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
}

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        start: Start,
        moves: Vec<String>,
    },
    /// `go`, with the problems found in its tokens (the search still runs).
    Go {
        params: GoParams,
        problems: Vec<CommandError>,
    },
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the position.
    Display,
    /// `eval`: the static evaluation of the position and its parts.
    Eval,
    /// `bench [depth]`: the node-count signature of the search.
    Bench(Option<u32>),
}

/// A line that is not a well-formed command; the message says what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    Empty,
    Unknown(String),
    MissingArgument {
        command: &'static str,
        what: &'static str,
    },
    BadNumber {
        keyword: String,
        value: String,
    },
    UnexpectedToken {
        command: &'static str,
        token: String,
    },
    /// An input line longer than [`MAX_LINE_BYTES`]; it was skipped unread.
    LineTooLong {
        bytes: usize,
    },
    /// A `position` with more than [`MAX_POSITION_MOVES`] moves.
    TooManyMoves {
        count: usize,
    },
    /// `go depth` beyond [`MAX_GO_DEPTH`]: the search goes to that depth instead.
    DepthAboveLimit {
        depth: u32,
    },
    /// `go perft` or `bench` deeper than its bound: refused whole.
    AboveLimit {
        command: &'static str,
        depth: u32,
        max: u32,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => write!(f, "empty line"),
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::MissingArgument { command, what } => write!(f, "'{command}' needs {what}"),
            CommandError::BadNumber { keyword, value } => {
                write!(f, "'{keyword}' needs a number, got '{value}'")
            }
            CommandError::UnexpectedToken { command, token } => {
                write!(f, "unexpected token '{token}' in '{command}'")
            }
            CommandError::LineTooLong { bytes } => {
                write!(
                    f,
                    "line of {bytes} bytes is longer than the limit of {MAX_LINE_BYTES}; ignored"
                )
            }
            CommandError::TooManyMoves { count } => write!(
                f,
                "'position' lists {count} moves, more than the limit of {MAX_POSITION_MOVES}; position unchanged"
            ),
            CommandError::DepthAboveLimit { depth } => write!(
                f,
                "'depth {depth}' is above the limit of {MAX_GO_DEPTH}; searching to depth {MAX_GO_DEPTH}"
            ),
            CommandError::AboveLimit { command, depth, max } => {
                write!(f, "'{command} {depth}' is deeper than the limit of {max}; nothing done")
            }
        }
    }
}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
];

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn number<T: std::str::FromStr>(keyword: &str, token: Option<&str>) -> Result<T, CommandError> {
    let value = token.unwrap_or("");
    value.parse().map_err(|_| CommandError::BadNumber {
        keyword: keyword.to_string(),
        value: value.to_string(),
    })
}

/// Parses one line. As UCI asks, unknown words before a known command are skipped
/// (`joho debug on` is `debug on`).
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = tokens.first() else {
        return Err(CommandError::Empty);
    };
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Err(CommandError::Unknown(first.to_string()));
    };
    let command = tokens[start];
    let args = &tokens[start + 1..];
    match command {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "debug" => match args.first() {
            Some(&"on") => Ok(Command::Debug(true)),
            Some(&"off") => Ok(Command::Debug(false)),
            _ => Err(CommandError::MissingArgument {
                command: "debug",
                what: "'on' or 'off'",
            }),
        },
        "bench" => match args.first() {
            None => Ok(Command::Bench(None)),
            Some(depth) => match number("bench", Some(depth))? {
                depth if depth > MAX_BENCH_DEPTH => Err(CommandError::AboveLimit {
                    command: "bench",
                    depth,
                    max: MAX_BENCH_DEPTH,
                }),
                depth => Ok(Command::Bench(Some(depth))),
            },
        },
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args),
        _ => Err(CommandError::Unknown(command.to_string())),
    }
}

fn parse_setoption(args: &[&str]) -> Result<Command, CommandError> {
    if args.first() != Some(&"name") {
        return Err(CommandError::MissingArgument {
            command: "setoption",
            what: "'name <id>'",
        });
    }
    let value_at = args.iter().position(|&t| t == "value");
    let name_tokens = &args[1..value_at.unwrap_or(args.len())];
    if name_tokens.is_empty() {
        return Err(CommandError::MissingArgument {
            command: "setoption",
            what: "an option name",
        });
    }
    let value = value_at.map(|at| args[at + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(CommandError::MissingArgument {
            command: "setoption",
            what: "a value after 'value'",
        });
    }
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, CommandError> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let move_tokens = moves_at.map_or(&[][..], |at| &args[at + 1..]);
    if move_tokens.len() > MAX_POSITION_MOVES {
        return Err(CommandError::TooManyMoves {
            count: move_tokens.len(),
        });
    }
    let moves: Vec<String> = move_tokens.iter().map(|s| s.to_string()).collect();
    let start = match head.first() {
        Some(&"startpos") => {
            if let Some(extra) = head.get(1) {
                return Err(CommandError::UnexpectedToken {
                    command: "position",
                    token: extra.to_string(),
                });
            }
            Start::StartPos
        }
        Some(&"fen") => {
            if head.len() < 2 {
                return Err(CommandError::MissingArgument {
                    command: "position fen",
                    what: "a FEN",
                });
            }
            Start::Fen(head[1..].join(" "))
        }
        Some(other) => {
            return Err(CommandError::UnexpectedToken {
                command: "position",
                token: other.to_string(),
            })
        }
        None => {
            return Err(CommandError::MissingArgument {
                command: "position",
                what: "'startpos' or 'fen <fen>'",
            })
        }
    };
    Ok(Command::Position { start, moves })
}

/// `go`: bad tokens become problems (the search still runs), except a `perft` deeper than
/// its bound, which refuses the whole line.
fn parse_go(args: &[&str]) -> Result<Command, CommandError> {
    let mut params = GoParams::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        let value = args.get(i + 1).copied();
        let mut takes_value = true;
        let result = match keyword {
            "wtime" => number(keyword, value).map(|v| params.wtime = Some(v)),
            "btime" => number(keyword, value).map(|v| params.btime = Some(v)),
            "winc" => number(keyword, value).map(|v| params.winc = Some(v)),
            "binc" => number(keyword, value).map(|v| params.binc = Some(v)),
            "movestogo" => number(keyword, value).map(|v| params.movestogo = Some(v)),
            "depth" => number(keyword, value).and_then(|depth: u32| {
                params.depth = Some(depth.min(MAX_GO_DEPTH));
                if depth > MAX_GO_DEPTH {
                    Err(CommandError::DepthAboveLimit { depth })
                } else {
                    Ok(())
                }
            }),
            "nodes" => number(keyword, value).map(|v| params.nodes = Some(v)),
            "mate" => number(keyword, value).map(|v| params.mate = Some(v)),
            "movetime" => number(keyword, value).map(|v| params.movetime = Some(v)),
            "perft" => number(keyword, value).map(|v| params.perft = Some(v)),
            "infinite" => {
                takes_value = false;
                params.infinite = true;
                Ok(())
            }
            "ponder" => {
                takes_value = false;
                params.ponder = true;
                Ok(())
            }
            "searchmoves" => {
                takes_value = false;
                while let Some(&m) = args.get(i + 1) {
                    if GO_KEYWORDS.contains(&m) {
                        break;
                    }
                    params.searchmoves.push(m.to_string());
                    i += 1;
                }
                Ok(())
            }
            other => {
                takes_value = false;
                Err(CommandError::UnexpectedToken {
                    command: "go",
                    token: other.to_string(),
                })
            }
        };
        match result {
            Ok(()) => i += if takes_value { 2 } else { 1 },
            Err(error) => {
                // Skip the bad value only if it is not itself a keyword.
                let skip_value = takes_value && value.is_some_and(|v| !GO_KEYWORDS.contains(&v));
                i += if skip_value { 2 } else { 1 };
                problems.push(error);
            }
        }
    }
    match params.perft {
        Some(depth) if depth > MAX_PERFT_DEPTH => Err(CommandError::AboveLimit {
            command: "go perft",
            depth,
            max: MAX_PERFT_DEPTH,
        }),
        _ => Ok(Command::Go { params, problems }),
    }
}
