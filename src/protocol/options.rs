//! The engine's UCI options: their declarations (`option name ...` lines) and values.

use super::limits::{HASH_MB, THREADS};
use crate::search::level::{LevelParams, LevelTable};
use crate::search::Ablation;
use std::fmt;

/// Which game `position startpos` starts.
pub use crate::rules::Variant;

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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::Chess,
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 10,
            level: 5,
            seed: 0,
            limit_strength: false,
            uci_elo: LevelTable::default().elo_range().1 as u32,
            levels: LevelTable::default(),
            hash_set: false,
            cover_baseline: false,
            ablation: Ablation::default(),
        }
    }
}

/// The option lines sent after `id`, in Stockfish's format. The `Hash` and `Threads` ranges
/// are those of [`HASH_MB`] and [`THREADS`] (the protocol tests check that they agree).
pub const DECLARATIONS: &[&str] = &[
    "option name UCI_Variant type combo default chess var chess var covered",
    "option name Hash type spin default 16 min 1 max 16384",
    "option name Threads type spin default 1 min 1 max 64",
    "option name Clear Hash type button",
    "option name MultiPV type spin default 1 min 1 max 256",
    "option name Ponder type check default false",
    "option name Move Overhead type spin default 10 min 0 max 5000",
    "option name Level type spin default 5 min 1 max 5",
    "option name Seed type spin default 0 min 0 max 2147483647",
    "option name UCI_LimitStrength type check default false",
    "option name LevelsFile type string default <empty>",
    "option name CoverBaseline type check default false",
    "option name Ablate type string default <empty>",
];

/// The `UCI_Elo` declaration, whose range is the level table's.
pub fn elo_declaration(levels: &LevelTable) -> String {
    let (low, high) = levels.elo_range();
    format!(
        "option name UCI_Elo type spin default {} min {} max {}",
        high as u32, low as u32, high as u32
    )
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
    OutOfRange {
        name: String,
        value: i64,
        min: i64,
        max: i64,
    },
    NotABool {
        name: String,
        value: String,
    },
    NotAVariant(String),
    LevelsFile(String),
    Ablate(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::MissingValue(name) => write!(f, "option '{name}' needs a value"),
            OptionError::NotANumber { name, value } => write!(f, "option '{name}': '{value}' is not a whole number"),
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "option '{name}': {value} is outside {min}..{max}")
            }
            OptionError::NotABool { name, value } => write!(f, "option '{name}': '{value}' is not true or false"),
            OptionError::NotAVariant(value) => write!(f, "option 'UCI_Variant': '{value}' is not chess or covered"),
            OptionError::LevelsFile(why) => write!(f, "option 'LevelsFile': {why}"),
            OptionError::Ablate(why) => write!(f, "option 'Ablate': {why}"),
        }
    }
}

fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, OptionError> {
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
        });
    }
    Ok(number)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
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

    /// The hash size to use: the one set, or the strength's own (16 MiB at full strength).
    pub fn effective_hash_mb(&self) -> usize {
        if self.hash_set {
            self.hash_mb
        } else {
            self.strength().hash_mb.unwrap_or(16)
        }
    }

    /// Applies `setoption name <name> value <value>`; names are case-insensitive. On error
    /// nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, OptionError> {
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let variant = match value.map(|v| v.to_ascii_lowercase()).as_deref() {
                    Some("chess") => Variant::Chess,
                    Some("covered") => Variant::Covered,
                    Some(other) => return Err(OptionError::NotAVariant(other.to_string())),
                    None => return Err(OptionError::MissingValue(name.to_string())),
                };
                self.variant = variant;
                Ok(OptionEffect::VariantChanged)
            }
            "hash" => {
                self.hash_mb = spin(name, value, HASH_MB.0, HASH_MB.1)? as usize;
                self.hash_set = true;
                Ok(OptionEffect::ResizeHash)
            }
            "threads" => {
                self.threads = spin(name, value, THREADS.0, THREADS.1)? as usize;
                Ok(OptionEffect::None)
            }
            "clear hash" => Ok(OptionEffect::ClearHash),
            "multipv" => {
                self.multipv = spin(name, value, 1, 256)? as usize;
                Ok(OptionEffect::None)
            }
            "ponder" => {
                self.ponder = check(name, value)?;
                Ok(OptionEffect::None)
            }
            "move overhead" => {
                self.move_overhead_ms = spin(name, value, 0, 5000)? as u64;
                Ok(OptionEffect::None)
            }
            "level" => {
                self.level = spin(name, value, 1, 5)? as u8;
                Ok(OptionEffect::StrengthChanged)
            }
            "uci_limitstrength" => {
                self.limit_strength = check(name, value)?;
                Ok(OptionEffect::StrengthChanged)
            }
            "uci_elo" => {
                let (low, high) = self.levels.elo_range();
                self.uci_elo = spin(name, value, low as i64, high as i64)? as u32;
                Ok(OptionEffect::StrengthChanged)
            }
            "levelsfile" => {
                let path = value.map(str::trim).unwrap_or("");
                self.levels = if path.is_empty() || path == "<empty>" {
                    LevelTable::default()
                } else {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| OptionError::LevelsFile(format!("cannot read '{path}': {e}")))?;
                    LevelTable::parse(&text).map_err(|e| OptionError::LevelsFile(format!("'{path}': {e}")))?
                };
                let (low, high) = self.levels.elo_range();
                self.uci_elo = self.uci_elo.clamp(low as u32, high as u32);
                Ok(OptionEffect::StrengthChanged)
            }
            "seed" => {
                self.seed = spin(name, value, 0, 2_147_483_647)? as u64;
                Ok(OptionEffect::None)
            }
            "coverbaseline" => {
                self.cover_baseline = check(name, value)?;
                Ok(OptionEffect::None)
            }
            "ablate" => {
                self.ablation = Ablation::parse(value.unwrap_or("")).map_err(|e| OptionError::Ablate(e.to_string()))?;
                Ok(OptionEffect::None)
            }
            _ => Err(OptionError::Unknown(name.to_string())),
        }
    }
}
