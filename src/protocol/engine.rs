//! The engine state behind the protocol: options, the current position and its history,
//! the transposition table, and the search running on its own thread while the input
//! thread keeps reading.

use super::command::{self, Command, CommandError, GoParams, Start};
use super::display;
use super::options::{OperatorLimits, OptionEffect, Options};
use super::position::{read_position, start_position};
use crate::rules::{Color, Move, MoveStatus, Position, Square, Variant};
use crate::search::{
    self, Limits, Report, Score, ScoreBound, SearchControl, SearchJob, SearchMemory, TranspositionTable,
};
use crate::tools::perft::divide_lines;
use parking_lot::Mutex;
use std::io::Write;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The largest hash table `ucinewgame` and `Clear Hash` clear in place rather than replace
/// (see [`Engine::clear_hash`]): the size up to which the system allocator (glibc's largest
/// dynamic mmap threshold) may serve a table from its heap.
const CLEAR_IN_PLACE_MAX_MB: usize = 32;

/// Longest error message printed whole.
const MAX_ERROR_LENGTH: usize = 400;

/// Where protocol lines go: shared by the input thread and the search thread, one whole
/// line at a time, flushed at once. Write errors (a closed pipe) are ignored.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    pub fn line(&self, text: &str) {
        let mut writer = self.0.lock();
        let _ = writer.write_all(text.as_bytes());
        let _ = writer.write_all(b"\n");
        let _ = writer.flush();
    }

    /// An `info string error:` line, cut to a readable length.
    pub fn error(&self, message: impl std::fmt::Display) {
        let mut message: String = message
            .to_string()
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        if message.len() > MAX_ERROR_LENGTH {
            let mut cut = MAX_ERROR_LENGTH;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push_str("...");
        }
        self.line(&format!("info string error: {message}"));
    }
}

/// The protocol engine.
pub struct Engine {
    out: Output,
    options: Options,
    position: Position,
    /// Keys of the positions before the current one, oldest first.
    history: Vec<u64>,
    /// The square on which the last move captured, if it did.
    last_capture: Option<Square>,
    tt: Arc<TranspositionTable>,
    /// Each search thread's history, correction history and evaluation cache, kept from
    /// move to move of a game.
    memory: Arc<SearchMemory>,
    control: Arc<SearchControl>,
    search: Option<JoinHandle<()>>,
    debug: bool,
}

/// A time from the GUI in milliseconds; negative counts as 0, and anything beyond a year
/// as a year (no limit in practice, and no overflow in time arithmetic).
fn millis(value: i64) -> Duration {
    const YEAR_MS: i64 = 365 * 24 * 3600 * 1000;
    Duration::from_millis(value.clamp(0, YEAR_MS) as u64)
}

/// An `info` line for one search report.
pub fn format_report(report: &Report) -> String {
    let score = match report.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    let bound = match report.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let millis = report.time.as_millis().max(1);
    let nps = report.nodes as u128 * 1000 / millis;
    let pv: Vec<String> = report.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} time {} pv {}",
        report.depth,
        report.seldepth,
        report.multipv,
        report.nodes,
        report.hashfull,
        report.time.as_millis(),
        pv.join(" ")
    )
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        Engine::with_limits(out, OperatorLimits::default())
    }

    /// An engine whose options stay within the operator's `limits`.
    pub fn with_limits(out: Output, limits: OperatorLimits) -> Engine {
        let options = Options::with_limits(limits);
        Engine {
            out,
            position: start_position(options.variant),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            memory: Arc::new(SearchMemory::new()),
            options,
            history: Vec::new(),
            last_capture: None,
            control: Arc::new(SearchControl::new()),
            search: None,
            debug: false,
        }
    }

    /// The current position (after the last valid `position` command).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Handles one input line; false after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        match command::parse(line) {
            Ok(Command::Quit) => {
                self.quit();
                return false;
            }
            Ok(command) => self.handle(command),
            Err(error) => self.out.error(error),
        }
        true
    }

    /// Answers an input line that was longer than the bound and skipped
    /// ([`super::limits::MAX_LINE_BYTES`]): one error line, nothing else.
    pub fn handle_overlong_line(&mut self, bytes: usize) {
        self.out.error(CommandError::LineTooLong { bytes });
    }

    /// Stops any search (its bestmove is still printed) and waits for it.
    pub fn quit(&mut self) {
        self.finish_search();
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Uci => {
                self.out.line(&format!("id name Veil {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the Veil developers");
                for declaration in self.options.uci_lines() {
                    self.out.line(&declaration);
                }
                self.out.line("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.finish_search();
                self.clear_hash();
            }
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go { params, problems } => {
                for problem in problems {
                    self.out.error(problem);
                }
                self.go(params);
            }
            Command::Stop => self.control.stop(),
            Command::PonderHit => self.control.ponderhit(),
            Command::Display => {
                for line in display::render(&self.position).lines() {
                    self.out.line(line);
                }
            }
            Command::Eval => {
                let breakdown = self.options.evaluator().breakdown(&self.position);
                for line in display::evaluation(&self.position, &breakdown).lines() {
                    self.out.line(line);
                }
            }
            Command::Bench(depth) => {
                self.finish_search();
                let out = self.out.clone();
                self.start_worker("bench", move || {
                    let (nodes, elapsed) = search::bench::bench(depth.unwrap_or(search::bench::BENCH_DEPTH));
                    let millis = elapsed.as_millis().max(1);
                    out.line(&format!("Nodes searched: {nodes}"));
                    out.line(&format!("Nodes/second: {}", nodes as u128 * 1000 / millis));
                });
            }
            Command::Quit => {}
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let previous_hash_mb = self.options.hash_mb;
        let effect = match self.options.set(name, value) {
            Ok(effect) => effect,
            Err(error) => {
                self.out.error(error);
                return;
            }
        };
        match effect {
            OptionEffect::None => {}
            OptionEffect::ResizeHash => match TranspositionTable::try_new(self.options.hash_mb) {
                Some(tt) => self.tt = Arc::new(tt),
                None => {
                    self.out.error(format!(
                        "cannot allocate {} MiB for the hash table; keeping the old table",
                        self.options.hash_mb
                    ));
                    self.options.hash_mb = previous_hash_mb;
                    return;
                }
            },
            OptionEffect::ClearHash => self.clear_hash(),
            OptionEffect::VariantChanged => {
                self.position = start_position(self.options.variant);
                self.history.clear();
                self.last_capture = None;
            }
            OptionEffect::StrengthChanged => {
                let wanted = self.options.effective_hash_mb();
                if wanted != self.options.hash_mb {
                    if let Some(tt) = TranspositionTable::try_new(wanted) {
                        self.tt = Arc::new(tt);
                        self.options.hash_mb = wanted;
                    }
                }
            }
        }
        if self.debug {
            self.out.line(&format!("info string option {name} set"));
        }
    }

    /// Applies a `position` command; on any error the previous position stays.
    fn set_position(&mut self, start: Start, moves: &[String]) {
        match read_position(&start, moves, self.options.variant) {
            Ok(game) => {
                self.position = game.position;
                self.history = game.history;
                self.last_capture = game.last_capture;
            }
            Err(error) => self.out.error(error),
        }
    }

    fn limits(&mut self, params: &GoParams) -> Limits {
        let white = self.position.side_to_move() == Color::White;
        let (time, increment) = if white {
            (params.wtime, params.winc)
        } else {
            (params.btime, params.binc)
        };
        // A clock sent for the other side only: ours has run out.
        let time = time.or((params.wtime.is_some() || params.btime.is_some()).then_some(0));
        let mut search_moves = Vec::new();
        let mut refused = Vec::new();
        for text in &params.searchmoves {
            match self.position.parse_uci_move(text) {
                Ok(m) => search_moves.push(m),
                Err(_) => refused.push(text.as_str()),
            }
        }
        if !refused.is_empty() {
            let shown: Vec<&str> = refused.iter().take(5).copied().collect();
            let more = refused.len() - shown.len();
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            self.out
                .error(format!("searchmoves: not legal moves here: {}{tail}", shown.join(" ")));
        }
        let depth = match (params.depth, params.mate) {
            (Some(depth), _) => Some(depth.max(1)),
            (None, Some(mate)) => Some(mate.max(1).saturating_mul(2).saturating_add(2)),
            (None, None) => None,
        };
        Limits {
            depth,
            nodes: params.nodes,
            movetime: params.movetime.map(millis),
            mate: params.mate,
            infinite: params.infinite,
            ponder: params.ponder,
            time_left: time.map(millis),
            increment: increment.map_or(Duration::ZERO, millis),
            moves_to_go: params.movestogo,
            search_moves,
        }
    }

    fn go(&mut self, params: GoParams) {
        self.finish_search();
        if let Some(depth) = params.perft {
            self.perft(depth);
            return;
        }
        let limits = self.limits(&params);
        match self.position.move_status() {
            MoveStatus::Checkmate => {
                self.out.line("info string checkmate");
                self.out.line("info depth 0 score mate 0");
            }
            MoveStatus::Stalemate => {
                self.out.line("info string stalemate");
                self.out.line("info depth 0 score cp 0");
            }
            MoveStatus::Ongoing => {}
        }
        // A level's node cap follows the game: covered chess if the game is declared so or
        // the position has anything left to chance.
        let covered = self.options.variant == Variant::Covered || !self.position.is_plain_chess();
        let job = SearchJob {
            position: self.position.clone(),
            history: self.history.clone(),
            last_capture: self.last_capture,
            limits,
            multipv: self.options.multipv,
            threads: self.options.threads,
            move_overhead: Duration::from_millis(self.options.move_overhead_ms),
            level: self.options.strength().in_variant(covered),
            seed: self.options.seed,
            cover_baseline: self.options.cover_baseline,
            ablation: self.options.ablation,
            evaluator: self.options.evaluator(),
        };
        let control = Arc::new(SearchControl::new_search(params.ponder));
        self.control = Arc::clone(&control);
        let tt = Arc::clone(&self.tt);
        let memory = Arc::clone(&self.memory);
        let out = self.out.clone();
        let started = self.start_worker("search", move || {
            let result =
                search::run_with_memory(&job, &tt, &memory, &control, |report| out.line(&format_report(report)));
            // A ponder move that reveals is of no use: the GUI cannot know its suffix.
            let ponder = result
                .best_move
                .zip(result.ponder_move)
                .filter(|&(best, _)| !job.position.is_reveal(best))
                .and_then(|(best, ponder)| (!job.position.play(best, None).is_reveal(ponder)).then_some(ponder));
            let text = match (result.best_move, ponder) {
                (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
                (Some(best), None) => format!("bestmove {best}"),
                (None, _) => "bestmove (none)".to_string(),
            };
            out.line(&text);
        });
        if !started {
            // Every go ends with a bestmove, even without a search.
            let fallback = self.position.legal_moves().iter().next().map(Move::to_string);
            self.out
                .line(&format!("bestmove {}", fallback.unwrap_or_else(|| "(none)".into())));
        }
    }

    /// `go perft`: runs on the search thread, so `isready` is answered meanwhile; `stop`
    /// ends it within moments, with the root moves counted so far and their total.
    fn perft(&mut self, depth: u32) {
        let position = self.position.clone();
        let control = Arc::new(SearchControl::new_search(false));
        self.control = Arc::clone(&control);
        let out = self.out.clone();
        self.start_worker("perft", move || {
            divide_lines(&position, depth, &|| control.is_stopped(), |text| out.line(text));
        });
    }

    /// Runs `work` on the worker thread (searches, perft, bench), so the input thread keeps
    /// answering. False, after an error line, if no thread could be started.
    fn start_worker(&mut self, name: &str, work: impl FnOnce() + Send + 'static) -> bool {
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .stack_size(64 * 1024 * 1024)
            .spawn(work);
        match spawned {
            Ok(handle) => {
                self.search = Some(handle);
                true
            }
            Err(error) => {
                self.out.error(format!("cannot start the {name} thread: {error}"));
                false
            }
        }
    }

    /// Empties the hash table. A large one is replaced by a fresh zeroed table, which costs
    /// nothing until used, where clearing it in place would touch all of its memory. A small
    /// one, when no search holds it, is cleared in place (a few milliseconds): the allocator
    /// serves tables that small from its heap once one has been freed, zeroing each by hand
    /// anyway, and replacing them kept two or three resident at once (RSS swinging between
    /// 20 and 53 MB over a session of 16 MiB tables, scripts/long-game.py). A running search
    /// keeps its own table.
    fn clear_hash(&mut self) {
        // What the threads learnt goes with the hash table (a running search keeps its own).
        self.memory = Arc::new(SearchMemory::new());
        let held_by_search = Arc::strong_count(&self.tt) > 1;
        if !held_by_search && self.options.hash_mb <= CLEAR_IN_PLACE_MAX_MB {
            self.tt.clear();
            return;
        }
        match TranspositionTable::try_new(self.options.hash_mb) {
            Some(tt) => self.tt = Arc::new(tt),
            None => self.tt.clear(),
        }
    }

    /// Stops the running search, if any, and waits until its bestmove is out.
    fn finish_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.control.stop();
            let _ = handle.join();
        }
    }
}
