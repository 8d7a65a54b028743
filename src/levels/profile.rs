//! How a level errs: the arithmetic of `veil levels --profile`.
//!
//! A stronger judge scores the position before each move of a level and the position after
//! it, both from the mover's point of view and each capped at ±[`EVAL_CAP`] centipawns (a
//! mate counts as the cap). The move's centipawn loss is what it gave away; its drop in
//! winning chances, on lichess's win% scale, sorts it into inaccuracy, mistake or blunder
//! with lichess's thresholds, and a drop of [`HOWLER_DROP`] points from a position that was
//! not lost is a *howler*: the kind of move no human of any rating plays on purpose. (With
//! the cap, a lost position is worth 2.5%, so a howler starts from at least 52.5%: it turns
//! a position the mover was not worse in into a lost one.)
//!
//! In covered chess a move that reveals has as many "after" positions as its pool has roles.
//! The move is judged by its expectation: the pool-weighted mean of the capped scores (for
//! centipawns) and of the win% values (for the classes). Bad luck in the draw is not an
//! error; only choosing a move whose expectation is worse is.
//!
//! The human reference figures are from lichess blitz games, by rating.

use crate::search::level::{GUARD_DROP, GUARD_FROM};
use serde::Serialize;
use std::fmt::Write as _;

/// Scores are capped at ± this many centipawns before anything is computed from them.
pub const EVAL_CAP: i32 = 1000;
/// Win% drops (in points) from which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY_DROP: f64 = 5.0;
pub const MISTAKE_DROP: f64 = 10.0;
pub const BLUNDER_DROP: f64 = 15.0;
/// A drop of this many win% points from a position that was not lost is a howler.
pub const HOWLER_DROP: f64 = 50.0;
/// Below this win% before the move, the mover was behind (and a position is "lost" for the
/// howler rule); above [`AHEAD_FROM`], ahead.
pub const BEHIND_BELOW: f64 = 40.0;
pub const AHEAD_FROM: f64 = 60.0;
// A lapse's move gives way where the level's own search sees a howler: the guard must sit
// inside the rule the profile judges by.
const _: () = assert!(GUARD_DROP < HOWLER_DROP && GUARD_FROM <= BEHIND_BELOW);
/// A game is decided once the judge has scored this many plies in a row at the cap (one
/// side or the other): humans resign about there, so the figures "until decided" leave out
/// the moves from there on, which the cap scores as costing nothing.
pub const DECIDED_PLIES: usize = 4;
/// About the moves a player makes in a lichess blitz game. The figures "in the first 40
/// moves" count each player's moves up to there, so that a level whose games against
/// itself run longer than a person's is set beside people over as many moves.
pub const HUMAN_GAME_MOVES: usize = 40;

/// A score capped at ±[`EVAL_CAP`].
pub fn capped(cp: i32) -> i32 {
    cp.clamp(-EVAL_CAP, EVAL_CAP)
}

/// lichess's win%: the chance (0..100) a centipawn score from the mover's view stands for (the
/// curve a level's choice also uses when it is ahead).
pub use crate::search::level::win_percent;

/// What a move is, by how many win% points it dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Judgement {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The class of a move that dropped `drop` win% points (a gain is a drop below zero).
pub fn judgement(drop: f64) -> Judgement {
    if drop >= BLUNDER_DROP {
        Judgement::Blunder
    } else if drop >= MISTAKE_DROP {
        Judgement::Mistake
    } else if drop >= INACCURACY_DROP {
        Judgement::Inaccuracy
    } else {
        Judgement::Good
    }
}

/// Whether a move from `win_before` that dropped `drop` win% points is a howler.
pub fn is_howler(win_before: f64, drop: f64) -> bool {
    win_before >= BEHIND_BELOW && drop >= HOWLER_DROP
}

/// How the mover stood before the move, by its win%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Below 40%.
    Behind,
    /// 40% to 60%.
    Equal,
    /// Above 60%.
    Ahead,
}

/// The standing a win% before the move puts the mover in.
pub fn standing(win_before: f64) -> Standing {
    if win_before < BEHIND_BELOW {
        Standing::Behind
    } else if win_before > AHEAD_FROM {
        Standing::Ahead
    } else {
        Standing::Equal
    }
}

/// One judged move: the judge's score before it and its expectation after it, from the
/// mover's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveLoss {
    /// The capped score before the move.
    pub before: i32,
    /// The expected capped score after the move (over its reveal outcomes).
    pub after: f64,
    pub win_before: f64,
    /// The expected win% after the move.
    pub win_after: f64,
}

impl MoveLoss {
    /// A move judged `before` (the position's score for the mover) whose outcomes are
    /// `(probability, score after, from the mover's view)`: one outcome of probability 1 for
    /// a move that reveals nothing. The probabilities are normalised, so rounding in them
    /// does not bias the mean; an empty list is read as "no change".
    pub fn new(before: i32, outcomes: &[(f64, i32)]) -> MoveLoss {
        let before = capped(before);
        let total: f64 = outcomes.iter().map(|&(p, _)| p.max(0.0)).sum();
        let (after, win_after) = if total > 0.0 {
            outcomes.iter().fold((0.0, 0.0), |(cp, win), &(p, score)| {
                let weight = p.max(0.0) / total;
                let score = f64::from(capped(score));
                (cp + weight * score, win + weight * win_percent(score))
            })
        } else {
            (f64::from(before), win_percent(f64::from(before)))
        };
        MoveLoss {
            before,
            after,
            win_before: win_percent(f64::from(before)),
            win_after,
        }
    }

    /// The centipawns the move gave away (never below zero).
    pub fn loss(&self) -> f64 {
        (f64::from(self.before) - self.after).max(0.0)
    }

    /// The win% points the move gave away (below zero when it gained).
    pub fn drop(&self) -> f64 {
        self.win_before - self.win_after
    }

    pub fn judgement(&self) -> Judgement {
        judgement(self.drop())
    }

    pub fn is_howler(&self) -> bool {
        is_howler(self.win_before, self.drop())
    }

    pub fn standing(&self) -> Standing {
        standing(self.win_before)
    }
}

/// How many of a game's judged moves (in the order played) came before it was decided:
/// before the first of [`DECIDED_PLIES`] moves in a row played from a position the judge
/// scored at the cap. All of them if that never happened.
pub fn until_decided(moves: &[MoveLoss]) -> usize {
    let mut run = 0;
    for (index, judged) in moves.iter().enumerate() {
        run = if judged.before.abs() >= EVAL_CAP { run + 1 } else { 0 };
        if run == DECIDED_PLIES {
            return index + 1 - DECIDED_PLIES;
        }
    }
    moves.len()
}

/// Counts over a set of judged moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    pub moves: u64,
    /// The sum of the centipawn losses.
    pub loss: f64,
    pub inaccuracies: u64,
    pub mistakes: u64,
    pub blunders: u64,
    pub howlers: u64,
}

impl Tally {
    pub fn add(&mut self, judged: &MoveLoss) {
        self.moves += 1;
        self.loss += judged.loss();
        match judged.judgement() {
            Judgement::Good => {}
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
        }
        if judged.is_howler() {
            self.howlers += 1;
        }
    }

    /// The average centipawn loss, if any move was judged.
    pub fn acpl(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.loss / self.moves as f64)
    }
}

/// Everything judged of one level.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LevelProfile {
    pub level: u8,
    /// The Elo the level is compared with the human figures at.
    pub elo: Option<f64>,
    pub games: u64,
    /// Games times the sides of the level in them (two in self-play): the "per game" of
    /// the figures, as the human ones count per player and game.
    pub player_games: u64,
    /// Games the judge could not finish (left out of every figure).
    pub skipped_games: u64,
    pub all: Tally,
    pub behind: Tally,
    pub equal: Tally,
    pub ahead: Tally,
    /// The moves played before each game was decided ([`until_decided`]).
    pub undecided: Tally,
    /// Each player's first [`HUMAN_GAME_MOVES`] moves.
    pub first: Tally,
}

impl LevelProfile {
    pub fn new(level: u8, elo: Option<f64>) -> LevelProfile {
        LevelProfile {
            level,
            elo,
            ..LevelProfile::default()
        }
    }

    /// Adds a judged game with `players` sides of the level in it.
    pub fn add_game(&mut self, moves: &[MoveLoss], players: u64) {
        self.games += 1;
        self.player_games += players;
        for judged in moves {
            self.all.add(judged);
            match judged.standing() {
                Standing::Behind => self.behind.add(judged),
                Standing::Equal => self.equal.add(judged),
                Standing::Ahead => self.ahead.add(judged),
            }
        }
        for judged in &moves[..until_decided(moves)] {
            self.undecided.add(judged);
        }
        for judged in moves.iter().take(HUMAN_GAME_MOVES * players as usize) {
            self.first.add(judged);
        }
    }

    /// A count per player and game.
    pub fn per_game(&self, count: u64) -> Option<f64> {
        (self.player_games > 0).then(|| count as f64 / self.player_games as f64)
    }

    /// The figures derived from the counts, with the goals for the level's Elo.
    pub fn summary(&self) -> Summary {
        let human = self.elo.map(human_at);
        let acpl = self.all.acpl();
        let acpl_undecided = self.undecided.acpl();
        let acpl_first = self.first.acpl();
        let blunders = self.per_game(self.all.blunders);
        let blunders_first = self.per_game(self.first.blunders);
        let howlers = self.per_game(self.all.howlers);
        let within = |value: Option<f64>, reference: Option<f64>, tolerance: f64| match (value, reference) {
            (Some(value), Some(reference)) if reference > 0.0 => {
                Some((value - reference).abs() <= tolerance * reference)
            }
            _ => None,
        };
        let howler_goal = match (howlers, human) {
            (Some(_), _) if self.level >= 3 => Some(self.all.howlers == 0),
            (Some(howlers), Some(human)) => Some(howlers <= human.blunders),
            _ => None,
        };
        Summary {
            level: self.level,
            elo: self.elo,
            games: self.games,
            player_games: self.player_games,
            moves: self.all.moves,
            moves_per_game: self.per_game(self.all.moves),
            acpl,
            inaccuracies_per_game: self.per_game(self.all.inaccuracies),
            mistakes_per_game: self.per_game(self.all.mistakes),
            blunders_per_game: blunders,
            howlers_per_game: howlers,
            howlers: self.all.howlers,
            acpl_behind: self.behind.acpl(),
            acpl_equal: self.equal.acpl(),
            acpl_ahead: self.ahead.acpl(),
            moves_behind: self.behind.moves,
            moves_equal: self.equal.moves,
            moves_ahead: self.ahead.moves,
            human_acpl: human.map(|h| h.acpl),
            human_blunders_per_game: human.map(|h| h.blunders),
            acpl_goal: within(acpl, human.map(|h| h.acpl), ACPL_TOLERANCE),
            moves_per_game_undecided: self.per_game(self.undecided.moves),
            acpl_undecided,
            acpl_undecided_goal: within(acpl_undecided, human.map(|h| h.acpl), ACPL_TOLERANCE),
            acpl_first,
            acpl_first_goal: within(acpl_first, human.map(|h| h.acpl), ACPL_TOLERANCE),
            blunders_per_game_first: blunders_first,
            blunder_first_goal: within(blunders_first, human.map(|h| h.blunders), BLUNDER_TOLERANCE),
            blunder_goal: within(blunders, human.map(|h| h.blunders), BLUNDER_TOLERANCE),
            howler_goal,
            rating_by_acpl_first: acpl_first.and_then(|v| human_rating_for(v, |h| h.acpl)),
            rating_by_blunders_first: blunders_first.and_then(|v| human_rating_for(v, |h| h.blunders)),
        }
    }
}

/// The goals' tolerances: ACPL within ±20% of the human figure, blunders within ±30%.
pub const ACPL_TOLERANCE: f64 = 0.2;
pub const BLUNDER_TOLERANCE: f64 = 0.3;

/// A level's figures, per player and game where counted, and which goals it meets (`None`
/// when there is nothing to judge it by).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub level: u8,
    pub elo: Option<f64>,
    pub games: u64,
    pub player_games: u64,
    pub moves: u64,
    pub moves_per_game: Option<f64>,
    pub acpl: Option<f64>,
    pub inaccuracies_per_game: Option<f64>,
    pub mistakes_per_game: Option<f64>,
    pub blunders_per_game: Option<f64>,
    pub howlers_per_game: Option<f64>,
    pub howlers: u64,
    pub acpl_behind: Option<f64>,
    pub acpl_equal: Option<f64>,
    pub acpl_ahead: Option<f64>,
    pub moves_behind: u64,
    pub moves_equal: u64,
    pub moves_ahead: u64,
    /// The human figures at the level's Elo (interpolated between the reference ratings).
    pub human_acpl: Option<f64>,
    pub human_blunders_per_game: Option<f64>,
    pub acpl_goal: Option<bool>,
    /// Moves per player and game, and their ACPL, before the game was decided.
    pub moves_per_game_undecided: Option<f64>,
    pub acpl_undecided: Option<f64>,
    pub acpl_undecided_goal: Option<bool>,
    /// ACPL and blunders per player and game over each player's first
    /// [`HUMAN_GAME_MOVES`] moves.
    pub acpl_first: Option<f64>,
    pub acpl_first_goal: Option<bool>,
    pub blunders_per_game_first: Option<f64>,
    pub blunder_first_goal: Option<bool>,
    pub blunder_goal: Option<bool>,
    pub howler_goal: Option<bool>,
    /// The lichess blitz rating of the people who err as the level does over their first
    /// [`HUMAN_GAME_MOVES`] moves: by ACPL, and by blunders per game.
    pub rating_by_acpl_first: Option<HumanRating>,
    pub rating_by_blunders_first: Option<HumanRating>,
}

/// What humans of one rating do per game in lichess blitz.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HumanFigures {
    pub rating: f64,
    pub acpl: f64,
    pub blunders: f64,
    pub mistakes: f64,
    /// 3.5 to 4 at every rating; the middle.
    pub inaccuracies: f64,
}

/// The human reference: lichess blitz, per player and game.
pub const HUMAN: [HumanFigures; 4] = [
    HumanFigures {
        rating: 1000.0,
        acpl: 103.0,
        blunders: 3.3,
        mistakes: 1.5,
        inaccuracies: 3.75,
    },
    HumanFigures {
        rating: 1400.0,
        acpl: 81.0,
        blunders: 2.8,
        mistakes: 1.5,
        inaccuracies: 3.75,
    },
    HumanFigures {
        rating: 1800.0,
        acpl: 68.0,
        blunders: 2.3,
        mistakes: 1.5,
        inaccuracies: 3.75,
    },
    HumanFigures {
        rating: 2200.0,
        acpl: 58.0,
        blunders: 2.1,
        mistakes: 1.5,
        inaccuracies: 3.75,
    },
];

/// The human figures at `elo`: linear between the reference ratings, and those of the
/// nearest end outside them (the reference says nothing below 1000 or above 2200).
pub fn human_at(elo: f64) -> HumanFigures {
    let first = HUMAN[0];
    let last = HUMAN[HUMAN.len() - 1];
    if elo.is_nan() || elo <= first.rating {
        return HumanFigures { rating: elo, ..first };
    }
    if elo >= last.rating {
        return HumanFigures { rating: elo, ..last };
    }
    let upper = HUMAN.iter().position(|h| h.rating >= elo).unwrap_or(HUMAN.len() - 1);
    let (low, high) = (HUMAN[upper - 1], HUMAN[upper]);
    let t = (elo - low.rating) / (high.rating - low.rating);
    let mix = |a: f64, b: f64| a + t * (b - a);
    HumanFigures {
        rating: elo,
        acpl: mix(low.acpl, high.acpl),
        blunders: mix(low.blunders, high.blunders),
        mistakes: mix(low.mistakes, high.mistakes),
        inaccuracies: mix(low.inaccuracies, high.inaccuracies),
    }
}

/// Where a figure puts a level among people: the lichess blitz rating whose figure it is, or
/// the end of the reference it lies beyond (the reference says nothing below 1000 or above
/// 2200). A level's Elo and the rating that errs as it does need not be the same number: the
/// first is a scale of results, the second of errors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HumanRating {
    /// Errs more than people at the lowest reference rating.
    Below(f64),
    /// Errs as people of this rating (linear between the reference ratings).
    At(f64),
    /// Errs less than people at the highest reference rating.
    Above(f64),
}

impl std::fmt::Display for HumanRating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HumanRating::Below(r) => write!(f, "<{r:.0}"),
            HumanRating::At(r) => write!(f, "{r:.0}"),
            HumanRating::Above(r) => write!(f, ">{r:.0}"),
        }
    }
}

impl Serialize for HumanRating {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The rating of the people who err as much as `value` by `figure` (ACPL or blunders per
/// game: both fall as the rating rises), by the inverse of [`human_at`]'s interpolation.
/// `None` for a value that is not a number.
pub fn human_rating_for(value: f64, figure: fn(&HumanFigures) -> f64) -> Option<HumanRating> {
    if !value.is_finite() {
        return None;
    }
    let (first, last) = (HUMAN[0], HUMAN[HUMAN.len() - 1]);
    if value > figure(&first) {
        return Some(HumanRating::Below(first.rating));
    }
    if value < figure(&last) {
        return Some(HumanRating::Above(last.rating));
    }
    let pair = HUMAN
        .windows(2)
        .find(|pair| value <= figure(&pair[0]) && value >= figure(&pair[1]))?;
    let (high, low) = (figure(&pair[0]), figure(&pair[1]));
    let t = if high > low { (high - value) / (high - low) } else { 0.0 };
    Some(HumanRating::At(pair[0].rating + t * (pair[1].rating - pair[0].rating)))
}

fn rating(value: Option<HumanRating>) -> String {
    value.map_or_else(|| "–".to_string(), |r| r.to_string())
}

fn number(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v:.decimals$}"),
        _ => "–".to_string(),
    }
}

fn verdict(goal: Option<bool>) -> &'static str {
    match goal {
        Some(true) => "yes",
        Some(false) => "**no**",
        None => "–",
    }
}

/// The profiles as Markdown: the figures of each level beside the human ones, then the goals.
pub fn render(profiles: &[LevelProfile]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| player | Elo | games | moves/game | ACPL | inaccuracies/game | mistakes/game | blunders/game | howlers/game | ACPL behind (moves) | ACPL equal (moves) | ACPL ahead (moves) |"
    );
    let _ = writeln!(out, "|{}", " --- |".repeat(12));
    for profile in profiles {
        let s = profile.summary();
        let split = |acpl: Option<f64>, moves: u64| format!("{} ({moves})", number(acpl, 0));
        let _ = writeln!(
            out,
            "| Level {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.level,
            number(s.elo, 0),
            s.games,
            number(s.moves_per_game, 1),
            number(s.acpl, 1),
            number(s.inaccuracies_per_game, 2),
            number(s.mistakes_per_game, 2),
            number(s.blunders_per_game, 2),
            number(s.howlers_per_game, 2),
            split(s.acpl_behind, s.moves_behind),
            split(s.acpl_equal, s.moves_equal),
            split(s.acpl_ahead, s.moves_ahead),
        );
    }
    for human in HUMAN {
        let _ = writeln!(
            out,
            "| lichess blitz {:.0} | {:.0} | | | {:.0} | 3.5–4 | {:.1} | {:.1} | | | | |",
            human.rating, human.rating, human.acpl, human.mistakes, human.blunders
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| level | Elo | ACPL | human ACPL | within ±20% | moves/game until decided | ACPL until decided | within ±20% | ACPL, first {HUMAN_GAME_MOVES} moves | within ±20% | blunders/game | human blunders/game | within ±30% | blunders/game, first {HUMAN_GAME_MOVES} moves | within ±30% | howlers | howler goal | errs as a person rated (ACPL, blunders; first {HUMAN_GAME_MOVES} moves) |"
    );
    let _ = writeln!(out, "|{}", " --- |".repeat(18));
    for profile in profiles {
        let s = profile.summary();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}, {} |",
            s.level,
            number(s.elo, 0),
            number(s.acpl, 1),
            number(s.human_acpl, 0),
            verdict(s.acpl_goal),
            number(s.moves_per_game_undecided, 1),
            number(s.acpl_undecided, 1),
            verdict(s.acpl_undecided_goal),
            number(s.acpl_first, 1),
            verdict(s.acpl_first_goal),
            number(s.blunders_per_game, 2),
            number(s.human_blunders_per_game, 2),
            verdict(s.blunder_goal),
            number(s.blunders_per_game_first, 2),
            verdict(s.blunder_first_goal),
            s.howlers,
            verdict(s.howler_goal),
            rating(s.rating_by_acpl_first),
            rating(s.rating_by_blunders_first),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn win_percent_is_lichess_curve() {
        assert!(close(win_percent(0.0), 50.0));
        // Symmetric around 50.
        assert!(close(win_percent(300.0) + win_percent(-300.0), 100.0));
        // +100 cp is about 59.1%, +300 about 75.1%, +1000 about 97.5%.
        assert!((win_percent(100.0) - 59.10).abs() < 0.01);
        assert!((win_percent(300.0) - 75.11).abs() < 0.01);
        assert!((win_percent(1000.0) - 97.55).abs() < 0.01);
        assert!(win_percent(1e9) <= 100.0 && win_percent(-1e9) >= 0.0);
    }

    #[test]
    fn classes_by_drop() {
        assert_eq!(judgement(-20.0), Judgement::Good);
        assert_eq!(judgement(4.99), Judgement::Good);
        assert_eq!(judgement(5.0), Judgement::Inaccuracy);
        assert_eq!(judgement(9.99), Judgement::Inaccuracy);
        assert_eq!(judgement(10.0), Judgement::Mistake);
        assert_eq!(judgement(14.99), Judgement::Mistake);
        assert_eq!(judgement(15.0), Judgement::Blunder);
        assert_eq!(judgement(90.0), Judgement::Blunder);
    }

    #[test]
    fn howlers_need_a_big_drop_from_a_position_not_lost() {
        assert!(is_howler(40.0, 50.0));
        assert!(is_howler(97.0, 90.0));
        assert!(!is_howler(39.9, 39.0));
        assert!(!is_howler(60.0, 49.9));
        // From +200 to -200: about 67.6% to 32.4%, a 35-point blunder but no howler.
        let judged = MoveLoss::new(200, &[(1.0, -200)]);
        assert_eq!(judged.judgement(), Judgement::Blunder);
        assert!(!judged.is_howler());
        // From +200 (67.6%) to -700 (7.1%): a howler. From equal, no drop reaches 50
        // points (the cap keeps a lost position at 2.5%).
        assert!(MoveLoss::new(200, &[(1.0, -700)]).is_howler());
        assert!(!MoveLoss::new(0, &[(1.0, -5000)]).is_howler());
    }

    #[test]
    fn standing_splits_at_40_and_60() {
        assert_eq!(standing(39.9), Standing::Behind);
        assert_eq!(standing(40.0), Standing::Equal);
        assert_eq!(standing(60.0), Standing::Equal);
        assert_eq!(standing(60.1), Standing::Ahead);
    }

    #[test]
    fn losses_are_capped_and_never_negative() {
        // Mate found (capped to 1000) then a merely winning move: 1000 - 600.
        let judged = MoveLoss::new(30_000, &[(1.0, 600)]);
        assert_eq!(judged.before, 1000);
        assert!(close(judged.loss(), 400.0));
        // Winning to being mated: at most 2000.
        assert!(close(MoveLoss::new(5_000, &[(1.0, -99_999)]).loss(), 2000.0));
        // A move the judge likes better than the position: no loss, a negative drop.
        let judged = MoveLoss::new(-50, &[(1.0, 20)]);
        assert!(close(judged.loss(), 0.0));
        assert!(judged.drop() < 0.0);
        assert_eq!(judged.judgement(), Judgement::Good);
        // A tally averages the losses.
        let mut tally = Tally::default();
        tally.add(&MoveLoss::new(100, &[(1.0, 0)]));
        tally.add(&MoveLoss::new(0, &[(1.0, 0)]));
        tally.add(&MoveLoss::new(3000, &[(1.0, -3000)]));
        assert!(close(tally.acpl().unwrap(), (100.0 + 0.0 + 2000.0) / 3.0));
        assert_eq!(Tally::default().acpl(), None);
    }

    #[test]
    fn a_reveal_is_judged_by_its_expectation() {
        // Pool Q1 P3: a quarter queen (+400 for the mover), three quarters pawn (-100).
        let judged = MoveLoss::new(100, &[(0.25, 400), (0.75, -100)]);
        assert!(close(judged.after, 0.25 * 400.0 - 0.75 * 100.0));
        assert!(close(judged.loss(), 100.0 - 25.0));
        let win = 0.25 * win_percent(400.0) + 0.75 * win_percent(-100.0);
        assert!(close(judged.win_after, win));
        // Each outcome is capped before the mean: a mate (as 5000) counts as 1000.
        let judged = MoveLoss::new(0, &[(0.5, 5000), (0.5, -1000)]);
        assert!(close(judged.after, 0.0));
        // Probabilities that do not quite add up to 1 are normalised.
        let judged = MoveLoss::new(0, &[(1.0 / 3.0, 300), (1.0 / 3.0, 300), (1.0 / 3.0, 300)]);
        assert!(close(judged.after, 300.0));
        // A good expectation is no error even if the actual draw was bad.
        let judged = MoveLoss::new(50, &[(0.9, 100), (0.1, -600)]);
        assert!(close(judged.loss(), 50.0 - (90.0 - 60.0)));
        assert_eq!(judged.judgement(), Judgement::Good);
    }

    #[test]
    fn a_game_is_counted_until_decided() {
        let even = MoveLoss::new(0, &[(1.0, -30)]);
        let won = MoveLoss::new(1500, &[(1.0, 1500)]);
        let lost = MoveLoss::new(-1200, &[(1.0, -1200)]);
        // Three plies at the cap, then a swing back: not yet decided.
        let moves = [even, won, lost, won, even, even];
        assert_eq!(until_decided(&moves), 6);
        // Four in a row, from either side: counted up to the first of them.
        let moves = [even, even, won, lost, won, lost, won, even];
        assert_eq!(until_decided(&moves), 2);
        assert_eq!(until_decided(&[]), 0);
        let mut profile = LevelProfile::new(2, Some(1200.0));
        profile.add_game(&moves, 2);
        assert_eq!(profile.all.moves, 8);
        assert_eq!(profile.undecided.moves, 2);
        let s = profile.summary();
        assert!(close(s.acpl_undecided.unwrap(), 30.0));
        assert_eq!(s.moves_per_game_undecided, Some(1.0));
    }

    #[test]
    fn the_first_moves_are_each_players_first_forty() {
        // 50 moves a player: the first 40 of each lose nothing, the last 10 are blunders.
        let even = MoveLoss::new(0, &[(1.0, 0)]);
        let blunder = MoveLoss::new(0, &[(1.0, -400)]);
        let mut moves = vec![even; 2 * HUMAN_GAME_MOVES];
        moves.extend(vec![blunder; 20]);
        let mut profile = LevelProfile::new(3, Some(1500.0));
        profile.add_game(&moves, 2);
        assert_eq!((profile.first.moves, profile.all.blunders), (80, 20));
        let s = profile.summary();
        assert_eq!((s.acpl_first, s.blunders_per_game_first), (Some(0.0), Some(0.0)));
        assert_eq!((s.acpl_first_goal, s.blunder_first_goal), (Some(false), Some(false)));
        assert_eq!(s.blunders_per_game, Some(10.0));
    }

    #[test]
    fn human_figures_between_ratings() {
        assert_eq!(human_at(1000.0).acpl, 103.0);
        assert!(close(human_at(1200.0).acpl, 92.0));
        assert!(close(human_at(1600.0).blunders, 2.55));
        // Outside the reference: its nearest end.
        assert_eq!(human_at(830.0).acpl, 103.0);
        assert_eq!(human_at(2400.0).acpl, 58.0);
        assert_eq!(human_at(f64::NAN).acpl, 103.0);
    }

    #[test]
    fn the_rating_that_errs_alike_inverts_the_human_figures() {
        let acpl = |h: &HumanFigures| h.acpl;
        let blunders = |h: &HumanFigures| h.blunders;
        assert_eq!(human_rating_for(81.0, acpl), Some(HumanRating::At(1400.0)));
        assert_eq!(human_rating_for(92.0, acpl), Some(HumanRating::At(1200.0)));
        assert_eq!(human_rating_for(2.55, blunders), Some(HumanRating::At(1600.0)));
        for elo in [1000.0, 1150.0, 1544.0, 1796.0, 2200.0] {
            let Some(HumanRating::At(back)) = human_rating_for(human_at(elo).acpl, acpl) else {
                panic!("{elo} is within the reference");
            };
            assert!(close(back, elo), "{elo} -> {back}");
        }
        assert_eq!(human_rating_for(120.0, acpl), Some(HumanRating::Below(1000.0)));
        assert_eq!(human_rating_for(53.6, acpl), Some(HumanRating::Above(2200.0)));
        assert_eq!(human_rating_for(f64::NAN, acpl), None);
        assert_eq!(HumanRating::Above(2200.0).to_string(), ">2200");
        assert_eq!(HumanRating::At(1723.4).to_string(), "1723");
        assert_eq!(serde_json::to_string(&HumanRating::Below(1000.0)).unwrap(), "\"<1000\"");
    }

    #[test]
    fn goals_by_level() {
        // A Level 1 at 1000 Elo, two player-games: ACPL (8 * 400 + 1100) / 45 = 96 (within
        // 20% of 103), 4.5 blunders a game (not within 30% of 3.3), one howler (0.5 a game,
        // at most 3.3).
        let mut profile = LevelProfile::new(1, Some(1000.0));
        let mut moves = vec![MoveLoss::new(0, &[(1.0, 0)]); 36];
        moves.extend(vec![MoveLoss::new(200, &[(1.0, -200)]); 8]);
        moves.push(MoveLoss::new(200, &[(1.0, -900)]));
        profile.add_game(&moves, 2);
        let s = profile.summary();
        assert!(close(s.acpl.unwrap(), 4300.0 / 45.0));
        assert_eq!(s.acpl_goal, Some(true));
        assert_eq!(s.blunders_per_game, Some(4.5));
        assert_eq!(s.howlers, 1);
        assert_eq!(s.howler_goal, Some(true));
        assert_eq!(s.blunder_goal, Some(false));
        // The same games at Level 3: a howler misses its goal.
        let mut profile = LevelProfile { level: 3, ..profile };
        assert_eq!(profile.summary().howler_goal, Some(false));
        profile.elo = None;
        assert_eq!(profile.summary().acpl_goal, None);
        let text = render(&[profile]);
        assert!(text.contains("ACPL until decided"));
        assert!(text.contains("| Level 3 |") && text.contains("lichess blitz 2200"));
    }
}
