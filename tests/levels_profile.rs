//! `veil levels --profile` end to end: one covered game of Level 1 against itself, judged by
//! the engine at full strength at a tiny node count, gives a table and a JSON report.

mod common;

use common::{scratch_dir, veil};

/// One covered game of Level 1 against itself at 300 nodes a move, judged at 500 nodes, its
/// report, games and move log in `dir`, with `extra` arguments.
fn one_game_profile(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let files = ["profile.json", "games.pgn", "moves.jsonl"].map(|name| dir.join(name));
    let [json, pgn, moves] = files.each_ref().map(|path| path.to_str().unwrap());
    let mut args = vec![
        "levels",
        "--profile",
        "--variant",
        "covered",
        "--profile-levels",
        "1",
        "--games",
        "1",
        "--tc",
        "nodes=300",
        "--judge-nodes",
        "500",
        "--concurrency",
        "1",
        "--quiet",
        "--json",
        json,
        "--pgn",
        pgn,
        "--profile-moves",
        moves,
    ];
    args.extend_from_slice(extra);
    veil(&args)
}

#[test]
fn a_one_game_profile_judges_every_move() {
    let dir = scratch_dir("profile");
    let (json, moves) = (dir.join("profile.json"), dir.join("moves.jsonl"));
    let out = one_game_profile(&dir, &["--profile-elos", "1000,1200,1400,1600,1800"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("| Level 1 | 1000 | 1 |"), "{stdout}");
    assert!(stdout.contains("| lichess blitz 1000 |"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let level = &report["levels"][0];
    assert_eq!(level["level"], 1);
    assert_eq!(level["games"], 1);
    assert_eq!(level["player_games"], 2);
    // Every move of the game is judged (both sides are Level 1).
    let games = std::fs::read_to_string(dir.join("games-L1.pgn")).unwrap();
    let plies: u64 = games
        .lines()
        .find_map(|l| l.strip_prefix("[PlyCount \"")?.strip_suffix("\"]")?.parse().ok())
        .expect("a PlyCount tag");
    assert_eq!(level["moves"], plies);
    let acpl = level["acpl"].as_f64().unwrap();
    assert!((0.0..=2000.0).contains(&acpl));
    let split: u64 = ["moves_behind", "moves_equal", "moves_ahead"]
        .iter()
        .map(|k| level[k].as_u64().unwrap())
        .sum();
    assert_eq!(split, plies);
    // The move log has a line per judged move, in order, with its class.
    let log = std::fs::read_to_string(&moves).unwrap();
    let lines: Vec<serde_json::Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len() as u64, plies);
    assert_eq!(lines[0]["ply"], 1);
    assert!(
        lines[0]["move"].as_str().unwrap().contains('='),
        "the first move reveals"
    );
    assert!(lines
        .iter()
        .all(|l| l["class"].is_string() && l["loss"].as_f64().unwrap() >= 0.0));
}

#[test]
fn bad_profile_settings_are_refused() {
    let out = veil(&["levels", "--profile", "--profile-levels", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no level 7"));
    let out = veil(&["levels", "--profile", "--profile-elos", "800,900"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("five Elos"));
    let out = veil(&[
        "levels",
        "--profile",
        "--variant",
        "chess",
        "--judge-cmd",
        "/nonexistent/judge",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));
}

#[test]
fn resign_adjudication_ends_a_profile_game_early() {
    // Level 1 against itself at 300 nodes: some side's score is below -1 cp within a few
    // moves, so the game ends by adjudication long before mate, and only its moves are judged.
    let dir = scratch_dir("profile-resign");
    let json = dir.join("profile.json");
    let out = one_game_profile(&dir, &["--resign", "movecount=1", "score=1"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let games = std::fs::read_to_string(dir.join("games-L1.pgn")).unwrap();
    assert!(games.contains("loses by adjudication"), "{games}");
    let plies: u64 = games
        .lines()
        .find_map(|l| l.strip_prefix("[PlyCount \"")?.strip_suffix("\"]")?.parse().ok())
        .expect("a PlyCount tag");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["levels"][0]["moves"], plies);
    assert!(plies < 40, "{plies} plies");
}

#[test]
fn bad_adjudication_settings_are_refused() {
    let out = veil(&["levels", "--profile", "--resign", "movecount=x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resign"));
    let out = veil(&["levels", "--draw", "nonsense=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--draw"));
}

#[test]
fn a_reader_that_stops_early_still_gets_the_files() {
    // `veil levels ... | head -1`: the report to a closed stdout, the JSON to its file.
    let dir = scratch_dir("profile-closed");
    let out = one_game_profile(&dir, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (moves, json) = (dir.join("moves.jsonl"), dir.join("again.json"));
    let out = common::veil_with_stdout_closed(&[
        "levels",
        "--profile-from",
        moves.to_str().unwrap(),
        "--variant",
        "covered",
        "--profile-levels",
        "1",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("profile.json")).unwrap()).unwrap();
    let again: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(again["levels"][0]["acpl"], first["levels"][0]["acpl"]);
}

#[test]
fn a_replay_plays_a_logs_positions_again_under_each_table() {
    // The log of a one-game profile, replayed under the compiled-in table and under two
    // files holding it without its time caps (which a loaded machine could reach first): one
    // move a position each, the same in both files, judged the same.
    let dir = scratch_dir("profile-replay");
    let out = one_game_profile(&dir, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let moves = dir.join("moves.jsonl");
    let logged = std::fs::read_to_string(&moves).unwrap().lines().count();
    let compiled = std::fs::read_to_string(format!("{}/src/search/levels.toml", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let untimed: String = compiled
        .lines()
        .filter(|line| !line.starts_with("movetime_ms"))
        .map(|line| format!("{line}\n"))
        .collect();
    let files = ["a.toml", "b.toml"].map(|name| dir.join(name));
    for file in &files {
        std::fs::write(file, &untimed).unwrap();
    }
    let [a, b] = files.each_ref().map(|path| path.to_str().unwrap());
    let (json, replayed) = (dir.join("replay.json"), dir.join("replayed.jsonl"));
    let out = veil(&[
        "levels",
        "--profile-from",
        moves.to_str().unwrap(),
        "--replay-tables",
        &format!("-,{a},{b}"),
        "--replay-every",
        "2",
        "--variant",
        "covered",
        "--profile-levels",
        "1",
        "--tc",
        "nodes=300",
        "--judge-nodes",
        "500",
        "--json",
        json.to_str().unwrap(),
        "--profile-moves",
        replayed.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("| table | moves | ACPL |"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let tables = report["levels"][0]["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 3);
    assert_eq!(tables[0]["moves"], (logged / 2) as u64);
    assert_eq!(tables[0]["same_as_first"], tables[0]["moves"]);
    for key in ["moves", "loss", "blunders", "howlers"] {
        assert_eq!(tables[1][key], tables[2][key], "{key}");
    }
    let lines = std::fs::read_to_string(&replayed).unwrap();
    assert_eq!(lines.lines().count(), logged / 2);
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first[a]["move"], first[b]["move"]);
}
