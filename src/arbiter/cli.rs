//! The command line of `veil match` and `veil merge`, in the style fastchess and cutechess
//! users know: `--engine name=A cmd=... option.Hash=64`, `--tc 10+0.1`, `--sprt elo0=0 ...`.

use super::clock::TimeControl;
use super::engine::EngineSpec;
use super::game::{DrawRule, GameSettings, ResignRule};
use super::interrupt;
use super::record::Variant;
use super::report::{self, GameRow, MatchMeta, SprtModelName, SprtSettings};
use super::runner::{self, MatchConfig};
use super::schedule::{self, Pairing, Shard};
use crate::rules::Position;
use clap::{Args, ValueEnum};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum VariantArg {
    Covered,
    Chess,
}

impl From<VariantArg> for Variant {
    fn from(arg: VariantArg) -> Variant {
        match arg {
            VariantArg::Covered => Variant::Covered,
            VariantArg::Chess => Variant::Chess,
        }
    }
}

/// `veil match`: plays engines against each other and reports Elo.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: `name=NAME cmd=COMMAND [args="A B"] [option.NAME=VALUE ...]`. Give two or
    /// more; with more than two they play a round robin (or see --gauntlet and --ladder).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true, action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// The `--engine` lists one by one (clap's derive flattens them; see [`MatchArgs::read_groups`]).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    /// Settings for every engine (`option.NAME=VALUE`, `args=...`), before each engine's own.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// The first engine plays each of the others; the others do not meet.
    #[arg(long, conflicts_with = "ladder")]
    gauntlet: bool,
    /// Each engine plays the next one in the list only (engines ordered by strength: the
    /// steps of a ladder, measured with the fewest games).
    #[arg(long)]
    ladder: bool,
    #[arg(long, value_enum, default_value = "covered")]
    variant: VariantArg,
    /// Games per pairing, played as colour-swapped pairs.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// `10+0.1`, `40/60+0.6`, `movetime=MS`, `depth=N` or `nodes=N`.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the reveal draws and the opening order (default: from the clock; the report
    /// shows it).
    #[arg(long)]
    seed: Option<u64>,
    /// Start positions, one FEN or EPD per line (extended FEN included); a pair per line in
    /// turn.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Write every game here (PGN, in game order).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Write the results as JSON lines (for `veil merge`).
    #[arg(long)]
    results: Option<PathBuf>,
    /// Write the final report as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Sequential probability ratio test: `elo0=0 elo1=5 alpha=0.05 beta=0.05
    /// [model=normalized|logistic]`; the match stops at a verdict.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    #[command(flatten)]
    adjudication: AdjudicationArgs,
    /// Adjudicate a draw after this many plies.
    #[arg(long)]
    max_plies: Option<u32>,
    /// End games when a threefold repetition or the 50-move rule can be claimed.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    claim_draws: bool,
    /// Milliseconds past the clock that are forgiven.
    #[arg(long, default_value_t = 0)]
    timemargin: u64,
    /// Milliseconds a depth- or nodes-limited move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60_000)]
    hang_timeout: u64,
    /// Milliseconds `uciok` and `readyok` may take.
    #[arg(long, default_value_t = 10_000)]
    ready_timeout: u64,
    /// Play only shard `i/n` of the match (0-based); the same seed gives the same games
    /// whatever the split. Use with --results and combine with `veil merge`.
    #[arg(long)]
    shard: Option<String>,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "veil match")]
    event: String,
    /// No line per finished game.
    #[arg(long)]
    quiet: bool,
}

impl MatchArgs {
    /// Keeps each `--engine` occurrence's settings apart, from the parsed command line of
    /// the `match` subcommand.
    pub fn read_groups(&mut self, matches: &clap::ArgMatches) {
        if let Some(occurrences) = matches.get_occurrences::<String>("engine") {
            self.engine_groups = occurrences.map(|group| group.cloned().collect()).collect();
        }
    }
}

/// Resign and draw adjudication, as `veil match` and `veil levels` take them.
#[derive(Args, Debug)]
pub struct AdjudicationArgs {
    /// Resign adjudication: `movecount=3 score=600 [twosided=true]` (off by default).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Vec<String>,
    /// Draw adjudication: `movenumber=40 movecount=8 score=10` (off by default).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Vec<String>,
}

impl AdjudicationArgs {
    /// The resign rule given, if any.
    pub fn resign(&self) -> Result<Option<ResignRule>, String> {
        resign_rule(&self.resign)
    }

    /// The draw rule given, if any.
    pub fn draw(&self) -> Result<Option<DrawRule>, String> {
        draw_rule(&self.draw)
    }
}

/// `veil merge`: one report from several shards' results files.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Results files written by `veil match --results` (one per shard).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the report as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// Splits `key=value`.
fn key_value(text: &str) -> Result<(&str, &str), String> {
    text.split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, got '{text}'"))
}

/// Splits an `args=` value into words; double or single quotes group words.
fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for c in text.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (_, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// Reads one `--engine` list (after the `--each` settings).
pub fn engine_spec(each: &[String], own: &[String]) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec {
        name: String::new(),
        command: String::new(),
        args: Vec::new(),
        options: Vec::new(),
    };
    for item in each.iter().chain(own) {
        let (key, value) = key_value(item)?;
        match key {
            "name" => spec.name = value.to_string(),
            "cmd" => spec.command = value.to_string(),
            "args" => spec.args = split_words(value),
            _ => match key.strip_prefix("option.") {
                Some(option) if !option.is_empty() => {
                    spec.options.retain(|(name, _)| !name.eq_ignore_ascii_case(option));
                    spec.options.push((option.to_string(), value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "unknown engine setting '{key}' (expected name, cmd, args, option.NAME)"
                    ))
                }
            },
        }
    }
    if spec.command.is_empty() {
        return Err(format!("an engine needs cmd= (got: {})", own.join(" ")));
    }
    if spec.name.is_empty() {
        spec.name = std::path::Path::new(&spec.command)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| spec.command.clone());
    }
    Ok(spec)
}

/// Reads `key=value` settings into a map, refusing keys not in `known`.
fn settings<'a>(items: &'a [String], known: &[&str], what: &str) -> Result<HashMap<&'a str, &'a str>, String> {
    let mut map = HashMap::new();
    for item in items {
        let (key, value) = key_value(item)?;
        if !known.contains(&key) {
            return Err(format!(
                "unknown {what} setting '{key}' (expected {})",
                known.join(", ")
            ));
        }
        map.insert(key, value);
    }
    Ok(map)
}

fn number<T: std::str::FromStr>(
    map: &HashMap<&str, &str>,
    key: &str,
    default: Option<T>,
    what: &str,
) -> Result<T, String> {
    match map.get(key) {
        Some(text) => text.parse().map_err(|_| format!("{what}: invalid {key} '{text}'")),
        None => default.ok_or_else(|| format!("{what}: {key}= is required")),
    }
}

pub fn sprt_settings(items: &[String]) -> Result<Option<SprtSettings>, String> {
    if items.is_empty() {
        return Ok(None);
    }
    let map = settings(items, &["elo0", "elo1", "alpha", "beta", "model"], "--sprt")?;
    let model = match map.get("model").copied().unwrap_or("normalized") {
        "normalized" => SprtModelName::Normalized,
        "logistic" => SprtModelName::Logistic,
        other => return Err(format!("--sprt: unknown model '{other}' (normalized or logistic)")),
    };
    let sprt = SprtSettings {
        elo0: number(&map, "elo0", None, "--sprt")?,
        elo1: number(&map, "elo1", None, "--sprt")?,
        alpha: number(&map, "alpha", Some(0.05), "--sprt")?,
        beta: number(&map, "beta", Some(0.05), "--sprt")?,
        model,
    };
    let valid = sprt.elo0 < sprt.elo1 && (0.0..0.5).contains(&sprt.alpha) && (0.0..0.5).contains(&sprt.beta);
    if !valid || sprt.alpha == 0.0 || sprt.beta == 0.0 {
        return Err("--sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5".to_string());
    }
    Ok(Some(sprt))
}

/// A `--resign` option's settings (none given: no resign adjudication).
fn resign_rule(items: &[String]) -> Result<Option<ResignRule>, String> {
    if items.is_empty() {
        return Ok(None);
    }
    let map = settings(items, &["movecount", "score", "twosided"], "--resign")?;
    Ok(Some(ResignRule {
        move_count: number(&map, "movecount", Some(3), "--resign")?,
        score: number(&map, "score", Some(600), "--resign")?,
        two_sided: number(&map, "twosided", Some(false), "--resign")?,
    }))
}

/// A `--draw` option's settings (none given: no draw adjudication).
fn draw_rule(items: &[String]) -> Result<Option<DrawRule>, String> {
    if items.is_empty() {
        return Ok(None);
    }
    let map = settings(items, &["movenumber", "movecount", "score"], "--draw")?;
    Ok(Some(DrawRule {
        move_number: number(&map, "movenumber", Some(40), "--draw")?,
        move_count: number(&map, "movecount", Some(8), "--draw")?,
        score: number(&map, "score", Some(10), "--draw")?,
    }))
}

/// Reads an openings file: one FEN or EPD a line (EPD operations after the fourth field or a
/// `;` are ignored); blank lines and lines starting with `#` are skipped.
pub fn read_openings(path: &std::path::Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = Position::from_fen(line).or_else(|error| {
            // EPD: four FEN fields, then an optional pool field, then operations.
            let pool = fields
                .get(4)
                .filter(|f| f.chars().all(|c| c.is_ascii_alphanumeric()) && !f.chars().all(|c| c.is_ascii_digit()));
            let shortened = match pool {
                Some(pool) => format!("{} {pool}", fields[..4.min(fields.len())].join(" ")),
                None => fields[..4.min(fields.len())].join(" "),
            };
            Position::from_fen(&shortened).map_err(|_| error)
        });
        match parsed {
            Ok(position) => positions.push(position),
            Err(error) => return Err(format!("{}:{}: {error}", path.display(), number + 1)),
        }
    }
    if positions.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(positions)
}

/// Turns the command line into a match configuration.
pub fn match_config(args: &MatchArgs) -> Result<(MatchConfig, Option<PathBuf>), String> {
    let engines = args
        .engine_groups
        .iter()
        .map(|own| engine_spec(&args.each, own))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() < 2 {
        return Err("a match needs at least two --engine".to_string());
    }
    let mut names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return Err("engine names must differ (give each a name=)".to_string());
    }
    let time_control: TimeControl = args.tc.parse().map_err(|e| format!("--tc: {e}"))?;
    let variant = Variant::from(args.variant);
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    if variant == Variant::Chess && openings.iter().any(|p| !p.covered().is_empty()) {
        return Err("--variant chess: an opening has covered pieces".to_string());
    }
    let sprt = sprt_settings(&args.sprt)?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".to_string());
    }
    if args.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    let shard = args.shard.as_deref().map(str::parse::<Shard>).transpose()?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_000)
            .unwrap_or(1)
    });
    let config = MatchConfig {
        engines,
        pairing: if args.gauntlet {
            Pairing::Gauntlet
        } else if args.ladder {
            Pairing::Ladder
        } else {
            Pairing::RoundRobin
        },
        variant,
        games_per_encounter: args.games,
        concurrency: args.concurrency.clamp(1, 256),
        seed,
        openings,
        settings: GameSettings {
            time_control,
            time_margin: Duration::from_millis(args.timemargin),
            claim_draws: args.claim_draws,
            max_plies: args.max_plies,
            resign: args.adjudication.resign()?,
            draw: args.adjudication.draw()?,
            hang_timeout: Duration::from_millis(args.hang_timeout),
            ready_timeout: Duration::from_millis(args.ready_timeout),
        },
        sprt,
        shard,
        pgn: args.pgn.clone(),
        results: args.results.clone(),
        event: args.event.clone(),
        verbose: !args.quiet,
    };
    Ok((config, args.json.clone()))
}

fn write_json(path: &Option<PathBuf>, report: &report::Report) -> Result<(), String> {
    if let Some(path) = path {
        let text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// A warning for a match at a fixed node count or depth with more colour-swapped pairs
/// than openings (`openings`, or 0 for the variant's start) where a start leaves nothing to
/// chance (`any_plain`: no covered piece, empty pools): engines that search the same
/// position the same way play the same game each time such an opening comes round, and the
/// error bar counts the repeats as new games.
pub fn repeat_warning(any_plain: bool, time_control: TimeControl, games: u64, openings: usize) -> Option<String> {
    let fixed = matches!(time_control, TimeControl::Nodes(_) | TimeControl::Depth(_));
    let pairs = schedule::rounds(games);
    let distinct = openings.max(1) as u64;
    (any_plain && fixed && pairs > distinct).then(|| {
        format!(
            "warning: {pairs} pairs from {distinct} opening(s) at {time_control}: plain-chess games \
             at a fixed node count or depth can repeat exactly, and the error bar counts repeats \
             as new games; give at least one opening per pair (such as the repository's \
             openings/chess-plus4.epd)"
        )
    })
}

/// Runs `veil match`.
pub fn run_match(args: &MatchArgs) -> ExitCode {
    let (config, json) = match match_config(args) {
        Ok(parsed) => parsed,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let any_plain = if config.openings.is_empty() {
        config.variant.start_position().is_plain_chess()
    } else {
        config.openings.iter().any(Position::is_plain_chess)
    };
    let warning = repeat_warning(
        any_plain,
        config.settings.time_control,
        config.games_per_encounter,
        config.openings.len(),
    );
    if let Some(warning) = warning {
        eprintln!("{warning}");
    }
    interrupt::install();
    match runner::run(&config) {
        Ok(report) => {
            crate::out!("{}", report::render(&report));
            match write_json(&json, &report) {
                Ok(()) if report.interrupted => ExitCode::from(130),
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Reads a results file: the match description, then the game rows.
pub fn read_results(path: &std::path::Path) -> Result<(MatchMeta, Vec<GameRow>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    #[derive(serde::Deserialize)]
    struct Header {
        meta: MatchMeta,
    }
    let (_, first) = lines.next().ok_or_else(|| format!("{}: empty", path.display()))?;
    let header: Header = serde_json::from_str(first).map_err(|e| format!("{}:1: {e}", path.display()))?;
    let rows = lines
        .map(|(n, line)| serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1)))
        .collect::<Result<Vec<GameRow>, _>>()?;
    Ok((header.meta, rows))
}

/// Combines shards' results into one report; the shards must describe the same match.
pub fn merge(files: &[PathBuf]) -> Result<report::Report, String> {
    let mut meta: Option<MatchMeta> = None;
    let mut rows = Vec::new();
    for path in files {
        let (mut this, mut these) = read_results(path)?;
        this.shard = None;
        match &meta {
            None => meta = Some(this),
            Some(first) if *first != this => {
                return Err(format!(
                    "{}: a different match from {}",
                    path.display(),
                    files[0].display()
                ))
            }
            Some(_) => {}
        }
        rows.append(&mut these);
    }
    let meta = meta.ok_or("no results files")?;
    Ok(report::build(&meta, &rows))
}

/// Runs `veil merge`.
pub fn run_merge(args: &MergeArgs) -> ExitCode {
    match merge(&args.files).and_then(|report| {
        crate::out!("{}", report::render(&report));
        write_json(&args.json, &report)
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_node_plain_matches_with_too_few_openings_are_warned_of() {
        let nodes = TimeControl::Nodes(50_000);
        assert!(repeat_warning(true, nodes, 400, 46).is_some());
        assert!(repeat_warning(true, TimeControl::Depth(8), 4, 0).is_some());
        assert!(repeat_warning(true, nodes, 92, 46).is_none());
        assert!(repeat_warning(false, nodes, 400, 46).is_none());
        assert!(repeat_warning(true, "10+0.1".parse().unwrap(), 400, 46).is_none());
    }

    #[test]
    fn engine_specs() {
        let each = vec!["option.Hash=8".to_string()];
        let own: Vec<String> = [
            "name=A",
            "cmd=/bin/veil",
            "args=--x 'a b'",
            "option.Level=3",
            "option.hash=16",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let spec = engine_spec(&each, &own).unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.command, "/bin/veil");
        assert_eq!(spec.args, vec!["--x", "a b"]);
        assert_eq!(
            spec.options,
            vec![
                ("Level".to_string(), "3".to_string()),
                ("hash".to_string(), "16".to_string())
            ]
        );
        assert_eq!(
            engine_spec(&[], &["cmd=/usr/games/stockfish".to_string()])
                .unwrap()
                .name,
            "stockfish"
        );
        assert!(engine_spec(&[], &["name=x".to_string()]).is_err());
        assert!(engine_spec(&[], &["cmd=x".to_string(), "colour=red".to_string()]).is_err());
    }

    #[test]
    fn sprt_and_adjudication_settings() {
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let sprt = sprt_settings(&words("elo0=0 elo1=5 alpha=0.05 beta=0.1"))
            .unwrap()
            .unwrap();
        assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta), (0.0, 5.0, 0.05, 0.1));
        assert!(sprt_settings(&words("elo0=5 elo1=0")).is_err());
        assert!(sprt_settings(&words("elo0=0 elo1=5 gamma=1")).is_err());
        let resign = resign_rule(&words("movecount=4 score=500")).unwrap().unwrap();
        assert_eq!((resign.move_count, resign.score, resign.two_sided), (4, 500, false));
        assert!(draw_rule(&words("movenumber=x")).is_err());
    }
}
