//! Strength levels 1..=5 for the `Level` option (5 is full strength), and the table of what
//! each level does. The compiled-in table can be replaced by a file (`LevelsFile`, TOML or
//! JSON), so the levels can be re-tuned without a new build.
//!
//! A weaker level plays like a weaker player, not like a strong engine that blunders at
//! random:
//! - it looks less far: caps on depth, nodes and time per move (which also make it cheap to
//!   host);
//! - it judges less well: evaluation noise that is a fixed function of the position and the
//!   `Seed`, so a replayed game replays;
//! - it picks among the best few moves with a chance that falls with each move's score
//!   (a softmax over the root moves' scores with a temperature in centipawns, the idea of
//!   Stockfish's skill levels and of GNU Backgammon's noisy levels);
//! - but it does not miss what nobody misses: a move its own search scores more than
//!   `max_loss_cp` below its best is never picked (so an only move is always found, and the
//!   softmax adds small errors, never a lost game), and a recapture on the square of the
//!   opponent's last capture, when that is its best move, is taken outright with
//!   `recapture_pct` percent chance;
//! - it misjudges the chance element as a beginner does: with `naive_covers` it values each
//!   covered piece as its cover (a covered rook as a rook), ignoring what the pool holds;
//! - now and then it does not look: on `lapse_pct` percent of its moves (drawn from the
//!   position and the `Seed`) it searches only `lapse_nodes` nodes, one line, and plays that
//!   line's move, so it misses what a glance misses (a threat two moves deep) as a person
//!   does, rather than giving material away for nothing. That is where a level's blunders
//!   come from; the choice above only adds small errors, since `max_loss_cp` bounds it by
//!   the level's own scores.

use super::limits::Limits;
use crate::rules::splitmix::mix;
use crate::rules::{Move, Square};
use once_cell::sync::Lazy;
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 5;

/// What one level does. `None` and zero mean "no limit" and "off".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelParams {
    /// Deepest iteration.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Nodes per move.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Nodes per move in plain chess, where the level's plain-chess Elo needs a cap of its
    /// own (none: `nodes` in both variants).
    #[serde(default)]
    pub chess_nodes: Option<u64>,
    /// Milliseconds per move at most (the clock may allow less).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Hash size in MiB this level uses unless `Hash` is set explicitly.
    #[serde(default)]
    pub hash_mb: Option<usize>,
    /// Largest evaluation noise in centipawns (uniform in ±noise_cp, fixed per position and
    /// seed).
    #[serde(default)]
    pub noise_cp: i32,
    /// How many root moves the choice considers (1: always the best).
    #[serde(default = "one")]
    pub candidates: usize,
    /// Softmax temperature in centipawns for the choice among the candidates.
    #[serde(default)]
    pub temperature_cp: i32,
    /// `candidates` in plain chess, where the level needs a choice of its own (none:
    /// `candidates` in both variants).
    #[serde(default)]
    pub chess_candidates: Option<usize>,
    /// `temperature_cp` in plain chess (none: `temperature_cp` in both variants).
    #[serde(default)]
    pub chess_temperature_cp: Option<i32>,
    /// `noise_cp` in plain chess (none: `noise_cp` in both variants).
    #[serde(default)]
    pub chess_noise_cp: Option<i32>,
    /// Value covered pieces as their covers instead of by their pools.
    #[serde(default)]
    pub naive_covers: bool,
    /// Evaluate with the network wherever the engine at full strength would (`UseNNUE` on,
    /// covered chess unless `NNUEPlainChess`), instead of the hand-written evaluation.
    #[serde(default)]
    pub network: bool,
    /// Largest loss in centipawns, by the level's own scores, of a move the choice may pick
    /// against the best (none: no limit). An only move, with every other candidate further
    /// behind, is always played.
    #[serde(default)]
    pub max_loss_cp: Option<i32>,
    /// Percent chance that a best move recapturing on the square of the opponent's last
    /// capture is played without the choice.
    #[serde(default)]
    pub recapture_pct: u8,
    /// Percent of moves that are lapses: searched with `lapse_nodes` nodes at most.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lapse_pct: u8,
    /// `lapse_pct` in plain chess, where the level needs one of its own (none: `lapse_pct`
    /// in both variants).
    #[serde(default)]
    pub chess_lapse_pct: Option<u8>,
    /// Nodes of a lapse's search (none: a lapse is not capped further).
    #[serde(default)]
    pub lapse_nodes: Option<u64>,
    /// When the level is ahead, the choice weighs a move's loss in winning chances, not
    /// centipawns (see [`choice_scale`]): a won position is played loosely, an even one as
    /// carefully as before, a lost one as stubbornly.
    #[serde(default, skip_serializing_if = "is_false")]
    pub chances_when_ahead: bool,
    /// `chances_when_ahead` in plain chess (none: `chances_when_ahead` in both variants).
    #[serde(default)]
    pub chess_chances_when_ahead: Option<bool>,
    /// The level's Elo in plain chess on Stockfish's `UCI_Elo` scale (what `UCI_Elo`
    /// interpolates between), if known.
    #[serde(default)]
    pub elo: Option<f64>,
    /// The level's Elo on the covered-chess ladder (its own scale, Level 5 pinned), if known.
    #[serde(default)]
    pub covered_elo: Option<f64>,
}

/// Whether a percentage is 0, its default (a written table leaves it out).
fn is_zero(value: &u8) -> bool {
    *value == 0
}

/// Whether a switch is off, its default (a written table leaves it out).
fn is_false(value: &bool) -> bool {
    !*value
}

/// A field with a plain-chess override: the override in plain chess if there is one, else
/// the field itself.
fn plain_override<T>(covered: bool, shared: T, plain: Option<T>) -> T {
    match plain {
        Some(value) if !covered => value,
        _ => shared,
    }
}

fn one() -> usize {
    1
}

impl LevelParams {
    /// Full strength: no caps, no noise, the best move.
    pub const FULL: LevelParams = LevelParams {
        depth: None,
        nodes: None,
        chess_nodes: None,
        movetime_ms: None,
        hash_mb: None,
        noise_cp: 0,
        candidates: 1,
        temperature_cp: 0,
        chess_candidates: None,
        chess_temperature_cp: None,
        chess_noise_cp: None,
        naive_covers: false,
        network: false,
        max_loss_cp: None,
        recapture_pct: 0,
        lapse_pct: 0,
        chess_lapse_pct: None,
        lapse_nodes: None,
        chances_when_ahead: false,
        chess_chances_when_ahead: None,
        elo: None,
        covered_elo: None,
    };

    /// The level's Elo in a variant: the covered ladder's (`covered`) or plain chess's.
    pub fn elo_in(&self, covered: bool) -> Option<f64> {
        if covered {
            self.covered_elo
        } else {
            self.elo
        }
    }

    /// The level's node cap in a variant: `chess_nodes` in plain chess if it has one, else
    /// `nodes`.
    pub fn nodes_in(&self, covered: bool) -> Option<u64> {
        plain_override(covered, self.nodes, self.chess_nodes.map(Some))
    }

    /// How many root moves the level's choice considers in a variant: `chess_candidates` in
    /// plain chess if it has one, else `candidates`.
    pub fn candidates_in(&self, covered: bool) -> usize {
        plain_override(covered, self.candidates, self.chess_candidates)
    }

    /// The choice's temperature in a variant: `chess_temperature_cp` in plain chess if it
    /// has one, else `temperature_cp`.
    pub fn temperature_in(&self, covered: bool) -> i32 {
        plain_override(covered, self.temperature_cp, self.chess_temperature_cp)
    }

    /// The level's evaluation noise in a variant: `chess_noise_cp` in plain chess if it has
    /// one, else `noise_cp`.
    pub fn noise_in(&self, covered: bool) -> i32 {
        plain_override(covered, self.noise_cp, self.chess_noise_cp)
    }

    /// The level's lapse rate in a variant: `chess_lapse_pct` in plain chess if it has one,
    /// else `lapse_pct`.
    pub fn lapse_pct_in(&self, covered: bool) -> u8 {
        plain_override(covered, self.lapse_pct, self.chess_lapse_pct)
    }

    /// Whether the level's choice weighs losses in winning chances when ahead, in a variant:
    /// `chess_chances_when_ahead` in plain chess if it has one, else `chances_when_ahead`.
    pub fn chances_when_ahead_in(&self, covered: bool) -> bool {
        plain_override(covered, self.chances_when_ahead, self.chess_chances_when_ahead)
    }

    /// The level as it plays a variant: its node cap is [`LevelParams::nodes_in`] that
    /// variant, its lapse rate [`LevelParams::lapse_pct_in`].
    pub fn in_variant(&self, covered: bool) -> LevelParams {
        LevelParams {
            nodes: self.nodes_in(covered),
            chess_nodes: None,
            candidates: self.candidates_in(covered),
            chess_candidates: None,
            temperature_cp: self.temperature_in(covered),
            chess_temperature_cp: None,
            noise_cp: self.noise_in(covered),
            chess_noise_cp: None,
            lapse_pct: self.lapse_pct_in(covered),
            chess_lapse_pct: None,
            chances_when_ahead: self.chances_when_ahead_in(covered),
            chess_chances_when_ahead: None,
            ..*self
        }
    }

    /// Sets the level's Elo in a variant (as [`LevelParams::elo_in`] reads it).
    pub fn set_elo_in(&mut self, covered: bool, elo: f64) {
        *(if covered { &mut self.covered_elo } else { &mut self.elo }) = Some(elo);
    }

    /// Whether the level evaluates with a network (where `UseNNUE` lets it): full strength
    /// does, though its row need not say `network`.
    pub fn uses_network(&self) -> bool {
        self.network || self.is_full()
    }

    /// Whether the level weakens the search at all (its Elo aside).
    pub fn is_full(&self) -> bool {
        LevelParams {
            elo: None,
            covered_elo: None,
            ..*self
        } == LevelParams::FULL
    }
}

/// The parameters of levels 1..=5.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelTable {
    pub levels: [LevelParams; 5],
}

/// The compiled-in table, as a levels file: `scripts/retune-levels.sh` rewrites it.
const COMPILED_IN: &str = include_str!("levels.toml");

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
struct LevelsFile {
    level: Vec<LevelParams>,
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
            if params.max_loss_cp.is_some_and(|cap| !(0..=3000).contains(&cap)) {
                return bad("max_loss_cp must be 0..=3000");
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
            max_loss_cp: match (low.max_loss_cp, high.max_loss_cp) {
                (Some(a), Some(b)) => Some(linear(a as f64, b as f64).round() as i32),
                (a, b) => a.or(b),
            },
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
            chess_chances_when_ahead: low
                .chess_chances_when_ahead
                .or(high.chess_chances_when_ahead)
                .map(|_| nearer.chances_when_ahead_in(false)),
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

/// Tightens `limits` by the level's caps, for the move from the position whose key is `key`,
/// and says whether this move is a lapse (a fixed function of the key and the seed).
pub fn apply(params: &LevelParams, limits: &mut Limits, key: u64, seed: u64) -> bool {
    if let Some(cap) = params.depth {
        limits.depth = Some(limits.depth.map_or(cap, |depth| depth.min(cap)));
    }
    let lapse = params.lapse_nodes.filter(|_| is_lapse(params, key, seed));
    for cap in [params.nodes, lapse].into_iter().flatten() {
        limits.nodes = Some(limits.nodes.map_or(cap, |nodes| nodes.min(cap)));
    }
    if let Some(cap) = params.movetime_ms {
        let cap = Duration::from_millis(cap);
        limits.movetime = Some(limits.movetime.map_or(cap, |time| time.min(cap)));
    }
    lapse.is_some()
}

/// The evaluation noise of a position (its key) under `seed`: uniform in ±`amplitude`, the
/// same every time.
#[inline]
pub fn noise(key: u64, seed: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    let span = 2 * amplitude as u64 + 1;
    (mix(key ^ mix(seed ^ 0x5EED)) % span) as i32 - amplitude
}

/// The slope of lichess's winning-chances curve, per centipawn (the curve the profile judges
/// by: win% = 50 + 50 (2 / (1 + exp(-slope cp)) - 1)).
pub const WIN_SLOPE: f64 = 0.003_682_08;

/// Winning chances in percent of a score in centipawns, by lichess's curve.
pub fn win_percent(cp: f64) -> f64 {
    50.0 + 50.0 * (2.0 / (1.0 + (-WIN_SLOPE * cp).exp()) - 1.0)
}

/// Scores past this are mates (as `Score::as_centipawns` gives them), never eased.
const EASED_BELOW: i32 = 10_000;

/// The scale a level's choice measures losses on, for a score in centipawns: the score itself
/// at or below zero; above zero, the winning chances it gives, in the centipawns that are
/// worth as many chances in an even position (the curve's slope at zero is 25·slope percent a
/// centipawn). Near zero the two agree; a won position's scores are pressed together (+600
/// scales to 436, +1000 to 516, and nothing past 543), so a move that gives back part of a
/// large lead costs little, as it does a person who plays safe when winning. Mates stay
/// centipawns.
pub fn choice_scale(cp: i32) -> f64 {
    if cp <= 0 || cp >= EASED_BELOW {
        return f64::from(cp);
    }
    (win_percent(f64::from(cp)) - 50.0) / (25.0 * WIN_SLOPE)
}

/// Picks the move to play among root moves with their scores (best first), as the level's
/// choice:
/// - a best move that recaptures on `recapture` (the square of the opponent's last capture)
///   is played outright with `recapture_pct` percent chance;
/// - otherwise the draw is among the first `candidates` moves that lose at most
///   `max_loss_cp` against the best (so an only move is always played), as a softmax: move
///   i has weight exp(-(best - score_i) / temperature).
///
/// With `chances_when_ahead`, losses are measured on [`choice_scale`], both for the cap and
/// for the softmax: the same as centipawns unless the level is ahead (and not mating).
///
/// Every draw is a fixed function of the position key and the seed.
pub fn choose(
    params: &LevelParams,
    lines: &[(Move, i32)],
    key: u64,
    seed: u64,
    recapture: Option<Square>,
) -> Option<Move> {
    let (best_move, best) = *lines.first()?;
    if recapture == Some(best_move.to()) && percent_draw(key, seed, 0x2ECA97) < u64::from(params.recapture_pct) {
        return Some(best_move);
    }
    let loss = |score: i32| {
        if params.chances_when_ahead {
            (choice_scale(best) - choice_scale(score)).max(0.0)
        } else {
            f64::from(best.saturating_sub(score).max(0))
        }
    };
    let candidates: Vec<(Move, f64)> = lines
        .iter()
        .take(params.candidates.max(1))
        .map(|&(m, score)| (m, loss(score)))
        .filter(|&(_, loss)| params.max_loss_cp.is_none_or(|cap| loss <= f64::from(cap)))
        .collect();
    if candidates.len() <= 1 || params.temperature_cp <= 0 {
        return Some(best_move);
    }
    let temperature = params.temperature_cp as f64;
    let weights: Vec<f64> = candidates
        .iter()
        .map(|&(_, loss)| (-loss / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let uniform = (mix(key ^ mix(seed ^ 0xC401CE)) >> 11) as f64 / (1u64 << 53) as f64;
    let mut target = uniform * total;
    for (&(m, _), weight) in candidates.iter().zip(&weights) {
        if target < *weight {
            return Some(m);
        }
        target -= weight;
    }
    candidates.last().map(|&(m, _)| m)
}

/// Whether the move from the position `key` is one of the level's lapses (`lapse_pct`, as
/// the level plays its variant: see [`LevelParams::in_variant`]).
pub fn is_lapse(params: &LevelParams, key: u64, seed: u64) -> bool {
    percent_draw(key, seed, 0x1A95E) < u64::from(params.lapse_pct)
}

/// A draw in 0..100, a fixed function of the position key, the seed and the draw's salt.
fn percent_draw(key: u64, seed: u64, salt: u64) -> u64 {
    mix(key ^ mix(seed ^ salt)) % 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_table_round_trips_through_a_file() {
        let table = LevelTable::default();
        let text = table.to_toml();
        assert_eq!(LevelTable::parse(&text), Ok(table));
        let json = serde_json::to_string(&LevelsFile {
            level: table.levels.to_vec(),
        })
        .unwrap();
        assert_eq!(LevelTable::parse(&json), Ok(table));
        // Fields at their defaults are left out, as in the compiled-in file.
        let level_5 = text.rsplit("[[level]]").next().unwrap();
        assert!(!level_5.contains("lapse_pct") && !level_5.contains("chances_when_ahead"));
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(LevelTable::parse("").is_err());
        assert!(LevelTable::parse("[[level]]\ndepth = 3\n")
            .unwrap_err()
            .to_string()
            .contains("5 levels"));
        let mut text = LevelTable::default().to_toml();
        text = text.replacen("candidates = 4", "candidates = 0", 1);
        assert!(LevelTable::parse(&text).unwrap_err().to_string().contains("level 1"));
        // A syntax error says where, never what the file holds.
        let error = LevelTable::parse("[[level]]\ndepth = 3\nspeed = 3\n").unwrap_err();
        assert_eq!(error.to_string(), "not a valid levels file (line 3)");
        let error = LevelTable::parse("root:x:0:0:root:/root:/bin/bash\n").unwrap_err();
        assert_eq!(error.to_string(), "not a valid levels file (line 1)");
        let error = LevelTable::parse("{\n\"level\": secret\n}").unwrap_err();
        assert_eq!(error.to_string(), "not a valid levels file (line 2)");
        assert_eq!(LevelTable::parse_bytes(b"\xff\xfe"), Err(LevelsFileError::NotText));
        assert!(LevelTable::parse("{\"level\": 3}").is_err());
    }

    #[test]
    fn uci_elo_interpolates_between_levels() {
        let table = LevelTable::default();
        let (low, high) = table.elo_range();
        assert_eq!(table.for_elo(low - 500.0), table.levels[0]);
        assert_eq!(table.for_elo(high + 500.0), table.levels[4]);
        let l1 = table.levels[0].elo.unwrap();
        let l2 = table.levels[1].elo.unwrap();
        assert_eq!(table.for_elo(l2), table.levels[1]);
        let middle = table.for_elo((l1 + l2) / 2.0);
        assert!(middle.noise_cp < table.levels[0].noise_cp && middle.noise_cp > table.levels[1].noise_cp);
        assert!(middle.nodes > table.levels[0].nodes && middle.nodes < table.levels[1].nodes);
        let top = table.for_elo(high - 1.0);
        assert!(top.nodes.unwrap() > table.levels[3].nodes.unwrap());
    }

    #[test]
    fn uci_elo_near_full_strength_keeps_the_network() {
        let table = LevelTable::default();
        let (l4, l5) = (table.get(4).elo.unwrap(), table.get(5).elo.unwrap());
        assert!(table.get(4).network && !table.get(5).network && table.get(5).is_full());
        for t in [0.1, 0.5, 0.9] {
            let params = table.for_elo(l4 + (l5 - l4) * t);
            assert!(!params.is_full() && params.network, "t = {t}");
        }
    }

    #[test]
    fn a_plain_chess_node_cap_serves_plain_chess_only() {
        let mut table = LevelTable::default();
        table.levels[1].chess_nodes = Some(20_000);
        table.levels[2].chess_nodes = None;
        let level = table.levels[1];
        assert_eq!(level.in_variant(false).nodes, Some(20_000));
        assert_eq!(level.in_variant(true).nodes, level.nodes);
        assert_eq!(table.levels[2].in_variant(false).nodes, table.levels[2].nodes);
        // UCI_Elo between two levels interpolates it, the other level's `nodes` standing in.
        let (l2, l3) = (table.levels[1].elo.unwrap(), table.levels[2].elo.unwrap());
        let middle = table.for_elo((l2 + l3) / 2.0);
        let plain = middle.nodes_in(false).unwrap();
        assert!(plain > 20_000.min(table.levels[2].nodes.unwrap()));
        assert!(plain < 20_000.max(table.levels[2].nodes.unwrap()));
        // Where neither level has one, neither has the mean.
        table.levels[1].chess_nodes = None;
        assert_eq!(table.for_elo((l2 + l3) / 2.0).chess_nodes, None);
        table.levels[1].chess_nodes = Some(20_000);
        let text = table.to_toml();
        assert_eq!(LevelTable::parse(&text), Ok(table));
        assert!(LevelTable::parse(&text.replacen("chess_nodes = 20000", "chess_nodes = 0", 1)).is_err());
    }

    #[test]
    fn caps_only_tighten() {
        let params = LevelTable::default().levels[1];
        let mut limits = Limits {
            depth: Some(9),
            movetime: Some(Duration::from_millis(10)),
            ..Limits::default()
        };
        apply(&params, &mut limits, 1, 1);
        assert_eq!(limits.depth, Some(9));
        assert_eq!(limits.nodes, params.nodes);
        assert!(params.nodes.is_some());
        assert_eq!(limits.movetime, Some(Duration::from_millis(10)));
    }

    /// The compiled-in table with Level 3's row made `params` (its Elo kept), and its file,
    /// which must read back as the same table.
    fn with_level_3(params: LevelParams) -> (LevelTable, String) {
        let mut table = LevelTable::default();
        table.levels[2] = LevelParams {
            elo: table.levels[2].elo,
            ..params
        };
        let text = table.to_toml();
        assert_eq!(LevelTable::parse(&text), Ok(table));
        (table, text)
    }

    #[test]
    fn a_lapse_caps_the_nodes_of_its_share_of_moves_in_its_variant() {
        let params = LevelParams {
            nodes: Some(50_000),
            lapse_pct: 20,
            chess_lapse_pct: Some(0),
            lapse_nodes: Some(300),
            ..LevelParams::FULL
        };
        let nodes = |params: &LevelParams, key: u64| {
            let mut limits = Limits::default();
            let lapse = apply(params, &mut limits, key, 9);
            assert_eq!(lapse, limits.nodes == Some(300));
            limits.nodes
        };
        let covered = params.in_variant(true);
        let lapses = (0..2000).filter(|&key| nodes(&covered, key) == Some(300)).count();
        assert!((300..500).contains(&lapses), "{lapses} lapses in 2000 moves");
        assert!((0..2000).all(|key| [Some(300), Some(50_000)].contains(&nodes(&covered, key))));
        // The same move of the same game lapses every time; plain chess has its own rate.
        assert_eq!(nodes(&covered, 77), nodes(&covered, 77));
        let plain = params.in_variant(false);
        assert!((0..2000).all(|key| nodes(&plain, key) == Some(50_000)));
        // A lapse never loosens a tighter limit.
        let mut limits = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        let key = (0..).find(|&key| is_lapse(&covered, key, 9)).unwrap();
        apply(&covered, &mut limits, key, 9);
        assert_eq!(limits.nodes, Some(100));
        // Files say it, bounded; UCI_Elo interpolates it.
        let (table, text) = with_level_3(params);
        assert!(LevelTable::parse(&text.replacen("lapse_pct = 20", "lapse_pct = 101", 1)).is_err());
        assert!(LevelTable::parse(&text.replacen("lapse_nodes = 300", "lapse_nodes = 0", 1)).is_err());
        let (l2, l3) = (table.levels[1].elo.unwrap(), table.levels[2].elo.unwrap());
        let middle = table.for_elo((l2 + l3) / 2.0);
        assert_eq!(
            (middle.lapse_pct, middle.chess_lapse_pct, middle.lapse_nodes),
            (10, Some(0), Some(300))
        );
    }

    #[test]
    fn plain_chess_may_have_a_choice_of_its_own() {
        let params = LevelParams {
            candidates: 5,
            temperature_cp: 71,
            chess_candidates: Some(4),
            chess_temperature_cp: Some(45),
            noise_cp: 40,
            chess_noise_cp: Some(30),
            ..LevelParams::FULL
        };
        let (covered, plain) = (params.in_variant(true), params.in_variant(false));
        assert_eq!(
            (covered.candidates, covered.temperature_cp, covered.noise_cp),
            (5, 71, 40)
        );
        assert_eq!((plain.candidates, plain.temperature_cp, plain.noise_cp), (4, 45, 30));
        let shared = LevelParams {
            chess_candidates: None,
            chess_temperature_cp: None,
            chess_noise_cp: None,
            ..params
        };
        assert_eq!(shared.in_variant(false).temperature_cp, 71);
        assert_eq!(shared.in_variant(false).noise_cp, 40);
        // Files say it, bounded; UCI_Elo interpolates it.
        let (table, text) = with_level_3(params);
        assert!(LevelTable::parse(&text.replacen("chess_candidates = 4", "chess_candidates = 0", 1)).is_err());
        assert!(
            LevelTable::parse(&text.replacen("chess_temperature_cp = 45", "chess_temperature_cp = -1", 1)).is_err()
        );
        assert!(LevelTable::parse(&text.replacen("chess_noise_cp = 30", "chess_noise_cp = 1001", 1)).is_err());
        let (l3, l4) = (table.levels[2].elo.unwrap(), table.levels[3].elo.unwrap());
        let middle = table.for_elo((l3 + l4) / 2.0);
        let level4 = table.levels[3];
        assert_eq!(
            middle.chess_temperature_cp,
            Some(((45 + level4.temperature_cp) as f64 / 2.0).round() as i32)
        );
        assert_eq!(
            middle.temperature_cp,
            ((71 + level4.temperature_cp) as f64 / 2.0).round() as i32
        );
        assert_eq!(
            middle.chess_noise_cp,
            Some(((30 + level4.noise_cp) as f64 / 2.0).round() as i32)
        );
    }

    #[test]
    fn noise_and_choice_are_fixed_by_key_and_seed() {
        assert_eq!(noise(1, 2, 50), noise(1, 2, 50));
        assert_eq!(noise(1, 2, 0), 0);
        let spread: Vec<i32> = (0..1000).map(|k| noise(k, 7, 50)).collect();
        assert!(spread.iter().all(|n| (-50..=50).contains(n)));
        assert!(spread.iter().any(|&n| n > 40) && spread.iter().any(|&n| n < -40));
        let position = crate::rules::Position::standard_start();
        let moves: Vec<Move> = position.legal_moves().iter().copied().take(4).collect();
        let lines: Vec<(Move, i32)> = moves.iter().zip([30, 20, 0, -300]).map(|(&m, s)| (m, s)).collect();
        let params = LevelTable::default().levels[0];
        let picks: Vec<Move> = (0..200).filter_map(|k| choose(&params, &lines, k, 1, None)).collect();
        assert_eq!(
            picks,
            (0..200)
                .filter_map(|k| choose(&params, &lines, k, 1, None))
                .collect::<Vec<_>>()
        );
        let count = |m: Move| picks.iter().filter(|&&p| p == m).count();
        assert!(count(moves[0]) > count(moves[2]) && count(moves[2]) > count(moves[3]));
        assert_eq!(choose(&LevelParams::FULL, &lines, 5, 5, None), Some(moves[0]));
    }

    /// The first legal moves of the start position with the given scores, best first.
    fn scored_lines(scores: &[i32]) -> Vec<(Move, i32)> {
        let position = crate::rules::Position::standard_start();
        position
            .legal_moves()
            .iter()
            .copied()
            .zip(scores.iter().copied())
            .collect()
    }

    #[test]
    fn a_capped_level_never_picks_a_move_losing_more_than_its_cap() {
        let lines = scored_lines(&[30, 20, -60, -71, -300, -900]);
        let hot = LevelParams {
            candidates: 6,
            temperature_cp: 1000,
            max_loss_cp: Some(100),
            ..LevelParams::FULL
        };
        let picks: Vec<Move> = (0..2000).filter_map(|k| choose(&hot, &lines, k, 3, None)).collect();
        let count = |i: usize| picks.iter().filter(|&&p| p == lines[i].0).count();
        // The moves within 100 cp of the best are all played; the others never.
        assert!(
            (0..3).all(|i| count(i) > 400),
            "{:?}",
            (0..6).map(count).collect::<Vec<_>>()
        );
        assert!((3..6).all(|i| count(i) == 0));
        // Without the cap the same draw plays them all.
        let uncapped = LevelParams {
            max_loss_cp: None,
            ..hot
        };
        let picks: Vec<Move> = (0..2000)
            .filter_map(|k| choose(&uncapped, &lines, k, 3, None))
            .collect();
        assert!(lines.iter().all(|&(m, _)| picks.contains(&m)));
    }

    #[test]
    fn a_level_ahead_may_weigh_its_losses_in_winning_chances() {
        // Near zero the scale is centipawns; a lead is pressed together; mates and deficits
        // are left alone.
        assert_eq!(choice_scale(-250), -250.0);
        assert_eq!(choice_scale(0), 0.0);
        assert!((choice_scale(50) - 50.0).abs() < 0.5);
        assert!((choice_scale(600) - 436.0).abs() < 1.0, "{}", choice_scale(600));
        assert!((choice_scale(1000) - 516.0).abs() < 1.0, "{}", choice_scale(1000));
        assert_eq!(choice_scale(29_990), 29_990.0);
        let level = |chances_when_ahead| LevelParams {
            candidates: 4,
            temperature_cp: 40,
            max_loss_cp: Some(130),
            chances_when_ahead,
            ..LevelParams::FULL
        };
        let (careful, loose) = (level(false), level(true));
        let count = |params: &LevelParams, lines: &[(Move, i32)], i: usize| {
            (0..2000)
                .filter(|&k| choose(params, lines, k, 11, None) == Some(lines[i].0))
                .count()
        };
        // Far ahead, a move 200 cp worse is within the cap in winning chances, not in
        // centipawns.
        let ahead = scored_lines(&[900, 700, 650, 100]);
        assert_eq!(count(&careful, &ahead, 1), 0);
        assert!(count(&loose, &ahead, 1) > 200, "{}", count(&loose, &ahead, 1));
        assert_eq!(count(&loose, &ahead, 3), 0);
        // Even or behind, both choose alike, draw for draw.
        for scores in [[20, 0, -30, -200], [-400, -420, -480, -900]] {
            let lines = scored_lines(&scores);
            assert!((0..500).all(|k| choose(&careful, &lines, k, 4, None) == choose(&loose, &lines, k, 4, None)));
        }
        // A mate found is a mate played.
        let mating = scored_lines(&[29_997, 900, 880]);
        assert_eq!(count(&loose, &mating, 0), 2000);
        // Plain chess may have its own; files say it; UCI_Elo takes the nearer level's.
        let params = LevelParams {
            chess_chances_when_ahead: Some(true),
            ..careful
        };
        assert!(!params.in_variant(true).chances_when_ahead);
        assert!(params.in_variant(false).chances_when_ahead);
        let (table, text) = with_level_3(params);
        assert!(text.contains("chess_chances_when_ahead = true"));
        let (l3, l4) = (table.levels[2].elo.unwrap(), table.levels[3].elo.unwrap());
        let near3 = table.for_elo(l3 + (l4 - l3) * 0.25);
        assert!(near3.in_variant(false).chances_when_ahead && !near3.in_variant(true).chances_when_ahead);
        assert!(
            !table
                .for_elo(l3 + (l4 - l3) * 0.75)
                .in_variant(false)
                .chances_when_ahead
        );
    }

    #[test]
    fn an_only_move_is_always_played() {
        let lines = scored_lines(&[50, -250, -260, -400]);
        let level = LevelParams {
            max_loss_cp: Some(250),
            ..LevelTable::default().levels[0]
        };
        assert!((0..1000).all(|k| choose(&level, &lines, k, 9, None) == Some(lines[0].0)));
    }

    #[test]
    fn a_recapture_is_taken_as_often_as_the_level_says() {
        let lines = scored_lines(&[100, 90, 80, 70]);
        let square = lines[0].0.to();
        let level = |recapture_pct| LevelParams {
            candidates: 4,
            temperature_cp: 200,
            recapture_pct,
            ..LevelParams::FULL
        };
        let best_count = |params: &LevelParams, recapture: Option<Square>| {
            (0..1000)
                .filter(|&k| choose(params, &lines, k, 5, recapture) == Some(lines[0].0))
                .count()
        };
        // Always at 100%, never forced at 0% (the softmax then plays it about a third of the
        // time), about half-way between at 50%.
        assert_eq!(best_count(&level(100), Some(square)), 1000);
        let free = best_count(&level(0), Some(square));
        assert!((200..450).contains(&free), "{free}");
        let half = best_count(&level(50), Some(square));
        assert!((550..750).contains(&half), "{half}");
        // A capture elsewhere, or a best move that does not go there, changes nothing.
        assert_eq!(best_count(&level(100), None), free);
        assert_eq!(best_count(&level(100), Some(lines[1].0.to())), free);
    }

    #[test]
    fn files_without_the_new_fields_still_load() {
        let text = LevelTable::default()
            .to_toml()
            .lines()
            .filter(|line| !line.starts_with("max_loss_cp") && !line.starts_with("recapture_pct"))
            .collect::<Vec<_>>()
            .join("\n");
        let table = LevelTable::parse(&text).unwrap();
        assert!(table
            .levels
            .iter()
            .all(|l| l.max_loss_cp.is_none() && l.recapture_pct == 0));
        let mut bad = LevelTable::default();
        bad.levels[2].max_loss_cp = Some(-1);
        assert!(LevelTable::parse(&bad.to_toml())
            .unwrap_err()
            .to_string()
            .contains("level 3"));
        bad.levels[2].max_loss_cp = None;
        bad.levels[2].recapture_pct = 101;
        assert!(LevelTable::parse(&bad.to_toml())
            .unwrap_err()
            .to_string()
            .contains("recapture_pct"));
    }
}
