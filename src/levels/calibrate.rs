//! Calibration: the strength levels (and any anchor engines) play a round robin through the
//! match arbiter, and one Elo per player is fitted to all the games by maximum likelihood
//! ([`super::fit`]), pinned to a stated Elo for one player.

use super::chart::{self, ChartPoint};
use super::fit::{self, Anchor, Fit, Game};
use crate::arbiter::engine::EngineSpec;
use crate::arbiter::report::{GameRow, Report};
use crate::arbiter::runner::{self, MatchConfig};
use serde::Serialize;
use std::fmt::Write as _;

/// One player of a calibration: a level of the engine under test, or an anchor engine.
#[derive(Clone, Debug)]
pub struct Player {
    pub spec: EngineSpec,
    /// The level it plays at (`None` for an anchor).
    pub level: Option<u8>,
    /// The Elo it is known to have (anchors), or is meant to have (levels being tuned).
    pub nominal: Option<f64>,
}

/// One player's line of the result.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    pub name: String,
    pub level: Option<u8>,
    pub elo: Option<f64>,
    pub error: Option<f64>,
    pub games: u64,
    pub points: f64,
    pub nominal: Option<f64>,
    /// The Elo above the previous line's player (levels in order), with its 95% error.
    pub gap: Option<(f64, f64)>,
}

/// What a calibration found.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    pub lines: Vec<Line>,
    /// Which player is pinned, at what Elo.
    pub pinned: (String, f64),
    pub games: usize,
    pub time_control: String,
    pub variant: String,
    /// Stopped by hand (Ctrl-C or SIGTERM): the fit covers the games that finished.
    pub interrupted: bool,
    #[serde(skip)]
    pub report: Option<Report>,
}

/// Fits the players' Elos to the games; `pinned` is the index and Elo of the fixed player.
pub fn fit_rows(players: &[Player], rows: &[GameRow], pinned: (usize, f64)) -> Vec<Line> {
    let games: Vec<Game> = rows
        .iter()
        .filter_map(|r| Game::from_result(r.white, r.black, &r.result))
        .collect();
    let anchor = Anchor::Player {
        index: pinned.0,
        elo: pinned.1,
    };
    let fitted: Option<Fit> = fit::fit(players.len(), &games, anchor).ok();
    players
        .iter()
        .enumerate()
        .map(|(i, player)| {
            let rating = fitted.as_ref().and_then(|f| f.ratings.get(i).copied().flatten());
            let gap = (i > 0)
                .then(|| fitted.as_ref().and_then(|f| f.difference(i, i - 1)))
                .flatten()
                .filter(|_| player.level.is_some() && players[i - 1].level.is_some());
            Line {
                name: player.spec.name.clone(),
                level: player.level,
                elo: rating.map(|r| r.elo),
                error: rating.map(|r| r.error),
                games: rating.map_or(0, |r| r.games),
                points: rating.map_or(0.0, |r| r.points),
                nominal: player.nominal,
                gap,
            }
        })
        .collect()
}

/// Plays the round robin `config` describes (its engines are the players' specs) and fits.
pub fn calibrate(config: &MatchConfig, players: &[Player], pinned: (usize, f64)) -> std::io::Result<Calibration> {
    let (report, rows) = runner::run_games(config)?;
    Ok(Calibration {
        lines: fit_rows(players, &rows, pinned),
        pinned: (players[pinned.0].spec.name.clone(), pinned.1),
        games: rows.len(),
        time_control: config.settings.time_control.to_string(),
        variant: config.variant.name().to_string(),
        interrupted: report.interrupted,
        report: Some(report),
    })
}

fn number(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v:.0}"),
        _ => "-".to_string(),
    }
}

/// The calibration as a table for people.
pub fn render(calibration: &Calibration) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Calibration: {} games, variant {}, tc {}, {} pinned at {:.0}",
        calibration.games, calibration.variant, calibration.time_control, calibration.pinned.0, calibration.pinned.1
    );
    if calibration.interrupted {
        let _ = writeln!(
            out,
            "Interrupted: the fit covers the {} games that finished before the stop",
            calibration.games
        );
    }
    let _ = writeln!(
        out,
        "{:<14} {:>6} {:>7} {:>6} {:>6} {:>7} {:>8} {:>16}",
        "player", "level", "Elo", "+/-", "games", "score", "nominal", "above previous"
    );
    for line in &calibration.lines {
        let score = if line.games > 0 {
            format!("{:.1}%", 100.0 * line.points / line.games as f64)
        } else {
            "-".to_string()
        };
        let gap = line.gap.map(|(d, e)| format!("{d:+.0} +/- {e:.0}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "{:<14} {:>6} {:>7} {:>6} {:>6} {:>7} {:>8} {:>16}",
            line.name,
            line.level.map(|l| l.to_string()).unwrap_or_else(|| "-".to_string()),
            number(line.elo),
            number(line.error),
            line.games,
            score,
            number(line.nominal),
            gap
        );
    }
    out
}

/// The calibration as an SVG chart of Elo by player, with targets when tuning.
pub fn svg(calibration: &Calibration, title: &str) -> String {
    let points: Vec<ChartPoint> = calibration
        .lines
        .iter()
        .map(|line| ChartPoint {
            name: line.name.clone(),
            elo: line.elo.unwrap_or(f64::NAN),
            error: line.error.unwrap_or(f64::NAN),
            target: line.nominal,
        })
        .collect();
    chart::svg(title, &points)
}
