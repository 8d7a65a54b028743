//! Levels measured against anchors of known strength, a level at a time: each level plays
//! the two anchors nearest its Elo, and its Elo is its performance against them at their
//! known Elos. A level below every anchor (below Stockfish's `UCI_Elo` floor, say) plays the
//! lowest anchor and the level above it, which is measured first and counts at its measured
//! Elo. Fewer games than a round robin of everything, and every level's Elo is on the
//! anchors' own scale, not on a chain through the other levels.

use super::calibrate::Player;
use super::fit::Game;
use crate::arbiter::report::GameRow;
use crate::arbiter::stats::elo_to_score;

/// ln(10) / 400: the logistic's slope per Elo.
const PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

/// One opponent's games, from the measured level's side.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Opponent {
    pub name: String,
    /// The Elo it counts at, with the 95% error that Elo carries (0 for an anchor).
    pub elo: f64,
    pub elo_error: f64,
    pub games: u64,
    /// The measured level's points against it.
    pub points: f64,
}

/// A level's performance against its opponents.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Performance {
    pub level: u8,
    /// Its target: the Elo the table gives it.
    pub target: Option<f64>,
    pub elo: f64,
    /// 95% error: the games' own, and the error of an opponent's Elo where that opponent is a
    /// level.
    pub error: f64,
    pub opponents: Vec<Opponent>,
}

impl Performance {
    pub fn games(&self) -> u64 {
        self.opponents.iter().map(|o| o.games).sum()
    }

    pub fn points(&self) -> f64 {
        self.opponents.iter().map(|o| o.points).sum()
    }
}

fn expected(elo: f64, against: f64) -> f64 {
    elo_to_score(elo - against)
}

/// The Elo at which the expected score against the opponents equals the points scored, by
/// bisection, with half a virtual draw against each opponent so that a perfect or a zero
/// score stays finite; and its 95% error from the games' information, with the opponents'
/// own errors added in quadrature, weighted by their share of the games.
pub fn performance(level: u8, target: Option<f64>, opponents: Vec<Opponent>) -> Performance {
    let games: f64 = opponents.iter().map(|o| o.games as f64 + 1.0).sum();
    let points: f64 = opponents.iter().map(|o| o.points + 0.5).sum();
    let score_at = |elo: f64| -> f64 {
        opponents
            .iter()
            .map(|o| (o.games as f64 + 1.0) * expected(elo, o.elo))
            .sum()
    };
    let (mut low, mut high) = (-2000.0, 6000.0);
    for _ in 0..100 {
        let middle = (low + high) / 2.0;
        if score_at(middle) < points {
            low = middle;
        } else {
            high = middle;
        }
    }
    let elo = (low + high) / 2.0;
    let information: f64 = opponents
        .iter()
        .map(|o| {
            let p = expected(elo, o.elo);
            o.games as f64 * p * (1.0 - p) * PER_ELO * PER_ELO
        })
        .sum();
    let own = if information > 0.0 {
        1.96 / information.sqrt()
    } else {
        f64::INFINITY
    };
    let inherited: f64 = opponents
        .iter()
        .map(|o| (o.games as f64 + 1.0) / games * o.elo_error)
        .sum();
    Performance {
        level,
        target,
        elo,
        error: (own * own + inherited * inherited).sqrt(),
        opponents,
    }
}

/// The opponents of a level whose Elo is `elo` among `anchors` (players with an Elo), by
/// index: the two nearest, or, when the level lies below every anchor and a level above it
/// has been measured, the lowest anchor only (the caller adds the level above).
pub fn nearest(anchors: &[Player], elo: f64, below_floor_uses_level_above: bool) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..anchors.len()).filter(|&i| anchors[i].nominal.is_some()).collect();
    let distance = |i: &usize| (anchors[*i].nominal.unwrap_or(0.0) - elo).abs();
    indices.sort_by(|a, b| distance(a).total_cmp(&distance(b)));
    let floor = anchors.iter().filter_map(|a| a.nominal).fold(f64::INFINITY, f64::min);
    let take = if below_floor_uses_level_above && elo < floor {
        1
    } else {
        2
    };
    indices.truncate(take);
    indices
}

/// The measured level's games and points against one opponent in `rows` where the level is
/// engine 0 of its match.
pub fn tally(rows: &[GameRow]) -> (u64, f64) {
    rows.iter()
        .filter_map(|row| Game::from_result(row.white, row.black, &row.result))
        .fold((0, 0.0), |(games, points), game| {
            let mine = if game.white == 0 {
                game.white_points
            } else {
                1.0 - game.white_points
            };
            (games + 1, points + mine)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opponent(elo: f64, games: u64, points: f64) -> Opponent {
        Opponent {
            name: format!("a{elo}"),
            elo,
            elo_error: 0.0,
            games,
            points,
        }
    }

    #[test]
    fn an_even_score_against_one_anchor_is_its_elo() {
        let p = performance(3, None, vec![opponent(1500.0, 40, 20.0)]);
        assert!((p.elo - 1500.0).abs() < 0.01);
        // 40 games at 50%: about +/- 108 Elo.
        assert!(p.error > 90.0 && p.error < 130.0, "{}", p.error);
    }

    #[test]
    fn three_quarters_is_about_190_above() {
        let p = performance(3, None, vec![opponent(1500.0, 400, 300.0)]);
        assert!((p.elo - 1690.0).abs() < 5.0, "{}", p.elo);
    }

    #[test]
    fn a_shutout_stays_finite_and_below() {
        let p = performance(1, None, vec![opponent(1320.0, 20, 0.0), opponent(1600.0, 20, 0.0)]);
        assert!(p.elo.is_finite() && p.elo < 1000.0, "{}", p.elo);
    }

    #[test]
    fn nearest_anchors_and_the_floor() {
        let player = |elo: f64| Player {
            spec: crate::arbiter::engine::EngineSpec {
                name: format!("a{elo}"),
                command: String::new(),
                args: Vec::new(),
                options: Vec::new(),
            },
            level: None,
            nominal: Some(elo),
        };
        let anchors: Vec<Player> = [1320.0, 1600.0, 1900.0, 2200.0].into_iter().map(player).collect();
        assert_eq!(nearest(&anchors, 1700.0, true), vec![1, 2]);
        assert_eq!(nearest(&anchors, 2500.0, true), vec![3, 2]);
        assert_eq!(nearest(&anchors, 900.0, true), vec![0]);
        assert_eq!(nearest(&anchors, 900.0, false), vec![0, 1]);
    }
}
