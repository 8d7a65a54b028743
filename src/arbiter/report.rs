//! A match's results and its report. Each finished game becomes one [`GameRow`] (a JSON line
//! in the results file); the report is a function of the set of rows alone, whatever order
//! they came in and however many shards played them, so `veil merge` of the shards prints the
//! report the whole match would have.

use super::record::{Ending, GameRecord, GameResult};
use super::stats::{self, Estimate, Outcome, Pentanomial, Sprt, SprtVerdict, Trinomial};
use crate::rules::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the match was: every shard writes it first in its results file, and `veil merge`
/// checks that the shards agree on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchMeta {
    pub engines: Vec<String>,
    pub variant: String,
    pub time_control: String,
    pub seed: u64,
    pub games_per_encounter: u64,
    pub gauntlet: bool,
    /// Each engine against the next only.
    #[serde(default)]
    pub ladder: bool,
    pub sprt: Option<SprtSettings>,
    /// `i/n` when the results are one shard's.
    pub shard: Option<String>,
}

/// The SPRT as the command line gave it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: SprtModelName,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModelName {
    Normalized,
    Logistic,
}

impl SprtSettings {
    /// The test, or `None` if the parameters are not valid.
    pub fn test(&self) -> Option<Sprt> {
        let model = match self.model {
            SprtModelName::Normalized => stats::SprtModel::Normalized,
            SprtModelName::Logistic => stats::SprtModel::Logistic,
        };
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta, model).ok()
    }
}

/// One finished game, as the results file keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    pub pair: u64,
    /// 0 or 1 within the pair.
    pub game: u8,
    pub round: u64,
    /// Engine indices.
    pub white: usize,
    pub black: usize,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The ending's slug (`checkmate`, `time-forfeit`...).
    pub ending: String,
    /// The side the ending names, if any (`white`/`black`).
    pub side: Option<String>,
    pub plies: usize,
}

impl GameRow {
    pub fn new(record: &GameRecord, round: u64, white: usize, black: usize) -> GameRow {
        GameRow {
            pair: record.pair,
            game: record.game_in_pair,
            round,
            white,
            black,
            result: record.result.pgn().to_string(),
            ending: record.ending.slug().to_string(),
            side: record.ending.side().map(|c| color_name(c).to_string()),
            plies: record.moves.len(),
        }
    }

    fn result(&self) -> GameResult {
        GameResult::from_pgn(&self.result).unwrap_or(GameResult::Draw)
    }

    /// The game's outcome for engine `engine` (which must play in it).
    fn outcome_of(&self, engine: usize) -> Outcome {
        let color = if self.white == engine {
            Color::White
        } else {
            Color::Black
        };
        match self.result().winner() {
            None => Outcome::Draw,
            Some(winner) if winner == color => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// One engine's line in the standings.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    pub name: String,
    pub games: u64,
    pub points: f64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Elo against the field, with its 95% error bar.
    pub elo: f64,
    pub elo_error: f64,
}

/// The first engine against the second, in a two-engine match.
#[derive(Clone, Debug, Serialize)]
pub struct HeadToHead {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pair counts for pair scores 0, 0.5, 1, 1.5, 2.
    pub pentanomial: [u64; 5],
    pub elo: f64,
    pub elo_error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    pub los: f64,
    pub draw_ratio: f64,
    pub sprt: Option<SprtState>,
}

/// Where the SPRT stands.
#[derive(Clone, Debug, Serialize)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `H0`, `H1` or `continue`.
    pub verdict: String,
}

/// The match report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub meta: MatchMeta,
    pub games: u64,
    pub standings: Vec<Standing>,
    pub head_to_head: Option<HeadToHead>,
    /// Points of the row's engine against the column's; `None` where they did not meet.
    pub crosstable: Vec<Vec<Option<f64>>>,
    /// How many games ended each way.
    pub endings: BTreeMap<String, u64>,
    /// The match was stopped by a signal before it ended: the report covers the games that
    /// finished.
    pub interrupted: bool,
    /// The games the schedule holds (a shard's: its share). Fewer `games` than this, without
    /// an SPRT verdict, is a match that did not finish (stopped by hand, or a shard missing
    /// from a merge).
    pub scheduled: u64,
}

impl MatchMeta {
    /// How many games the match (or its shard) schedules.
    pub fn scheduled_games(&self) -> u64 {
        use super::schedule::{pair_jobs, Pairing, Shard};
        let pairing = if self.ladder {
            Pairing::Ladder
        } else if self.gauntlet {
            Pairing::Gauntlet
        } else {
            Pairing::RoundRobin
        };
        let shard = self.shard.as_deref().and_then(|s| s.parse::<Shard>().ok());
        pair_jobs(
            self.engines.len(),
            pairing,
            self.games_per_encounter,
            0,
            self.seed,
            shard,
        )
        .iter()
        .map(|job| u64::from(job.games))
        .sum()
    }
}

impl Report {
    /// Whether an SPRT reached its verdict (the match then stops before its last game).
    pub fn sprt_decided(&self) -> bool {
        self.head_to_head
            .as_ref()
            .and_then(|h| h.sprt.as_ref())
            .is_some_and(|s| s.verdict != "continue")
    }
}

/// The SPRT verdict's name.
fn verdict_name(verdict: Option<SprtVerdict>) -> &'static str {
    match verdict {
        Some(SprtVerdict::AcceptH0) => "H0",
        Some(SprtVerdict::AcceptH1) => "H1",
        None => "continue",
    }
}

/// The first engine's trinomial and pentanomial against the second.
pub fn head_to_head_counts(rows: &[GameRow]) -> (Trinomial, Pentanomial) {
    let mut trinomial = Trinomial::default();
    let mut pentanomial = Pentanomial::default();
    let mut pairs: BTreeMap<u64, Vec<&GameRow>> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.white + r.black == 1) {
        trinomial.add_game(row.outcome_of(0));
        pairs.entry(row.pair).or_default().push(row);
    }
    for games in pairs.values().filter(|games| games.len() == 2) {
        pentanomial.add_pair(games[0].outcome_of(0), games[1].outcome_of(0));
    }
    (trinomial, pentanomial)
}

/// Builds the report from the rows, in any order.
pub fn build(meta: &MatchMeta, rows: &[GameRow]) -> Report {
    let mut rows = rows.to_vec();
    rows.sort_by_key(|r| (r.pair, r.game));
    rows.dedup_by_key(|r| (r.pair, r.game));
    let n = meta.engines.len();
    let mut crosstable = vec![vec![None; n]; n];
    let mut tallies = vec![Trinomial::default(); n];
    let mut endings = BTreeMap::new();
    for row in &rows {
        *endings.entry(row.ending.clone()).or_insert(0) += 1;
        for (engine, opponent) in [(row.white, row.black), (row.black, row.white)] {
            if engine >= n || opponent >= n {
                continue;
            }
            let outcome = row.outcome_of(engine);
            tallies[engine].add_game(outcome);
            *crosstable[engine][opponent].get_or_insert(0.0) += outcome.points();
        }
    }
    let standings = meta
        .engines
        .iter()
        .zip(&tallies)
        .map(|(name, t)| {
            let Estimate { value, error } = stats::elo(t);
            Standing {
                name: name.clone(),
                games: t.games(),
                points: t.points(),
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                elo: value,
                elo_error: error,
            }
        })
        .collect();
    let head_to_head = (n == 2).then(|| {
        let (trinomial, pentanomial) = head_to_head_counts(&rows);
        let elo = if pentanomial.pairs() > 0 {
            stats::elo_penta(&pentanomial)
        } else {
            stats::elo(&trinomial)
        };
        let nelo = if pentanomial.pairs() > 0 {
            stats::nelo_penta(&pentanomial)
        } else {
            stats::nelo(&trinomial)
        };
        HeadToHead {
            wins: trinomial.wins,
            draws: trinomial.draws,
            losses: trinomial.losses,
            pentanomial: pentanomial.0,
            elo: elo.value,
            elo_error: elo.error,
            nelo: nelo.value,
            nelo_error: nelo.error,
            los: stats::los(&trinomial),
            draw_ratio: if trinomial.games() == 0 {
                0.0
            } else {
                trinomial.draws as f64 / trinomial.games() as f64
            },
            sprt: meta.sprt.and_then(|settings| settings.test()).map(|test| {
                let llr = test.llr_penta(&pentanomial);
                let (lower, upper) = test.bounds();
                SprtState {
                    llr,
                    lower,
                    upper,
                    verdict: verdict_name(test.verdict(llr)).to_string(),
                }
            }),
        }
    });
    Report {
        meta: meta.clone(),
        games: rows.len() as u64,
        standings,
        head_to_head,
        crosstable,
        endings,
        interrupted: false,
        scheduled: meta.scheduled_games(),
    }
}

fn signed(value: f64) -> String {
    // Adding 0.0 turns -0.0 into 0.0.
    let value = value + 0.0;
    if value.is_finite() {
        format!("{value:+.1}")
    } else if value > 0.0 {
        "+inf".to_string()
    } else if value < 0.0 {
        "-inf".to_string()
    } else {
        "nan".to_string()
    }
}

fn error(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.1}")
    } else {
        "inf".to_string()
    }
}

/// The report as text for people.
pub fn render(report: &Report) -> String {
    let meta = &report.meta;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Match: {} games, variant {}, tc {}, seed {}{}",
        report.games,
        meta.variant,
        meta.time_control,
        meta.seed,
        meta.shard
            .as_deref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
    if report.interrupted {
        let _ = writeln!(
            out,
            "Interrupted: the report covers the {} games that finished; games in progress were not counted",
            report.games
        );
    } else if report.games < report.scheduled && !report.sprt_decided() {
        let _ = writeln!(
            out,
            "Incomplete: {} of the {} games scheduled (a match stopped early, or a shard missing)",
            report.games, report.scheduled
        );
    }
    if let Some(h) = &report.head_to_head {
        let (a, b) = (&meta.engines[0], &meta.engines[1]);
        let games = h.wins + h.draws + h.losses;
        let points = h.wins as f64 + h.draws as f64 / 2.0;
        let _ = writeln!(
            out,
            "Results of {a} vs {b}: {points}/{games} [{:.3}]",
            if games == 0 { 0.0 } else { points / games as f64 }
        );
        let _ = writeln!(
            out,
            "Elo: {} +/- {}, nElo: {} +/- {}",
            signed(h.elo),
            error(h.elo_error),
            signed(h.nelo),
            error(h.nelo_error)
        );
        let _ = writeln!(
            out,
            "LOS: {:.2} %, DrawRatio: {:.2} %",
            h.los * 100.0,
            h.draw_ratio * 100.0
        );
        let _ = writeln!(
            out,
            "Games: {games}, Wins: {}, Losses: {}, Draws: {}",
            h.wins, h.losses, h.draws
        );
        let p = h.pentanomial;
        let _ = writeln!(out, "Ptnml(0-2): [{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]);
        if let Some(s) = &h.sprt {
            let _ = writeln!(
                out,
                "LLR: {:.2} ({:.2}, {:.2}) [{}, {}] -> {}",
                s.llr,
                s.lower,
                s.upper,
                meta.sprt.map(|x| x.elo0).unwrap_or_default(),
                meta.sprt.map(|x| x.elo1).unwrap_or_default(),
                match s.verdict.as_str() {
                    "H0" => "H0 accepted",
                    "H1" => "H1 accepted",
                    _ => "no verdict yet",
                }
            );
        }
    }
    let width = meta.engines.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
    let _ = writeln!(
        out,
        "\n{:<3} {:<width$} {:>8} {:>7} {:>6} {:>5} {:>5} {:>5}",
        "#", "engine", "Elo", "+/-", "games", "score", "W", "L"
    );
    let mut order: Vec<usize> = (0..report.standings.len()).collect();
    order.sort_by(|&x, &y| report.standings[y].points.total_cmp(&report.standings[x].points));
    for (rank, &i) in order.iter().enumerate() {
        let s = &report.standings[i];
        let _ = writeln!(
            out,
            "{:<3} {:<width$} {:>8} {:>7} {:>6} {:>5} {:>5} {:>5}",
            rank + 1,
            s.name,
            signed(s.elo),
            error(s.elo_error),
            s.games,
            format!("{:.1}", s.points),
            s.wins,
            s.losses
        );
    }
    if meta.engines.len() > 2 {
        let _ = writeln!(out, "\nCrosstable (points of the row against the column):");
        let _ = write!(out, "{:<width$}", "");
        for name in &meta.engines {
            let _ = write!(out, " {name:>8.8}");
        }
        let _ = writeln!(out);
        for (i, name) in meta.engines.iter().enumerate() {
            let _ = write!(out, "{name:<width$}");
            for cell in &report.crosstable[i] {
                match cell {
                    Some(points) => {
                        let _ = write!(out, " {points:>8.1}");
                    }
                    None => {
                        let _ = write!(out, " {:>8}", "-");
                    }
                }
            }
            let _ = writeln!(out);
        }
    }
    let endings: Vec<String> = report.endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "\nEndings: {}", endings.join(", "));
    out
}

/// The ending a row records, if its slug and side read back.
pub fn row_ending(row: &GameRow) -> Option<Ending> {
    let side = match row.side.as_deref() {
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        _ => None,
    };
    Ending::from_slug(&row.ending, side)
}
