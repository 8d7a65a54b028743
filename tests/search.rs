//! Search behaviour through its public interface: limits, mate scores over chance nodes,
//! and the bench signature.

mod common;

use veil::rules::Position;
use veil::search::{bench, run, Limits, Score, SearchControl, SearchJob, SearchResult, TranspositionTable};

fn search(fen: &str, limits: Limits) -> SearchResult {
    let job = SearchJob::new(Position::from_fen(fen).unwrap(), limits);
    run(&job, &TranspositionTable::new(4), &SearchControl::new(), |_| {})
}

fn depth(n: u32) -> Limits {
    Limits {
        depth: Some(n),
        ..Limits::default()
    }
}

#[test]
fn finds_a_plain_mate_in_one() {
    let result = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth(3));
    assert_eq!(result.best_move.unwrap().to_string(), "a1a8");
    assert_eq!(result.score, Some(Score::Mate(1)));
}

/// The covered a1 piece mates on a8 only if it is revealed as a rook. With a knight also in
/// the pool the mate is not forced, so the score must be an expected centipawn value (a good
/// one: the mean of the outcomes' winning chances, not half a mate); with two rooks in the
/// pool every outcome mates and the score is a mate.
#[test]
fn mate_only_when_forced_whatever_the_reveals() {
    let chancy = search("7k/6pp/8/8/8/8/8/X3K3 w - - 0 1 R1N1", depth(3));
    assert_eq!(chancy.best_move.unwrap().to_string(), "a1a8");
    assert!(
        matches!(chancy.score, Some(Score::Centipawns(cp)) if cp > 200),
        "{:?}",
        chancy.score
    );

    let forced = search("7k/6pp/8/8/8/8/8/X3K3 w - - 0 1 R2", depth(3));
    assert_eq!(forced.best_move.unwrap().to_string(), "a1a8");
    assert_eq!(forced.score, Some(Score::Mate(1)));
}

#[test]
fn node_and_depth_limits_still_give_a_move() {
    let covered = "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8";
    let few_nodes = search(
        covered,
        Limits {
            nodes: Some(1),
            ..Limits::default()
        },
    );
    assert!(few_nodes.best_move.is_some());
    assert!(few_nodes.nodes < 5_000, "{} nodes", few_nodes.nodes);
    assert!(search(covered, depth(1)).best_move.is_some());
}

#[test]
fn searchmoves_restricts_the_root() {
    let position = Position::standard_start();
    let only = position.parse_uci_move("a2a3").unwrap();
    let result = search(
        veil::rules::STANDARD_START_FEN,
        Limits {
            depth: Some(4),
            search_moves: vec![only],
            ..Limits::default()
        },
    );
    assert_eq!(result.best_move, Some(only));
}

#[test]
fn bench_signature_is_deterministic() {
    assert_eq!(bench::bench(3).0, bench::bench(3).0);
}

/// `veil bench --positions chess|covered` splits the signature's positions between them.
#[test]
fn the_bench_sets_split_the_signature() {
    let evaluator = veil::search::Evaluator::standard();
    let count = |set| bench::bench_with(3, &evaluator, set).0;
    let plain = count(Some(veil::rules::Variant::Chess));
    let covered = count(Some(veil::rules::Variant::Covered));
    assert!(plain > 0 && covered > 0);
    assert_eq!(plain + covered, bench::bench(3).0);
}

/// `veil bench --eval network` searches with the embedded networks, each in its own variant
/// (the covered network on covered positions, the plain network on plain ones), as the engine
/// plays by default; `--eval-file` puts one network on both.
#[test]
fn bench_eval_network_is_the_embedded_networks_in_their_variants() {
    let nodes = |args: &[&str]| {
        let output = common::veil(args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        stdout
            .lines()
            .find_map(|line| line.strip_prefix("Nodes searched: "))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no node count in {stdout}"))
    };
    let network = nodes(&["bench", "3", "--eval", "network"]);
    assert_eq!(network, nodes(&["bench", "3"]));
    let plain_file = concat!(env!("CARGO_MANIFEST_DIR"), "/networks/plain.nnue");
    assert_eq!(
        nodes(&["bench", "3", "--eval", "network", "--positions", "chess"]),
        nodes(&["bench", "3", "--eval-file", plain_file, "--positions", "chess"])
    );
}

/// `veil bench | head -1`: a reader that stops early ends the command quietly (SIGPIPE's
/// default), not with a panic about the closed pipe.
#[cfg(unix)]
#[test]
fn bench_ends_quietly_when_its_reader_stops() {
    use std::os::unix::process::ExitStatusExt;
    let output = common::veil_with_stdout_closed(&["bench", "5"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.signal(), Some(libc::SIGPIPE), "{stderr}");
}

/// Star1 windows and Star2 probes at chance nodes only skip work: with the selective parts
/// of the search off, every covered bench position gets the same root value as with plain
/// full-window expectimax, in fewer nodes.
#[test]
fn star_pruning_keeps_the_expectimax_value() {
    use veil::search::{verify::root_value, SearchConfig};
    let exact = |chance_windows, star2| SearchConfig {
        chance_windows,
        star2,
        selective: false,
        ..SearchConfig::default()
    };
    let (mut full_nodes, mut star1_nodes, mut star2_nodes) = (0, 0, 0);
    for fen in bench::BENCH_FENS
        .iter()
        .filter(|fen| fen.contains('x') || fen.contains('X'))
    {
        let position = Position::from_fen(fen).unwrap();
        let (full, nodes) = root_value(&position, 3, exact(false, false));
        full_nodes += nodes;
        let (star1, nodes) = root_value(&position, 3, exact(true, false));
        star1_nodes += nodes;
        let (star2, nodes) = root_value(&position, 3, exact(true, true));
        star2_nodes += nodes;
        assert_eq!(star1, full, "Star1 on {fen}");
        assert_eq!(star2, full, "Star2 on {fen}");
    }
    eprintln!("nodes: full-window {full_nodes}, Star1 {star1_nodes}, Star1+Star2 {star2_nodes}");
    assert!(star2_nodes < full_nodes);
}

/// A level that picks among all its moves all but at random (a huge temperature, no
/// cap on the loss) still parries a mate in one when it looks again at its move: the look
/// sees the mate, and the level plays its best line instead.
#[test]
fn a_second_look_does_not_play_into_a_mate() {
    use veil::search::level::LevelParams;
    let position = Position::from_fen("4r1k1/2B2ppp/8/1N6/8/8/5PPP/6K1 w - - 0 1").unwrap();
    let level = |second_look| LevelParams {
        nodes: Some(20_000),
        candidates: 40,
        temperature_cp: 100_000,
        second_look,
        ..LevelParams::FULL
    };
    let mated_after = |second_look, seed| {
        let mut job = SearchJob::new(position.clone(), Limits::default());
        job.level = level(second_look);
        job.seed = seed;
        let result = run(&job, &TranspositionTable::new(4), &SearchControl::new(), |_| {});
        let after = position.play(result.best_move.unwrap(), None);
        after.legal_moves().iter().any(|&reply| {
            let next = after.play(reply, None);
            next.is_check() && next.legal_moves().is_empty()
        })
    };
    // Without the look, the choice plays into the mate for some seed.
    assert!((0..8).any(|seed| mated_after(false, seed)));
    for seed in 0..8 {
        assert!(!mated_after(true, seed), "seed {seed}: the level allows mate in one");
    }
}

/// A lapse glances, but the level still looks: Black threatens mate on the back rank, and a
/// level that lapses on every move with a one-node glance must still parry it, whatever the
/// glance would have played.
#[test]
fn a_lapse_does_not_throw_a_won_game_away() {
    use veil::search::level::LevelParams;
    let position = Position::from_fen("4r1k1/2B2ppp/8/1N6/8/8/5PPP/6K1 w - - 0 1").unwrap();
    for seed in 0..8 {
        let mut job = SearchJob::new(position.clone(), Limits::default());
        job.level = LevelParams {
            nodes: Some(20_000),
            lapse_pct: 100,
            lapse_nodes: Some(1),
            ..LevelParams::FULL
        };
        job.seed = seed;
        let result = run(&job, &TranspositionTable::new(4), &SearchControl::new(), |_| {});
        let played = result.best_move.unwrap();
        let after = position.play(played, None);
        let mated = after.legal_moves().iter().any(|&reply| {
            let next = after.play(reply, None);
            next.is_check() && next.legal_moves().is_empty()
        });
        assert!(!mated, "seed {seed}: {played} allows mate in one");
    }
}

/// A level blind to quiet moves (`quiet_reduction`) still follows forcing lines: the knight
/// fork with check is found at the same depth, by a smaller tree.
#[test]
fn a_level_blind_to_quiet_moves_still_sees_a_fork_with_check() {
    use veil::search::level::LevelParams;
    let position = Position::from_fen("3q3k/6pp/8/4N3/8/8/6PP/6K1 w - - 0 1").unwrap();
    let searched = |quiet_reduction| {
        let mut job = SearchJob::new(position.clone(), depth(6));
        job.level = LevelParams {
            quiet_reduction,
            ..LevelParams::FULL
        };
        run(&job, &TranspositionTable::new(4), &SearchControl::new(), |_| {})
    };
    let (sighted, blind) = (searched(0), searched(2));
    for result in [&sighted, &blind] {
        assert_eq!(result.best_move.unwrap().to_string(), "e5f7");
    }
    assert!(blind.nodes < sighted.nodes, "{} against {}", blind.nodes, sighted.nodes);
}
