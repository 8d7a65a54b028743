//! The engine's UCI options, each declared once in [`DECLARATIONS`]: its name, type, default,
//! range and what setting it does. The `option name ...` lines of `uci` and the checks of
//! `setoption` both come from that one table, narrowed by the operator's limits
//! ([`OperatorLimits`], set when the process starts, protocol.md "Running behind a server").

use super::untrusted_file::{read_bounded, shown_path, FileError};
use crate::nnue::network::FILE_SIZE as NETWORK_FILE_SIZE;
use crate::nnue::{default_network, levels_network, plain_network, Network};
use crate::search::level::{LevelParams, LevelTable};
use crate::search::{Ablation, Evaluator, NETWORK_IN_COVERED_CHESS, NETWORK_IN_PLAIN_CHESS};
use std::fmt;
use std::sync::Arc;

/// Which game `position startpos` starts.
pub use crate::rules::Variant;

/// The largest levels file read, in bytes: the compiled-in table takes about 1 KiB as TOML,
/// so this leaves room for comments and JSON's braces and still reads in microseconds.
pub const LEVELS_FILE_MAX_BYTES: u64 = 16 * 1024;

/// The hash size in MiB when neither `Hash` nor the level sets one.
const DEFAULT_HASH_MB: i64 = 16;

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: Variant,
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: u64,
    pub level: u8,
    pub seed: u64,
    /// `UCI_LimitStrength` and `UCI_Elo`: play at an Elo between the levels' instead.
    pub limit_strength: bool,
    pub uci_elo: u32,
    /// The level table (compiled in, or read from `LevelsFile`).
    pub levels: LevelTable,
    /// Whether `Hash` was set explicitly (else the level's hash size is used).
    pub hash_set: bool,
    /// `CoverBaseline`: search as if every covered piece were its cover (no chance nodes).
    pub cover_baseline: bool,
    /// `Ablate`: parts of the selective search switched off, for measuring each.
    pub ablation: Ablation,
    /// The operator's limits, fixed for the process.
    pub limits: OperatorLimits,
    /// `UseNNUE`: the network evaluates covered chess at full strength (the levels below it
    /// keep the hand-written evaluation they were calibrated with).
    pub use_network: bool,
    /// `NNUEPlainChess`: the plain-chess network evaluates plain chess at full strength
    /// (else the hand-written evaluation does; the levels below full strength always
    /// evaluate plain chess by hand, as they were calibrated).
    pub network_in_plain_chess: bool,
    /// The covered-chess network (embedded, or read from `EvalFile`).
    pub network: Arc<Network>,
    /// The plain-chess network (embedded, or read from `EvalFilePlain`).
    pub plain_network: Arc<Network>,
}

impl Default for Options {
    fn default() -> Self {
        Options::with_limits(OperatorLimits::default())
    }
}

/// Limits that the operator sets when the process starts (`veil --max-hash 64 --max-threads 1
/// --no-file-options`, or the `VEIL_*` environment variables) and that no protocol client can
/// exceed: they narrow the declared ranges, in `uci` and in `setoption` alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OperatorLimits {
    /// Largest `Hash` in MiB (also caps a level's own hash size).
    pub max_hash_mb: Option<u64>,
    /// Most `Threads`.
    pub max_threads: Option<u64>,
    /// Options that name a file are not declared, and refused.
    pub no_file_options: bool,
}

/// Which operator limit narrows a spin option's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    None,
    HashMb,
    Threads,
}

impl OperatorLimits {
    fn cap(&self, cap: Cap) -> Option<i64> {
        let limit = match cap {
            Cap::None => None,
            Cap::HashMb => self.max_hash_mb,
            Cap::Threads => self.max_threads,
        };
        limit.map(|limit| i64::try_from(limit).unwrap_or(i64::MAX))
    }
}

/// What an option is and how a checked value is stored. Setters run only on a value already
/// checked against the option's range; fallible setters and loaders must change nothing when
/// they return an error.
#[derive(Clone, Copy)]
pub enum OptionKind {
    /// A whole number in `min..=max`; `cap` names the operator limit that may narrow `max`.
    Spin {
        default: i64,
        min: i64,
        max: i64,
        cap: Cap,
        set: fn(&mut Options, i64),
    },
    /// A spin whose range is the level table's Elo range, its default the strongest level's.
    EloSpin {
        set: fn(&mut Options, i64),
    },
    Check {
        default: bool,
        set: fn(&mut Options, bool),
    },
    /// One of `choices` (case-insensitive); the setter gets its index.
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
        set: fn(&mut Options, usize),
    },
    Button,
    /// Free text, default `<empty>`; the setter is given "" for the default.
    Text {
        set: fn(&mut Options, &str) -> Result<(), String>,
    },
    /// A path naming a file of at most `max_bytes`, default `<empty>`. The file is read as
    /// untrusted input ([`read_bounded`]); the loader gets its bytes, or `None` for `<empty>`
    /// (back to the built-in data), and its error must not quote the file.
    File {
        max_bytes: u64,
        load: fn(&mut Options, Option<&[u8]>) -> Result<(), String>,
    },
}

/// One UCI option: its name, kind (type, default, range, setter) and what setting it asks
/// of the engine besides storing the value.
#[derive(Clone, Copy)]
pub struct OptionDeclaration {
    pub name: &'static str,
    pub kind: OptionKind,
    pub effect: OptionEffect,
}

use OptionEffect::{ClearHash, ResizeHash, StrengthChanged, VariantChanged};

type Effect = OptionEffect;

const fn spin(
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
    cap: Cap,
    effect: Effect,
    set: fn(&mut Options, i64),
) -> OptionDeclaration {
    OptionDeclaration {
        name,
        kind: OptionKind::Spin {
            default,
            min,
            max,
            cap,
            set,
        },
        effect,
    }
}

const fn check(name: &'static str, default: bool, effect: Effect, set: fn(&mut Options, bool)) -> OptionDeclaration {
    OptionDeclaration {
        name,
        kind: OptionKind::Check { default, set },
        effect,
    }
}

const fn text(
    name: &'static str,
    effect: Effect,
    set: fn(&mut Options, &str) -> Result<(), String>,
) -> OptionDeclaration {
    OptionDeclaration {
        name,
        kind: OptionKind::Text { set },
        effect,
    }
}

/// A file-naming option: read only as a regular file of at most `max_bytes`.
const fn file(
    name: &'static str,
    max_bytes: u64,
    effect: Effect,
    load: fn(&mut Options, Option<&[u8]>) -> Result<(), String>,
) -> OptionDeclaration {
    OptionDeclaration {
        name,
        kind: OptionKind::File { max_bytes, load },
        effect,
    }
}

const NOTHING: Effect = OptionEffect::None;

/// Every option, in the order `uci` declares them.
#[rustfmt::skip]
pub const DECLARATIONS: &[OptionDeclaration] = &[
    OptionDeclaration {
        name: "UCI_Variant",
        kind: OptionKind::Combo { default: "chess", choices: &["chess", "covered"], set: set_variant },
        effect: VariantChanged,
    },
    spin("Hash", DEFAULT_HASH_MB, 1, 16_384, Cap::HashMb, ResizeHash, set_hash),
    spin("Threads", 1, 1, 64, Cap::Threads, NOTHING, |o, v| o.threads = v as usize),
    OptionDeclaration { name: "Clear Hash", kind: OptionKind::Button, effect: ClearHash },
    spin("MultiPV", 1, 1, 256, Cap::None, NOTHING, |o, v| o.multipv = v as usize),
    check("Ponder", false, NOTHING, |o, v| o.ponder = v),
    spin("Move Overhead", 10, 0, 5000, Cap::None, NOTHING, |o, v| o.move_overhead_ms = v as u64),
    spin("Level", 5, 1, 5, Cap::None, StrengthChanged, |o, v| o.level = v as u8),
    spin("Seed", 0, 0, 2_147_483_647, Cap::None, NOTHING, |o, v| o.seed = v as u64),
    check("UCI_LimitStrength", false, StrengthChanged, |o, v| o.limit_strength = v),
    file("LevelsFile", LEVELS_FILE_MAX_BYTES, StrengthChanged, load_levels),
    check("UseNNUE", NETWORK_IN_COVERED_CHESS, NOTHING, |o, v| o.use_network = v),
    check("NNUEPlainChess", NETWORK_IN_PLAIN_CHESS, NOTHING, |o, v| o.network_in_plain_chess = v),
    file("EvalFile", NETWORK_FILE_SIZE as u64, NOTHING, load_network),
    file("EvalFilePlain", NETWORK_FILE_SIZE as u64, NOTHING, load_plain_network),
    check("CoverBaseline", false, NOTHING, |o, v| o.cover_baseline = v),
    text("Ablate", NOTHING, set_ablation),
    OptionDeclaration {
        name: "UCI_Elo",
        kind: OptionKind::EloSpin { set: |o, v| o.uci_elo = v as u32 },
        effect: StrengthChanged,
    },
];

fn set_variant(options: &mut Options, choice: usize) {
    options.variant = [Variant::Chess, Variant::Covered][choice];
}

fn set_hash(options: &mut Options, mb: i64) {
    options.hash_mb = mb as usize;
    options.hash_set = true;
}

fn set_ablation(options: &mut Options, text: &str) -> Result<(), String> {
    options.ablation = Ablation::parse(text).map_err(|e| e.to_string())?;
    Ok(())
}

/// `LevelsFile`: the file's table, or the compiled-in one; `UCI_Elo` is kept in the new range.
fn load_levels(options: &mut Options, bytes: Option<&[u8]>) -> Result<(), String> {
    options.levels = match bytes {
        None => LevelTable::default(),
        Some(bytes) => LevelTable::parse_bytes(bytes).map_err(|e| e.to_string())?,
    };
    let (low, high) = options.levels.elo_range();
    options.uci_elo = options.uci_elo.clamp(low as u32, high as u32);
    Ok(())
}

/// `EvalFile`: the file's network, or the embedded one.
fn load_network(options: &mut Options, bytes: Option<&[u8]>) -> Result<(), String> {
    options.network = match bytes {
        None => default_network(),
        Some(bytes) => Arc::new(Network::from_bytes(bytes).map_err(|e| e.to_string())?),
    };
    Ok(())
}

fn load_plain_network(options: &mut Options, bytes: Option<&[u8]>) -> Result<(), String> {
    options.plain_network = match bytes {
        None => plain_network(),
        Some(bytes) => Arc::new(Network::from_bytes(bytes).map_err(|e| e.to_string())?),
    };
    Ok(())
}

/// What setting an option asks the engine to do besides storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    None,
    ResizeHash,
    ClearHash,
    VariantChanged,
    /// The level (or the limited strength) changed: the hash may change size with it.
    StrengthChanged,
}

/// A `setoption` that cannot be applied; the message says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(String),
    NotANumber {
        name: String,
        value: String,
    },
    /// Outside the range; `operator_limit` when the operator's limit narrowed it.
    OutOfRange {
        name: String,
        value: i64,
        min: i64,
        max: i64,
        operator_limit: bool,
    },
    NotABool {
        name: String,
        value: String,
    },
    NotAChoice {
        name: &'static str,
        value: String,
        choices: &'static [&'static str],
    },
    /// A text option's value that its setter refused.
    Invalid {
        name: &'static str,
        why: String,
    },
    /// A file option's file that could not be read as untrusted input.
    File {
        name: &'static str,
        error: FileError,
    },
    /// A file option's file that was read but is not what the option needs.
    FileContent {
        name: &'static str,
        path: String,
        why: String,
    },
    /// A file option while the operator has switched them off.
    FileOptionsOff(&'static str),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::MissingValue(name) => write!(f, "option '{name}' needs a value"),
            OptionError::NotANumber { name, value } => write!(f, "option '{name}': '{value}' is not a whole number"),
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
                operator_limit,
            } => {
                write!(f, "option '{name}': {value} is outside {min}..{max}")?;
                if *operator_limit {
                    write!(f, " (the operator's limit)")?;
                }
                Ok(())
            }
            OptionError::NotABool { name, value } => write!(f, "option '{name}': '{value}' is not true or false"),
            OptionError::NotAChoice { name, value, choices } => {
                let (last, rest) = choices.split_last().unwrap_or((&"", &[]));
                write!(f, "option '{name}': '{value}' is not ")?;
                if !rest.is_empty() {
                    write!(f, "{} or ", rest.join(", "))?;
                }
                write!(f, "{last}")
            }
            OptionError::Invalid { name, why } => write!(f, "option '{name}': {why}"),
            OptionError::File { name, error } => write!(f, "option '{name}': {error}"),
            OptionError::FileContent { name, path, why } => write!(f, "option '{name}': '{path}': {why}"),
            OptionError::FileOptionsOff(name) => {
                write!(
                    f,
                    "option '{name}': options that name files are switched off by the operator"
                )
            }
        }
    }
}

fn parse_spin(
    name: &str,
    value: Option<&str>,
    (min, max, operator_limit): (i64, i64, bool),
) -> Result<i64, OptionError> {
    let value = value.ok_or_else(|| OptionError::MissingValue(name.to_string()))?;
    let number: i64 = value.parse().map_err(|_| OptionError::NotANumber {
        name: name.to_string(),
        value: value.to_string(),
    })?;
    if number < min || number > max {
        return Err(OptionError::OutOfRange {
            name: name.to_string(),
            value: number,
            min,
            max,
            operator_limit,
        });
    }
    Ok(number)
}

fn parse_check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.to_ascii_lowercase()) {
        Some(v) if v == "true" => Ok(true),
        Some(v) if v == "false" => Ok(false),
        Some(v) => Err(OptionError::NotABool {
            name: name.to_string(),
            value: v,
        }),
        None => Err(OptionError::MissingValue(name.to_string())),
    }
}

impl Options {
    /// What the search is asked to do for the strength set: `UCI_Elo` when
    /// `UCI_LimitStrength` is on, else the `Level`'s row of the table.
    pub fn strength(&self) -> LevelParams {
        if self.limit_strength {
            self.levels.for_elo(self.uci_elo as f64)
        } else {
            *self.levels.get(self.level)
        }
    }

    /// The evaluation a search uses, when `UseNNUE` is on: at full strength the covered-chess
    /// network (`EvalFile`'s or the embedded one) and, with `NNUEPlainChess`, the plain-chess
    /// network (`EvalFilePlain`'s or the embedded one); at the levels whose row says
    /// `network` the levels' own embedded network in covered chess, the one their table was
    /// tuned with, and the hand-written evaluation in plain chess. Else the hand-written one.
    pub fn evaluator(&self) -> Evaluator {
        let strength = self.strength();
        if !self.use_network || !strength.uses_network() {
            return Evaluator::HandWritten;
        }
        if strength.is_full() {
            Evaluator::Network {
                network: Arc::clone(&self.network),
                plain: self.network_in_plain_chess.then(|| Arc::clone(&self.plain_network)),
            }
        } else {
            Evaluator::Network {
                network: levels_network(),
                plain: None,
            }
        }
    }

    /// The hash size to use: the one set, or the strength's own (16 MiB at full strength),
    /// within the operator's limit.
    pub fn effective_hash_mb(&self) -> usize {
        if self.hash_set {
            self.hash_mb
        } else {
            let wanted = self.strength().hash_mb.unwrap_or(DEFAULT_HASH_MB as usize);
            let cap = self
                .limits
                .max_hash_mb
                .map_or(usize::MAX, |mb| usize::try_from(mb).unwrap_or(usize::MAX));
            wanted.min(cap).max(1)
        }
    }

    /// The options at their declared defaults under `limits`.
    pub fn with_limits(limits: OperatorLimits) -> Options {
        let mut options = Options {
            variant: Variant::Chess,
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            ponder: false,
            move_overhead_ms: 0,
            level: 0,
            seed: 0,
            limit_strength: false,
            uci_elo: 0,
            levels: LevelTable::default(),
            hash_set: false,
            cover_baseline: false,
            ablation: Ablation::default(),
            limits,
            use_network: NETWORK_IN_COVERED_CHESS,
            network_in_plain_chess: NETWORK_IN_PLAIN_CHESS,
            network: default_network(),
            plain_network: plain_network(),
        };
        for declaration in DECLARATIONS {
            options.apply_default(declaration.kind);
        }
        // The default hash is not one set explicitly: the level's own size still applies.
        options.hash_set = false;
        options
    }

    fn apply_default(&mut self, kind: OptionKind) {
        match kind {
            OptionKind::Spin { set, .. } | OptionKind::EloSpin { set } => {
                let (default, _, _, _) = self.spin_range(kind).unwrap_or_default();
                set(self, default);
            }
            OptionKind::Check { default, set } => set(self, default),
            OptionKind::Combo { default, choices, set } => {
                set(self, choices.iter().position(|&c| c == default).unwrap_or(0));
            }
            OptionKind::Button => {}
            OptionKind::Text { set } => {
                let _ = set(self, "");
            }
            OptionKind::File { load, .. } => {
                let _ = load(self, None);
            }
        }
    }

    /// A spin option's default, minimum and maximum under the operator's limits, and whether
    /// a limit narrowed the maximum.
    fn spin_range(&self, kind: OptionKind) -> Option<(i64, i64, i64, bool)> {
        match kind {
            OptionKind::Spin {
                default, min, max, cap, ..
            } => {
                let capped = self.limits.cap(cap).map_or(max, |cap| cap.clamp(min, max));
                Some((default.min(capped), min, capped, capped < max))
            }
            OptionKind::EloSpin { .. } => {
                let (low, high) = self.levels.elo_range();
                Some((high as u32 as i64, low as u32 as i64, high as u32 as i64, false))
            }
            _ => None,
        }
    }

    /// Whether the operator's limits leave `declaration` to the client.
    fn offered(&self, declaration: &OptionDeclaration) -> bool {
        !(self.limits.no_file_options && matches!(declaration.kind, OptionKind::File { .. }))
    }

    /// The `option name ...` lines of `uci`, in Stockfish's format, with the ranges the
    /// operator's limits leave.
    pub fn uci_lines(&self) -> Vec<String> {
        DECLARATIONS
            .iter()
            .filter(|declaration| self.offered(declaration))
            .map(|declaration| {
                let name = declaration.name;
                match declaration.kind {
                    kind @ (OptionKind::Spin { .. } | OptionKind::EloSpin { .. }) => {
                        let (default, min, max, _) = self.spin_range(kind).unwrap_or_default();
                        format!("option name {name} type spin default {default} min {min} max {max}")
                    }
                    OptionKind::Check { default, .. } => format!("option name {name} type check default {default}"),
                    OptionKind::Combo { default, choices, .. } => {
                        let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                        format!("option name {name} type combo default {default} {}", vars.join(" "))
                    }
                    OptionKind::Button => format!("option name {name} type button"),
                    OptionKind::Text { .. } | OptionKind::File { .. } => {
                        format!("option name {name} type string default <empty>")
                    }
                }
            })
            .collect()
    }

    /// Applies `setoption name <name> value <value>`; names are case-insensitive. On error
    /// nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, OptionError> {
        let declaration = DECLARATIONS
            .iter()
            .find(|declaration| declaration.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        if !self.offered(declaration) {
            return Err(OptionError::FileOptionsOff(declaration.name));
        }
        let name_shown = declaration.name;
        match declaration.kind {
            kind @ (OptionKind::Spin { set, .. } | OptionKind::EloSpin { set }) => {
                let (_, min, max, operator_limit) = self.spin_range(kind).unwrap_or_default();
                set(self, parse_spin(name, value, (min, max, operator_limit))?);
            }
            OptionKind::Check { set, .. } => set(self, parse_check(name, value)?),
            OptionKind::Combo { choices, set, .. } => {
                let value = value.ok_or_else(|| OptionError::MissingValue(name.to_string()))?;
                let choice = choices
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(value))
                    .ok_or_else(|| OptionError::NotAChoice {
                        name: name_shown,
                        value: value.to_ascii_lowercase(),
                        choices,
                    })?;
                set(self, choice);
            }
            OptionKind::Button => {}
            OptionKind::Text { set } => {
                set(self, value.unwrap_or("")).map_err(|why| OptionError::Invalid { name: name_shown, why })?
            }
            OptionKind::File { max_bytes, load } => {
                let path = value.map(str::trim).unwrap_or("");
                let bytes = if path.is_empty() || path == "<empty>" {
                    None
                } else {
                    let bytes = read_bounded(path, max_bytes).map_err(|error| OptionError::File {
                        name: name_shown,
                        error,
                    })?;
                    Some(bytes)
                };
                load(self, bytes.as_deref()).map_err(|why| OptionError::FileContent {
                    name: name_shown,
                    path: shown_path(path),
                    why,
                })?;
            }
        }
        Ok(declaration.effect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capped(max_hash_mb: u64) -> Options {
        Options::with_limits(OperatorLimits {
            max_hash_mb: Some(max_hash_mb),
            ..OperatorLimits::default()
        })
    }

    #[test]
    fn the_defaults_are_the_declared_ones() {
        let options = Options::default();
        assert_eq!((options.hash_mb, options.threads, options.multipv), (16, 1, 1));
        assert_eq!((options.move_overhead_ms, options.level, options.seed), (10, 5, 0));
        assert_eq!(options.uci_elo, LevelTable::default().elo_range().1 as u32);
        assert!(!options.hash_set && !options.ponder && !options.limit_strength && !options.cover_baseline);
    }

    #[test]
    fn the_levels_that_say_network_evaluate_with_it() {
        let mut options = Options::default();
        let uses_network = |options: &Options| matches!(options.evaluator(), Evaluator::Network { .. });
        assert!(uses_network(&options), "full strength");
        for level in 1..=4u8 {
            options.set("Level", Some(&level.to_string())).unwrap();
            assert_eq!(
                uses_network(&options),
                options.levels.get(level).network,
                "level {level}"
            );
        }
        // The levels evaluate with their own network, whatever the full strength's is.
        let network_of = |options: &Options| match options.evaluator() {
            Evaluator::Network { network, .. } => Some(network.checksum),
            Evaluator::HandWritten => None,
        };
        let level = (1..=4u8)
            .find(|&l| options.levels.get(l).network)
            .expect("a level with the network");
        options.set("Level", Some(&level.to_string())).unwrap();
        assert_eq!(network_of(&options), Some(levels_network().checksum));
        options.set("Level", Some("5")).unwrap();
        assert_eq!(network_of(&options), Some(default_network().checksum));
        options.set("UseNNUE", Some("false")).unwrap();
        assert!(!uses_network(&options));
        options.set("Level", Some(&level.to_string())).unwrap();
        assert!(!uses_network(&options));
    }

    #[test]
    fn plain_chess_has_a_network_of_its_own_at_full_strength_only() {
        use crate::rules::Position;
        let (plain, covered) = (Position::standard_start(), Position::covered_start());
        let checksum = |options: &Options, root: &Position| options.evaluator().network_for(root).map(|n| n.checksum);
        let mut options = Options::default();
        options.set("NNUEPlainChess", Some("true")).unwrap();
        assert_eq!(checksum(&options, &plain), Some(plain_network().checksum));
        assert_eq!(checksum(&options, &covered), Some(default_network().checksum));
        options.set("NNUEPlainChess", Some("false")).unwrap();
        assert_eq!(checksum(&options, &plain), None);
        assert_eq!(checksum(&options, &covered), Some(default_network().checksum));
        // The levels evaluate plain chess by hand, as they were calibrated.
        options.set("NNUEPlainChess", Some("true")).unwrap();
        for level in 1..=4u8 {
            options.set("Level", Some(&level.to_string())).unwrap();
            assert_eq!(checksum(&options, &plain), None, "level {level}");
        }
        options.set("Level", Some("5")).unwrap();
        options.set("UseNNUE", Some("false")).unwrap();
        assert_eq!(checksum(&options, &plain), None);
    }

    #[test]
    fn a_levels_own_hash_size_stays_within_the_operators_limit() {
        let mut options = capped(2);
        assert_eq!((options.hash_mb, options.effective_hash_mb()), (2, 2));
        options.set("Level", Some("4")).unwrap();
        assert_eq!(options.effective_hash_mb(), 2, "level 4 asks for 4 MiB");
        options.set("Level", Some("1")).unwrap();
        assert_eq!(options.effective_hash_mb(), 1);
        let mut options = capped(64);
        assert_eq!(options.effective_hash_mb(), 16);
        options.set("UCI_LimitStrength", Some("true")).unwrap();
        assert_eq!(options.effective_hash_mb(), 16);
    }

    #[test]
    fn a_value_beyond_a_limit_changes_nothing() {
        let mut options = capped(8);
        let before = format!("{options:?}");
        let error = options.set("hash", Some("9")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "option 'hash': 9 is outside 1..8 (the operator's limit)"
        );
        assert_eq!(format!("{options:?}"), before);
    }
}
