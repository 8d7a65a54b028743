//! Time controls as match tools write them, and the clocks the arbiter keeps.
//!
//! `10+0.1` is 10 seconds a side plus 0.1 s a move; `40/60+0.6` is 60 seconds for every 40
//! moves plus 0.6 s a move; `60` is sudden death. `movetime=MS`, `depth=N` and `nodes=N`
//! give every move the same limit and keep no clock.

use crate::rules::{ByColor, Color};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long the engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Clock {
        base: Duration,
        increment: Duration,
        /// Moves per period: the base is added again after this many moves.
        moves: Option<u32>,
    },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError(String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid time control '{}' (expected e.g. 10+0.1, 40/60+0.6, movetime=100, depth=6, nodes=5000)",
            self.0
        )
    }
}

impl std::error::Error for TimeControlError {}

fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && (0.0..=1e7).contains(&value)).then(|| Duration::from_secs_f64(value))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(text.to_string());
        if let Some((key, value)) = text.split_once('=') {
            return match key {
                "movetime" => value
                    .parse::<u64>()
                    .ok()
                    .filter(|&ms| ms > 0)
                    .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms))),
                "depth" => value.parse().ok().filter(|&d| d > 0).map(TimeControl::Depth),
                "nodes" => value.parse().ok().filter(|&n| n > 0).map(TimeControl::Nodes),
                _ => None,
            }
            .ok_or_else(error);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (
                Some(moves.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(error)?),
                rest,
            ),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (seconds(base), seconds(increment)),
            None => (seconds(rest), Some(Duration::ZERO)),
        };
        match (base, increment) {
            (Some(base), Some(increment)) if !base.is_zero() || !increment.is_zero() => {
                Ok(TimeControl::Clock { base, increment, moves })
            }
            _ => Err(error()),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { base, increment, moves } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(time) => write!(f, "movetime={}", time.as_millis()),
            TimeControl::Depth(depth) => write!(f, "depth={depth}"),
            TimeControl::Nodes(nodes) => write!(f, "nodes={nodes}"),
        }
    }
}

impl TimeControl {
    /// Whether the engines play on a clock (and can lose on time).
    pub fn has_clock(self) -> bool {
        matches!(self, TimeControl::Clock { .. })
    }
}

/// One side's clock under a [`TimeControl::Clock`].
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub remaining: Duration,
    increment: Duration,
    base: Duration,
    moves_per_period: Option<u32>,
    moves_made: u32,
}

impl Clock {
    /// A fresh clock, or `None` when the time control keeps none.
    pub fn new(control: TimeControl) -> Option<Clock> {
        match control {
            TimeControl::Clock { base, increment, moves } => Some(Clock {
                remaining: base,
                increment,
                base,
                moves_per_period: moves,
                moves_made: 0,
            }),
            _ => None,
        }
    }

    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// Moves to make before the next period's time is added (`movestogo`).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_per_period.map(|period| period - self.moves_made % period)
    }

    /// Charges a move that took `elapsed`. Returns `false` if the flag fell (the clock then
    /// shows zero); otherwise adds the increment, and the next period's time when due.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> bool {
        if elapsed > self.remaining + margin {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.increment;
        self.moves_made += 1;
        if let Some(period) = self.moves_per_period {
            if self.moves_made.is_multiple_of(period) {
                self.remaining += self.base;
            }
        }
        true
    }
}

/// The `go` line that asks `side` for a move under `control`, with both sides' clocks as they
/// stand (`None` for a time control that keeps no clock).
pub fn go_line(control: TimeControl, clocks: &ByColor<Option<Clock>>, side: Color) -> String {
    match control {
        TimeControl::Clock { .. } => {
            let (white, black) = (
                clocks[Color::White].expect("clock"),
                clocks[Color::Black].expect("clock"),
            );
            let mut go = format!(
                "go wtime {} btime {} winc {} binc {}",
                white.remaining.as_millis(),
                black.remaining.as_millis(),
                white.increment().as_millis(),
                black.increment().as_millis()
            );
            if let Some(moves) = clocks[side].expect("clock").moves_to_go() {
                go.push_str(&format!(" movestogo {moves}"));
            }
            go
        }
        TimeControl::MoveTime(time) => format!("go movetime {}", time.as_millis()),
        TimeControl::Depth(depth) => format!("go depth {depth}"),
        TimeControl::Nodes(nodes) => format!("go nodes {nodes}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_forms() {
        let ms = Duration::from_millis;
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Clock {
                base: ms(10_000),
                increment: ms(100),
                moves: None
            })
        );
        assert_eq!(
            "40/60+0.6".parse(),
            Ok(TimeControl::Clock {
                base: ms(60_000),
                increment: ms(600),
                moves: Some(40)
            })
        );
        assert_eq!(
            "5".parse(),
            Ok(TimeControl::Clock {
                base: ms(5000),
                increment: ms(0),
                moves: None
            })
        );
        assert_eq!("movetime=250".parse(), Ok(TimeControl::MoveTime(ms(250))));
        assert_eq!("depth=6".parse(), Ok(TimeControl::Depth(6)));
        assert_eq!("nodes=5000".parse(), Ok(TimeControl::Nodes(5000)));
        for bad in [
            "", "x", "10+", "+0.1", "0", "0/10", "depth=0", "depth=-1", "speed=3", "-5+1", "nan", "1e300",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for text in ["10+0.1", "40/60+0.6", "5", "movetime=250", "depth=6", "nodes=5000"] {
            assert_eq!(text.parse::<TimeControl>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn clocks_add_increments_and_periods() {
        let ms = Duration::from_millis;
        let mut clock = Clock::new("2/1+0.1".parse().unwrap()).unwrap();
        assert_eq!(clock.moves_to_go(), Some(2));
        assert!(clock.charge(ms(300), ms(0)));
        assert_eq!((clock.remaining, clock.moves_to_go()), (ms(800), Some(1)));
        assert!(clock.charge(ms(500), ms(0)));
        assert_eq!((clock.remaining, clock.moves_to_go()), (ms(1400), Some(2)));
        assert!(!clock.charge(ms(1401), ms(0)));
        assert_eq!(clock.remaining, ms(0));
        let mut clock = Clock::new("1".parse().unwrap()).unwrap();
        assert!(clock.charge(ms(1005), ms(10)), "within the margin");
        assert_eq!(clock.moves_to_go(), None);
        assert!(Clock::new(TimeControl::Depth(3)).is_none());
    }
}
