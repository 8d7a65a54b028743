//! Tuning the levels to target Elos by matches. Level 5 (full strength) stays as it is and
//! defines the top of the scale; going down, each level's strength knob, its node cap per
//! move, is searched on a log scale so that it scores against the level above as the target
//! gap says.
//!
//! Each probe match gives the Elo difference at one node cap. The tuner fits a line, Elo
//! against log2(nodes), through all the probes of a level so far, each weighted by its
//! games (its inverse variance), with a prior on the slope (the Elo a doubling of nodes is
//! worth) that the probes soon outweigh. The next probe goes where the line meets the
//! target, and the level's final node cap is where the line through all its probes meets
//! it: every game of every probe counts, not just the last probe's. Depth caps are lifted on
//! tuned levels so that the node cap governs; time caps stay, since they bound what a level
//! costs to host, but a node cap past what its time cap affords ([`NODES_PER_MS`] a
//! millisecond) raises the time cap with it, up to `MAX_TIME_RAISE` times. A level that
//! lapses in covered chess is tuned along its share of lapses instead, `LAPSE_STEP_PCT`
//! points a step on the same kind of line (its `Knob`).
//!
//! In covered chess the axis goes on past that: there the node cap stays at its most, and
//! each further step of one halves the level's noise and softmax temperature instead (in
//! covered chess only: the row's `chess_noise_cp` and `chess_temperature_cp` keep plain
//! chess's as they were). So a
//! level whose choice costs more than its gap still reaches its target, and its searches
//! still end at their node cap, not on the clock: it plays alike on every machine and
//! replays move for move.
//!
//! A level that lapses in covered chess (`lapse_pct`) is tuned by its share of lapses
//! instead, its node cap and choice kept: its lapses, not its full searches, set its strength
//! (plain chess keeps its own lapses, as it keeps its choice).
//!
//! With anchors (engines of known Elo, such as Stockfish at a `UCI_Elo`), each level plays
//! instead the anchor nearest its target, and the gap it aims at is its target less the
//! anchor's Elo; the levels are then tuned each on its own. In plain chess the tuner sets the
//! level's own plain-chess node cap (`chess_nodes`), which leaves its covered play alone: the
//! noise and temperature the two variants share are not touched, and no further than
//! `MAX_TIME_RAISE` times the time cap's worth of nodes.
//!
//! How sure the fit is: the line's 95% error at the node cap it picks (its Elo there, against
//! the level above or the anchor). With a precision, a level is probed until that error is
//! within it (or its probes run out). With a journal, every probe is kept in a file, and a
//! later run of the same tuning takes up the probes of the earlier ones that played the same
//! row against the same opponent in the same conditions, so a precision that needs more games
//! than one run can give is reached over several runs.

use super::anchored;
use super::calibrate::Player;
use crate::arbiter::engine::EngineSpec;
use crate::arbiter::record::Variant;
use crate::arbiter::report::Report;
use crate::arbiter::runner::{self, MatchConfig};
use crate::rules::splitmix::mix;
use crate::search::level::{LevelParams, LevelTable};
use std::path::Path;

/// Elo a doubling of nodes (or a step of [`LAPSE_STEP_PCT`] fewer lapses) is taken to be
/// worth before the probes measure it.
const PRIOR_SLOPE: f64 = 120.0;
/// The prior's standard deviation on that slope, in Elo per step of the axis.
const PRIOR_SLOPE_SD: f64 = 60.0;
/// The slope the fit may take, in Elo per step of the axis.
const SLOPE_RANGE: (f64, f64) = (30.0, 400.0);
/// How far one probe may move the node cap from the last, in doublings.
const MAX_STEP: f64 = 4.0;
const MIN_NODES: u64 = 16;
const MAX_NODES: u64 = 20_000_000;
/// Nodes a millisecond of a level's time cap is taken to afford on a slow or busy machine:
/// the tuner never gives a level more nodes than its time cap's worth (raising the time cap
/// where it gives more).
pub const NODES_PER_MS: u64 = 400;
/// How far past its most nodes the axis takes a level: its noise and temperature down to a
/// sixteenth.
const MAX_COOLING: f64 = 4.0;
/// How many times its time cap the tuner may raise a level's time cap to, to afford more
/// nodes: a level stays cheap to host. (Hosting prefers a tighter time cap; people prefer
/// small errors kept, so nodes come before a cooler choice.)
const MAX_TIME_RAISE: u64 = 4;
/// Points of lapse share (percent of moves) one step of a lapsing level's axis spans.
const LAPSE_STEP_PCT: f64 = 20.0;

/// One probe match of a tuning run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Probe {
    pub level: u8,
    /// Whom the level played: the level above or an anchor.
    pub opponent: String,
    pub nodes: u64,
    /// The share of its table's noise and temperature the level played with.
    pub choice: f64,
    /// The share of its moves, in percent, that were lapses in the variant.
    #[serde(default)]
    pub lapse_pct: u8,
    /// The level's measured Elo against the level above, with its 95% error (infinite after
    /// a shutout; a journal writes it as null).
    pub measured: f64,
    #[serde(with = "infinite_as_null")]
    pub error: f64,
    pub target: f64,
    /// Games the probe played.
    pub games: u64,
    /// Where on the level's axis the probe stood.
    pub x: f64,
    /// The row the level played, as a levels file writes it.
    pub row: String,
    /// What else decides the result: variant, time control, openings and the opponent (its
    /// row, or the anchor's command and options). A journal's probe is taken up only by a
    /// tuning whose context and row are the same.
    pub context: String,
    /// Taken up from the journal, not played by this run.
    #[serde(skip)]
    pub reused: bool,
}

/// JSON has no infinity: an infinite error is written as null and read back as infinite.
mod infinite_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        match value.is_finite() {
            true => serializer.serialize_f64(*value),
            false => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::INFINITY))
    }
}

/// The result of tuning one level.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub level: u8,
    pub nodes: u64,
    pub choice: f64,
    /// The share of its moves, in percent, that lapse in the variant.
    pub lapse_pct: u8,
    /// The 95% error of the fit at the chosen point, in Elo (infinite without probes).
    pub error: f64,
    /// Probes and games behind the fit, of them taken up from the journal.
    pub probes: usize,
    pub games: u64,
    pub reused_games: u64,
}

/// The engine spec of `level` reading its parameters from `levels_file`.
pub fn level_spec(command: &str, level: u8, levels_file: Option<&Path>) -> EngineSpec {
    let mut options = vec![("Level".to_string(), level.to_string())];
    if let Some(path) = levels_file {
        options.push(("LevelsFile".to_string(), path.display().to_string()));
    }
    EngineSpec {
        name: format!("L{level}"),
        command: command.to_string(),
        args: Vec::new(),
        options,
    }
}

/// What a tuning run aims at and how hard it looks.
pub struct TuneGoal<'a> {
    /// Target Elos of levels 1..=5.
    pub targets: [f64; 5],
    pub probe_games: u64,
    pub iterations: u32,
    /// Where candidate tables are written for the engines to read.
    pub work_file: &'a Path,
    /// Engines of known Elo: if any, each level plays the one nearest its target instead of
    /// the level above.
    pub anchors: &'a [Player],
    /// The levels to tune (of 1..=4); the others keep their rows.
    pub levels: &'a [u8],
    /// Probe a level until the fit's 95% error at its chosen point is within this many Elo
    /// (`iterations` is then the most probes a run plays for it).
    pub precision: Option<f64>,
    /// Where probes are kept between runs (JSON lines), and taken up from.
    pub journal: Option<&'a Path>,
}

/// Tunes levels 4 down to 1 of `table` to the goal's targets. `template` supplies the time
/// control, variant, openings, concurrency and seed. `log` hears of every probe, those taken
/// up from the journal included. The tuned levels (all five without anchors: Level 5 is the
/// pinned top) take their targets as their Elos in the variant.
pub fn tune(
    template: &MatchConfig,
    command: &str,
    table: &LevelTable,
    goal: &TuneGoal,
    mut log: impl FnMut(&Probe),
) -> std::io::Result<(LevelTable, Vec<Tuned>)> {
    let covered = template.variant == Variant::Covered;
    let journal = match goal.journal {
        Some(path) => read_journal(path)?,
        None => Vec::new(),
    };
    let mut table = *table;
    let mut tuned = Vec::new();
    for index in (0..4).rev().filter(|&i| goal.levels.contains(&(i as u8 + 1))) {
        let level = index as u8 + 1;
        let (opponent, wanted, described) = opponent_of(level, command, &table, goal);
        let context = format!("{}\nopponent {described}", conditions(template));
        let base = table.levels[index];
        let axis = Axis::of(&base, covered);
        let row_at = |x: f64| {
            let mut params = base;
            params.depth = None;
            axis.set(&mut params, &base, x);
            params
        };
        let mut tried: Vec<Probe> = taken_up(&journal, level, &context, row_at)
            .map(|p| Probe {
                opponent: opponent.name.clone(),
                target: wanted,
                ..p
            })
            .collect();
        tried.iter().for_each(&mut log);
        let mut x = match tried.is_empty() {
            true => axis.start(&base),
            false => next_point(&axis, &tried, wanted),
        };
        for _ in 0..goal.iterations.max(1) {
            let line = fit_line(&points(&tried));
            if goal.precision.is_some_and(|p| line.error_at(x) <= p) {
                break;
            }
            table.levels[index] = row_at(x);
            std::fs::write(goal.work_file, table.to_toml())?;
            let engines = vec![level_spec(command, level, Some(goal.work_file)), opponent.clone()];
            let seed = template.seed.wrapping_add(u64::from(level) * 1000 + tried.len() as u64);
            let report = play_probe(template, engines, goal.probe_games, seed)?;
            if report.interrupted {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    format!("the tuning stopped during a probe of Level {level}; no table was written"),
                ));
            }
            let head = report.head_to_head.as_ref();
            let probe = Probe {
                level,
                opponent: opponent.name.clone(),
                nodes: table.levels[index].nodes_in(covered).unwrap_or(0),
                choice: axis.choice(x),
                lapse_pct: table.levels[index].lapse_pct_in(covered),
                measured: head.map_or(0.0, |h| h.elo).clamp(-800.0, 800.0),
                error: head.map_or(f64::INFINITY, |h| h.elo_error),
                target: wanted,
                games: head.map_or(0, |h| h.wins + h.draws + h.losses),
                x,
                row: row_text(&table.levels[index]),
                context: context.clone(),
                reused: false,
            };
            log(&probe);
            if let Some(path) = goal.journal {
                append_journal(path, &probe)?;
            }
            tried.push(probe);
            x = next_point(&axis, &tried, wanted);
        }
        let line = fit_line(&points(&tried));
        let x = axis.clamp(line.x_at(wanted));
        table.levels[index] = row_at(x);
        tuned.push(Tuned {
            level,
            nodes: table.levels[index].nodes_in(covered).unwrap_or(0),
            choice: axis.choice(x),
            lapse_pct: table.levels[index].lapse_pct_in(covered),
            error: line.error_at(x),
            probes: tried.len(),
            games: tried.iter().map(|p| p.games).sum(),
            reused_games: tried.iter().filter(|p| p.reused).map(|p| p.games).sum(),
        });
    }
    for (number, (params, target)) in (1..=5u8).zip(table.levels.iter_mut().zip(goal.targets)) {
        if goal.levels.contains(&number) || (number == 5 && goal.anchors.is_empty()) {
            params.set_elo_in(covered, target);
        }
    }
    Ok((table, tuned))
}

/// Whom `level` is tuned against: the anchor nearest its target if there are anchors, else
/// the level above as the work file has it; with the Elo gap it should show against that
/// opponent and a description of the opponent for the journal.
fn opponent_of(level: u8, command: &str, table: &LevelTable, goal: &TuneGoal) -> (EngineSpec, f64, String) {
    let index = usize::from(level) - 1;
    let target = goal.targets[index];
    match nearest_anchor(goal.anchors, target) {
        Some(anchor) => (
            anchor.spec.clone(),
            target - anchor.nominal.unwrap_or(0.0),
            format!(
                "anchor {} {} {:?} {:?}",
                anchor.spec.name, anchor.spec.command, anchor.spec.args, anchor.spec.options
            ),
        ),
        None => (
            level_spec(command, level + 1, Some(goal.work_file)),
            target - goal.targets[index + 1],
            format!("Level {}\n{}", level + 1, row_text(&table.levels[index + 1])),
        ),
    }
}

/// Plays one probe match: `engines` as `template` plays its games, but `games` of them,
/// with `seed`, and no files written.
fn play_probe(template: &MatchConfig, engines: Vec<EngineSpec>, games: u64, seed: u64) -> std::io::Result<Report> {
    let config = MatchConfig {
        engines,
        games_per_encounter: games,
        seed,
        pgn: None,
        results: None,
        shard: None,
        sprt: None,
        ..template.clone()
    };
    runner::run(&config)
}

/// The journal's probes of `level` that a tuning in `context` can take up: those that
/// played the row its axis gives at their point (`row_at`), so a changed row or axis, a
/// changed opponent or changed conditions start afresh.
fn taken_up<'a>(
    journal: &'a [Probe],
    level: u8,
    context: &'a str,
    row_at: impl Fn(f64) -> LevelParams + 'a,
) -> impl Iterator<Item = Probe> + 'a {
    journal
        .iter()
        .filter(move |p| p.level == level && p.context == context && p.row == row_text(&row_at(p.x)))
        .map(|p| Probe {
            reused: true,
            ..p.clone()
        })
}

/// Where the next probe goes: where the line through the probes meets the target, at most
/// [`MAX_STEP`] from the last probe.
fn next_point(axis: &Axis, tried: &[Probe], wanted: f64) -> f64 {
    let last = tried.last().map_or(0.0, |p| p.x);
    let line = fit_line(&points(tried));
    axis.clamp(last + (line.x_at(wanted) - last).clamp(-MAX_STEP, MAX_STEP))
}

fn points(probes: &[Probe]) -> Vec<Point> {
    probes
        .iter()
        .map(|p| Point {
            x: p.x,
            elo: p.measured,
            error: p.error,
        })
        .collect()
}

/// A level's row as a levels file writes it, without its Elos (which a tuning sets, and which
/// do not change how it plays).
fn row_text(params: &LevelParams) -> String {
    let row = LevelParams {
        elo: None,
        covered_elo: None,
        ..*params
    };
    toml::to_string(&row).unwrap_or_default()
}

/// The conditions of a tuning's games: variant, time control, openings (their count and a
/// digest of their FENs), adjudication.
fn conditions(template: &MatchConfig) -> String {
    let digest = template.openings.iter().fold(0u64, |hash, position| {
        position.to_fen().bytes().fold(hash, |h, b| mix(h ^ u64::from(b)))
    });
    format!(
        "{} {} openings {} {digest:016x} resign {:?} draw {:?} plies {:?}",
        template.variant.name(),
        template.settings.time_control,
        template.openings.len(),
        template.settings.resign,
        template.settings.draw,
        template.settings.max_plies
    )
}

/// The probes of a journal; none if it does not exist yet. A line that is not a probe is
/// an error, so that a damaged journal is not half read.
fn read_journal(path: &Path) -> std::io::Result<Vec<Probe>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(number, line)| {
            serde_json::from_str(line).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: line {}: not a probe: {e}", path.display(), number + 1),
                )
            })
        })
        .collect()
}

fn append_journal(path: &Path, probe: &Probe) -> std::io::Result<()> {
    use std::io::Write;
    let line = serde_json::to_string(probe).map_err(std::io::Error::other)?;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    writeln!(file, "{line}")
}

/// The anchor whose Elo is nearest `elo` (the first of [`anchored::nearest`]).
fn nearest_anchor(anchors: &[Player], elo: f64) -> Option<&Player> {
    anchored::nearest(anchors, elo, false).first().map(|&i| &anchors[i])
}

fn nodes_at(log_nodes: f64) -> u64 {
    2f64.powf(log_nodes).round().clamp(MIN_NODES as f64, MAX_NODES as f64) as u64
}

/// A level's strength axis.
/// - Covered chess: log2 of its node cap up to `full`, the most [`MAX_TIME_RAISE`] times its
///   time cap affords; past it, cooling: the choice's noise and temperature halve with each
///   step.
/// - Covered chess, a level that lapses: its share of lapses, [`LAPSE_STEP_PCT`] points a
///   step, from every move a lapse (0) to none (5); its node cap and choice stay. Such a
///   level's strength is set by its lapses: three times the nodes moved Level 3, lapsing on
///   60% of its moves, by nothing a probe could see.
/// - Plain chess: log2 of its plain-chess node cap (`chess_nodes`) alone, the time cap raised
///   to afford it where it must be, up to [`MAX_TIME_RAISE`] times.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Axis {
    full: f64,
    knob: Knob,
}

/// What a level's axis moves.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Knob {
    /// The covered node cap, then a cooler choice.
    CoveredNodes,
    /// The covered share of lapses.
    Lapses,
    /// The plain-chess node cap.
    ChessNodes,
}

impl Axis {
    fn of(params: &LevelParams, covered: bool) -> Axis {
        let most = params.movetime_ms.map_or(MAX_NODES, |ms| {
            ms.saturating_mul(NODES_PER_MS * MAX_TIME_RAISE)
                .clamp(MIN_NODES, MAX_NODES)
        });
        let knob = match (covered, params.lapse_pct > 0) {
            (false, _) => Knob::ChessNodes,
            (true, true) => Knob::Lapses,
            (true, false) => Knob::CoveredNodes,
        };
        Axis {
            full: (most as f64).log2(),
            knob,
        }
    }

    /// Where the level's row stands (its noise and temperature as the base).
    fn start(&self, params: &LevelParams) -> f64 {
        let x = match self.knob {
            Knob::Lapses => (100.0 - f64::from(params.lapse_pct)) / LAPSE_STEP_PCT,
            Knob::CoveredNodes | Knob::ChessNodes => params
                .nodes_in(self.knob == Knob::CoveredNodes)
                .map_or(self.full, |n| (n.max(1) as f64).log2())
                .min(self.full),
        };
        self.clamp(x)
    }

    fn clamp(&self, x: f64) -> f64 {
        match self.knob {
            Knob::Lapses => x.clamp(0.0, 100.0 / LAPSE_STEP_PCT),
            Knob::CoveredNodes => x.clamp((MIN_NODES as f64).log2(), self.full + MAX_COOLING),
            Knob::ChessNodes => x.clamp((MIN_NODES as f64).log2(), self.full),
        }
    }

    /// The share of the base's noise and temperature at `x`.
    fn choice(&self, x: f64) -> f64 {
        match self.knob {
            Knob::CoveredNodes => 0.5f64.powf((x - self.full).max(0.0)),
            Knob::Lapses | Knob::ChessNodes => 1.0,
        }
    }

    /// Sets `params` to the point `x` of the axis of `base`. What the axis does not move,
    /// plain chess above all, stays as `base` has it.
    fn set(&self, params: &mut LevelParams, base: &LevelParams, x: f64) {
        if self.knob == Knob::Lapses {
            params.lapse_pct = (100.0 - x * LAPSE_STEP_PCT).round().clamp(0.0, 100.0) as u8;
            let moved = params.lapse_pct != base.lapse_pct;
            params.chess_lapse_pct = moved.then(|| base.lapse_pct_in(false)).or(base.chess_lapse_pct);
            return;
        }
        let nodes = nodes_at(x.min(self.full));
        params.movetime_ms = base.movetime_ms.map(|ms| ms.max(nodes.div_ceil(NODES_PER_MS)));
        if self.knob == Knob::ChessNodes {
            params.chess_nodes = Some(nodes);
            return;
        }
        params.nodes = Some(nodes);
        let share = self.choice(x);
        params.noise_cp = (f64::from(base.noise_cp) * share).round() as i32;
        params.temperature_cp = (f64::from(base.temperature_cp) * share).round() as i32;
        // Plain chess keeps the base's noise and choice: the two variants are tuned apart.
        let cooled = share < 1.0;
        params.chess_noise_cp = cooled.then(|| base.noise_in(false)).or(base.chess_noise_cp);
        params.chess_temperature_cp = cooled.then(|| base.temperature_in(false)).or(base.chess_temperature_cp);
    }
}

/// One probe as the fit sees it.
#[derive(Clone, Copy, Debug)]
struct Point {
    /// Where on the level's axis (log2 of its nodes, for most levels).
    x: f64,
    elo: f64,
    /// The 95% error of the measured Elo.
    error: f64,
}

/// Elo = intercept + slope * x, the level's axis (log2 of its nodes, for most levels), and
/// how sure the fit is of it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Line {
    intercept: f64,
    slope: f64,
    /// The probes' total weight (inverse variance), the weighted mean of their points and
    /// the weighted sum of squares about it with the prior's share added: the line's
    /// variance at `x` is 1/weight + (x - mean)^2 / spread.
    weight: f64,
    mean: f64,
    spread: f64,
}

impl Line {
    fn x_at(&self, elo: f64) -> f64 {
        (elo - self.intercept) / self.slope
    }

    /// The 95% error of the line's Elo at `x` (infinite without probes).
    fn error_at(&self, x: f64) -> f64 {
        if self.weight <= 0.0 {
            return f64::INFINITY;
        }
        1.96 * (1.0 / self.weight + (x - self.mean).powi(2) / self.spread).sqrt()
    }
}

/// The weighted least-squares line through the probes, with a normal prior on the slope
/// (mean [`PRIOR_SLOPE`], deviation [`PRIOR_SLOPE_SD`]): with one probe the line is the
/// prior's slope through it; with more, the probes decide. A probe's weight is its inverse
/// variance (a probe that scored 0% or 100% has an infinite error and is given the weight
/// of one measured to ±400 Elo, so that it still pushes the line).
fn fit_line(points: &[Point]) -> Line {
    let weight = |p: &Point| {
        let sd = if p.error.is_finite() && p.error > 0.0 {
            p.error / 1.96
        } else {
            400.0 / 1.96
        };
        1.0 / (sd * sd).max(1.0)
    };
    let total: f64 = points.iter().map(weight).sum();
    if points.is_empty() || total <= 0.0 {
        let prior = 1.0 / (PRIOR_SLOPE_SD * PRIOR_SLOPE_SD);
        return Line {
            intercept: 0.0,
            slope: PRIOR_SLOPE,
            weight: 0.0,
            mean: 0.0,
            spread: prior,
        };
    }
    let mean_x = points.iter().map(|p| weight(p) * p.x).sum::<f64>() / total;
    let mean_y = points.iter().map(|p| weight(p) * p.elo).sum::<f64>() / total;
    let sxx: f64 = points.iter().map(|p| weight(p) * (p.x - mean_x).powi(2)).sum();
    let sxy: f64 = points
        .iter()
        .map(|p| weight(p) * (p.x - mean_x) * (p.elo - mean_y))
        .sum();
    let prior = 1.0 / (PRIOR_SLOPE_SD * PRIOR_SLOPE_SD);
    let slope = ((sxy + prior * PRIOR_SLOPE) / (sxx + prior)).clamp(SLOPE_RANGE.0, SLOPE_RANGE.1);
    Line {
        intercept: mean_y - slope * mean_x,
        slope,
        weight: total,
        mean: mean_x,
        spread: sxx + prior,
    }
}

/// The players of a calibration of levels 1..=5 of `command` (with a levels file, if given)
/// and the anchors after them.
/// Their nominal Elos are the table's for the variant (`covered`: the covered ladder's).
pub fn level_players(
    command: &str,
    levels_file: Option<&Path>,
    table: &LevelTable,
    covered: bool,
    anchors: &[Player],
) -> Vec<Player> {
    let mut players: Vec<Player> = (1..=5u8)
        .map(|level| Player {
            spec: level_spec(command, level, levels_file),
            level: Some(level),
            nominal: table.get(level).elo_in(covered),
        })
        .collect();
    players.extend(anchors.iter().cloned());
    players
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(nodes: f64, elo: f64, error: f64) -> Point {
        Point {
            x: nodes.log2(),
            elo,
            error,
        }
    }

    #[test]
    fn one_probe_takes_the_prior_slope() {
        let line = fit_line(&[point(1024.0, -300.0, 60.0)]);
        assert!((line.slope - PRIOR_SLOPE).abs() < 1e-9);
        assert!((line.x_at(-300.0) - 10.0).abs() < 1e-9);
        // 120 Elo short: one doubling more.
        assert!((line.x_at(-180.0) - 11.0).abs() < 1e-9);
    }

    #[test]
    fn precise_probes_outweigh_the_prior() {
        // Exactly 200 Elo a doubling, measured tightly.
        let points: Vec<Point> = [(256.0, -600.0), (1024.0, -200.0), (4096.0, 200.0)]
            .iter()
            .map(|&(n, e)| point(n, e, 20.0))
            .collect();
        let line = fit_line(&points);
        assert!((line.slope - 200.0).abs() < 2.0, "{line:?}");
        assert!((line.x_at(-200.0) - 10.0).abs() < 0.02, "{line:?}");
    }

    #[test]
    fn a_level_gets_nodes_and_time_first_then_a_cooler_choice() {
        let base = LevelParams {
            nodes: Some(50_000),
            movetime_ms: Some(250),
            noise_cp: 30,
            temperature_cp: 70,
            ..LevelParams::FULL
        };
        let axis = Axis::of(&base, true);
        assert!((2f64.powf(axis.full) - 400_000.0).abs() < 1.0);
        let mut params = base;
        axis.set(&mut params, &base, axis.start(&base));
        assert_eq!(
            (params.nodes, params.movetime_ms, params.noise_cp, params.temperature_cp),
            (Some(50_000), Some(250), 30, 70)
        );
        // Past its time cap's worth the time cap rises with the nodes.
        axis.set(&mut params, &base, 200_000f64.log2());
        assert_eq!(
            (params.nodes, params.movetime_ms, params.noise_cp),
            (Some(200_000), Some(500), 30)
        );
        // Past four times that, the choice cools.
        axis.set(&mut params, &base, axis.full + 1.0);
        assert_eq!(
            (params.nodes, params.movetime_ms, params.noise_cp, params.temperature_cp),
            (Some(400_000), Some(1_000), 15, 35)
        );
        // Plain chess keeps the base's noise and choice.
        assert_eq!((params.noise_in(false), params.temperature_in(false)), (30, 70));
        axis.set(&mut params, &base, axis.clamp(axis.full + 9.0));
        assert_eq!((params.noise_cp, params.temperature_cp), (2, 4));
        assert_eq!(
            (params.chess_noise_cp, params.chess_temperature_cp),
            (Some(30), Some(70))
        );
        // Back at its nodes, the level needs no plain-chess override.
        axis.set(&mut params, &base, axis.start(&base));
        assert_eq!((params.chess_noise_cp, params.chess_temperature_cp), (None, None));
        // A row whose node cap is past that starts at the most.
        let greedy = LevelParams {
            nodes: Some(5_000_000),
            ..base
        };
        assert_eq!(axis.start(&greedy), axis.full);
    }

    #[test]
    fn in_plain_chess_the_axis_moves_only_the_plain_chess_cap_and_the_time_it_needs() {
        let base = LevelParams {
            nodes: Some(8_000),
            movetime_ms: Some(25),
            noise_cp: 75,
            temperature_cp: 130,
            ..LevelParams::FULL
        };
        let axis = Axis::of(&base, false);
        assert_eq!(axis.start(&base), 8_000f64.log2());
        let mut params = base;
        axis.set(&mut params, &base, 32_000f64.log2());
        assert_eq!(params.chess_nodes, Some(32_000));
        assert_eq!(params.movetime_ms, Some(80));
        assert_eq!(
            (params.nodes, params.noise_cp, params.temperature_cp),
            (Some(8_000), 75, 130)
        );
        axis.set(&mut params, &base, 4_000f64.log2());
        assert_eq!((params.chess_nodes, params.movetime_ms), (Some(4_000), Some(25)));
        assert_eq!(axis.start(&params), 4_000f64.log2());
        // At most four times the time cap.
        axis.set(&mut params, &base, axis.clamp(20.0));
        assert_eq!((params.chess_nodes, params.movetime_ms), (Some(40_000), Some(100)));
    }

    #[test]
    fn a_level_that_lapses_in_covered_chess_is_tuned_by_its_share_of_lapses() {
        let base = LevelParams {
            nodes: Some(75_000),
            movetime_ms: Some(300),
            noise_cp: 40,
            temperature_cp: 70,
            lapse_pct: 60,
            chess_lapse_pct: Some(0),
            lapse_nodes: Some(300),
            ..LevelParams::FULL
        };
        let axis = Axis::of(&base, true);
        assert_eq!(axis.start(&base), 2.0);
        let mut params = base;
        axis.set(&mut params, &base, axis.start(&base));
        assert_eq!(params, base);
        // Fewer lapses are stronger; nodes, time and choice stay.
        axis.set(&mut params, &base, 2.75);
        assert_eq!(
            (
                params.lapse_pct,
                params.chess_lapse_pct,
                params.nodes,
                params.movetime_ms
            ),
            (45, Some(0), Some(75_000), Some(300))
        );
        assert_eq!(
            (params.noise_cp, params.temperature_cp, axis.choice(2.75)),
            (40, 70, 1.0)
        );
        // From every move a lapse to none.
        axis.set(&mut params, &base, axis.clamp(-3.0));
        assert_eq!(params.lapse_pct, 100);
        axis.set(&mut params, &base, axis.clamp(9.0));
        assert_eq!(params.lapse_pct, 0);
        // A level whose lapses both variants share keeps plain chess's as they were.
        let shared = LevelParams {
            chess_lapse_pct: None,
            ..base
        };
        axis.set(&mut params, &shared, 3.0);
        assert_eq!((params.lapse_pct, params.chess_lapse_pct), (40, Some(60)));
        // In plain chess, or without lapses, the axis is the node cap.
        assert_eq!(Axis::of(&base, false).knob, Knob::ChessNodes);
        assert_eq!(
            Axis::of(&LevelParams { lapse_pct: 0, ..base }, true).knob,
            Knob::CoveredNodes
        );
    }

    #[test]
    fn the_nearest_anchor_is_picked_by_elo() {
        let anchor = |elo: f64| Player {
            spec: level_spec("x", 1, None),
            level: None,
            nominal: Some(elo),
        };
        let anchors = [anchor(1320.0), anchor(1600.0), anchor(1900.0)];
        assert_eq!(nearest_anchor(&anchors, 1100.0).and_then(|a| a.nominal), Some(1320.0));
        assert_eq!(nearest_anchor(&anchors, 1775.0).and_then(|a| a.nominal), Some(1900.0));
        assert!(nearest_anchor(&[], 1775.0).is_none());
    }

    #[test]
    fn a_shutout_still_pushes_the_line() {
        let line = fit_line(&[point(64.0, -800.0, f64::INFINITY), point(512.0, -250.0, 80.0)]);
        assert!(line.slope > 0.0 && line.x_at(-250.0) > 6.0);
    }

    #[test]
    fn the_fit_is_surest_at_its_probes_and_with_more_games() {
        let one = fit_line(&[point(1024.0, -150.0, 60.0)]);
        assert!((one.error_at(10.0) - 60.0).abs() < 1e-6, "{one:?}");
        assert!(one.error_at(12.0) > 60.0);
        let two = fit_line(&[point(1024.0, -150.0, 60.0), point(1024.0, -150.0, 60.0)]);
        assert!((two.error_at(10.0) - 60.0 / 2f64.sqrt()).abs() < 1e-6, "{two:?}");
        assert!(fit_line(&[]).error_at(10.0).is_infinite());
    }

    fn probe(x: f64, row: &LevelParams, context: &str) -> Probe {
        Probe {
            level: 3,
            opponent: "L4".to_string(),
            nodes: nodes_at(x),
            choice: 1.0,
            lapse_pct: 0,
            measured: -120.0,
            error: 70.0,
            target: -175.0,
            games: 80,
            x,
            row: row_text(row),
            context: context.to_string(),
            reused: false,
        }
    }

    #[test]
    fn a_journal_gives_back_only_the_probes_of_the_same_row_and_context() {
        let base = LevelParams {
            nodes: Some(50_000),
            movetime_ms: Some(250),
            noise_cp: 30,
            temperature_cp: 70,
            elo: Some(1500.0),
            ..LevelParams::FULL
        };
        let axis = Axis::of(&base, true);
        let row_at = |x: f64| {
            let mut params = base;
            axis.set(&mut params, &base, x);
            params
        };
        let path = std::env::temp_dir().join(format!("veil-journal-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        assert!(read_journal(&path).unwrap().is_empty());
        let x = 60_000f64.log2();
        let mut other_row = row_at(x);
        other_row.candidates += 1;
        for probe in [
            probe(x, &row_at(x), "covered 5+0.05"),
            probe(x, &row_at(x), "covered 10+0.1"),
            probe(x, &other_row, "covered 5+0.05"),
            Probe {
                level: 2,
                ..probe(x, &row_at(x), "covered 5+0.05")
            },
            Probe {
                error: f64::INFINITY,
                ..probe(x + 1.0, &row_at(x + 1.0), "covered 5+0.05")
            },
        ] {
            append_journal(&path, &probe).unwrap();
        }
        let journal = read_journal(&path).unwrap();
        assert_eq!(journal.len(), 5);
        let kept: Vec<Probe> = taken_up(&journal, 3, "covered 5+0.05", row_at).collect();
        assert_eq!(kept.len(), 2);
        assert!(kept[0].reused && kept[0].x == x && kept[0].games == 80);
        // A shutout's infinite error comes back infinite.
        assert!(kept[0].error == 70.0 && kept[1].error.is_infinite());
        // The Elos a tuning writes into a row do not change how it plays.
        let with_elo = LevelParams {
            covered_elo: Some(1617.0),
            ..row_at(x)
        };
        assert_eq!(row_text(&with_elo), row_text(&row_at(x)));
        std::fs::write(&path, "{\"level\": 3}\n").unwrap();
        assert!(read_journal(&path).is_err());
        let _ = std::fs::remove_file(&path);
    }
}
