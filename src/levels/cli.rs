//! `veil levels`: calibrate the five strength levels (optionally against anchor engines),
//! tune them to target Elos and verify the result, or profile how each level errs.

use super::anchored;
use super::calibrate::{self, Player};
use super::judge::{self, Judge};
use super::move_log;
use super::profile::{self, LevelProfile};
use super::replay_tables;
use super::tune;
use crate::arbiter::cli::{engine_spec, read_openings};
use crate::arbiter::clock::TimeControl;
use crate::arbiter::engine::EngineSpec;
use crate::arbiter::game::GameSettings;
use crate::arbiter::record::Variant;
use crate::arbiter::runner::{self, MatchConfig};
use crate::arbiter::schedule::Pairing;
use crate::search::level::LevelTable;
use clap::Args;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// `veil levels`.
#[derive(Args, Debug)]
pub struct LevelsArgs {
    /// The engine whose levels are measured (default: this program).
    #[arg(long)]
    engine_cmd: Option<String>,
    /// A levels file the engine loads (`LevelsFile`); default: its compiled-in table.
    #[arg(long)]
    levels_file: Option<PathBuf>,
    /// An anchor engine of known strength: `name=N cmd=C elo=E [option.X=V ...]`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    anchor: Vec<String>,
    #[arg(skip)]
    anchor_groups: Vec<Vec<String>>,
    /// Whose Elo is fixed: `NAME=ELO` (a level is `L1`..`L5`). Default: the first anchor at
    /// its elo=, or else L5 at the table's Elo for it.
    #[arg(long)]
    pin: Option<String>,
    #[arg(long, value_enum, default_value = "covered")]
    variant: crate::arbiter::cli::VariantArg,
    #[arg(long, default_value = "5+0.05")]
    tc: String,
    /// Each level plays only the two anchors nearest its Elo in the table (a level below
    /// every anchor: the lowest anchor and the level above it), --games games each, and its
    /// Elo is its performance against them at their known Elos.
    #[arg(long)]
    nearest_anchors: bool,
    /// With --nearest-anchors: the levels to measure, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,4,5")]
    anchored_levels: Vec<u8>,
    /// Games per pairing of the round robin.
    #[arg(long, default_value_t = 20)]
    games: u64,
    /// Each player meets only the next in line (L1-L2, ..., L4-L5, then L5 and the anchors in
    /// the order given), instead of all others: every game then measures one step of the
    /// ladder.
    #[arg(long)]
    ladder: bool,
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    openings: Option<PathBuf>,
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Adjudication of every game played, as in `veil match` (off by default: the levels play
    /// on to mate). People resign decided games, so profiles and calibrations with
    /// `--resign` play games of a person's length.
    #[command(flatten)]
    adjudication: crate::arbiter::cli::AdjudicationArgs,
    /// Where to write the chart of Elo by level.
    #[arg(long, default_value = "levels.svg")]
    svg: PathBuf,
    /// Write the calibration as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Tune levels 1-4 to --targets first, write the levels file, then calibrate it (or, with
    /// --nearest-anchors, measure it against the anchors; with --games 0, neither). With
    /// anchors, each level is tuned against the anchor nearest its target, in plain chess by
    /// its own plain-chess node cap; without, against the level above it.
    #[arg(long)]
    tune: bool,
    /// Target Elos of levels 1..5, comma-separated (with --tune).
    #[arg(long, value_delimiter = ',', default_value = "800,1050,1300,1550,1800")]
    targets: Vec<f64>,
    /// Where --tune writes the tuned levels file.
    #[arg(long, default_value = "levels.toml")]
    write: PathBuf,
    /// Games per probe match while tuning.
    #[arg(long, default_value_t = 20)]
    probe_games: u64,
    /// Probe matches per level while tuning.
    #[arg(long, default_value_t = 3)]
    iterations: u32,
    /// The levels to tune, comma-separated (of 1-4); the others keep their rows.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,4")]
    tune_levels: Vec<u8>,
    /// While tuning, probe a level until the fitted line's 95% error at the node cap it picks
    /// is within this many Elo (--iterations is then the most probes a run plays a level).
    #[arg(long)]
    precision: Option<f64>,
    /// While tuning, keep every probe in this file (JSON lines) and take up the probes of
    /// earlier runs that played the same row against the same opponent under the same
    /// conditions, so that a tuning can go on over several runs.
    #[arg(long)]
    journal: Option<PathBuf>,
    /// No line per finished game.
    #[arg(long)]
    quiet: bool,
    /// Profile how each level errs instead of calibrating: each level plays itself (--games
    /// games), a stronger judge scores every move, and a table of centipawn loss,
    /// inaccuracies, mistakes, blunders and howlers per game is printed beside lichess
    /// blitz players'.
    #[arg(long)]
    profile: bool,
    /// With --profile: the levels to profile, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,4,5")]
    profile_levels: Vec<u8>,
    /// With --profile: the Elos of levels 1..5 the human figures are taken at (default: the
    /// levels table's Elos in the variant played: plain-chess Elos, or the covered ladder's).
    #[arg(long, value_delimiter = ',')]
    profile_elos: Option<Vec<f64>>,
    /// With --profile: the judge engine (default: /usr/games/stockfish in plain chess, this
    /// program at full strength in covered chess).
    #[arg(long)]
    judge_cmd: Option<String>,
    /// With --profile: the judge's nodes per position (default: 200,000 for a Stockfish
    /// judge in plain chess, 400,000 otherwise).
    #[arg(long)]
    judge_nodes: Option<u64>,
    /// With --profile: write every judged move as a JSON line (position, move, the player's
    /// own score, the judge's scores before and after, loss, class, howler).
    #[arg(long)]
    profile_moves: Option<PathBuf>,
    /// Work the profile out from a move log written by --profile-moves instead of playing
    /// and judging games (implies --profile; --variant, --profile-levels and --profile-elos
    /// apply).
    #[arg(long)]
    profile_from: Option<PathBuf>,
    /// With --profile-from: play the log's positions again under each of these levels files
    /// (`-`: the compiled-in table), comma-separated, one move a position from the seed its
    /// seat had (give the profile's --seed) at the start of a game of --tc, judge each move,
    /// and print the tables' figures side by side; --profile-moves writes a line a position.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    replay_tables: Vec<String>,
    /// With --replay-tables: every how many positions of the log to replay.
    #[arg(long, default_value_t = 1)]
    replay_every: usize,
}

impl LevelsArgs {
    /// Keeps each `--anchor` occurrence's settings apart.
    pub fn read_groups(&mut self, matches: &clap::ArgMatches) {
        if let Some(occurrences) = matches.get_occurrences::<String>("anchor") {
            self.anchor_groups = occurrences.map(|group| group.cloned().collect()).collect();
        }
    }
}

fn anchors(groups: &[Vec<String>]) -> Result<Vec<Player>, String> {
    groups
        .iter()
        .map(|group| {
            let mut elo = None;
            let mut rest = Vec::new();
            for item in group {
                match item.strip_prefix("elo=") {
                    Some(value) => {
                        elo = Some(
                            value
                                .parse::<f64>()
                                .map_err(|_| format!("--anchor: bad elo '{value}'"))?,
                        )
                    }
                    None => rest.push(item.clone()),
                }
            }
            Ok(Player {
                spec: engine_spec(&[], &rest)?,
                level: None,
                nominal: elo,
            })
        })
        .collect()
}

/// The round robin of `players` with the arguments' settings.
fn config(args: &LevelsArgs, players: &[Player]) -> Result<MatchConfig, String> {
    let time_control: TimeControl = args.tc.parse().map_err(|e| format!("--tc: {e}"))?;
    let variant = Variant::from(args.variant);
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    Ok(MatchConfig {
        engines: players.iter().map(|p| p.spec.clone()).collect(),
        pairing: if args.ladder {
            Pairing::Ladder
        } else {
            Pairing::RoundRobin
        },
        variant,
        games_per_encounter: args.games.max(1),
        concurrency: args.concurrency.clamp(1, 256),
        seed: args.seed,
        openings,
        settings: GameSettings {
            time_control,
            time_margin: Duration::ZERO,
            claim_draws: true,
            max_plies: None,
            resign: args.adjudication.resign()?,
            draw: args.adjudication.draw()?,
            hang_timeout: Duration::from_secs(60),
            ready_timeout: Duration::from_secs(10),
        },
        sprt: None,
        shard: None,
        pgn: args.pgn.clone(),
        results: None,
        event: "veil levels".to_string(),
        verbose: !args.quiet,
    })
}

/// Which player is pinned at what Elo.
fn pinned(args: &LevelsArgs, players: &[Player]) -> Result<(usize, f64), String> {
    if let Some(text) = &args.pin {
        let (name, elo) = text.split_once('=').ok_or("--pin: expected NAME=ELO")?;
        let elo: f64 = elo.parse().map_err(|_| format!("--pin: bad Elo '{elo}'"))?;
        let index = players
            .iter()
            .position(|p| p.spec.name == name)
            .ok_or_else(|| format!("--pin: no player named '{name}'"))?;
        return Ok((index, elo));
    }
    if let Some(index) = players.iter().position(|p| p.level.is_none() && p.nominal.is_some()) {
        return Ok((index, players[index].nominal.unwrap_or(0.0)));
    }
    Ok((4, players[4].nominal.unwrap_or(2000.0)))
}

fn load_table(path: &Option<PathBuf>) -> Result<LevelTable, String> {
    match path {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            LevelTable::parse(&text).map_err(|e| match e.detail() {
                Some(detail) => format!("{}: {e}: {detail}", path.display()),
                None => format!("{}: {e}", path.display()),
            })
        }
        None => Ok(LevelTable::default()),
    }
}

fn this_program() -> Result<String, String> {
    Ok(std::env::current_exe()
        .map_err(|e| format!("cannot find this program: {e}"))?
        .display()
        .to_string())
}

/// Runs `veil levels`; `Ok(true)` when it was stopped by hand and reported what finished.
fn run(args: &LevelsArgs) -> Result<bool, String> {
    let command = match &args.engine_cmd {
        Some(command) => command.clone(),
        None => this_program()?,
    };
    if args.profile || args.profile_from.is_some() {
        let table = load_table(&args.levels_file)?;
        return run_profile(args, &command, &table);
    }
    let anchors = anchors(&args.anchor_groups)?;
    if args.nearest_anchors && anchors.is_empty() {
        return Err("--nearest-anchors: give at least one --anchor with elo=".to_string());
    }
    let mut table = load_table(&args.levels_file)?;
    let mut levels_file = args.levels_file.clone();
    if args.tune {
        let targets: [f64; 5] = args
            .targets
            .clone()
            .try_into()
            .map_err(|_| "--targets: give five Elos, levels 1 to 5".to_string())?;
        let template = config(args, &[])?;
        let work = args.write.with_extension("probe.toml");
        crate::outln!(
            "Tuning levels {:?} to {targets:?} ({} games a probe, against {})",
            args.tune_levels,
            args.probe_games,
            if anchors.is_empty() {
                "the level above"
            } else {
                "the nearest anchor"
            }
        );
        let goal = tune::TuneGoal {
            targets,
            probe_games: args.probe_games,
            iterations: args.iterations,
            work_file: &work,
            anchors: &anchors,
            levels: &args.tune_levels,
            precision: args.precision,
            journal: args.journal.as_deref(),
        };
        let (tuned, levels) = tune::tune(&template, &command, &table, &goal, |probe| {
            crate::outln!(
                "probe{}: L{} nodes {} choice x{:.2} lapses {}% scored {:+.0} +/- {:.0} in {} games against {} (target {:+.0})",
                if probe.reused { " (journal)" } else { "" },
                probe.level,
                probe.nodes,
                probe.choice,
                probe.lapse_pct,
                probe.measured,
                probe.error,
                probe.games,
                probe.opponent,
                probe.target
            )
        })
        .map_err(|e| e.to_string())?;
        for level in &levels {
            crate::outln!(
                "tuned: L{} nodes {} choice x{:.2} lapses {}%, +/- {:.0} Elo at 95% (the fit of {} probes, {} games, {} of them from the journal)",
                level.level, level.nodes, level.choice, level.lapse_pct, level.error, level.probes, level.games, level.reused_games
            );
        }
        let _ = std::fs::remove_file(&work);
        std::fs::write(&args.write, tuned.to_toml()).map_err(|e| format!("{}: {e}", args.write.display()))?;
        crate::outln!("Wrote {}", args.write.display());
        table = tuned;
        levels_file = Some(args.write.clone());
        if args.games == 0 {
            return Ok(false);
        }
    }
    if args.nearest_anchors {
        return run_anchored(args, &command, &table, levels_file.as_deref(), &anchors);
    }
    let covered = matches!(args.variant, crate::arbiter::cli::VariantArg::Covered);
    let players = tune::level_players(&command, levels_file.as_deref(), &table, covered, &anchors);
    let pinned = pinned(args, &players)?;
    let config = config(args, &players)?;
    let calibration = calibrate::calibrate(&config, &players, pinned).map_err(|e| e.to_string())?;
    crate::out!("{}", calibrate::render(&calibration));
    if args.tune {
        for line in &calibration.lines {
            if let (Some(elo), Some(target)) = (line.elo, line.nominal) {
                crate::outln!("{}: {:+.0} from its target {target:.0}", line.name, elo - target);
            }
        }
    }
    let title = format!(
        "Veil levels, {} at {} ({} games)",
        calibration.variant, calibration.time_control, calibration.games
    );
    std::fs::write(&args.svg, calibrate::svg(&calibration, &title))
        .map_err(|e| format!("{}: {e}", args.svg.display()))?;
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&calibration).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(calibration.interrupted)
}

/// `veil levels --nearest-anchors`: levels 5 down to 1, each against its nearest anchors.
fn run_anchored(
    args: &LevelsArgs,
    command: &str,
    table: &LevelTable,
    levels_file: Option<&Path>,
    anchors: &[Player],
) -> Result<bool, String> {
    let covered = matches!(args.variant, crate::arbiter::cli::VariantArg::Covered);
    let mut measured: Vec<anchored::Performance> = Vec::new();
    let mut interrupted = false;
    for level in (1..=5u8).rev().filter(|l| args.anchored_levels.contains(l)) {
        let target = table.get(level).elo_in(covered);
        let above = measured.last().filter(|p| p.level == level + 1);
        let picks = anchored::nearest(anchors, target.unwrap_or(f64::INFINITY), above.is_some());
        let mut opponents: Vec<(EngineSpec, f64, f64)> = picks
            .iter()
            .map(|&i| (anchors[i].spec.clone(), anchors[i].nominal.unwrap_or(0.0), 0.0))
            .collect();
        if picks.len() < 2 {
            if let Some(above) = above {
                opponents.push((
                    tune::level_spec(command, level + 1, levels_file),
                    above.elo,
                    above.error,
                ));
            }
        }
        let me = tune::level_spec(command, level, levels_file);
        let mut results = Vec::new();
        for (number, (spec, elo, error)) in opponents.into_iter().enumerate() {
            let players = [
                Player {
                    spec: me.clone(),
                    level: Some(level),
                    nominal: target,
                },
                Player {
                    spec: spec.clone(),
                    level: None,
                    nominal: Some(elo),
                },
            ];
            let mut config = config(args, &players)?;
            config.seed = args.seed.wrapping_add(u64::from(level) * 100 + number as u64);
            config.pgn = args.pgn.as_deref().map(|path| {
                let file = level_path(path, level);
                let stem = file
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                file.with_file_name(format!("{stem}-{}.pgn", spec.name))
            });
            let (report, rows) = runner::run_games(&config).map_err(|e| e.to_string())?;
            interrupted = report.interrupted;
            let (games, points) = anchored::tally(&rows);
            crate::outln!("L{level} against {}: {points}/{games}", spec.name);
            results.push(anchored::Opponent {
                name: spec.name,
                elo,
                elo_error: error,
                games,
                points,
            });
            if interrupted {
                break;
            }
        }
        if results.iter().all(|r| r.games == 0) {
            break;
        }
        let performance = anchored::performance(level, target, results);
        crate::outln!(
            "L{level}: Elo {:.0} +/- {:.0} over {} games (target {})",
            performance.elo,
            performance.error,
            performance.games(),
            target.map_or("-".to_string(), |t| format!("{t:.0}"))
        );
        measured.push(performance);
        if interrupted {
            break;
        }
    }
    measured.reverse();
    if interrupted {
        crate::outln!("Interrupted: the table covers the games that finished before the stop (the last level measured may have played fewer)");
    }
    crate::outln!("| level | target | Elo | 95% | off target | games | score | opponents |");
    crate::outln!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for p in &measured {
        let against: Vec<String> = p
            .opponents
            .iter()
            .map(|o| format!("{} {}/{}", o.name, o.points, o.games))
            .collect();
        crate::outln!(
            "| {} | {} | {:.0} | ± {:.0} | {} | {} | {:.1}% | {} |",
            p.level,
            p.target.map_or("-".to_string(), |t| format!("{t:.0}")),
            p.elo,
            p.error,
            p.target.map_or("-".to_string(), |t| format!("{:+.0}", p.elo - t)),
            p.games(),
            100.0 * p.points() / p.games().max(1) as f64,
            against.join(", ")
        );
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&measured).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(interrupted)
}

/// The per-level file of `path`: `games.pgn` becomes `games-L3.pgn`.
fn level_path(path: &Path, level: u8) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(extension) => format!("{stem}-L{level}.{}", extension.to_string_lossy()),
        None => format!("{stem}-L{level}"),
    };
    path.with_file_name(name)
}

/// The judge of a profile: its engine spec and nodes per position.
fn judge_spec(args: &LevelsArgs) -> Result<(EngineSpec, u64), String> {
    let covered = matches!(args.variant, crate::arbiter::cli::VariantArg::Covered);
    let command = match (&args.judge_cmd, covered) {
        (Some(command), _) => command.clone(),
        (None, false) => "/usr/games/stockfish".to_string(),
        (None, true) => this_program()?,
    };
    let stockfish = !covered && command.contains("stockfish");
    let nodes = args.judge_nodes.unwrap_or(if stockfish { 200_000 } else { 400_000 });
    let options = if covered {
        vec![("UCI_Variant".to_string(), "covered".to_string())]
    } else {
        Vec::new()
    };
    let spec = EngineSpec {
        name: "judge".to_string(),
        command,
        args: Vec::new(),
        options,
    };
    Ok((spec, nodes))
}

/// `veil levels --profile`: each level plays itself through the arbiter, the judge scores
/// every move, and the figures are printed per level as they come, then as a table.
fn run_profile(args: &LevelsArgs, command: &str, table: &LevelTable) -> Result<bool, String> {
    let elos: Vec<Option<f64>> = match &args.profile_elos {
        Some(elos) if elos.len() == 5 => elos.iter().map(|&e| Some(e)).collect(),
        Some(_) => return Err("--profile-elos: give five Elos, levels 1 to 5".to_string()),
        None => {
            let covered = matches!(args.variant, crate::arbiter::cli::VariantArg::Covered);
            table.levels.iter().map(|l| l.elo_in(covered)).collect()
        }
    };
    if let Some(bad) = args.profile_levels.iter().find(|l| !(1..=5).contains(*l)) {
        return Err(format!("--profile-levels: no level {bad} (levels are 1 to 5)"));
    }
    if let (Some(path), false) = (&args.profile_from, args.replay_tables.is_empty()) {
        return run_replay(args, command, path);
    }
    if let Some(path) = &args.profile_from {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let profiles = move_log::read(std::io::BufReader::new(file), &args.profile_levels, &elos)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        crate::out!("{}", profile::render(&profiles));
        return write_profile_json(args, &profiles, None, false).map(|()| false);
    }
    let (judge_spec, judge_nodes) = judge_spec(args)?;
    let mut judge =
        Judge::start(&judge_spec, judge_nodes, JUDGE_TIMEOUT).map_err(|e| format!("{e} ({})", judge_spec.command))?;
    crate::outln!(
        "Profile: {} games a level at {} ({}), judge {} at {judge_nodes} nodes a position",
        args.games.max(1),
        args.tc,
        match args.variant {
            crate::arbiter::cli::VariantArg::Covered => "covered",
            crate::arbiter::cli::VariantArg::Chess => "chess",
        },
        judge_spec.command
    );
    let mut moves_log = match &args.profile_moves {
        Some(path) => Some(BufWriter::new(
            File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => None,
    };
    let mut profiles = Vec::new();
    let mut interrupted = false;
    for &level in &args.profile_levels {
        let started = Instant::now();
        // The level against itself; the two seats draw their choices from different seeds, so
        // the colour-swapped games of a pair differ.
        let seat = |seed: u64| {
            let mut spec = tune::level_spec(command, level, args.levels_file.as_deref());
            spec.options
                .push(("Seed".to_string(), (seed & 0x7fff_ffff).to_string()));
            spec
        };
        let players: Vec<Player> = [args.seed.wrapping_mul(2), args.seed.wrapping_mul(2).wrapping_add(1)]
            .iter()
            .map(|&seed| Player {
                spec: seat(seed),
                level: Some(level),
                nominal: None,
            })
            .collect();
        let mut config = config(args, &players)?;
        config.pgn = args.pgn.as_deref().map(|path| level_path(path, level));
        config.event = "veil levels --profile".to_string();
        let (report, records) = runner::run_records(&config).map_err(|e| e.to_string())?;
        // Stopped by hand: the games that finished are judged (a second signal ends the
        // process at once), and no further level is played.
        interrupted = report.interrupted;
        let played = started.elapsed();
        let mut profile = LevelProfile::new(level, elos[usize::from(level) - 1]);
        for (number, record) in records.iter().enumerate() {
            let judging = Instant::now();
            match judge::judge_game(&mut judge, record, |_| true) {
                Ok(judged) => {
                    if let Some(log) = moves_log.as_mut() {
                        move_log::write(log, level, record, &judged).map_err(|e| format!("--profile-moves: {e}"))?;
                    }
                    let moves: Vec<_> = judged.iter().map(|j| j.loss).collect();
                    if !args.quiet {
                        let mut game = LevelProfile::new(level, None);
                        game.add_game(&moves, 2);
                        crate::outln!(
                            "L{level}: judged game {}/{}: {} moves, ACPL {:.1}, blunders {}, howlers {} ({:.0} s)",
                            number + 1,
                            records.len(),
                            moves.len(),
                            game.all.acpl().unwrap_or(0.0),
                            game.all.blunders,
                            game.all.howlers,
                            judging.elapsed().as_secs_f64()
                        );
                    }
                    profile.add_game(&moves, 2);
                }
                Err(error) => {
                    eprintln!("L{level}: a game was left out: {error}");
                    profile.skipped_games += 1;
                }
            }
        }
        let s = profile.summary();
        crate::outln!(
            "L{level}: {} games ({} played in {:.0} s, judged in {:.0} s), {} moves, ACPL {} ({} until decided), blunders/game {}, howlers {}",
            s.games,
            records.len(),
            played.as_secs_f64(),
            (started.elapsed() - played).as_secs_f64(),
            s.moves,
            s.acpl.map_or("-".to_string(), |a| format!("{a:.1}")),
            s.acpl_undecided.map_or("-".to_string(), |a| format!("{a:.1}")),
            s.blunders_per_game.map_or("-".to_string(), |b| format!("{b:.2}")),
            s.howlers
        );
        profiles.push(profile);
        if interrupted {
            break;
        }
    }
    crate::outln!();
    crate::out!("{}", profile::render(&profiles));
    if interrupted {
        crate::outln!("Interrupted: the profile covers the games that finished before the stop");
    }
    write_profile_json(args, &profiles, Some((&judge_spec.command, judge_nodes)), interrupted)?;
    Ok(interrupted)
}

/// `veil levels --profile-from LOG --replay-tables ...`: each level's positions of the log
/// played again under every table and judged ([`replay_tables`]).
fn run_replay(args: &LevelsArgs, command: &str, path: &Path) -> Result<bool, String> {
    let control: TimeControl = args.tc.parse().map_err(|e| format!("--tc: {e}"))?;
    let covered = matches!(args.variant, crate::arbiter::cli::VariantArg::Covered);
    let (judge_spec, judge_nodes) = judge_spec(args)?;
    let mut judge =
        Judge::start(&judge_spec, judge_nodes, JUDGE_TIMEOUT).map_err(|e| format!("{e} ({})", judge_spec.command))?;
    let mut log = match &args.profile_moves {
        Some(out) => Some(BufWriter::new(
            File::create(out).map_err(|e| format!("{}: {e}", out.display()))?,
        )),
        None => None,
    };
    let mut results = Vec::new();
    for &level in &args.profile_levels {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let replay_tables::LogSample {
            positions,
            player_games,
            moves,
        } = replay_tables::read_positions(std::io::BufReader::new(file), &[level], args.replay_every, args.seed)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if positions.is_empty() {
            continue;
        }
        let mut players = replay_tables::start_players(command, level, &args.replay_tables, covered)?;
        crate::outln!(
            "L{level}: {} positions of {} ({player_games} player-games), judge {} at {judge_nodes} nodes a position",
            positions.len(),
            path.display(),
            judge_spec.command
        );
        let started = Instant::now();
        let figures = replay_tables::replay(
            &positions,
            &mut players,
            &mut judge,
            &replay_tables::first_go(control),
            log.as_mut().map(|log| log as &mut dyn std::io::Write),
            |done, figures| {
                if !args.quiet && done % 50 == 0 {
                    let blunders: Vec<String> = figures.iter().map(|f| f.blunders.to_string()).collect();
                    crate::outln!(
                        "L{level}: {done}/{} positions, blunders {}",
                        positions.len(),
                        blunders.join(" / ")
                    );
                }
            },
        )?;
        crate::outln!("L{level}: replayed in {:.0} s", started.elapsed().as_secs_f64());
        crate::out!(
            "{}",
            replay_tables::render(&figures, moves as f64 / player_games.max(1) as f64)
        );
        results.push(serde_json::json!({ "level": level, "positions": positions.len(), "player_games": player_games, "tables": figures }));
    }
    if let Some(out) = &args.json {
        let report = serde_json::json!({
            "move_log": path.display().to_string(),
            "every": args.replay_every.max(1),
            "time_control": args.tc,
            "seed": args.seed,
            "judge": judge_spec.command,
            "judge_nodes": judge_nodes,
            "levels": results,
        });
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(out, text + "\n").map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(crate::arbiter::interrupt::requested())
}

/// Writes the profiles as JSON to `--json`, if given, with the judge that scored them when
/// it is known.
fn write_profile_json(
    args: &LevelsArgs,
    profiles: &[LevelProfile],
    judge: Option<(&str, u64)>,
    interrupted: bool,
) -> Result<(), String> {
    if let Some(path) = &args.json {
        let summaries: Vec<_> = profiles.iter().map(|p| p.summary()).collect();
        let report = serde_json::json!({
            "variant": match args.variant {
                crate::arbiter::cli::VariantArg::Covered => "covered",
                crate::arbiter::cli::VariantArg::Chess => "chess",
            },
            // Played here, or read from a move log (whose games' settings it does not keep).
            "time_control": judge.map(|_| &args.tc),
            "games_per_level": judge.map(|_| args.games.max(1)),
            "seed": judge.map(|_| args.seed),
            "move_log": args.profile_from.as_ref().map(|path| path.display().to_string()),
            "judge": judge.map(|(command, _)| command),
            "judge_nodes": judge.map(|(_, nodes)| nodes),
            "interrupted": interrupted,
            "levels": summaries,
            "tallies": profiles,
            "human": profile::HUMAN,
        });
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// How long the judge may take over one position.
const JUDGE_TIMEOUT: Duration = Duration::from_secs(300);

/// Runs `veil levels`.
pub fn run_levels(args: &LevelsArgs) -> ExitCode {
    crate::arbiter::interrupt::install();
    match run(args) {
        Ok(false) => ExitCode::SUCCESS,
        Ok(true) => ExitCode::from(130),
        Err(error) if crate::arbiter::interrupt::requested() => {
            eprintln!("Interrupted: {error}");
            ExitCode::from(130)
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
