//! `veil match` end to end: scripted engines that play random legal moves or misbehave on
//! purpose, determinism of the same seed, shards merged into the whole match's report.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn veil() -> &'static str {
    env!("CARGO_BIN_EXE_veil")
}

/// The scripted engine built from `examples/scripted_engine.rs` (cargo builds examples for
/// the tests).
fn scripted() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let path = dir.join("examples").join("scripted_engine");
    assert!(path.exists(), "scripted engine not built at {}", path.display());
    path
}

/// A file of this test binary's shared directory (each test names its own files), emptied
/// once a run, since `veil match` resumes from a results file it finds.
fn temp(name: &str) -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::shared_dir("match-test");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("an empty test directory");
        dir
    })
    .join(name)
}

struct Run {
    stdout: String,
    report: serde_json::Value,
    results: Vec<serde_json::Value>,
}

/// Runs `veil match` with `args` plus a JSON report, a results file and (unless `args`
/// names one) a PGN file, checks that `veil replay` verifies every game of the PGN, and
/// returns the report and the results.
fn run_match(tag: &str, args: &[&str]) -> Run {
    let json = temp(&format!("{tag}.json"));
    let results = temp(&format!("{tag}.jsonl"));
    let own_pgn = temp(&format!("{tag}-own.pgn"));
    let pgn = match args.iter().position(|a| *a == "--pgn") {
        Some(i) => PathBuf::from(args[i + 1]),
        None => own_pgn.clone(),
    };
    let mut command = Command::new(veil());
    command
        .arg("match")
        .args(args)
        .args(["--json", json.to_str().unwrap(), "--results", results.to_str().unwrap()]);
    if pgn == own_pgn {
        command.args(["--pgn", own_pgn.to_str().unwrap()]);
    }
    let output = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "veil match failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let replay = Command::new(veil()).arg("replay").arg(&pgn).output().unwrap();
    assert!(
        replay.status.success(),
        "veil replay rejected the match's PGN:\n{}{}",
        String::from_utf8_lossy(&replay.stdout),
        String::from_utf8_lossy(&replay.stderr)
    );
    let report = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let results = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Run {
        stdout,
        report,
        results,
    }
}

fn engine_arg(name: &str, mode: &str, after: u32) -> Vec<String> {
    vec![
        format!("name={name}"),
        format!("cmd={}", scripted().display()),
        format!(
            "args=--mode {mode} --after {after} --seed {}",
            name.len() * 7 + after as usize
        ),
    ]
}

/// `veil match` arguments: a scripted engine per `(name, mode, after)`, then `settings`.
fn scripted_match(engines: &[(&str, &str, u32)], settings: &[&str]) -> Vec<String> {
    let mut args = Vec::new();
    for &(name, mode, after) in engines {
        args.push("--engine".to_string());
        args.extend(engine_arg(name, mode, after));
    }
    args.extend(settings.iter().map(|s| s.to_string()));
    args
}

/// A match of a random mover against one that misbehaves after `after` moves; returns the
/// rows of the misbehaving engine's games.
fn misbehaviour(mode: &str, after: u32, tc: &str, extra: &[&str]) -> Run {
    let settings = [
        "--games",
        "2",
        "--tc",
        tc,
        "--seed",
        "5",
        "--hang-timeout",
        "400",
        "--ready-timeout",
        "400",
    ];
    let mut args = scripted_match(&[("good", "random", 0), ("bad", mode, after)], &settings);
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run_match(&format!("bad-{mode}"), &refs)
}

/// Asserts that every game ended with `ending` against the engine `bad` (index 1).
fn assert_bad_lost(run: &Run, ending: &str) {
    assert_eq!(run.results.len(), 2, "{}", run.stdout);
    for row in &run.results {
        assert_eq!(row["ending"], ending, "{row}\n{}", run.stdout);
        let bad_is_white = row["white"] == 1;
        let side = if bad_is_white { "white" } else { "black" };
        assert_eq!(row["side"], side, "{row}");
        assert_eq!(row["result"], if bad_is_white { "0-1" } else { "1-0" }, "{row}");
    }
    assert_eq!(run.report["head_to_head"]["wins"], 2, "{}", run.stdout);
}

#[test]
fn random_movers_finish_their_games_by_the_rules() {
    let args = scripted_match(
        &[("a", "random", 0), ("b", "random", 0)],
        &["--games", "10", "--tc", "5+0.05", "--seed", "11", "--concurrency", "2"],
    );
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = run_match("random", &refs);
    assert_eq!(run.results.len(), 10);
    let rules = [
        "checkmate",
        "stalemate",
        "fivefold-repetition",
        "seventy-five-move-rule",
        "insufficient-material",
        "threefold-repetition",
        "fifty-move-rule",
    ];
    for row in &run.results {
        assert!(rules.contains(&row["ending"].as_str().unwrap()), "{row}");
    }
    assert_eq!(run.report["games"], 10);
    let h = &run.report["head_to_head"];
    let games = h["wins"].as_u64().unwrap() + h["draws"].as_u64().unwrap() + h["losses"].as_u64().unwrap();
    assert_eq!(games, 10);
    assert_eq!(
        h["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum::<u64>(),
        5
    );
}

#[test]
fn illegal_moves_lose() {
    assert_bad_lost(&misbehaviour("illegal", 3, "10+0.1", &[]), "illegal-move");
}

#[test]
fn reveal_suffixes_in_bestmove_lose() {
    // An engine cannot know a reveal: `bestmove e2e4=Q` is refused.
    assert_bad_lost(&misbehaviour("suffix", 0, "10+0.1", &[]), "illegal-move");
}

#[test]
fn missing_promotion_letters_lose() {
    let openings = temp("promotion.epd");
    std::fs::write(&openings, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1\n").unwrap();
    let run = misbehaviour(
        "no-promotion",
        0,
        "10+0.1",
        &["--variant", "chess", "--openings", openings.to_str().unwrap()],
    );
    // The second game has the misbehaving engine as White, one step from promotion.
    let second = &run.results[1];
    assert_eq!(second["ending"], "illegal-move", "{}", run.stdout);
    assert_eq!(second["side"], "white");
}

#[test]
fn garbage_loses() {
    assert_bad_lost(&misbehaviour("garbage", 2, "10+0.1", &[]), "illegal-move");
}

#[test]
fn crashes_lose_and_the_engine_is_restarted() {
    let run = misbehaviour("crash", 4, "10+0.1", &[]);
    assert_bad_lost(&run, "disconnect");
    // Both games got to the crash: the engine was started again for the second.
    assert!(
        run.results.iter().all(|r| r["plies"].as_u64().unwrap() >= 8),
        "{}",
        run.stdout
    );
}

#[test]
fn hangs_lose_on_time_under_a_clock_and_as_disconnects_otherwise() {
    assert_bad_lost(&misbehaviour("hang", 2, "1+0.01", &[]), "time-forfeit");
    assert_bad_lost(&misbehaviour("hang", 2, "depth=3", &[]), "disconnect");
}

#[test]
fn oversleeping_the_clock_loses_on_time() {
    assert_bad_lost(&misbehaviour("slow", 1, "1+0", &[]), "time-forfeit");
}

#[test]
fn a_missing_uciok_loses_every_game() {
    assert_bad_lost(&misbehaviour("no-uciok", 0, "10+0.1", &[]), "disconnect");
}

/// Processes whose command line mentions `needle`.
fn processes_with(needle: &str) -> usize {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().chars().all(|c| c.is_ascii_digit()))
                .filter(|e| {
                    std::fs::read(e.path().join("cmdline"))
                        .map(|c| String::from_utf8_lossy(&c).contains(needle))
                        .unwrap_or(false)
                })
                .count()
        })
        .unwrap_or(0)
}

/// A copy of the engine `source` under a name of its own, so that [`processes_with`] counts
/// its processes and no other test's; `None` where `/proc` cannot be read.
fn counted_copy(source: &Path, name: &str) -> Option<PathBuf> {
    if !Path::new("/proc/self/cmdline").exists() {
        return None;
    }
    let engine = temp(name);
    std::fs::copy(source, &engine).unwrap();
    Some(engine)
}

#[test]
fn engines_that_die_or_hang_leave_no_processes_behind() {
    let Some(engine) = counted_copy(&scripted(), "zombie_probe_engine") else {
        return;
    };
    let mut args: Vec<String> = vec!["--engine".into(), "name=hang".into()];
    args.push(format!("cmd={}", engine.display()));
    args.push("args=--mode hang --after 1".into());
    args.extend([
        "--engine".into(),
        "name=crash".into(),
        format!("cmd={}", engine.display()),
    ]);
    args.push("args=--mode crash --after 2".into());
    for a in [
        "--games",
        "4",
        "--tc",
        "1+0.01",
        "--hang-timeout",
        "200",
        "--concurrency",
        "2",
    ] {
        args.push(a.into());
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = run_match("zombies", &refs);
    assert_eq!(run.results.len(), 4);
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        processes_with("zombie_probe_engine"),
        0,
        "engine processes outlived the match"
    );
}

#[test]
fn shards_merge_into_the_whole_match() {
    let args = scripted_match(
        &[("a", "random", 0), ("b", "random", 0), ("c", "random", 0)],
        &["--games", "6", "--tc", "depth=1", "--seed", "77", "--quiet"],
    );
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let whole = run_match("whole", &refs);
    assert_eq!(whole.results.len(), 18);
    let mut files = Vec::new();
    for i in 0..4 {
        let shard = format!("{i}/4");
        let mut shard_args = refs.clone();
        shard_args.extend(["--shard", &shard]);
        run_match(&format!("shard{i}"), &shard_args);
        files.push(temp(&format!("shard{i}.jsonl")));
    }
    let merged_json = temp("merged.json");
    let output = Command::new(veil())
        .arg("merge")
        .args(&files)
        .args(["--json", merged_json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let merged: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&merged_json).unwrap()).unwrap();
    assert_eq!(merged, whole.report);
    assert_eq!(merged["scheduled"], 18);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Crosstable"));
    assert!(!stdout.contains("Incomplete"), "{stdout}");
    // A reader that stops early (`veil merge ... | head -1`) still gets the file written.
    let closed_json = temp("merged-closed.json");
    let args: Vec<&str> = std::iter::once("merge")
        .chain(files.iter().map(|f| f.to_str().unwrap()))
        .chain(["--json", closed_json.to_str().unwrap()])
        .collect();
    common::veil_with_stdout_closed(&args);
    let closed: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&closed_json).unwrap()).unwrap();
    assert_eq!(closed, merged);
    // A shard left out: the merge says how many games are missing.
    let output = Command::new(veil()).arg("merge").args(&files[..3]).output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let played = 18
        - whole
            .results
            .iter()
            .filter(|r| r["pair"].as_u64().unwrap() % 4 == 3)
            .count();
    assert!(
        stdout.contains(&format!("Incomplete: {played} of the 18 games scheduled")),
        "{stdout}"
    );
}

#[test]
fn the_same_seed_replays_the_same_games() {
    let pgn = |tag: &str| {
        let path = temp(&format!("{tag}.pgn"));
        let args = [
            "--engine",
            "name=A",
            &format!("cmd={}", veil()),
            "--engine",
            "name=B",
            &format!("cmd={}", veil()),
            "--games",
            "4",
            // Full strength has no time cap, so a depth limit gives the same games however
            // busy the machine is (a weaker level's time cap could cut a search short under
            // load; the protocol tests check the levels' determinism with node limits).
            "--tc",
            "depth=2",
            "--seed",
            "2024",
            "--concurrency",
            "2",
            "--max-plies",
            "80",
            "--pgn",
            path.to_str().unwrap(),
        ];
        run_match(tag, &args);
        std::fs::read_to_string(path).unwrap()
    };
    let first = pgn("seed-a");
    assert!(first.contains("=P") || first.contains("=N"), "reveals are recorded");
    assert_eq!(first, pgn("seed-b"));
}

#[test]
fn a_signal_stops_the_match_with_the_report_of_the_games_that_finished() {
    let Some(engine) = counted_copy(Path::new(veil()), "interrupt_probe_engine") else {
        return;
    };
    let (json, results) = (temp("interrupted.json"), temp("interrupted.jsonl"));
    let cmd = format!("cmd={}", engine.display());
    let child = Command::new(veil())
        .arg("match")
        .args(["--engine", "name=A", &cmd, "--engine", "name=B", &cmd])
        .args(["--games", "400", "--tc", "nodes=2000", "--concurrency", "2", "--quiet"])
        .args(["--json", json.to_str().unwrap(), "--results", results.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines = || {
        std::fs::read_to_string(&results)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let stdout = common::stop_when(child, || lines() >= 3, libc::SIGTERM, false);
    assert!(stdout.contains("Interrupted: the report covers the"), "{stdout}");
    assert!(stdout.contains("Results of A vs B"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true);
    let games = report["games"].as_u64().unwrap();
    assert!((2..400).contains(&games), "{games} games");
    // The results file holds exactly the games counted, and no game cut short is among them.
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len() as u64, games);
    assert!(rows.iter().all(|r| r["ending"] != "disconnect"), "{rows:?}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        processes_with("interrupt_probe_engine"),
        0,
        "engine processes outlived the match"
    );
}

/// `veil levels` stops on a terminal's Ctrl-C (SIGINT to its whole process group) with the
/// fit of the games that finished; its engines run in groups of their own, so the signal
/// does not kill them under a game, and none outlives the run.
#[test]
fn ctrl_c_stops_a_levels_ladder_with_the_fit_of_the_games_that_finished() {
    use std::os::unix::process::CommandExt;
    let Some(engine) = counted_copy(Path::new(veil()), "levels_interrupt_probe") else {
        return;
    };
    let (pgn, json, svg) = (temp("ladder.pgn"), temp("ladder.json"), temp("ladder.svg"));
    let mut command = Command::new(veil());
    // A terminal's foreground job hears SIGINT; a background job of a shell ignores it, and
    // the child would inherit that (and rightly keep ignoring it). Run it as the foreground.
    // SAFETY: between fork and exec, only `signal`, which is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = command
        .arg("levels")
        .args([
            "--engine-cmd",
            engine.to_str().unwrap(),
            "--ladder",
            "--variant",
            "covered",
        ])
        .args(["--games", "200", "--tc", "movetime=10", "--concurrency", "2"])
        .args(["--pgn", pgn.to_str().unwrap(), "--json", json.to_str().unwrap()])
        .args(["--svg", svg.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let finished = || {
        std::fs::read_to_string(&pgn)
            .map(|t| t.matches("[Result ").count())
            .unwrap_or(0)
    };
    // SIGINT to the whole process group, as a terminal's Ctrl-C.
    let stdout = common::stop_when(child, || finished() >= 3, libc::SIGINT, true);
    assert!(stdout.contains("Interrupted: the fit covers the"), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true);
    let games = report["games"].as_u64().unwrap();
    assert!((3..800).contains(&games), "{games} games");
    // No game was cut short by an engine dying of the signal.
    assert!(!std::fs::read_to_string(&pgn).unwrap().contains("disconnect"));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        processes_with("levels_interrupt_probe"),
        0,
        "engine processes outlived the run"
    );
}
