//! `veil train`: fits the network to `veil datagen` records and writes a network file.

use super::format::{for_each_record, Record};
use super::mirror::mirrored;
use super::teacher::taught;
use super::trainer::{loss, train, Decay, FloatNetwork, Sample, Schedule};
use crate::nnue::network::HIDDEN;
use crate::nnue::{default_network, Base, Network};
use crate::search::eval::base_score;
use clap::{Args, ValueEnum};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// `veil train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Record files written by `veil datagen`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Where the network goes.
    #[arg(long)]
    out: PathBuf,
    /// Start from this network (fine-tuning) instead of random weights.
    #[arg(long)]
    init: Option<PathBuf>,
    /// The generation written in the file's header (default: the initial network's plus
    /// one, or 1).
    #[arg(long)]
    generation: Option<u32>,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions a step: Adam takes one step a batch, so an epoch of N positions is N / batch
    /// steps.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's step size at the first epoch.
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// Where the step size's cosine falls to, as a share of the first: by `--decay epoch`,
    /// epoch e of E runs at the cosine's point (e − 1) / E, so a one-epoch run keeps the full
    /// rate; by `--decay step`, the last step runs at this share.
    #[arg(long, default_value_t = 0.1)]
    final_rate: f32,
    /// What the step size's cosine counts: epochs, or Adam steps (the rate then falls within
    /// an epoch too, as a fine-tune of one or two epochs of small batches needs).
    #[arg(long, value_enum, default_value_t = DecayChoice::Epoch)]
    decay: DecayChoice,
    /// Share of the game's result in each target; the rest is the search score.
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Centipawns per logistic unit of winning chances in plain-chess positions, for the
    /// search scores and the predictions alike (`veil tune` fits about 190 for the
    /// hand-written evaluation).
    #[arg(long, default_value_t = 190.0)]
    wdl_scale: f32,
    /// The same for covered-chess positions (a covered piece on the board or a pool left).
    #[arg(long, default_value_t = 400.0)]
    covered_wdl_scale: f32,
    /// Share of each file's records, from its end, held out to check the fit.
    #[arg(long, default_value_t = 0.05)]
    held_out: f64,
    /// Record files held out whole, besides the share of each `--data` file: positions of
    /// games the training never saw a move of, from other openings or another run, so that the
    /// held-out loss cannot be won by learning how the training games' openings ended.
    #[arg(long, num_args = 1..)]
    held_out_data: Vec<PathBuf>,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// What the network is added to: nothing (it is the whole evaluation), the
    /// hand-written evaluation or its material part alone (it learns a correction to it).
    /// Default: the initial network's, or none. A correction from random weights, and a whole
    /// network fine-tuned as a correction, start with the output layer at zero (the base
    /// alone); the latter keeps its feature layer. A correction to one base
    /// fine-tuned as a correction to another keeps both layers.
    #[arg(long, value_enum)]
    base: Option<BaseChoice>,
    /// Also train on each training position mirrored left to right, where that is the same
    /// game (no castling rights left, no covered piece on d1 or d8). Held-out positions are
    /// not mirrored.
    #[arg(long)]
    mirror: bool,
    /// Give the network an output layer for each bucket of four pieces on the board (8 in
    /// all), each starting as a copy of its one layer, so that it evaluates as before and each
    /// part of the game can then learn its own weights. A network that has them keeps them.
    #[arg(long)]
    output_buckets: bool,
    /// Learn a network's static evaluation instead of each record's search score: the score
    /// part of every target is this network's evaluation of the position (its base's and
    /// its own, as the search adds them), `embedded` for the default network. With `--base
    /// none` and `--lambda 0` this distils a correction, which costs both evaluations at
    /// every node, into a whole network, which costs one.
    #[arg(long)]
    teacher: Option<String>,
}

/// `--decay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DecayChoice {
    Epoch,
    Step,
}

/// `--base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BaseChoice {
    None,
    HandWritten,
    Material,
}

fn run(args: &TrainArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    for scale in [args.wdl_scale, args.covered_wdl_scale] {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(format!("a WDL scale of {scale} is not a positive number"));
        }
    }
    if !(0.0..1.0).contains(&args.held_out) {
        return Err(format!("--held-out {} is not in [0, 1)", args.held_out));
    }
    let initial = match &args.init {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let teacher = match args.teacher.as_deref() {
        None => None,
        Some("embedded") => Some(default_network()),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            Some(Arc::new(
                Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?,
            ))
        }
    };
    let base = match args.base {
        Some(BaseChoice::None) => Base::Nothing,
        Some(BaseChoice::HandWritten) => Base::HandWritten,
        Some(BaseChoice::Material) => Base::Material,
        None => initial.as_ref().map_or(Base::Nothing, |network| network.base),
    };
    let started = Instant::now();
    let mut train_set = Vec::new();
    let mut held_out = Vec::new();
    let sample = |record: &Record| match &teacher {
        Some(teacher) => sample_of(&taught(record, teacher), args, base),
        None => sample_of(record, args, base),
    };
    for path in &args.data {
        let records = read_records(path)?;
        let keep = records.len() - (records.len() as f64 * args.held_out) as usize;
        for (i, record) in records.iter().enumerate() {
            let mirror = (args.mirror && i < keep)
                .then(|| mirrored(&record.position))
                .flatten()
                .map(|position| Record { position, ..*record });
            for record in std::iter::once(record).chain(mirror.as_ref()) {
                if i < keep {
                    train_set.push(sample(record));
                } else {
                    held_out.push(sample(record));
                }
            }
        }
    }
    for path in &args.held_out_data {
        held_out.extend(read_records(path)?.iter().map(sample));
    }
    crate::outln!(
        "{} training and {} held-out positions read in {:.1} s",
        train_set.len(),
        held_out.len(),
        started.elapsed().as_secs_f64()
    );
    if train_set.is_empty() {
        return Err("no training positions".to_string());
    }
    let network = match &initial {
        Some(network) => {
            if network.width < HIDDEN {
                crate::outln!(
                    "widening the initial network from {} to {HIDDEN} hidden units (the new ones start with no output)",
                    network.width
                );
            }
            FloatNetwork::from_quantised(network, args.seed)
        }
        None => FloatNetwork::random(args.seed, base),
    };
    let mut network = network.correcting(base);
    if args.output_buckets {
        network = network.bucketed();
    }
    let generation = args
        .generation
        .unwrap_or_else(|| initial.as_ref().map_or(1, |network| network.generation + 1));
    crate::outln!("held-out loss before: {:.6}", loss(&network, &held_out));
    let schedule = Schedule {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        final_rate_share: args.final_rate,
        decay: match args.decay {
            DecayChoice::Epoch => Decay::ByEpoch,
            DecayChoice::Step => Decay::ByStep,
        },
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seed: args.seed,
    };
    let steps = schedule.steps_an_epoch(train_set.len());
    crate::outln!(
        "{steps} steps an epoch (batches of {}), {} in all",
        args.batch.max(1),
        steps * args.epochs
    );
    train(&mut network, &train_set, &held_out, &schedule, |epoch| {
        crate::outln!(
            "epoch {:3}  train {:.6}  held-out {:.6}  {:.1} s",
            epoch.epoch,
            epoch.train_loss,
            epoch.held_out_loss,
            epoch.seconds
        );
    });
    // Kept within the file's 56 bytes: "gen 9+hw b8: 331245 pos, 2x1024/step, λ0.5 K190/400".
    let description = format!(
        "gen {generation}{}{}: {} pos, {}x{}{}, λ{} K{}/{}",
        match base {
            Base::Nothing => "",
            Base::HandWritten => "+hw",
            Base::Material => "+mat",
        },
        if network.buckets() > 1 {
            format!(" b{}", network.buckets())
        } else {
            String::new()
        },
        train_set.len() + held_out.len(),
        args.epochs,
        args.batch.max(1),
        if args.decay == DecayChoice::Step { "/step" } else { "" },
        args.lambda,
        args.wdl_scale,
        args.covered_wdl_scale
    );
    let quantised = network.quantise(generation, &description);
    std::fs::write(&args.out, quantised.to_bytes()).map_err(|e| format!("{}: {e}", args.out.display()))?;
    crate::outln!(
        "wrote {} ({description}) in {:.1} min",
        args.out.display(),
        started.elapsed().as_secs_f64() / 60.0
    );
    // The epochs' figures are the float network's; the file's weights are rounded to
    // 1/255 and 1/64, which can undo a fine-tune of small steps altogether.
    let written = FloatNetwork::from_quantised(&quantised, args.seed);
    crate::outln!(
        "held-out loss of the network written (its weights rounded): {:.6}",
        loss(&written, &held_out)
    );
    if let Some((changed, all)) = initial
        .as_ref()
        .and_then(|initial| weights_changed(initial, &quantised))
    {
        crate::outln!("{changed} of {all} weights differ from the initial network's");
    }
    Ok(())
}

/// How many of the weights and biases of `after` differ from those of `before`, and how
/// many there are; `None` where the two differ in shape (widened, or given output layers).
fn weights_changed(before: &Network, after: &Network) -> Option<(usize, usize)> {
    if before.width != after.width || before.outputs.len() != after.outputs.len() {
        return None;
    }
    let features = before
        .feature_weights
        .iter()
        .flatten()
        .zip(after.feature_weights.iter().flatten());
    let biases = before.feature_bias.iter().zip(&after.feature_bias);
    let outputs = before.outputs.iter().zip(&after.outputs);
    let output_weights = outputs
        .clone()
        .flat_map(|(a, b)| a.weights.iter().flatten().zip(b.weights.iter().flatten()));
    let mut changed = 0;
    let mut all = 0;
    for (a, b) in features.chain(biases).chain(output_weights) {
        changed += usize::from(a != b);
        all += 1;
    }
    for (a, b) in outputs {
        changed += usize::from(a.bias != b.bias);
        all += 1;
    }
    Some((changed, all))
}

/// Every record of the file at `path`.
fn read_records(path: &Path) -> Result<Vec<Record>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut records = Vec::new();
    for_each_record(&mut BufReader::new(file), |record| records.push(record))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(records)
}

/// The training sample of `record`, for a network added to `base`.
fn sample_of(record: &Record, args: &TrainArgs, base: Base) -> Sample {
    let scale = if !record.position.is_plain_chess() {
        args.covered_wdl_scale
    } else {
        args.wdl_scale
    };
    let base_cp = base_score(base, &record.position, false);
    Sample::from_record(record, args.lambda, scale, base_cp)
}

/// Runs `veil train`; exit status 2 on bad arguments, unreadable data or a write error.
pub fn run_train(args: &TrainArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
