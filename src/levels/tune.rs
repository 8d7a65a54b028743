//! Tuning the levels to target Elos by matches. Level 5 (full strength) stays as it is and
//! defines the top of the scale; going down, each level's strength knob, its node cap per
//! move, is searched on a log scale so that it scores against the level above as the target
//! gap says: a probe match gives the Elo difference, and the next node cap moves by the miss
//! divided by the Elo a doubling of nodes is worth (a secant step once two probes exist, so
//! the slope is learned from the matches). Depth caps are lifted on tuned levels so that the
//! node cap governs; time caps stay, since they bound what a level costs to host.

use super::calibrate::Player;
use crate::arbiter::engine::EngineSpec;
use crate::arbiter::runner::{self, MatchConfig};
use crate::search::level::LevelTable;
use std::path::Path;

/// Elo a doubling of nodes is taken to be worth before any probe measures it.
const FIRST_SLOPE: f64 = 120.0;
const MIN_NODES: u64 = 16;
const MAX_NODES: u64 = 20_000_000;

/// One probe match of a tuning run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Probe {
    pub level: u8,
    pub nodes: u64,
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
}

/// Tunes levels 4 down to 1 of `table` to the goal's targets. `template` supplies the time
/// control, variant, openings, concurrency and seed. `log` hears of every probe.
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
    } = *goal;
    let mut table = *table;
    let mut probes = Vec::new();
    for index in (0..4).rev() {
        let level = index as u8 + 1;
        let wanted = targets[index] - targets[index + 1];
        let mut tried: Vec<(f64, f64)> = Vec::new();
        let mut nodes = table.levels[index].nodes.unwrap_or(100_000).clamp(MIN_NODES, MAX_NODES);
        table.levels[index].depth = None;
        let mut best: Option<(f64, u64)> = None;
        for round in 0..iterations.max(1) {
            table.levels[index].nodes = Some(nodes);
            std::fs::write(work_file, table.to_toml())?;
            let mut config = template.clone();
            config.engines = vec![
                level_spec(command, level, Some(work_file)),
                level_spec(command, level + 1, Some(work_file)),
            ];
            config.games_per_encounter = probe_games;
            config.seed = template.seed.wrapping_add(u64::from(level) * 1000 + u64::from(round));
            config.pgn = None;
            config.results = None;
            config.shard = None;
            config.sprt = None;
            let report = runner::run(&config)?;
            let head = report.head_to_head.as_ref();
            let measured = head.map_or(0.0, |h| h.elo).clamp(-800.0, 800.0);
            let error = head.map_or(f64::INFINITY, |h| h.elo_error);
            let probe = Probe {
                level,
                nodes,
                measured,
                error,
                target: wanted,
            };
            log(&probe);
            probes.push(probe);
            let miss = (measured - wanted).abs();
            if best.is_none_or(|(m, _)| miss < m) {
                best = Some((miss, nodes));
            }
            let position = (nodes as f64).log2();
            tried.push((position, measured));
            let slope = match tried.as_slice() {
                [.., (x1, y1), (x2, y2)] if (x2 - x1).abs() > 0.05 => ((y2 - y1) / (x2 - x1)).clamp(40.0, 400.0),
                _ => FIRST_SLOPE,
            };
            let step = ((wanted - measured) / slope).clamp(-4.0, 4.0);
            nodes = 2f64
                .powf(position + step)
                .round()
                .clamp(MIN_NODES as f64, MAX_NODES as f64) as u64;
        }
        table.levels[index].nodes = best.map(|(_, n)| n);
    }
    for (params, target) in table.levels.iter_mut().zip(targets) {
        params.elo = Some(target);
    }
    Ok((table, probes))
}

/// The players of a calibration of levels 1..=5 of `command` (with a levels file, if given)
/// and the anchors after them.
pub fn level_players(command: &str, levels_file: Option<&Path>, table: &LevelTable, anchors: &[Player]) -> Vec<Player> {
    let mut players: Vec<Player> = (1..=5u8)
        .map(|level| Player {
            spec: level_spec(command, level, levels_file),
            level: Some(level),
            nominal: table.get(level).elo,
        })
        .collect();
    players.extend(anchors.iter().cloned());
    players
}
