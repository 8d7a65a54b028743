//! The table of the five levels: the compiled-in one, levels files (TOML or JSON, read as
//! untrusted input), and the parameters for a `UCI_Elo` between two levels.

use super::params::{LevelParams, MAX_LEVEL, MIN_LEVEL};
use once_cell::sync::Lazy;
use serde::{Deserialize, Serialize};

/// The parameters of levels 1..=5.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelTable {
    pub levels: [LevelParams; 5],
}

/// The compiled-in table, as a levels file: `scripts/retune-levels.sh` rewrites it.
const COMPILED_IN: &str = include_str!("../levels.toml");
/// The most plies a level may look less deep at quiet moves (`quiet_reduction`).
const MAX_QUIET_REDUCTION: u8 = 4;

static DEFAULT_TABLE: Lazy<LevelTable> =
    Lazy::new(|| LevelTable::parse(COMPILED_IN).expect("the compiled-in levels table is valid"));

impl Default for LevelTable {
    /// The compiled-in levels (`src/search/levels.toml`).
    fn default() -> LevelTable {
        *DEFAULT_TABLE
    }
}

/// A levels file that could not be used. The message never quotes the file: the engine reads
/// whatever file a client names (`LevelsFile`), so it says only where and what kind of thing
/// went wrong; [`LevelsFileError::detail`] keeps the parser's own words for trusted callers.
#[derive(Debug, PartialEq, Eq)]
pub enum LevelsFileError {
    /// Not UTF-8 text.
    NotText,
    /// Not TOML or JSON of the expected form: the line where reading stopped (if known) and
    /// the parser's message, which may quote the file.
    Syntax { line: Option<usize>, detail: String },
    /// Not five levels.
    LevelCount(usize),
    /// A level (1..=5) with a value out of its range.
    BadLevel { level: usize, what: &'static str },
}

impl LevelsFileError {
    /// The parser's own message, which may quote the file: for a trusted user only (such as
    /// `veil levels --levels-file`), never for a protocol client.
    pub fn detail(&self) -> Option<&str> {
        match self {
            LevelsFileError::Syntax { detail, .. } => Some(detail),
            _ => None,
        }
    }
}

impl std::fmt::Display for LevelsFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LevelsFileError::NotText => write!(f, "not a valid levels file (not UTF-8 text)"),
            LevelsFileError::Syntax { line: Some(line), .. } => write!(f, "not a valid levels file (line {line})"),
            LevelsFileError::Syntax { line: None, .. } => write!(f, "not a valid levels file"),
            LevelsFileError::LevelCount(count) => write!(f, "expected 5 levels, found {count}"),
            LevelsFileError::BadLevel { level, what } => write!(f, "level {level}: {what}"),
        }
    }
}

/// The file's form: `[[level]]` tables (TOML) or `{"level": [...]}` (JSON), five of them,
/// level 1 first.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LevelsFile {
    pub(super) level: Vec<LevelParams>,
}

impl LevelTable {
    /// The parameters of `level` (clamped to 1..=5).
    pub fn get(&self, level: u8) -> &LevelParams {
        &self.levels[(level.clamp(MIN_LEVEL, MAX_LEVEL) - 1) as usize]
    }

    /// Reads a levels file's bytes: UTF-8 text, then as [`LevelTable::parse`].
    pub fn parse_bytes(bytes: &[u8]) -> Result<LevelTable, LevelsFileError> {
        let text = std::str::from_utf8(bytes).map_err(|_| LevelsFileError::NotText)?;
        LevelTable::parse(text)
    }

    /// Reads a levels file's text: JSON if it starts with `{`, TOML otherwise.
    pub fn parse(text: &str) -> Result<LevelTable, LevelsFileError> {
        let file: LevelsFile = if text.trim_start().starts_with('{') {
            serde_json::from_str(text).map_err(|e| LevelsFileError::Syntax {
                line: (e.line() > 0).then_some(e.line()),
                detail: e.to_string(),
            })?
        } else {
            toml::from_str(text).map_err(|e| LevelsFileError::Syntax {
                line: e.span().map(|span| {
                    text.as_bytes()[..span.start.min(text.len())]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count()
                        + 1
                }),
                detail: e.to_string().replace('\n', " "),
            })?
        };
        let levels: [LevelParams; 5] = file
            .level
            .try_into()
            .map_err(|v: Vec<_>| LevelsFileError::LevelCount(v.len()))?;
        for (i, params) in levels.iter().enumerate() {
            let bad = |what| Err(LevelsFileError::BadLevel { level: i + 1, what });
            if params.candidates == 0 || params.candidates > 64 {
                return bad("candidates must be 1..=64");
            }
            if !(0..=1000).contains(&params.noise_cp)
                || !(0..=1000).contains(&params.temperature_cp)
                || params.chess_temperature_cp.is_some_and(|t| !(0..=1000).contains(&t))
                || params.chess_noise_cp.is_some_and(|t| !(0..=1000).contains(&t))
            {
                return bad("noise_cp, temperature_cp, chess_noise_cp and chess_temperature_cp must be 0..=1000");
            }
            if params.chess_candidates.is_some_and(|n| !(1..=64).contains(&n)) {
                return bad("chess_candidates must be 1..=64");
            }
            if [
                params.depth.map(u64::from),
                params.nodes,
                params.chess_nodes,
                params.movetime_ms,
            ]
            .contains(&Some(0))
            {
                return bad("depth, nodes, chess_nodes and movetime_ms must be positive");
            }
            if params.hash_mb.is_some_and(|mb| mb == 0 || mb > 16384) {
                return bad("hash_mb must be 1..=16384");
            }
            let caps = [params.max_loss_cp, params.chess_max_loss_cp];
            if caps.iter().flatten().any(|cap| !(0..=3000).contains(cap)) {
                return bad("max_loss_cp and chess_max_loss_cp must be 0..=3000");
            }
            if params.recapture_pct > 100 {
                return bad("recapture_pct must be 0..=100");
            }
            if params.lapse_pct > 100 || params.chess_lapse_pct.is_some_and(|pct| pct > 100) {
                return bad("lapse_pct and chess_lapse_pct must be 0..=100");
            }
            if params.lapse_nodes == Some(0) {
                return bad("lapse_nodes must be positive");
            }
            let reference = [params.complexity_moves, params.chess_complexity_moves];
            if reference.iter().flatten().any(|&moves| !(1..=256).contains(&moves)) {
                return bad("complexity_moves and chess_complexity_moves must be 1..=256");
            }
            if params.quiet_reduction > MAX_QUIET_REDUCTION
                || params
                    .chess_quiet_reduction
                    .is_some_and(|plies| plies > MAX_QUIET_REDUCTION)
            {
                return bad("quiet_reduction and chess_quiet_reduction must be 0..=4");
            }
        }
        Ok(LevelTable { levels })
    }

    /// The Elo range `UCI_Elo` covers: the weakest and the strongest level's Elo.
    pub fn elo_range(&self) -> (f64, f64) {
        let elos = self.elos();
        (elos[0], elos[4])
    }

    /// Each level's Elo; a level without one is placed 300 above the one below (or at 1000).
    fn elos(&self) -> [f64; 5] {
        let mut elos = [0.0; 5];
        for i in 0..5 {
            let fallback = if i == 0 { 1000.0 } else { elos[i - 1] + 300.0 };
            elos[i] = self.levels[i].elo.filter(|e| e.is_finite()).unwrap_or(fallback);
            if i > 0 {
                elos[i] = elos[i].max(elos[i - 1]);
            }
        }
        elos
    }

    /// The parameters for a target Elo (`UCI_Elo`): between the two levels around it, each
    /// parameter moved the fraction of the way the Elo is (caps on a log scale; a missing cap
    /// counts as ten times the other level's; a missing `max_loss_cp` or `lapse_nodes` takes
    /// the other level's).
    pub fn for_elo(&self, elo: f64) -> LevelParams {
        let elos = self.elos();
        let elo = elo.clamp(elos[0], elos[4]);
        let upper = (1..5).find(|&i| elo <= elos[i]).unwrap_or(4);
        let (low, high) = (&self.levels[upper - 1], &self.levels[upper]);
        let span = elos[upper] - elos[upper - 1];
        let t = if span > 0.0 {
            (elo - elos[upper - 1]) / span
        } else {
            1.0
        };
        if t >= 1.0 {
            return *high;
        }
        if t <= 0.0 {
            return *low;
        }
        let linear = |a: f64, b: f64| a + (b - a) * t;
        // What cannot be interpolated is the nearer level's.
        let nearer = if t < 0.5 { low } else { high };
        // A plain-chess override between two levels, if either has one: the plain-chess
        // values interpolated, rounded.
        let plain = |either: bool, a: f64, b: f64| either.then(|| linear(a, b).round());
        // Two levels' loss caps interpolated; a missing cap takes the other level's.
        let loss_cap = |a: Option<i32>, b: Option<i32>| match (a, b) {
            (Some(a), Some(b)) => Some(linear(f64::from(a), f64::from(b)).round() as i32),
            (a, b) => a.or(b),
        };
        let logarithmic = |a: Option<u64>, b: Option<u64>| -> Option<u64> {
            let a = a? as f64;
            let b = b.map_or(a * 10.0, |b| b as f64);
            Some((a.ln() + (b.ln() - a.ln()) * t).exp().round().max(1.0) as u64)
        };
        LevelParams {
            depth: logarithmic(low.depth.map(u64::from), high.depth.map(u64::from)).map(|d| d as u32),
            nodes: logarithmic(low.nodes, high.nodes),
            chess_nodes: match (low.chess_nodes, high.chess_nodes) {
                (None, None) => None,
                _ => logarithmic(low.nodes_in(false), high.nodes_in(false)),
            },
            movetime_ms: logarithmic(low.movetime_ms, high.movetime_ms),
            hash_mb: high.hash_mb,
            noise_cp: linear(low.noise_cp as f64, high.noise_cp as f64).round() as i32,
            candidates: linear(low.candidates as f64, high.candidates as f64).round().max(1.0) as usize,
            temperature_cp: linear(low.temperature_cp as f64, high.temperature_cp as f64).round() as i32,
            chess_candidates: plain(
                low.chess_candidates.or(high.chess_candidates).is_some(),
                low.candidates_in(false) as f64,
                high.candidates_in(false) as f64,
            )
            .map(|n| n.max(1.0) as usize),
            chess_temperature_cp: plain(
                low.chess_temperature_cp.or(high.chess_temperature_cp).is_some(),
                low.temperature_in(false) as f64,
                high.temperature_in(false) as f64,
            )
            .map(|t| t as i32),
            chess_noise_cp: plain(
                low.chess_noise_cp.or(high.chess_noise_cp).is_some(),
                low.noise_in(false) as f64,
                high.noise_in(false) as f64,
            )
            .map(|t| t as i32),
            naive_covers: nearer.naive_covers,
            network: nearer.uses_network(),
            max_loss_cp: loss_cap(low.max_loss_cp, high.max_loss_cp),
            chess_max_loss_cp: low
                .chess_max_loss_cp
                .or(high.chess_max_loss_cp)
                .and(loss_cap(low.max_loss_in(false), high.max_loss_in(false))),
            recapture_pct: linear(low.recapture_pct as f64, high.recapture_pct as f64).round() as u8,
            lapse_pct: linear(low.lapse_pct as f64, high.lapse_pct as f64).round() as u8,
            chess_lapse_pct: plain(
                low.chess_lapse_pct.or(high.chess_lapse_pct).is_some(),
                low.lapse_pct_in(false) as f64,
                high.lapse_pct_in(false) as f64,
            )
            .map(|pct| pct as u8),
            lapse_nodes: match (low.lapse_nodes, high.lapse_nodes) {
                (Some(_), Some(_)) => logarithmic(low.lapse_nodes, high.lapse_nodes),
                (a, b) => a.or(b),
            },
            chances_when_ahead: nearer.chances_when_ahead,
            chess_chances_when_ahead: nearer_plain(
                [low.chess_chances_when_ahead, high.chess_chances_when_ahead],
                nearer.chances_when_ahead_in(false),
            ),
            second_look: nearer.second_look,
            chess_second_look: nearer_plain(
                [low.chess_second_look, high.chess_second_look],
                nearer.second_look_in(false),
            ),
            complexity_moves: nearer.complexity_moves,
            chess_complexity_moves: nearer_plain(
                [low.chess_complexity_moves, high.chess_complexity_moves],
                nearer.complexity_moves_in(false),
            )
            .flatten(),
            quiet_reduction: nearer.quiet_reduction,
            chess_quiet_reduction: nearer_plain(
                [low.chess_quiet_reduction, high.chess_quiet_reduction],
                nearer.quiet_reduction_in(false),
            ),
            elo: Some(elo),
            covered_elo: match (low.covered_elo, high.covered_elo) {
                (Some(a), Some(b)) => Some(linear(a, b)),
                _ => None,
            },
        }
    }

    /// Writes the table as a levels file (TOML).
    pub fn to_toml(&self) -> String {
        let file = LevelsFile {
            level: self.levels.to_vec(),
        };
        toml::to_string(&file).unwrap_or_default()
    }
}

/// A plain-chess override between two levels that cannot be interpolated: if either level
/// has one (`overrides`), the nearer level's plain-chess value; else none.
fn nearer_plain<T, U>(overrides: [Option<U>; 2], nearer_plain_value: T) -> Option<T> {
    overrides.iter().any(Option::is_some).then_some(nearer_plain_value)
}
