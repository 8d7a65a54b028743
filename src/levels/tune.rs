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
//! millisecond) raises the time cap with it, up to [`MAX_TIME_RAISE`] times.
//!
//! In covered chess the axis goes on past that: there the node cap stays at its most, and
//! each further step of one halves the level's noise and softmax temperature instead (in
//! covered chess only: the row's `chess_noise_cp` and `chess_temperature_cp` keep plain
//! chess's as they were). So a
//! level whose choice costs more than its gap still reaches its target, and its searches
//! still end at their node cap, not on the clock: it plays alike on every machine and
//! replays move for move.
//!
//! With anchors (engines of known Elo, such as Stockfish at a `UCI_Elo`), each level plays
//! instead the anchor nearest its target, and the gap it aims at is its target less the
//! anchor's Elo; the levels are then tuned each on its own. In plain chess the tuner sets the
//! level's own plain-chess node cap (`chess_nodes`), which leaves its covered play alone: the
//! noise and temperature the two variants share are not touched, and no further than
//! [`MAX_TIME_RAISE`] times the time cap's worth of nodes.

use super::anchored;
use super::calibrate::Player;
use crate::arbiter::engine::EngineSpec;
use crate::arbiter::record::Variant;
use crate::arbiter::runner::{self, MatchConfig};
use crate::search::level::{LevelParams, LevelTable};
use std::path::Path;

/// Elo a doubling of nodes is taken to be worth before the probes measure it.
const PRIOR_SLOPE: f64 = 120.0;
/// The prior's standard deviation on that slope, in Elo per doubling.
const PRIOR_SLOPE_SD: f64 = 60.0;
/// The slope the fit may take, in Elo per doubling.
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

/// One probe match of a tuning run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Probe {
    pub level: u8,
    /// Whom the level played: the level above or an anchor.
    pub opponent: String,
    pub nodes: u64,
    /// The share of its table's noise and temperature the level played with.
    pub choice: f64,
    /// The level's measured Elo against the level above, with its 95% error.
    pub measured: f64,
    pub error: f64,
    pub target: f64,
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
}

/// Tunes levels 4 down to 1 of `table` to the goal's targets. `template` supplies the time
/// control, variant, openings, concurrency and seed. `log` hears of every probe. The tuned
/// levels (all five without anchors: Level 5 is the pinned top) take their targets as their
/// Elos in the variant.
pub fn tune(
    template: &MatchConfig,
    command: &str,
    table: &LevelTable,
    goal: &TuneGoal,
    mut log: impl FnMut(&Probe),
) -> std::io::Result<(LevelTable, Vec<Probe>)> {
    let TuneGoal {
        targets,
        probe_games,
        iterations,
        work_file,
        anchors,
        levels,
    } = *goal;
    let covered = template.variant == Variant::Covered;
    let mut table = *table;
    let mut probes = Vec::new();
    for index in (0..4).rev().filter(|&i| levels.contains(&(i as u8 + 1))) {
        let level = index as u8 + 1;
        let (opponent, wanted) = match nearest_anchor(anchors, targets[index]) {
            Some(anchor) => (anchor.spec.clone(), targets[index] - anchor.nominal.unwrap_or(0.0)),
            None => (
                level_spec(command, level + 1, Some(work_file)),
                targets[index] - targets[index + 1],
            ),
        };
        let mut tried: Vec<Point> = Vec::new();
        let base = table.levels[index];
        let axis = Axis::of(&base, covered);
        let mut x = axis.start(&base);
        table.levels[index].depth = None;
        for round in 0..iterations.max(1) {
            axis.set(&mut table.levels[index], &base, x);
            std::fs::write(work_file, table.to_toml())?;
            let mut config = template.clone();
            config.engines = vec![level_spec(command, level, Some(work_file)), opponent.clone()];
            config.games_per_encounter = probe_games;
            config.seed = template.seed.wrapping_add(u64::from(level) * 1000 + u64::from(round));
            config.pgn = None;
            config.results = None;
            config.shard = None;
            config.sprt = None;
            let report = runner::run(&config)?;
            if report.interrupted {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    format!("the tuning stopped during a probe of Level {level}; no table was written"),
                ));
            }
            let head = report.head_to_head.as_ref();
            let measured = head.map_or(0.0, |h| h.elo).clamp(-800.0, 800.0);
            let error = head.map_or(f64::INFINITY, |h| h.elo_error);
            let probe = Probe {
                level,
                opponent: opponent.name.clone(),
                nodes: table.levels[index].nodes_in(covered).unwrap_or(0),
                choice: axis.choice(x),
                measured,
                error,
                target: wanted,
            };
            log(&probe);
            probes.push(probe);
            tried.push(Point {
                log_nodes: x,
                elo: measured,
                error,
            });
            let line = fit_line(&tried);
            x = axis.clamp(x + (line.log_nodes_at(wanted) - x).clamp(-MAX_STEP, MAX_STEP));
        }
        let line = fit_line(&tried);
        axis.set(&mut table.levels[index], &base, axis.clamp(line.log_nodes_at(wanted)));
    }
    for (number, (params, target)) in (1..=5u8).zip(table.levels.iter_mut().zip(targets)) {
        if levels.contains(&number) || (number == 5 && anchors.is_empty()) {
            params.set_elo_in(covered, target);
        }
    }
    Ok((table, probes))
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
/// - Plain chess: log2 of its plain-chess node cap (`chess_nodes`) alone, the time cap raised
///   to afford it where it must be, up to [`MAX_TIME_RAISE`] times.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Axis {
    full: f64,
    covered: bool,
}

impl Axis {
    fn of(params: &LevelParams, covered: bool) -> Axis {
        let most = params.movetime_ms.map_or(MAX_NODES, |ms| {
            ms.saturating_mul(NODES_PER_MS * MAX_TIME_RAISE)
                .clamp(MIN_NODES, MAX_NODES)
        });
        Axis {
            full: (most as f64).log2(),
            covered,
        }
    }

    /// Where the level's row stands (its noise and temperature as the base).
    fn start(&self, params: &LevelParams) -> f64 {
        self.clamp(
            params
                .nodes_in(self.covered)
                .map_or(self.full, |n| (n.max(1) as f64).log2())
                .min(self.full),
        )
    }

    fn clamp(&self, x: f64) -> f64 {
        let cooling = if self.covered { MAX_COOLING } else { 0.0 };
        x.clamp((MIN_NODES as f64).log2(), self.full + cooling)
    }

    /// The share of the base's noise and temperature at `x`.
    fn choice(&self, x: f64) -> f64 {
        0.5f64.powf((x - self.full).max(0.0))
    }

    /// Sets `params` to the point `x` of the axis of `base`.
    fn set(&self, params: &mut LevelParams, base: &LevelParams, x: f64) {
        let nodes = nodes_at(x.min(self.full));
        params.movetime_ms = base.movetime_ms.map(|ms| ms.max(nodes.div_ceil(NODES_PER_MS)));
        if !self.covered {
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
    log_nodes: f64,
    elo: f64,
    /// The 95% error of the measured Elo.
    error: f64,
}

/// Elo = intercept + slope * log2(nodes).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Line {
    intercept: f64,
    slope: f64,
}

impl Line {
    fn log_nodes_at(&self, elo: f64) -> f64 {
        (elo - self.intercept) / self.slope
    }
}

/// The weighted least-squares line through the probes, with a normal prior on the slope
/// (mean [`PRIOR_SLOPE`], deviation [`PRIOR_SLOPE_SD`]): with one probe the line is the
/// prior's slope through it; with more, the probes decide. A probe's weight is its inverse
/// variance (a probe that scored 0% or 100% has an infinite error and is given the weight
/// of a 40-Elo-wide one, so that it still pushes the line).
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
        return Line {
            intercept: 0.0,
            slope: PRIOR_SLOPE,
        };
    }
    let mean_x = points.iter().map(|p| weight(p) * p.log_nodes).sum::<f64>() / total;
    let mean_y = points.iter().map(|p| weight(p) * p.elo).sum::<f64>() / total;
    let sxx: f64 = points.iter().map(|p| weight(p) * (p.log_nodes - mean_x).powi(2)).sum();
    let sxy: f64 = points
        .iter()
        .map(|p| weight(p) * (p.log_nodes - mean_x) * (p.elo - mean_y))
        .sum();
    let prior = 1.0 / (PRIOR_SLOPE_SD * PRIOR_SLOPE_SD);
    let slope = ((sxy + prior * PRIOR_SLOPE) / (sxx + prior)).clamp(SLOPE_RANGE.0, SLOPE_RANGE.1);
    Line {
        intercept: mean_y - slope * mean_x,
        slope,
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
            log_nodes: nodes.log2(),
            elo,
            error,
        }
    }

    #[test]
    fn one_probe_takes_the_prior_slope() {
        let line = fit_line(&[point(1024.0, -300.0, 60.0)]);
        assert!((line.slope - PRIOR_SLOPE).abs() < 1e-9);
        assert!((line.log_nodes_at(-300.0) - 10.0).abs() < 1e-9);
        // 120 Elo short: one doubling more.
        assert!((line.log_nodes_at(-180.0) - 11.0).abs() < 1e-9);
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
        assert!((line.log_nodes_at(-200.0) - 10.0).abs() < 0.02, "{line:?}");
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
        assert!(line.slope > 0.0 && line.log_nodes_at(-250.0) > 6.0);
    }
}
