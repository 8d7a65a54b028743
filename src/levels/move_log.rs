//! The move log of `veil levels --profile --profile-moves FILE`: one JSON line per judged
//! move, written as the judge goes. `--profile-from FILE` reads a log back and works the
//! profile out again (with figures added since, or at other Elos) without replaying or
//! judging a game.

use super::judge::JudgedMove;
use super::profile::{LevelProfile, MoveLoss};
use crate::arbiter::record::{EngineScore, GameRecord};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};

/// Writes one JSON line per judged move of `record`: where it was played, what it was, the
/// judge's scores and its class, so single errors can be looked up.
pub fn write(log: &mut impl Write, level: u8, record: &GameRecord, judged: &[JudgedMove]) -> std::io::Result<()> {
    let mut position = record.start.clone();
    let mut next = judged.iter().peekable();
    for (ply, played) in record.moves.iter().enumerate() {
        if let Some(j) = next.next_if(|j| j.ply == ply) {
            let line = serde_json::json!({
                "level": level,
                "pair": record.pair + 1,
                "game": record.game_in_pair + 1,
                "ply": ply + 1,
                "fen": position.to_fen(),
                "move": position.move_text(played.m, played.reveal),
                "player_score": played.score.map(|s| match s {
                    EngineScore::Centipawns(cp) => format!("{cp}"),
                    EngineScore::Mate(n) => format!("mate {n}"),
                }),
                "before": j.loss.before,
                "after": j.loss.after,
                "loss": j.loss.loss(),
                "win_before": j.loss.win_before,
                "win_after": j.loss.win_after,
                "class": j.loss.judgement(),
                "howler": j.loss.is_howler(),
            });
            writeln!(log, "{line}")?;
        }
        position.play_mut(played.m, played.reveal);
    }
    log.flush()
}

/// The fields of a line that the profile is worked out from.
#[derive(Deserialize)]
struct Line {
    level: u8,
    pair: u64,
    game: u64,
    ply: u64,
    before: i32,
    after: f64,
    win_before: f64,
    win_after: f64,
}

/// The longest line read: a position, a move and a few numbers take a few hundred bytes.
pub const MAX_LINE: usize = 4096;

/// The profiles of `levels` (in that order) from a move log, each at its Elo in `elos`
/// (indexed by level - 1). Lines of other levels are skipped; a line that is not a judged
/// move is an error naming its number.
pub fn read(reader: impl BufRead, levels: &[u8], elos: &[Option<f64>]) -> Result<Vec<LevelProfile>, String> {
    let mut games: BTreeMap<(u8, u64, u64), Vec<(u64, MoveLoss)>> = BTreeMap::new();
    for_each_line(reader, |line: Line| {
        if !levels.contains(&line.level) {
            return;
        }
        let judged = MoveLoss {
            before: line.before,
            after: line.after,
            win_before: line.win_before,
            win_after: line.win_after,
        };
        games
            .entry((line.level, line.pair, line.game))
            .or_default()
            .push((line.ply, judged));
    })?;
    Ok(levels
        .iter()
        .map(|&level| {
            let elo = elos.get(usize::from(level).wrapping_sub(1)).copied().flatten();
            let mut profile = LevelProfile::new(level, elo);
            for (_, moves) in games.range_mut((level, 0, 0)..=(level, u64::MAX, u64::MAX)) {
                moves.sort_by_key(|&(ply, _)| ply);
                let moves: Vec<MoveLoss> = moves.iter().map(|&(_, judged)| judged).collect();
                // A level against itself: both sides of every game are the level's.
                profile.add_game(&moves, 2);
            }
            profile
        })
        .collect())
}

/// Calls `each` with every line of a move log read as `T`, blank lines skipped; a line longer
/// than [`MAX_LINE`] or not a `T` is an error naming its number.
pub fn for_each_line<T: DeserializeOwned>(mut reader: impl BufRead, mut each: impl FnMut(T)) -> Result<(), String> {
    let mut text = String::new();
    for number in 1.. {
        text.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_line(&mut text)
            .map_err(|e| format!("line {number}: {e}"))?;
        if read == 0 {
            break;
        }
        if text.len() > MAX_LINE {
            return Err(format!("line {number}: longer than {MAX_LINE} bytes"));
        }
        if text.trim().is_empty() {
            continue;
        }
        each(serde_json::from_str(&text).map_err(|e| format!("line {number}: not a judged move ({e})"))?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(level: u8, game: u64, ply: u64, before: i32, after: i32) -> String {
        let loss = MoveLoss::new(before, &[(1.0, after)]);
        serde_json::json!({
            "level": level, "pair": 1, "game": game, "ply": ply, "fen": "-", "move": "e2e4",
            "player_score": null, "before": loss.before, "after": loss.after, "loss": loss.loss(),
            "win_before": loss.win_before, "win_after": loss.win_after, "class": "Good", "howler": false,
        })
        .to_string()
            + "\n"
    }

    #[test]
    fn a_log_reads_back_as_the_profile_it_came_from() {
        let moves = [
            (0, -30),
            (1500, 1500),
            (-1200, -1200),
            (1500, 1500),
            (-1200, -1200),
            (0, -400),
        ];
        let mut direct = LevelProfile::new(2, Some(1200.0));
        let judged: Vec<MoveLoss> = moves.iter().map(|&(b, a)| MoveLoss::new(b, &[(1.0, a)])).collect();
        direct.add_game(&judged, 2);
        // Written out of order, with a level not asked for and a blank line.
        let mut log = String::new();
        for (ply, &(before, after)) in moves.iter().enumerate().rev() {
            log += &line(2, 1, ply as u64 + 1, before, after);
        }
        log += &line(3, 1, 1, 0, -900);
        log += "\n";
        let elos = [None, Some(1200.0), None, None, None];
        let read = read(log.as_bytes(), &[2], &elos).unwrap();
        assert_eq!(read, vec![direct]);
        assert_eq!(read[0].undecided.moves, 1);
    }

    #[test]
    fn bad_lines_are_refused_by_number() {
        let elos = [None; 5];
        let error = read("\n{\"level\": 1}\n".as_bytes(), &[1], &elos).unwrap_err();
        assert!(error.starts_with("line 2: not a judged move"), "{error}");
        let long = format!("{}\n", "x".repeat(MAX_LINE + 10));
        let error = read(long.as_bytes(), &[1], &elos).unwrap_err();
        assert!(error.starts_with("line 1: longer than"), "{error}");
        assert_eq!(read("".as_bytes(), &[1], &elos).unwrap()[0].games, 0);
    }
}
