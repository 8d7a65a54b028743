//! One game between two engine processes, judged on the rules core: the arbiter sends the
//! position and the clocks, reads the engine's move, checks it, draws its reveal, and ends the
//! game by the rules (mate, stalemate, fivefold, 75 moves, dead position), by claim (threefold,
//! 50 moves, when enabled), on time (RULES.md §7: a flag falls to a draw when the opponent
//! cannot mate), on an illegal or malformed move, on a crash or a hang, or by score
//! adjudication.

use super::clock::{go_line, Clock, TimeControl};
use super::engine::{Answer, Engine, EngineError, EngineSpec};
use super::interrupt;
use super::record::{Ending, EngineScore, PlayedMove};
use super::reveal::RevealDraws;
use crate::rules::{ByColor, Color, DrawClaim, Game, Position};
use std::time::Duration;

/// Resign adjudication: a side whose own score stays at or below `-score` centipawns for
/// `move_count` of its moves in a row loses (with `two_sided`, only if its opponent's score
/// agrees, at or above `score`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

/// Draw adjudication: from move `move_number` on, when both engines' scores stay within
/// `score` centipawns of zero for `move_count` moves each in a row, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// How games are played and judged.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub time_control: TimeControl,
    /// Thinking past the clock by at most this much is forgiven (pipe and scheduling delays).
    pub time_margin: Duration,
    /// End the game as soon as a threefold repetition or the 50-move rule can be claimed.
    pub claim_draws: bool,
    pub max_plies: Option<u32>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// How long a move may take beyond its limit before the engine counts as hung (for
    /// depth and nodes limits: how long a move may take at all).
    pub hang_timeout: Duration,
    /// How long `uciok` and `readyok` may take.
    pub ready_timeout: Duration,
}

/// An engine seat in a worker: the spec, and the process if one is running.
pub struct Seat {
    pub spec: EngineSpec,
    pub engine: Option<Engine>,
    /// How often the process had to be started again after a failure.
    pub restarts: u32,
}

impl Seat {
    pub fn new(spec: EngineSpec) -> Seat {
        Seat {
            spec,
            engine: None,
            restarts: 0,
        }
    }

    /// A running engine that has been told a new game starts; (re)started if needed.
    fn prepare(&mut self, timeout: Duration) -> Result<&mut Engine, EngineError> {
        if self.engine.as_ref().is_some_and(Engine::is_broken) {
            self.engine = None;
            self.restarts += 1;
        }
        if self.engine.is_none() {
            self.engine = Some(Engine::start(&self.spec, timeout)?);
        }
        let engine = self.engine.as_mut().expect("started above");
        engine.new_game(timeout)?;
        Ok(engine)
    }
}

/// How a game went, before the names and tags are added.
pub struct Played {
    pub moves: Vec<PlayedMove>,
    pub ending: Ending,
    pub detail: Option<String>,
}

/// Plays one game from `start`; `seats` are White's and Black's engines. `None` if the
/// match was asked to stop ([`interrupt`]) before the game ended: it is abandoned at the
/// next move.
pub fn play(
    mut seats: ByColor<&mut Seat>,
    start: &Position,
    draws: &mut RevealDraws,
    settings: &GameSettings,
) -> Option<Played> {
    let mut moves = Vec::new();
    for color in Color::ALL {
        if let Err(error) = seats[color].prepare(settings.ready_timeout) {
            if let Some(engine) = seats[color].engine.as_mut() {
                engine.mark_broken();
            }
            return Some(Played {
                moves,
                ending: Ending::Disconnect(color),
                detail: Some(format!("{} {error}", seats[color].spec.name)),
            });
        }
    }
    let mut game = Game::new(start.clone());
    let mut clocks = ByColor::new(Clock::new(settings.time_control), Clock::new(settings.time_control));
    let mut judge = Adjudicator::default();
    let mut command = if *start == Position::standard_start() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.to_fen())
    };
    let finish = |moves, ending, detail| Some(Played { moves, ending, detail });
    loop {
        if interrupt::requested() {
            return None;
        }
        if let Some(outcome) = game.outcome() {
            return finish(moves, Ending::from_outcome(outcome), None);
        }
        if settings.claim_draws {
            match game.claimable_draw() {
                Some(DrawClaim::ThreefoldRepetition) => return finish(moves, Ending::ThreefoldRepetition, None),
                Some(DrawClaim::FiftyMoveRule) => return finish(moves, Ending::FiftyMoveRule, None),
                None => {}
            }
        }
        if settings.max_plies.is_some_and(|max| moves.len() as u32 >= max) {
            return finish(moves, Ending::MaxPlies, None);
        }
        let position = game.position().clone();
        let side = position.side_to_move();
        let (go, deadline) = go_command(settings, &clocks, side);
        let engine = seats[side].engine.as_mut().expect("prepared");
        let name = engine.name().to_string();
        let answer = match engine.think(&command, &go, deadline, settings.hang_timeout) {
            Ok(answer) => answer,
            Err(EngineError::Timeout(_)) if settings.time_control.has_clock() => {
                return finish(
                    moves,
                    flag_fall(&position, side),
                    Some(format!("{name} did not answer in time")),
                )
            }
            Err(error) => return finish(moves, Ending::Disconnect(side), Some(format!("{name}: {error}"))),
        };
        if let Some(clock) = clocks[side].as_mut() {
            if !clock.charge(answer.elapsed, settings.time_margin) {
                let detail = format!("{name} took {} ms", answer.elapsed.as_millis());
                return finish(moves, flag_fall(&position, side), Some(detail));
            }
        }
        let m = match read_move(&position, &answer) {
            Ok(m) => m,
            Err(detail) => return finish(moves, Ending::IllegalMove(side), Some(format!("{name}: {detail}"))),
        };
        let reveal = position.is_reveal(m).then(|| draws.draw(side, position.pool(side)));
        command.push_str(if moves.is_empty() { " moves " } else { " " });
        command.push_str(&position.move_text(m, reveal));
        let timed = matches!(
            settings.time_control,
            TimeControl::Clock { .. } | TimeControl::MoveTime(_)
        );
        moves.push(PlayedMove {
            m,
            reveal,
            score: answer.score,
            depth: answer.depth,
            millis: timed.then_some(answer.elapsed.as_millis() as u64),
        });
        game.play(m, reveal);
        if let Some(ending) = judge.observe(settings, side, answer.score, position.fullmove_number()) {
            return finish(moves, ending, None);
        }
    }
}

/// `side`'s flag fell: a loss, or a draw if the opponent could not mate (RULES.md §7).
fn flag_fall(position: &Position, side: Color) -> Ending {
    if position.can_mate(!side) {
        Ending::TimeForfeit(side)
    } else {
        Ending::TimeoutNoMate(side)
    }
}

/// The `go` line for `side` and how long to wait for its answer before sending `stop`.
fn go_command(settings: &GameSettings, clocks: &ByColor<Option<Clock>>, side: Color) -> (String, Duration) {
    let go = go_line(settings.time_control, clocks, side);
    let wait = match settings.time_control {
        TimeControl::Clock { .. } => clocks[side].expect("clock").remaining + settings.time_margin,
        TimeControl::MoveTime(time) => time + settings.time_margin + settings.hang_timeout,
        TimeControl::Depth(_) | TimeControl::Nodes(_) => settings.hang_timeout,
    };
    (go, wait)
}

/// The engine's answer as a legal move, or why it is not one. An engine cannot know a reveal,
/// so a reveal suffix in `bestmove` is an error.
fn read_move(position: &Position, answer: &Answer) -> Result<crate::rules::Move, String> {
    let text = answer.best_move.as_str();
    if text.is_empty() || text == "(none)" || text == "0000" {
        return Err(format!("no move ('bestmove {text}') in a position with legal moves"));
    }
    if text.contains('=') {
        return Err(format!("'{text}' names a reveal; only the arbiter draws reveals"));
    }
    position
        .parse_uci_move(text)
        .map_err(|error| format!("'{text}': {error}"))
}

/// Tracks the scores for resign and draw adjudication.
#[derive(Default)]
struct Adjudicator {
    /// Consecutive own moves at or below -score, per side.
    losing: [u32; 2],
    /// Each side's last score.
    last: [Option<i32>; 2],
    /// Consecutive plies with both scores near zero.
    drawish: u32,
}

impl Adjudicator {
    fn observe(
        &mut self,
        settings: &GameSettings,
        side: Color,
        score: Option<EngineScore>,
        fullmove: u32,
    ) -> Option<Ending> {
        let score = score.map(|score| match score {
            EngineScore::Centipawns(cp) => cp,
            EngineScore::Mate(n) if n > 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        });
        self.last[side.index()] = score;
        if let Some(rule) = settings.resign {
            let losing = score.is_some_and(|s| s <= -rule.score)
                && (!rule.two_sided || self.last[(!side).index()].is_some_and(|s| s >= rule.score));
            self.losing[side.index()] = if losing { self.losing[side.index()] + 1 } else { 0 };
            if self.losing[side.index()] >= rule.move_count {
                return Some(Ending::Resignation(side));
            }
        }
        if let Some(rule) = settings.draw {
            let near_zero = |s: Option<i32>| s.is_some_and(|s| s.abs() <= rule.score);
            if fullmove >= rule.move_number && near_zero(self.last[0]) && near_zero(self.last[1]) {
                self.drawish += 1;
            } else {
                self.drawish = 0;
            }
            if self.drawish >= 2 * rule.move_count {
                return Some(Ending::AdjudicatedDraw);
            }
        }
        None
    }
}
