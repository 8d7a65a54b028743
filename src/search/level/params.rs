//! What one level does: its parameters, with the plain-chess overrides some of them have.

use serde::{Deserialize, Serialize};

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 5;

/// What one level does. `None` and zero mean "no limit" and "off".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelParams {
    /// Deepest iteration.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Nodes per move.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Nodes per move in plain chess, where the level's plain-chess Elo needs a cap of its
    /// own (none: `nodes` in both variants).
    #[serde(default)]
    pub chess_nodes: Option<u64>,
    /// Milliseconds per move at most (the clock may allow less).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Hash size in MiB this level uses unless `Hash` is set explicitly.
    #[serde(default)]
    pub hash_mb: Option<usize>,
    /// Largest evaluation noise in centipawns (uniform in ±noise_cp, fixed per position and
    /// seed).
    #[serde(default)]
    pub noise_cp: i32,
    /// How many root moves the choice considers (1: always the best).
    #[serde(default = "one")]
    pub candidates: usize,
    /// Softmax temperature in centipawns for the choice among the candidates.
    #[serde(default)]
    pub temperature_cp: i32,
    /// `candidates` in plain chess, where the level needs a choice of its own (none:
    /// `candidates` in both variants).
    #[serde(default)]
    pub chess_candidates: Option<usize>,
    /// `temperature_cp` in plain chess (none: `temperature_cp` in both variants).
    #[serde(default)]
    pub chess_temperature_cp: Option<i32>,
    /// `noise_cp` in plain chess (none: `noise_cp` in both variants).
    #[serde(default)]
    pub chess_noise_cp: Option<i32>,
    /// Value covered pieces as their covers instead of by their pools.
    #[serde(default)]
    pub naive_covers: bool,
    /// Evaluate with the network wherever the engine at full strength would (`UseNNUE` on,
    /// covered chess unless `NNUEPlainChess`), instead of the hand-written evaluation.
    #[serde(default)]
    pub network: bool,
    /// Largest loss in centipawns, by the level's own scores, of a move the choice may pick
    /// against the best (none: no limit). An only move, with every other candidate further
    /// behind, is always played.
    #[serde(default)]
    pub max_loss_cp: Option<i32>,
    /// `max_loss_cp` in plain chess, where the level needs a cap of its own (none:
    /// `max_loss_cp` in both variants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess_max_loss_cp: Option<i32>,
    /// Percent chance that a best move recapturing on the square of the opponent's last
    /// capture is played without the choice.
    #[serde(default)]
    pub recapture_pct: u8,
    /// Percent of moves that are lapses: searched with `lapse_nodes` nodes at most.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lapse_pct: u8,
    /// `lapse_pct` in plain chess, where the level needs one of its own (none: `lapse_pct`
    /// in both variants).
    #[serde(default)]
    pub chess_lapse_pct: Option<u8>,
    /// Nodes of a lapse's search (none: a lapse is not capped further).
    #[serde(default)]
    pub lapse_nodes: Option<u64>,
    /// When the level is ahead, the choice weighs a move's loss in winning chances, not
    /// centipawns (see [`choice_scale`](super::choice_scale)): a won position is played loosely, an even one as
    /// carefully as before, a lost one as stubbornly.
    #[serde(default, skip_serializing_if = "is_false")]
    pub chances_when_ahead: bool,
    /// `chances_when_ahead` in plain chess (none: `chances_when_ahead` in both variants).
    #[serde(default)]
    pub chess_chances_when_ahead: Option<bool>,
    /// Before playing its move, the level looks at it again: a search of that move alone,
    /// under the level's own limits. A move the look scores as throwing away a game that was
    /// not lost (see [`move_stands`](super::move_stands)) gives way to the next of its lines,
    /// looked at in turn; after three looks it plays the one that looked best. Its many-line
    /// search spreads its nodes thin, and a person checks the move in hand before playing it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub second_look: bool,
    /// `second_look` in plain chess (none: `second_look` in both variants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess_second_look: Option<bool>,
    /// The legal moves of a position of middling complexity: with it, a move's node cap is
    /// scaled by this over the position's own legal moves (half to four times), so the
    /// level looks further where there is little to choose from (an ending, a forced reply)
    /// and less far where there is much. Lapses keep their own cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complexity_moves: Option<u32>,
    /// `complexity_moves` in plain chess (none: `complexity_moves` in both variants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess_complexity_moves: Option<u32>,
    /// Plies by which the level's search looks less deep at quiet moves that give no check,
    /// from the second ply of a line on and not in answer to a check: captures, checks,
    /// promotions and evasions are followed as far as before, the reply to the level's own
    /// move is seen in full, and quiet moves further on less far. A person calculates
    /// forcing lines and misses quiet moves; this gives a level the same blind spot.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub quiet_reduction: u8,
    /// `quiet_reduction` in plain chess (none: `quiet_reduction` in both variants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess_quiet_reduction: Option<u8>,
    /// The level's Elo in plain chess on Stockfish's `UCI_Elo` scale (what `UCI_Elo`
    /// interpolates between), if known.
    #[serde(default)]
    pub elo: Option<f64>,
    /// The level's Elo on the covered-chess ladder (its own scale, Level 5 pinned), if known.
    #[serde(default)]
    pub covered_elo: Option<f64>,
}

/// Whether a percentage is 0, its default (a written table leaves it out).
fn is_zero(value: &u8) -> bool {
    *value == 0
}

/// Whether a switch is off, its default (a written table leaves it out).
fn is_false(value: &bool) -> bool {
    !*value
}

/// A field with a plain-chess override: the override in plain chess if there is one, else
/// the field itself.
fn plain_override<T>(covered: bool, shared: T, plain: Option<T>) -> T {
    match plain {
        Some(value) if !covered => value,
        _ => shared,
    }
}

fn one() -> usize {
    1
}

impl LevelParams {
    /// Full strength: no caps, no noise, the best move.
    pub const FULL: LevelParams = LevelParams {
        depth: None,
        nodes: None,
        chess_nodes: None,
        movetime_ms: None,
        hash_mb: None,
        noise_cp: 0,
        candidates: 1,
        temperature_cp: 0,
        chess_candidates: None,
        chess_temperature_cp: None,
        chess_noise_cp: None,
        naive_covers: false,
        network: false,
        max_loss_cp: None,
        chess_max_loss_cp: None,
        recapture_pct: 0,
        lapse_pct: 0,
        chess_lapse_pct: None,
        lapse_nodes: None,
        chances_when_ahead: false,
        chess_chances_when_ahead: None,
        second_look: false,
        chess_second_look: None,
        complexity_moves: None,
        chess_complexity_moves: None,
        quiet_reduction: 0,
        chess_quiet_reduction: None,
        elo: None,
        covered_elo: None,
    };

    /// The level's Elo in a variant: the covered ladder's (`covered`) or plain chess's.
    pub fn elo_in(&self, covered: bool) -> Option<f64> {
        if covered {
            self.covered_elo
        } else {
            self.elo
        }
    }

    /// The level's node cap in a variant: `chess_nodes` in plain chess if it has one, else
    /// `nodes`.
    pub fn nodes_in(&self, covered: bool) -> Option<u64> {
        plain_override(covered, self.nodes, self.chess_nodes.map(Some))
    }

    /// How many root moves the level's choice considers in a variant: `chess_candidates` in
    /// plain chess if it has one, else `candidates`.
    pub fn candidates_in(&self, covered: bool) -> usize {
        plain_override(covered, self.candidates, self.chess_candidates)
    }

    /// The choice's temperature in a variant: `chess_temperature_cp` in plain chess if it
    /// has one, else `temperature_cp`.
    pub fn temperature_in(&self, covered: bool) -> i32 {
        plain_override(covered, self.temperature_cp, self.chess_temperature_cp)
    }

    /// The level's evaluation noise in a variant: `chess_noise_cp` in plain chess if it has
    /// one, else `noise_cp`.
    pub fn noise_in(&self, covered: bool) -> i32 {
        plain_override(covered, self.noise_cp, self.chess_noise_cp)
    }

    /// The choice's loss cap in a variant: `chess_max_loss_cp` in plain chess if it has
    /// one, else `max_loss_cp`.
    pub fn max_loss_in(&self, covered: bool) -> Option<i32> {
        plain_override(covered, self.max_loss_cp, self.chess_max_loss_cp.map(Some))
    }

    /// The level's lapse rate in a variant: `chess_lapse_pct` in plain chess if it has one,
    /// else `lapse_pct`.
    pub fn lapse_pct_in(&self, covered: bool) -> u8 {
        plain_override(covered, self.lapse_pct, self.chess_lapse_pct)
    }

    /// Whether the level's choice weighs losses in winning chances when ahead, in a variant:
    /// `chess_chances_when_ahead` in plain chess if it has one, else `chances_when_ahead`.
    pub fn chances_when_ahead_in(&self, covered: bool) -> bool {
        plain_override(covered, self.chances_when_ahead, self.chess_chances_when_ahead)
    }

    /// Whether the level looks again at its move before playing it, in a variant:
    /// `chess_second_look` in plain chess if it has one, else `second_look`.
    pub fn second_look_in(&self, covered: bool) -> bool {
        plain_override(covered, self.second_look, self.chess_second_look)
    }

    /// The reference count of legal moves that scales the level's node cap, in a variant:
    /// `chess_complexity_moves` in plain chess if it has one, else `complexity_moves`.
    pub fn complexity_moves_in(&self, covered: bool) -> Option<u32> {
        plain_override(covered, self.complexity_moves, self.chess_complexity_moves.map(Some))
    }

    /// Plies less deep the level looks at quiet moves, in a variant: `chess_quiet_reduction`
    /// in plain chess if it has one, else `quiet_reduction`.
    pub fn quiet_reduction_in(&self, covered: bool) -> u8 {
        plain_override(covered, self.quiet_reduction, self.chess_quiet_reduction)
    }

    /// The level as it plays a variant: its node cap is [`LevelParams::nodes_in`] that
    /// variant, its lapse rate [`LevelParams::lapse_pct_in`].
    pub fn in_variant(&self, covered: bool) -> LevelParams {
        LevelParams {
            nodes: self.nodes_in(covered),
            chess_nodes: None,
            candidates: self.candidates_in(covered),
            chess_candidates: None,
            temperature_cp: self.temperature_in(covered),
            chess_temperature_cp: None,
            noise_cp: self.noise_in(covered),
            chess_noise_cp: None,
            max_loss_cp: self.max_loss_in(covered),
            chess_max_loss_cp: None,
            lapse_pct: self.lapse_pct_in(covered),
            chess_lapse_pct: None,
            chances_when_ahead: self.chances_when_ahead_in(covered),
            chess_chances_when_ahead: None,
            second_look: self.second_look_in(covered),
            chess_second_look: None,
            complexity_moves: self.complexity_moves_in(covered),
            chess_complexity_moves: None,
            quiet_reduction: self.quiet_reduction_in(covered),
            chess_quiet_reduction: None,
            ..*self
        }
    }

    /// Sets the level's Elo in a variant (as [`LevelParams::elo_in`] reads it).
    pub fn set_elo_in(&mut self, covered: bool, elo: f64) {
        *(if covered { &mut self.covered_elo } else { &mut self.elo }) = Some(elo);
    }

    /// Whether the level evaluates with a network (where `UseNNUE` lets it): full strength
    /// does, though its row need not say `network`.
    pub fn uses_network(&self) -> bool {
        self.network || self.is_full()
    }

    /// Whether the level weakens the search at all (its Elo aside).
    pub fn is_full(&self) -> bool {
        LevelParams {
            elo: None,
            covered_elo: None,
            ..*self
        } == LevelParams::FULL
    }
}
