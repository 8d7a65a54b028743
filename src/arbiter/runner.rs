//! The concurrent match: worker threads take colour-swapped pairs from the schedule, each
//! with its own engine processes; the main thread collects the games, writes the PGN and the
//! results file in game order, keeps the statistics, shows progress and stops early when the
//! SPRT has a verdict.

use super::engine::EngineSpec;
use super::game::{self, GameSettings, Seat};
use super::interrupt;
use super::pgn;
use super::progress::Progress;
use super::record::{GameRecord, Variant};
use super::report::{self, GameRow, MatchMeta, Report};
use super::reveal::RevealDraws;
use super::schedule::{self, PairJob, Pairing, Shard};
use crate::rules::{ByColor, Position};
use crossbeam::channel;
use parking_lot::Mutex;
use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

/// Everything `veil match` needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub pairing: Pairing,
    pub variant: Variant,
    pub games_per_encounter: u64,
    pub concurrency: usize,
    pub seed: u64,
    /// Start positions; empty means the variant's start position.
    pub openings: Vec<Position>,
    pub settings: GameSettings,
    pub sprt: Option<report::SprtSettings>,
    pub shard: Option<Shard>,
    pub pgn: Option<PathBuf>,
    /// JSON lines: the match description, then one line per game.
    pub results: Option<PathBuf>,
    pub event: String,
    /// Print a line per finished game (otherwise only the progress and the report).
    pub verbose: bool,
}

impl MatchConfig {
    pub fn meta(&self) -> MatchMeta {
        MatchMeta {
            engines: self.engines.iter().map(|e| e.name.clone()).collect(),
            variant: self.variant.name().to_string(),
            time_control: self.settings.time_control.to_string(),
            seed: self.seed,
            games_per_encounter: self.games_per_encounter,
            gauntlet: self.pairing == Pairing::Gauntlet,
            ladder: self.pairing == Pairing::Ladder,
            sprt: self.sprt,
            shard: self.shard.map(|s| s.to_string()),
        }
    }
}

/// A finished game on its way to the main thread.
struct Finished {
    record: GameRecord,
    row: GameRow,
}

/// Files written in game order.
struct Outputs {
    pgn: Option<BufWriter<File>>,
    results: Option<BufWriter<File>>,
}

fn create(path: &Option<PathBuf>) -> std::io::Result<Option<BufWriter<File>>> {
    path.as_ref().map(|p| File::create(p).map(BufWriter::new)).transpose()
}

/// Plays the match and returns its report.
pub fn run(config: &MatchConfig) -> std::io::Result<Report> {
    run_games(config).map(|(report, _)| report)
}

/// Plays the match and returns its report and the results of its games, in game order.
pub fn run_games(config: &MatchConfig) -> std::io::Result<(Report, Vec<GameRow>)> {
    play_all(config).map(|(report, rows, _)| (report, rows))
}

/// Plays the match and returns its report and the records of its games (moves, reveals and
/// what the engines said), in game order: for tools that look at the games themselves.
pub fn run_records(config: &MatchConfig) -> std::io::Result<(Report, Vec<GameRecord>)> {
    play_all(config).map(|(report, _, records)| (report, records))
}

fn play_all(config: &MatchConfig) -> std::io::Result<(Report, Vec<GameRow>, Vec<GameRecord>)> {
    let meta = config.meta();
    let jobs = schedule::pair_jobs(
        config.engines.len(),
        config.pairing,
        config.games_per_encounter,
        config.openings.len(),
        config.seed,
        config.shard,
    );
    let total_games: u64 = jobs.iter().map(|j| j.games as u64).sum();
    let mut expected: VecDeque<(u64, u8)> = jobs
        .iter()
        .flat_map(|j| (0..j.games).map(move |g| (j.pair, g)))
        .collect();
    let mut outputs = Outputs {
        pgn: create(&config.pgn)?,
        results: create(&config.results)?,
    };
    if let Some(results) = outputs.results.as_mut() {
        writeln!(results, "{}", serde_json::json!({ "meta": meta }))?;
        results.flush()?;
    }
    let queue = Mutex::new(jobs.into_iter());
    let stop = AtomicBool::new(false);
    let (sender, receiver) = channel::unbounded::<Finished>();
    let mut rows = Vec::new();
    let mut records = Vec::new();
    let mut progress = Progress::new(total_games);
    let mut pending: BTreeMap<(u64, u8), Finished> = BTreeMap::new();
    thread::scope(|scope| -> std::io::Result<()> {
        for worker in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (queue, stop) = (&queue, &stop);
            thread::Builder::new()
                .name(format!("match worker {worker}"))
                .spawn_scoped(scope, move || {
                    let mut seats: Vec<Seat> = config.engines.iter().cloned().map(Seat::new).collect();
                    while !stop.load(Ordering::Relaxed) && !interrupt::requested() {
                        let Some(job) = queue.lock().next() else { break };
                        play_pair(config, &job, &mut seats, &sender);
                    }
                })?;
        }
        drop(sender);
        for finished in receiver.iter() {
            rows.push(finished.row.clone());
            records.push(finished.record.clone());
            if config.verbose {
                progress.line(&describe(&finished.record));
            }
            let report = report::build(&meta, &rows);
            progress.update(rows.len() as u64, &status(&report));
            pending.insert((finished.row.pair, finished.row.game), finished);
            write_ready(&mut pending, &mut expected, &mut outputs, &config.event, false)?;
            if report.sprt_decided() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })?;
    write_ready(&mut pending, &mut expected, &mut outputs, &config.event, true)?;
    progress.finish();
    for writer in [outputs.pgn.as_mut(), outputs.results.as_mut()].into_iter().flatten() {
        writer.flush()?;
    }
    rows.sort_by_key(|r| (r.pair, r.game));
    records.sort_by_key(|r| (r.pair, r.game_in_pair));
    let mut report = report::build(&meta, &rows);
    // A signal after the last game is no interruption.
    report.interrupted = interrupt::requested() && report.games < report.scheduled;
    Ok((report, rows, records))
}

/// Writes the finished games that come next in game order (by pair, then game); with
/// `all`, writes everything still pending (the games that never came were not played).
fn write_ready(
    pending: &mut BTreeMap<(u64, u8), Finished>,
    expected: &mut VecDeque<(u64, u8)>,
    outputs: &mut Outputs,
    event: &str,
    all: bool,
) -> std::io::Result<()> {
    loop {
        let next = match expected.front() {
            Some(key) if pending.contains_key(key) => *key,
            _ if all => match pending.keys().next() {
                Some(&key) => key,
                None => return Ok(()),
            },
            _ => return Ok(()),
        };
        if expected.front() == Some(&next) {
            expected.pop_front();
        }
        let finished = pending.remove(&next).expect("present");
        if let Some(pgn) = outputs.pgn.as_mut() {
            pgn.write_all(pgn::write_game(&finished.record, event).as_bytes())?;
            pgn.write_all(b"\n")?;
            pgn.flush()?;
        }
        if let Some(results) = outputs.results.as_mut() {
            let line = serde_json::to_string(&finished.row).map_err(std::io::Error::other)?;
            writeln!(results, "{line}")?;
            results.flush()?;
        }
    }
}

/// Plays the games of one pair and sends them to the main thread.
fn play_pair(config: &MatchConfig, job: &PairJob, seats: &mut [Seat], sender: &channel::Sender<Finished>) {
    let start = match config.openings.get(job.opening) {
        Some(position) => position.clone(),
        None => config.variant.start_position(),
    };
    for game_in_pair in 0..job.games {
        let (white, black) = if game_in_pair == 0 {
            (job.encounter.first, job.encounter.second)
        } else {
            (job.encounter.second, job.encounter.first)
        };
        let date = today();
        let mut draws = RevealDraws::new(config.seed, job.round);
        let Some(played) = ({
            let (low, high) = seats.split_at_mut(white.max(black));
            let (white_seat, black_seat) = if white < black {
                (&mut low[white], &mut high[0])
            } else {
                (&mut high[0], &mut low[black])
            };
            game::play(
                ByColor::new(white_seat, black_seat),
                &start,
                &mut draws,
                &config.settings,
            )
        }) else {
            return;
        };
        // A game that ends after a stop was asked for by hand ([`interrupt`]) is not
        // counted. (The engines run in process groups of their own then, so a terminal's
        // Ctrl-C does not reach them: no disconnect races the signal.)
        if interrupt::requested() {
            return;
        }
        let record = GameRecord {
            variant: config.variant,
            white: config.engines[white].name.clone(),
            black: config.engines[black].name.clone(),
            start: start.clone(),
            moves: played.moves,
            result: played.ending.result(),
            ending: played.ending,
            detail: played.detail,
            time_control: config.settings.time_control.to_string(),
            seed: config.seed,
            pair: job.pair,
            game_in_pair,
            date,
        };
        let row = GameRow::new(&record, job.round, white, black);
        if sender.send(Finished { record, row }).is_err() {
            return;
        }
    }
}

/// A one-line account of a finished game.
fn describe(record: &GameRecord) -> String {
    format!(
        "Finished game {}.{} ({} vs {}): {} {{{}{}}}",
        record.pair + 1,
        record.game_in_pair + 1,
        record.white,
        record.black,
        record.result.pgn(),
        record.ending.slug(),
        record.detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default()
    )
}

/// The progress bar's text: the score and Elo of the first engine (two engines) or the
/// leader, and the LLR under an SPRT.
fn status(report: &Report) -> String {
    match &report.head_to_head {
        Some(h) => {
            let mut text = format!(
                "{} {}-{}-{}  Elo {:+.1} ± {:.1}",
                report.meta.engines[0],
                h.wins,
                h.losses,
                h.draws,
                h.elo + 0.0,
                h.elo_error
            );
            if let Some(s) = &h.sprt {
                text.push_str(&format!("  LLR {:.2} ({:.2}, {:.2})", s.llr, s.lower, s.upper));
            }
            text
        }
        None => {
            let leader = report.standings.iter().max_by(|a, b| a.points.total_cmp(&b.points));
            leader
                .map(|s| format!("leader {} {:.1}/{}", s.name, s.points, s.games))
                .unwrap_or_default()
        }
    }
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
