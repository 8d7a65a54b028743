//! `veil`: the protocol loop (no subcommand), `veil match`, `veil merge`, `veil replay`,
//! `veil perft`, `veil bench`, `veil levels`, `veil tune`, `veil datagen`, `veil train`.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;
use veil::rules::{Position, COVERED_START_FEN};
use veil::tools::perft as perft_tool;

#[derive(Parser)]
#[command(name = "veil", version, about = "A game engine for covered chess")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    limits: OperatorArgs,
}

/// Limits for running the protocol loop behind a server that forwards untrusted clients'
/// lines (protocol.md, "Running behind a server"). A flag beats its environment variable.
#[derive(clap::Args)]
struct OperatorArgs {
    /// Largest hash table a client may ask for, in MiB (`Hash`, and each level's own size).
    #[arg(long, env = "VEIL_MAX_HASH", value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..))]
    max_hash: Option<u64>,
    /// Most search threads a client may ask for (`Threads`).
    #[arg(long, env = "VEIL_MAX_THREADS", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    max_threads: Option<u64>,
    /// Leave out the options that name a file (`LevelsFile`): not declared, and refused.
    /// (The variable takes 1/0, true/false, yes/no or on/off.)
    #[arg(long, env = "VEIL_NO_FILE_OPTIONS", value_parser = clap::builder::BoolishValueParser::new())]
    no_file_options: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Plays engines against each other (covered chess or plain chess) and reports Elo: the
    /// arbiter draws every reveal, keeps the clocks and adjudicates. Ctrl-C or SIGTERM stops
    /// it with the report of the games that finished (exit status 130); a second one at once.
    Match(Box<veil::arbiter::cli::MatchArgs>),
    /// Calibrates the five strength levels in a round robin (optionally against anchor
    /// engines) and fits their Elos; with --tune, first tunes them to target Elos. Ctrl-C or
    /// SIGTERM stops it with what finished (exit status 130; a tune writes no table).
    Levels(Box<veil::levels::cli::LevelsArgs>),
    /// Fits the evaluation's weights to the results of played games (Texel tuning) and
    /// writes them as Rust source (`src/search/weights/values.rs`).
    Tune(Box<veil::training::cli::TuneArgs>),
    /// Plays self-play games at a fixed node count per move and writes quiet positions with
    /// their search scores and game results, for training the network. Ctrl-C or SIGTERM
    /// stops it: no new game starts and the games in progress are written when they end; a
    /// second one stops it at once. A shell's background job ignores Ctrl-C: send SIGTERM.
    Datagen(Box<veil::training::datagen_cli::DatagenArgs>),
    /// Trains the evaluation network on `veil datagen` records (or fine-tunes one) and
    /// writes a network file.
    Train(Box<veil::training::train_cli::TrainArgs>),
    /// Combines the results files of a match's shards into one report.
    Merge(veil::arbiter::cli::MergeArgs),
    /// Searches a fixed set of positions to a fixed depth and prints the node count (the
    /// signature of the search).
    Bench {
        #[arg(default_value_t = veil::search::bench::BENCH_DEPTH,
              value_parser = clap::value_parser!(u32).range(1..=i64::from(veil::search::MAX_DEPTH)))]
        depth: u32,
        /// The evaluation to search with (default: the engine's).
        #[arg(long, value_enum)]
        eval: Option<EvalChoice>,
        /// Search with this network file instead, in both variants (as `EvalFile` with
        /// `NNUEPlainChess` would), so its node count differs from the default's.
        #[arg(long, conflicts_with = "eval")]
        eval_file: Option<std::path::PathBuf>,
        /// Search only the bench positions of one variant (a speed comparison; the
        /// signature is the count over all of them).
        #[arg(long, value_enum)]
        positions: Option<veil::arbiter::cli::VariantArg>,
    },
    /// Counts leaves of the move tree (reveals branch once per role the pool holds).
    Perft {
        /// Extended FEN of the root (default: the covered start position).
        #[arg(long, default_value = COVERED_START_FEN)]
        fen: String,
        /// Depth in plies (at most that of `go perft`).
        #[arg(long, default_value_t = 4,
              value_parser = clap::value_parser!(u32).range(0..=i64::from(veil::protocol::limits::MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Run an EPD suite (`<fen> ;D1 n ;D2 n ...`) instead, reporting every mismatch.
        #[arg(long)]
        suite: Option<String>,
        /// With --suite: skip depths whose expected count is above this.
        #[arg(long, default_value_t = u64::MAX)]
        max_nodes: u64,
    },
    /// Reads a PGN file and checks every game against the rules: legal moves and reveals, no
    /// end passed over, an ending that fits the final position. Exit status 0 when every game
    /// verifies, 1 when one does not, 2 when the file cannot be read as PGN.
    Replay {
        /// The PGN file.
        file: std::path::PathBuf,
    },
}

/// `veil bench --eval`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum EvalChoice {
    /// The embedded networks: the covered-chess network in covered chess, the plain-chess
    /// network in plain chess.
    Network,
    /// The hand-written terms.
    HandWritten,
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    match (&mut cli.command, matches.subcommand()) {
        (Some(Command::Match(args)), Some(("match", sub))) => args.read_groups(sub),
        (Some(Command::Levels(args)), Some(("levels", sub))) => args.read_groups(sub),
        _ => {}
    }
    if matches!(
        cli.command,
        Some(Command::Bench { .. } | Command::Perft { .. } | Command::Replay { .. })
    ) {
        quiet_on_closed_pipe();
    }
    match cli.command {
        None => {
            veil::protocol::run_stdio(veil::protocol::options::OperatorLimits {
                max_hash_mb: cli.limits.max_hash,
                max_threads: cli.limits.max_threads,
                no_file_options: cli.limits.no_file_options,
            });
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => veil::arbiter::cli::run_match(&args),
        Some(Command::Merge(args)) => veil::arbiter::cli::run_merge(&args),
        Some(Command::Levels(args)) => veil::levels::cli::run_levels(&args),
        Some(Command::Tune(args)) => veil::training::cli::run_tune(&args),
        Some(Command::Datagen(args)) => veil::training::datagen_cli::run_datagen(&args),
        Some(Command::Train(args)) => veil::training::train_cli::run_train(&args),
        Some(Command::Bench {
            depth,
            eval,
            eval_file,
            positions,
        }) => {
            let evaluator = match (eval, eval_file) {
                (_, Some(path)) => {
                    let network = std::fs::read(&path)
                        .map_err(|e| e.to_string())
                        .and_then(|bytes| veil::nnue::Network::from_bytes(&bytes).map_err(|e| e.to_string()));
                    match network {
                        Ok(network) => veil::search::Evaluator::everywhere(std::sync::Arc::new(network)),
                        Err(error) => {
                            eprintln!("error: {}: {error}", path.display());
                            return ExitCode::from(2);
                        }
                    }
                }
                (None, None) => veil::search::Evaluator::standard(),
                (Some(EvalChoice::Network), None) => veil::search::Evaluator::embedded(),
                (Some(EvalChoice::HandWritten), None) => veil::search::Evaluator::HandWritten,
            };
            let only = positions.map(veil::rules::Variant::from);
            let (nodes, elapsed) = veil::search::bench::bench_with(depth, &evaluator, only);
            let millis = elapsed.as_millis().max(1);
            println!("Nodes searched: {nodes}");
            println!("Nodes/second: {}", nodes as u128 * 1000 / millis);
            ExitCode::SUCCESS
        }
        Some(Command::Replay { file }) => {
            let code = veil::arbiter::replay::run(&file, &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
            ExitCode::from(code)
        }
        Some(Command::Perft {
            fen,
            depth,
            suite,
            max_nodes,
        }) => match suite {
            Some(path) => run_suite(&path, max_nodes),
            None => match Position::from_fen(&fen) {
                Ok(position) => {
                    let stdout = std::io::stdout();
                    let _ = perft_tool::run_divide(&position, depth, &mut stdout.lock());
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("error: invalid FEN: {error}");
                    ExitCode::from(2)
                }
            },
        },
    }
}

/// A report command whose reader stops early (`veil bench | head -1`) ends quietly, as
/// Unix tools do, instead of panicking on the closed pipe: the default action of SIGPIPE,
/// which the Rust runtime sets to ignore. Commands that write files (`match`, `merge`,
/// `levels`) print through [`veil::outln!`] instead, which drops what a closed stdout
/// refuses, so their files are written whatever the reader does.
fn quiet_on_closed_pipe() {
    // SAFETY: `signal` with `SIG_DFL` installs no handler and takes no pointer.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn run_suite(path: &str, max_nodes: u64) -> ExitCode {
    let entries = match perft_tool::read_suite(path) {
        Ok(entries) => entries,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let report = perft_tool::run_suite(&entries, max_nodes, |message| println!("MISMATCH {message}"));
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "{} positions, {} counts checked, {} skipped (over {max_nodes} nodes), {} mismatches, {} leaves in {:.1} s ({:.0} leaves/s)",
        entries.len(),
        report.checked,
        report.skipped,
        report.mismatches.len(),
        report.nodes,
        elapsed,
        report.nodes as f64 / elapsed.max(1e-9)
    );
    if report.mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
