//! `veil tune`: fit the evaluation's linear weights to the results of played games and write
//! them as `src/search/weights/values.rs`.

use super::data::{samples_from_pgn, Sample, Selection};
use super::texel::{fit, fit_k, Dataset, Schedule};
use crate::search::weights::{self, param, S};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `veil tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// PGN files of played games (`veil match --pgn`), covered and plain chess.
    #[arg(long, required = true, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// Where the fitted weights are written (Rust source).
    #[arg(long, default_value = "src/search/weights/values.rs")]
    out: PathBuf,
    /// Report the fit without writing anything.
    #[arg(long)]
    dry_run: bool,
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Plies skipped at the start of every game.
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
    /// Take every n-th position of a game.
    #[arg(long, default_value_t = 1)]
    stride: usize,
    /// Every n-th game is held out to check the fit (0: none).
    #[arg(long, default_value_t = 10)]
    holdout_every: usize,
    /// Weights seen in fewer training positions than this keep their values.
    #[arg(long, default_value_t = 200)]
    min_positions: usize,
    /// Penalty per squared centipawn a weight moves from its present value.
    #[arg(long, default_value_t = 1e-6)]
    l2: f64,
    /// Share of the game's result in each position's target; the rest is the playing engine's
    /// search score of the position, where the PGN comment gives one (1: results only).
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Blocks of weights that keep their values (names as in `values.rs`, such as PST).
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
}

fn run(args: &TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    let selection = Selection {
        skip_plies: args.skip_plies,
        stride: args.stride,
    };
    let mut samples: Vec<Sample> = Vec::new();
    let mut games = 0;
    for path in &args.pgn {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (found, read, skipped) = samples_from_pgn(&text, selection, games);
        crate::outln!(
            "{}: {read} games ({skipped} skipped), {} positions",
            path.display(),
            found.len()
        );
        games += read;
        samples.extend(found);
    }
    let held = |s: &Sample| args.holdout_every > 0 && s.game % args.holdout_every == args.holdout_every - 1;
    let (test, train): (Vec<Sample>, Vec<Sample>) = samples.into_iter().partition(held);
    if train.is_empty() {
        return Err("no training positions".to_string());
    }
    let mut train = Dataset::new(&train);
    let mut test = Dataset::new(&test);
    let start: Vec<(f64, f64)> = weights::current().iter().map(|s| (s.0 as f64, s.1 as f64)).collect();
    let seen = train.occurrences(param::COUNT);
    let mut frozen: Vec<bool> = seen.iter().map(|&n| n < args.min_positions).collect();
    // The king's material never counts.
    frozen[param::MATERIAL + 5] = true;
    for name in &args.freeze {
        let block = weights::BLOCKS
            .iter()
            .find(|b| b.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("--freeze: no block named '{name}'"))?;
        frozen[block.at..block.at + block.shape.size()].fill(true);
    }
    let free = frozen.iter().filter(|f| !**f).count();
    let k = fit_k(&train, &start);
    train.blend(k, args.lambda);
    test.blend(k, args.lambda);
    let before = (train.loss(&start, k), test.loss(&start, k));
    crate::outln!(
        "{} training positions ({} with a search score), {} held out; k = {k:.6}; lambda {}; {free} of {} weights free",
        train.len(),
        train.searched(),
        test.len(),
        args.lambda,
        param::COUNT
    );
    crate::outln!("loss before: training {:.6}, held out {:.6}", before.0, before.1);
    let schedule = Schedule {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
    };
    let fitted = fit(&train, &start, &frozen, k, schedule, |epoch, loss| {
        if epoch % 500 == 0 {
            crate::outln!("epoch {epoch}: training loss {loss:.6}");
        }
    });
    let rounded: Vec<S> = fitted
        .iter()
        .map(|&(m, e)| S(m.round() as i32, e.round() as i32))
        .collect();
    let rounded_f: Vec<(f64, f64)> = rounded.iter().map(|s| (s.0 as f64, s.1 as f64)).collect();
    let after = (train.loss(&rounded_f, k), test.loss(&rounded_f, k));
    crate::outln!("loss after:  training {:.6}, held out {:.6}", after.0, after.1);
    if args.dry_run {
        return Ok(());
    }
    let files: Vec<String> = args
        .pgn
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().to_string())
        })
        .collect();
    let origin = format!(
        "Fitted by `veil tune` to {} positions of {games} games ({}), k = {k:.6}, lambda {},\n{} epochs at rate {}, l2 {}: mean squared error {:.5} -> {:.5} (held-out games: {:.5} -> {:.5}).",
        train.len(),
        files.join(", "),
        args.lambda,
        args.epochs,
        args.rate,
        args.l2,
        before.0,
        after.0,
        before.1,
        after.1
    );
    std::fs::write(&args.out, weights::source(&rounded, &origin))
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    crate::outln!("wrote {}", args.out.display());
    Ok(())
}

/// Runs `veil tune`.
pub fn run_tune(args: &TuneArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
