//! Maximum-likelihood Elo ratings for a round robin, the way BayesElo (Rémi Coulom) and Ordo
//! (Miguel Ballicora) rate a pool of engines: one rating per player, fitted to every game at
//! once, rather than one Elo per pairing.
//!
//! The model is Bradley–Terry with the logistic Elo curve: when `a` plays `b`, `a`'s expected
//! score is `E = 1 / (1 + 10^(-(Ra - Rb) / 400))`, and a draw counts as half a win and half a
//! loss (Ordo's default), so a game where white scored `s` adds `s ln E + (1 - s) ln(1 - E)`
//! to the log-likelihood. Optionally white gets an advantage `W` fitted with the ratings
//! (`E = 1 / (1 + 10^(-(Rw - Rb + W) / 400))`); it is off by default, since a round robin plays
//! every pairing with both colours and the advantage then cancels out of the ratings.
//!
//! A perfect (or null) score has no finite maximum: its rating runs off to infinity. As
//! BayesElo does, the fit adds a weak prior: each player is given [`Options::prior_draws`]
//! virtual draws (one by default) against the mean rating of the pool, and the white
//! advantage, when fitted, as many virtual draws between equals. That keeps every rating
//! finite, pulls it towards the mean by a fraction of a game (nothing next to a few hundred
//! real ones), and leaves the fit unchanged by a shift of all ratings, so the anchor only
//! chooses where the scale stands. With `prior_draws = 0` the fit is the plain maximum
//! likelihood, which fails with [`FitError::NoFiniteFit`] when it does not exist.
//!
//! The maximum is found by Newton–Raphson on the concave log-likelihood, every step capped and
//! halved until it gains (so it converges from any start). Error bars come from the inverse
//! of the observed Fisher information at the maximum (for this model it does not depend on
//! the results), under the anchor's constraint: relative to the anchored player, whose own
//! error is 0, or to the mean. Being the model's binomial variance, they are somewhat wider
//! than the trinomial error bars `veil match` reports when many games are drawn.

use std::collections::BTreeMap;
use std::fmt;

/// The two-sided 95% quantile of the standard normal distribution.
const Z_95: f64 = 1.959963984540054;

/// Natural-log odds per Elo point: a difference of `d` Elo gives odds `10^(d/400) = e^(C d)`.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// Newton iterations before the fit gives up.
const MAX_ITERATIONS: usize = 200;

/// The largest change of any parameter in one Newton step, in Elo.
const MAX_STEP: f64 = 400.0;

/// Converged when no parameter moves by more than this, in Elo.
const TOLERANCE: f64 = 1e-9;

/// A fit whose ratings spread wider than this (in Elo) is running off to infinity.
const MAX_SPREAD: f64 = 10_000.0;

/// One game: the players' indices and the points white scored (1, 1/2 or 0; any value in
/// between is taken as a fractional result).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub white: usize,
    pub black: usize,
    pub white_points: f64,
}

impl Game {
    /// The game from a result string as the results file writes it (`1-0`, `0-1`,
    /// `1/2-1/2`); `None` for anything else (an unfinished game's `*`, for one).
    pub fn from_result(white: usize, black: usize, result: &str) -> Option<Game> {
        let white_points = match result.trim() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => return None,
        };
        Some(Game {
            white,
            black,
            white_points,
        })
    }
}

/// Where the rating scale stands: a fit determines only differences of ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Anchor {
    /// This player is pinned at this Elo (Level 5 = 2000, or an engine playing at a fixed
    /// `UCI_Elo`); the others' error bars are relative to it.
    Player { index: usize, elo: f64 },
    /// The mean of the players who played is 0; error bars are relative to that mean.
    MeanZero,
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Virtual draws each player gets against the pool's mean (and the white advantage, if
    /// fitted, between equals), to keep perfect scores finite. 0 gives the plain maximum
    /// likelihood.
    pub prior_draws: f64,
    /// Fit a white advantage as well (reported in [`Fit::white_advantage`]).
    pub white_advantage: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            prior_draws: 1.0,
            white_advantage: false,
        }
    }
}

/// One player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    /// Half the width of the 95% interval (1.96 standard errors), relative to the anchor.
    pub error: f64,
    /// Games played.
    pub games: u64,
    /// Points scored in them (the prior's virtual draws not counted).
    pub points: f64,
}

impl Rating {
    /// Points per game.
    pub fn score(&self) -> f64 {
        self.points / self.games as f64
    }
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// One per player, in the order given; `None` for a player who played no game.
    pub ratings: Vec<Option<Rating>>,
    /// The fitted white advantage in Elo and its 95% error, if it was asked for.
    pub white_advantage: Option<(f64, f64)>,
    /// Covariance of the ratings (Elo squared), players × players, row by row; zero in the
    /// rows and columns of players without games.
    covariance: Vec<f64>,
}

impl Fit {
    /// `a`'s rating minus `b`'s and the 95% error of that difference, from the covariance of
    /// the two ratings (so it does not depend on the anchor). `None` if either player played
    /// no game or is out of range.
    pub fn difference(&self, a: usize, b: usize) -> Option<(f64, f64)> {
        let ra = self.ratings.get(a).copied().flatten()?;
        let rb = self.ratings.get(b).copied().flatten()?;
        let n = self.ratings.len();
        let variance = self.covariance[a * n + a] + self.covariance[b * n + b] - 2.0 * self.covariance[a * n + b];
        Some((ra.elo - rb.elo, Z_95 * variance.max(0.0).sqrt()))
    }
}

/// Why a fit could not be made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FitError {
    /// A game names a player at or past the number of players.
    PlayerOutOfRange { game: usize, index: usize },
    /// A game has the same player on both sides.
    SamePlayer { game: usize },
    /// A game's points are not a number between 0 and 1.
    BadPoints { game: usize, points: f64 },
    /// The anchored player is not one of the players.
    AnchorOutOfRange { index: usize },
    /// The anchored player played no game, so nothing ties the others to it.
    AnchorWithoutGames { index: usize },
    /// The anchor's Elo is not a finite number.
    AnchorNotFinite,
    /// The prior is negative or not a finite number.
    BadPrior(f64),
    /// Without a prior the games leave some rating unbounded: a perfect or null score, or
    /// groups of players that never met.
    NoFiniteFit,
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::PlayerOutOfRange { game, index } => {
                write!(f, "game {game} names player {index}, who does not exist")
            }
            FitError::SamePlayer { game } => write!(f, "game {game} has the same player on both sides"),
            FitError::BadPoints { game, points } => {
                write!(f, "game {game} gives white {points} points, not a number from 0 to 1")
            }
            FitError::AnchorOutOfRange { index } => write!(f, "the anchored player {index} does not exist"),
            FitError::AnchorWithoutGames { index } => write!(f, "the anchored player {index} played no game"),
            FitError::AnchorNotFinite => write!(f, "the anchor's Elo must be a finite number"),
            FitError::BadPrior(prior) => write!(f, "the prior ({prior} draws) must be a finite number, 0 or more"),
            FitError::NoFiniteFit => write!(
                f,
                "the ratings are unbounded (a perfect score, or players who never met): fit with a prior"
            ),
        }
    }
}

impl std::error::Error for FitError {}

/// Fits one Elo per player to `games` with the default [`Options`] (one virtual draw per
/// player, no white advantage).
pub fn fit(players: usize, games: &[Game], anchor: Anchor) -> Result<Fit, FitError> {
    fit_with(players, games, anchor, &Options::default())
}

/// Fits one Elo per player to `games`, as the module's documentation describes.
pub fn fit_with(players: usize, games: &[Game], anchor: Anchor, options: &Options) -> Result<Fit, FitError> {
    check(players, games, anchor, options)?;

    // Tallies: games and points per player, games and white's points per (white, black).
    let mut played = vec![0u64; players];
    let mut points = vec![0.0; players];
    let mut pairings: BTreeMap<(usize, usize), (f64, f64)> = BTreeMap::new();
    for game in games {
        played[game.white] += 1;
        played[game.black] += 1;
        points[game.white] += game.white_points;
        points[game.black] += 1.0 - game.white_points;
        let tally = pairings.entry((game.white, game.black)).or_insert((0.0, 0.0));
        tally.0 += 1.0;
        tally.1 += game.white_points;
    }
    let active: Vec<usize> = (0..players).filter(|&p| played[p] > 0).collect();
    let mut slot = vec![usize::MAX; players];
    for (k, &p) in active.iter().enumerate() {
        slot[p] = k;
    }
    let n = active.len();
    if n == 0 {
        return Ok(Fit {
            ratings: vec![None; players],
            white_advantage: None,
            covariance: vec![0.0; players * players],
        });
    }

    let model = Model::new(n, &pairings, &slot, options);
    let theta = model.maximize()?;
    let covariance = model.covariance(&theta)?;

    // The anchor: ratings become A r + offset, their covariance A Cov A^T.
    let (pinned, offset) = match anchor {
        Anchor::Player { index, elo } => (Some(slot[index]), elo),
        Anchor::MeanZero => (None, 0.0),
    };
    let reference = |k: usize| -> f64 {
        match pinned {
            Some(p) => f64::from(u8::from(k == p)),
            None => 1.0 / n as f64,
        }
    };
    let weights: Vec<f64> = (0..n).map(reference).collect();
    let base: f64 = (0..n).map(|k| weights[k] * theta[k]).sum();
    // Cov(r_i - m, r_j - m) with m = sum_k weights_k r_k.
    let dim = model.dim();
    let cov_with_reference: Vec<f64> = (0..dim)
        .map(|i| (0..n).map(|k| weights[k] * covariance[i * dim + k]).sum())
        .collect();
    let reference_variance: f64 = (0..n).map(|k| weights[k] * cov_with_reference[k]).sum();
    let anchored = |i: usize, j: usize| {
        covariance[i * dim + j] - cov_with_reference[i] - cov_with_reference[j] + reference_variance
    };

    let mut ratings = vec![None; players];
    let mut full = vec![0.0; players * players];
    for (i, &p) in active.iter().enumerate() {
        for (j, &q) in active.iter().enumerate() {
            full[p * players + q] = anchored(i, j);
        }
        let variance = if pinned == Some(i) {
            0.0
        } else {
            anchored(i, i).max(0.0)
        };
        ratings[p] = Some(Rating {
            elo: theta[i] - base + offset,
            error: Z_95 * variance.sqrt(),
            games: played[p],
            points: points[p],
        });
    }
    let white_advantage = options
        .white_advantage
        .then(|| (theta[n], Z_95 * covariance[n * dim + n].max(0.0).sqrt()));
    Ok(Fit {
        ratings,
        white_advantage,
        covariance: full,
    })
}

fn check(players: usize, games: &[Game], anchor: Anchor, options: &Options) -> Result<(), FitError> {
    if !(options.prior_draws.is_finite() && options.prior_draws >= 0.0) {
        return Err(FitError::BadPrior(options.prior_draws));
    }
    for (g, game) in games.iter().enumerate() {
        for index in [game.white, game.black] {
            if index >= players {
                return Err(FitError::PlayerOutOfRange { game: g, index });
            }
        }
        if game.white == game.black {
            return Err(FitError::SamePlayer { game: g });
        }
        if !(0.0..=1.0).contains(&game.white_points) {
            return Err(FitError::BadPoints {
                game: g,
                points: game.white_points,
            });
        }
    }
    if let Anchor::Player { index, elo } = anchor {
        if index >= players {
            return Err(FitError::AnchorOutOfRange { index });
        }
        if !elo.is_finite() {
            return Err(FitError::AnchorNotFinite);
        }
        if !games.iter().any(|game| game.white == index || game.black == index) {
            return Err(FitError::AnchorWithoutGames { index });
        }
    }
    Ok(())
}

/// One binomial term of the log-likelihood: `points ln E(x) + (games - points) ln(1 - E(x))`
/// with `x = sum coefficient * parameter` (in Elo) and `E(x) = 1 / (1 + e^(-C x))`.
struct Term {
    coefficients: Vec<(usize, f64)>,
    games: f64,
    points: f64,
}

/// The log-likelihood over the parameters: the `n` players' ratings, then the white advantage
/// if it is fitted. The first rating is held at 0 while fitting (a shift of all ratings changes
/// nothing), the others are free.
struct Model {
    n: usize,
    white_advantage: bool,
    terms: Vec<Term>,
}

impl Model {
    fn new(n: usize, pairings: &BTreeMap<(usize, usize), (f64, f64)>, slot: &[usize], options: &Options) -> Model {
        let mut terms = Vec::new();
        for (&(white, black), &(games, points)) in pairings {
            let mut coefficients = vec![(slot[white], 1.0), (slot[black], -1.0)];
            if options.white_advantage {
                coefficients.push((n, 1.0));
            }
            terms.push(Term {
                coefficients,
                games,
                points,
            });
        }
        if options.prior_draws > 0.0 {
            // Virtual draws against the mean: x = r_i - (1/n) sum_k r_k.
            for i in 0..n {
                let coefficients = (0..n)
                    .map(|k| (k, f64::from(u8::from(k == i)) - 1.0 / n as f64))
                    .collect();
                terms.push(Term {
                    coefficients,
                    games: options.prior_draws,
                    points: options.prior_draws / 2.0,
                });
            }
            if options.white_advantage {
                terms.push(Term {
                    coefficients: vec![(n, 1.0)],
                    games: options.prior_draws,
                    points: options.prior_draws / 2.0,
                });
            }
        }
        Model {
            n,
            white_advantage: options.white_advantage,
            terms,
        }
    }

    /// Number of parameters, fixed and free.
    fn dim(&self) -> usize {
        self.n + usize::from(self.white_advantage)
    }

    /// The free parameters' indices.
    fn free(&self) -> Vec<usize> {
        (1..self.dim()).collect()
    }

    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        self.terms
            .iter()
            .map(|t| {
                let z = C * t.coefficients.iter().map(|&(k, a)| a * theta[k]).sum::<f64>();
                t.points * ln_sigmoid(z) + (t.games - t.points) * ln_sigmoid(-z)
            })
            .sum()
    }

    /// Gradient of the log-likelihood and the Fisher information (minus its Hessian), both over
    /// all parameters; the information matrix is row by row.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let dim = self.dim();
        let mut gradient = vec![0.0; dim];
        let mut information = vec![0.0; dim * dim];
        for t in &self.terms {
            let z = C * t.coefficients.iter().map(|&(k, a)| a * theta[k]).sum::<f64>();
            let expected = sigmoid(z);
            let slope = C * (t.points - t.games * expected);
            let curvature = C * C * t.games * expected * (1.0 - expected);
            for &(i, a) in &t.coefficients {
                gradient[i] += slope * a;
                for &(j, b) in &t.coefficients {
                    information[i * dim + j] += curvature * a * b;
                }
            }
        }
        (gradient, information)
    }

    /// The free parameters' part of the gradient and information.
    fn reduced(&self, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let (gradient, information) = self.derivatives(theta);
        let dim = self.dim();
        let free = self.free();
        let g = free.iter().map(|&i| gradient[i]).collect();
        let information = &information;
        let h = free
            .iter()
            .flat_map(|&i| free.iter().map(move |&j| information[i * dim + j]))
            .collect();
        (g, h)
    }

    /// The maximum-likelihood parameters, by damped Newton–Raphson from all zeros.
    fn maximize(&self) -> Result<Vec<f64>, FitError> {
        let free = self.free();
        let mut theta = vec![0.0; self.dim()];
        let mut value = self.log_likelihood(&theta);
        for _ in 0..MAX_ITERATIONS {
            let (gradient, information) = self.reduced(&theta);
            let mut step = cholesky(&information, free.len())
                .map(|factor| solve(&factor, free.len(), &gradient))
                .ok_or(FitError::NoFiniteFit)?;
            let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            if !largest.is_finite() {
                return Err(FitError::NoFiniteFit);
            }
            if largest > MAX_STEP {
                step.iter_mut().for_each(|s| *s *= MAX_STEP / largest);
            }
            // Halve the step until the likelihood does not fall.
            let mut scale = 1.0;
            let mut next = theta.clone();
            loop {
                for (&k, s) in free.iter().zip(&step) {
                    next[k] = theta[k] + scale * s;
                }
                let next_value = self.log_likelihood(&next);
                if next_value >= value || scale < 1e-12 {
                    value = next_value.max(value);
                    break;
                }
                scale /= 2.0;
            }
            let moved = largest.min(MAX_STEP) * scale;
            theta = next;
            let spread = theta[..self.n].iter().fold(0.0f64, |m, r| m.max(r.abs()));
            if spread > MAX_SPREAD || theta.iter().any(|x| !x.is_finite()) {
                return Err(FitError::NoFiniteFit);
            }
            if moved < TOLERANCE {
                return Ok(theta);
            }
        }
        Err(FitError::NoFiniteFit)
    }

    /// Covariance of all parameters (the first rating's rows and columns zero, as it is held
    /// at 0): the inverse of the free parameters' information.
    fn covariance(&self, theta: &[f64]) -> Result<Vec<f64>, FitError> {
        let free = self.free();
        let m = free.len();
        let (_, information) = self.reduced(theta);
        let factor = cholesky(&information, m).ok_or(FitError::NoFiniteFit)?;
        let dim = self.dim();
        let mut covariance = vec![0.0; dim * dim];
        for (column, &j) in free.iter().enumerate() {
            let unit: Vec<f64> = (0..m).map(|i| f64::from(u8::from(i == column))).collect();
            let inverse_column = solve(&factor, m, &unit);
            for (row, &i) in free.iter().enumerate() {
                covariance[i * dim + j] = inverse_column[row];
            }
        }
        Ok(covariance)
    }
}

/// `1 / (1 + e^-z)`.
fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// `ln(1 / (1 + e^-z))`, without overflow for large `|z|`.
fn ln_sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        -(-z).exp().ln_1p()
    } else {
        z - z.exp().ln_1p()
    }
}

/// The lower Cholesky factor `L` (`A = L L^T`) of a symmetric `m × m` matrix, row by row;
/// `None` unless the matrix is safely positive definite.
fn cholesky(a: &[f64], m: usize) -> Option<Vec<f64>> {
    let scale = (0..m).map(|i| a[i * m + i].abs()).fold(0.0f64, f64::max);
    let mut l = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=i {
            let sum: f64 = a[i * m + j] - (0..j).map(|k| l[i * m + k] * l[j * m + k]).sum::<f64>();
            if i == j {
                if !(sum > 1e-12 * scale && sum.is_finite()) {
                    return None;
                }
                l[i * m + i] = sum.sqrt();
            } else {
                l[i * m + j] = sum / l[j * m + j];
            }
        }
    }
    Some(l)
}

/// Solves `L L^T x = b` given the Cholesky factor `L`.
fn solve(l: &[f64], m: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; m];
    for i in 0..m {
        y[i] = (b[i] - (0..i).map(|k| l[i * m + k] * y[k]).sum::<f64>()) / l[i * m + i];
    }
    let mut x = vec![0.0; m];
    for i in (0..m).rev() {
        x[i] = (y[i] - (i + 1..m).map(|k| l[k * m + i] * x[k]).sum::<f64>()) / l[i * m + i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Options = Options {
        prior_draws: 0.0,
        white_advantage: false,
    };

    /// `wins`, `draws` and `losses` for `a` against `b`, colours alternating (a white first).
    fn results(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> Vec<Game> {
        let points = (0..wins)
            .map(|_| 1.0)
            .chain((0..draws).map(|_| 0.5))
            .chain((0..losses).map(|_| 0.0));
        points
            .enumerate()
            .map(|(i, p)| {
                if i % 2 == 0 {
                    Game {
                        white: a,
                        black: b,
                        white_points: p,
                    }
                } else {
                    Game {
                        white: b,
                        black: a,
                        white_points: 1.0 - p,
                    }
                }
            })
            .collect()
    }

    fn rating(fit: &Fit, player: usize) -> Rating {
        fit.ratings[player].expect("the player has a rating")
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// A scores 70% against B over 100 games: +60 =20 -20.
    ///
    /// With two players the likelihood is `70 ln E(d) + 30 ln(1 - E(d))`, greatest where
    /// `E(d) = 0.7`, so `d = -400 log10(1/0.7 - 1) = 400 log10(7/3) = 400 * 0.3679768 =
    /// 147.1907` Elo, exactly the score's Elo.
    ///
    /// Error: the information about `d` is `n C^2 s(1-s)` with `C = ln10/400`, so
    /// `se = 400 / (ln10 * sqrt(100 * 0.21)) = 173.7178 / 4.5826 = 37.909`, and 1.96 se =
    /// 74.30. The delta method on the score gives the same: `Elo'(s) = 400 / (ln10 s(1-s)) =
    /// 827.23` times `se(s) = sqrt(0.21/100) = 0.045826` is 37.909. (The model's variance of
    /// one game is `s(1-s) = 0.21`, a draw counting as half a win and half a loss; the
    /// trinomial variance `veil match` uses would be 0.16.)
    #[test]
    fn two_players_fit_the_score_elo() {
        let games = results(0, 1, 60, 20, 20);
        let fit = fit_with(2, &games, Anchor::Player { index: 1, elo: 0.0 }, &PLAIN).unwrap();
        let expected = 400.0 * (7.0f64 / 3.0).log10();
        assert!(close(expected, 147.1907, 1e-4));
        let a = rating(&fit, 0);
        let b = rating(&fit, 1);
        assert!(close(a.elo, expected, 1e-9), "{}", a.elo);
        assert_eq!((b.elo, b.error), (0.0, 0.0));
        assert_eq!((a.games, a.points, b.games, b.points), (100, 70.0, 100, 30.0));
        assert!(close(a.score(), 0.7, 1e-12));

        let delta = Z_95 * 400.0 / (std::f64::consts::LN_10 * 0.21) * (0.21f64 / 100.0).sqrt();
        assert!(close(delta, 74.30, 0.01));
        assert!(close(a.error, delta, 1e-9), "{}", a.error);
        let (difference, error) = fit.difference(0, 1).unwrap();
        assert!(close(difference, expected, 1e-9));
        assert!(close(error, delta, 1e-9));

        // Around the mean each player stands half the difference away, with half the error.
        let mean = fit_with(2, &games, Anchor::MeanZero, &PLAIN).unwrap();
        assert!(close(rating(&mean, 0).elo, expected / 2.0, 1e-9));
        assert!(close(rating(&mean, 1).elo, -expected / 2.0, 1e-9));
        assert!(close(rating(&mean, 0).error, delta / 2.0, 1e-9));
        let (difference, error) = mean.difference(0, 1).unwrap();
        assert!(close(difference, expected, 1e-9) && close(error, delta, 1e-9));
    }

    /// The default prior (one virtual draw each against the mean) pulls the two players
    /// together by a little: 70 points in 100 games plus half a point in one game each way.
    #[test]
    fn the_prior_shrinks_a_little() {
        let games = results(0, 1, 60, 20, 20);
        let (difference, _) = fit(2, &games, Anchor::MeanZero).unwrap().difference(0, 1).unwrap();
        assert!(difference < 147.19 && difference > 140.0, "{difference}");
    }

    /// A beats B 7 to 3 (+6 =2 -2), B beats C 7 to 3, A beats C 49 to 9 (+45 =8 -5) in 58
    /// games. With `d = 400 log10(7/3)`, A over C by `2d` expects `1 / (1 + (3/7)^2) = 49/58`,
    /// so ratings `2d, d, 0` make every pairing score exactly what it expects: the gradient
    /// vanishes there and that is the fit.
    #[test]
    fn a_chain_is_transitive() {
        let mut games = results(0, 1, 6, 2, 2);
        games.extend(results(1, 2, 6, 2, 2));
        games.extend(results(0, 2, 45, 8, 5));
        let d = 400.0 * (7.0f64 / 3.0).log10();
        let fit = fit_with(3, &games, Anchor::Player { index: 2, elo: 1000.0 }, &PLAIN).unwrap();
        assert!(close(rating(&fit, 0).elo, 1000.0 + 2.0 * d, 1e-9));
        assert!(close(rating(&fit, 1).elo, 1000.0 + d, 1e-9));
        assert_eq!(rating(&fit, 2).elo, 1000.0);
        // B is nearer the anchor in games than A, who met it 58 times: both errors positive.
        assert!(rating(&fit, 0).error > 0.0 && rating(&fit, 1).error > 0.0);
        let (ab, ab_error) = fit.difference(0, 1).unwrap();
        assert!(close(ab, d, 1e-9) && ab_error > 0.0);
    }

    /// Moving the anchor moves every rating by one constant and changes no difference or its
    /// error; the anchored player's own error is 0.
    #[test]
    fn the_anchor_only_shifts() {
        let mut games = results(0, 1, 30, 40, 10);
        games.extend(results(1, 2, 20, 30, 30));
        games.extend(results(0, 2, 50, 20, 10));
        games.extend(results(3, 0, 5, 10, 25));
        let mean = fit(4, &games, Anchor::MeanZero).unwrap();
        let pinned = fit(4, &games, Anchor::Player { index: 2, elo: 1500.0 }).unwrap();
        let shift = rating(&pinned, 0).elo - rating(&mean, 0).elo;
        let sum: f64 = (0..4).map(|p| rating(&mean, p).elo).sum();
        assert!(close(sum, 0.0, 1e-9));
        for p in 0..4 {
            assert!(close(rating(&pinned, p).elo - rating(&mean, p).elo, shift, 1e-9));
            for q in 0..4 {
                let (d1, e1) = mean.difference(p, q).unwrap();
                let (d2, e2) = pinned.difference(p, q).unwrap();
                assert!(close(d1, d2, 1e-9) && close(e1, e2, 1e-9));
            }
        }
        assert_eq!(rating(&pinned, 2).elo, 1500.0);
        assert_eq!(rating(&pinned, 2).error, 0.0);
        // Relative to player 2, player 1's error is that of their difference.
        assert!(close(
            rating(&pinned, 1).error,
            pinned.difference(1, 2).unwrap().1,
            1e-9
        ));
        // Errors relative to the mean are smaller than relative to one player.
        assert!(rating(&mean, 1).error < rating(&pinned, 1).error);
    }

    /// A scores 10 out of 10: without a prior the rating is unbounded; with the default prior
    /// the fit solves `10 (1 - E(d)) = E(d/2) - 1/2` (the derivative of `10 ln E(d) +
    /// ln E(d/2) + ln(1 - E(d/2))` in `d`), which has a finite root.
    #[test]
    fn a_perfect_score_is_capped() {
        let games = results(0, 1, 10, 0, 0);
        assert_eq!(
            fit_with(2, &games, Anchor::MeanZero, &PLAIN),
            Err(FitError::NoFiniteFit)
        );
        let fit = fit(2, &games, Anchor::Player { index: 1, elo: 0.0 }).unwrap();
        let a = rating(&fit, 0);
        assert!(a.elo.is_finite() && a.error.is_finite());
        let expected = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
        assert!(close(10.0 * (1.0 - expected(a.elo)), expected(a.elo / 2.0) - 0.5, 1e-9));
        assert!(a.elo > 400.0 && a.elo < 1200.0, "{}", a.elo);
        assert_eq!((a.games, a.points), (10, 10.0));
    }

    /// White scores 60% between equals with colours balanced: the ratings stay equal and the
    /// advantage is `400 log10(0.6/0.4) = 70.44` Elo.
    #[test]
    fn the_white_advantage_is_fitted() {
        let mut games = Vec::new();
        for (white, black) in [(0, 1), (1, 0)] {
            for points in [1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.5, 0.5] {
                games.push(Game {
                    white,
                    black,
                    white_points: points,
                });
            }
        }
        let options = Options {
            prior_draws: 0.0,
            white_advantage: true,
        };
        let fit = fit_with(2, &games, Anchor::MeanZero, &options).unwrap();
        let (advantage, error) = fit.white_advantage.unwrap();
        assert!(close(advantage, 400.0 * 1.5f64.log10(), 1e-9), "{advantage}");
        assert!(error > 0.0 && error.is_finite());
        assert!(close(rating(&fit, 0).elo, 0.0, 1e-9));
        assert!(fit_with(2, &games, Anchor::MeanZero, &PLAIN)
            .unwrap()
            .white_advantage
            .is_none());
        // A perfect white record is capped by its own virtual draw.
        let all_white: Vec<Game> = games
            .iter()
            .map(|g| Game {
                white_points: 1.0,
                ..*g
            })
            .collect();
        let capped = fit_with(
            2,
            &all_white,
            Anchor::MeanZero,
            &Options {
                white_advantage: true,
                ..Options::default()
            },
        );
        assert!(capped.unwrap().white_advantage.unwrap().0.is_finite());
    }

    /// At the plain maximum every player's expected points equal the points scored.
    #[test]
    fn expected_points_equal_points_scored() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let strengths = [0.0, 150.0, 300.0, 420.0, 600.0];
        let mut games = Vec::new();
        for _ in 0..2000 {
            let white = next() % 5;
            let black = (white + 1 + next() % 4) % 5;
            let expected = 1.0 / (1.0 + 10f64.powf(-(strengths[white] - strengths[black]) / 400.0));
            let roll = (next() % 1000) as f64 / 1000.0;
            let white_points = if roll < expected - 0.1 {
                1.0
            } else if roll < expected + 0.1 {
                0.5
            } else {
                0.0
            };
            games.push(Game {
                white,
                black,
                white_points,
            });
        }
        let fit = fit_with(5, &games, Anchor::Player { index: 0, elo: 0.0 }, &PLAIN).unwrap();
        let elo = |p: usize| rating(&fit, p).elo;
        for p in 0..5 {
            let expected: f64 = games
                .iter()
                .filter(|g| g.white == p || g.black == p)
                .map(|g| {
                    let opponent = if g.white == p { g.black } else { g.white };
                    1.0 / (1.0 + 10f64.powf(-(elo(p) - elo(opponent)) / 400.0))
                })
                .sum();
            assert!(close(expected, rating(&fit, p).points, 1e-6), "{p}: {expected}");
        }
        // Ratings come back in order, near the truth.
        for (p, &strength) in strengths.iter().enumerate().skip(1) {
            assert!(elo(p) > elo(p - 1));
            assert!(
                close(elo(p), strength, 3.0 * rating(&fit, p).error.max(30.0)),
                "{p}: {}",
                elo(p)
            );
        }
    }

    #[test]
    fn no_games_no_ratings() {
        let empty = fit(0, &[], Anchor::MeanZero).unwrap();
        assert!(empty.ratings.is_empty() && empty.difference(0, 0).is_none());
        let idle = fit(3, &[], Anchor::MeanZero).unwrap();
        assert_eq!(idle.ratings, vec![None, None, None]);
        // Player 2 never played: no rating, no difference, and the others fit as if alone.
        let games = results(0, 1, 60, 20, 20);
        let fit = fit_with(3, &games, Anchor::MeanZero, &PLAIN).unwrap();
        assert!(fit.ratings[2].is_none());
        assert!(fit.difference(0, 2).is_none() && fit.difference(2, 1).is_none());
        assert!(fit.difference(0, 7).is_none());
        assert!(close(
            fit.difference(0, 1).unwrap().0,
            400.0 * (7.0f64 / 3.0).log10(),
            1e-9
        ));
        // Two groups that never met: the prior alone ties them, and keeps them finite.
        let mut apart = results(0, 1, 5, 0, 5);
        apart.extend(results(2, 3, 8, 0, 2));
        assert_eq!(
            fit_with(4, &apart, Anchor::MeanZero, &PLAIN),
            Err(FitError::NoFiniteFit)
        );
        let tied = super::fit(4, &apart, Anchor::MeanZero).unwrap();
        assert!(tied
            .ratings
            .iter()
            .all(|r| r.unwrap().elo.is_finite() && r.unwrap().error.is_finite()));
    }

    #[test]
    fn bad_input_is_an_error() {
        let good = Game {
            white: 0,
            black: 1,
            white_points: 1.0,
        };
        let bad = |g: Game| fit(2, &[good, g], Anchor::MeanZero).unwrap_err();
        assert_eq!(
            bad(Game {
                white: 0,
                black: 2,
                white_points: 1.0
            }),
            FitError::PlayerOutOfRange { game: 1, index: 2 }
        );
        assert_eq!(
            bad(Game {
                white: 1,
                black: 1,
                white_points: 1.0
            }),
            FitError::SamePlayer { game: 1 }
        );
        assert!(matches!(
            bad(Game {
                white: 0,
                black: 1,
                white_points: f64::NAN
            }),
            FitError::BadPoints { game: 1, .. }
        ));
        assert_eq!(
            bad(Game {
                white: 0,
                black: 1,
                white_points: 1.5
            }),
            FitError::BadPoints { game: 1, points: 1.5 }
        );
        let pin = |index, elo| fit(3, &[good], Anchor::Player { index, elo }).unwrap_err();
        assert_eq!(pin(3, 0.0), FitError::AnchorOutOfRange { index: 3 });
        assert_eq!(pin(2, 0.0), FitError::AnchorWithoutGames { index: 2 });
        assert_eq!(pin(0, f64::INFINITY), FitError::AnchorNotFinite);
        let prior = |prior_draws| fit_with(2, &[good], Anchor::MeanZero, &Options { prior_draws, ..PLAIN });
        assert!(matches!(prior(-1.0), Err(FitError::BadPrior(_))));
        assert!(matches!(prior(f64::NAN), Err(FitError::BadPrior(_))));
        for error in [FitError::NoFiniteFit, FitError::SamePlayer { game: 3 }] {
            assert!(!error.to_string().is_empty());
        }
    }

    #[test]
    fn results_parse() {
        assert_eq!(
            Game::from_result(2, 0, "1-0"),
            Some(Game {
                white: 2,
                black: 0,
                white_points: 1.0
            })
        );
        assert_eq!(Game::from_result(2, 0, "0-1").unwrap().white_points, 0.0);
        assert_eq!(Game::from_result(2, 0, "1/2-1/2").unwrap().white_points, 0.5);
        assert_eq!(Game::from_result(2, 0, "*"), None);
    }
}
