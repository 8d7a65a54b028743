//! `veil datagen`: the command line of [`super::datagen`].

use super::datagen::{self, Settings, VariantChoice};
use crate::arbiter::cli::read_openings;
use crate::arbiter::interrupt;
use crate::arbiter::schedule::Shard;
use crate::nnue::{default_network, Network};
use crate::search::Evaluator;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// `veil datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Where the records go (32 bytes each; see `src/training/format.rs`).
    #[arg(long)]
    out: PathBuf,
    /// Which game to play.
    #[arg(long, value_enum, default_value_t = VariantChoice::Both)]
    variant: VariantChoice,
    /// Games in all (over every shard).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Games played at once, one per thread.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Fixes every random choice: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the games of shard `i/n` (0-based): the games of a seed split over machines
    /// or jobs, whose files concatenate.
    #[arg(long)]
    shard: Option<String>,
    /// Uniformly random plies at the start of every game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Plain-chess start positions, one FEN or EPD a line (random plies follow them).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Add to the file instead of replacing it: continue a run with another seed, or with
    /// the same seed and `--first-game`.
    #[arg(long)]
    append: bool,
    /// Skip the first N games of the seed (of the shard, with `--shard`): with `--append`,
    /// continues a run that was stopped by hand after N games (its last line says how many;
    /// a run stopped by Ctrl-C or SIGTERM has written exactly its first N games).
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    /// Play with this network (a `veil train` file), so that a generation's data comes from
    /// the generation before; `embedded` for the embedded one. Default: the engine's default
    /// evaluation.
    #[arg(long)]
    network: Option<PathBuf>,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

/// Runs `veil datagen`; `Ok(true)` when it was stopped by hand.
fn run(args: &DatagenArgs) -> Result<bool, String> {
    let shard = args.shard.as_deref().map(str::parse::<Shard>).transpose()?;
    let book = match &args.book {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    if args.out.exists() && !args.append {
        return Err(format!(
            "{} exists: pass --append to add to it, or name another file",
            args.out.display()
        ));
    }
    let evaluator = match &args.network {
        None => Evaluator::standard(),
        Some(path) if path.as_os_str() == "embedded" => Evaluator::everywhere(default_network()),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let network = Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            Evaluator::everywhere(Arc::new(network))
        }
    };
    let settings = Settings {
        variant: args.variant,
        games: args.games,
        nodes: args.nodes.max(1),
        threads: args.threads.clamp(1, 256),
        seed: args.seed,
        shard,
        first_game: args.first_game,
        random_plies: args.random_plies,
        book,
        hash_mb: args.hash.clamp(1, 4096),
        evaluator,
    };
    interrupt::install();
    let summary =
        datagen::run(&settings, &args.out, args.append).map_err(|e| format!("{}: {e}", args.out.display()))?;
    crate::outln!(
        "{} games ({} dropped), {} positions written to {}{}",
        summary.games,
        summary.dropped_games,
        summary.positions,
        args.out.display(),
        if summary.interrupted {
            format!(
                " (stopped by hand: the games in progress finished and were written; \
                 --append --first-game {} continues the run)",
                args.first_game + summary.games
            )
        } else {
            String::new()
        }
    );
    Ok(summary.interrupted)
}

/// Runs `veil datagen`; exit status 2 on bad arguments or a write error.
pub fn run_datagen(args: &DatagenArgs) -> ExitCode {
    match run(args) {
        Ok(false) => ExitCode::SUCCESS,
        Ok(true) => ExitCode::from(130),
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
