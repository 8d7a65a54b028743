//! Tests of the levels: their files, `UCI_Elo`, caps, lapses and choice.

use super::choice::scaled_by_complexity;
use super::table::LevelsFile;
use super::*;
use crate::rules::{Move, Square};
use crate::search::limits::Limits;
use std::time::Duration;

#[test]
fn the_default_table_round_trips_through_a_file() {
    let table = LevelTable::default();
    let text = table.to_toml();
    assert_eq!(LevelTable::parse(&text), Ok(table));
    let json = serde_json::to_string(&LevelsFile {
        level: table.levels.to_vec(),
    })
    .unwrap();
    assert_eq!(LevelTable::parse(&json), Ok(table));
    // Fields at their defaults are left out, as in the compiled-in file.
    let level_5 = text.rsplit("[[level]]").next().unwrap();
    assert!(!level_5.contains("lapse_pct") && !level_5.contains("chances_when_ahead"));
    assert!(!level_5.contains("second_look"));
}

#[test]
fn a_second_look_may_be_covered_chess_only() {
    let params = LevelParams {
        second_look: true,
        chess_second_look: Some(false),
        ..LevelTable::default().levels[2]
    };
    assert!(params.in_variant(true).second_look && !params.in_variant(false).second_look);
    let (table, text) = with_level_3(params);
    assert!(text.contains("second_look = true") && text.contains("chess_second_look = false"));
    // UCI_Elo takes the nearer level's.
    let (l3, l4) = (table.levels[2].elo.unwrap(), table.levels[3].elo.unwrap());
    let near3 = table.for_elo(l3 + (l4 - l3) * 0.25);
    assert!(near3.in_variant(true).second_look && !near3.in_variant(false).second_look);
    let near4 = table.for_elo(l3 + (l4 - l3) * 0.75);
    assert!(!near4.in_variant(true).second_look && !near4.in_variant(false).second_look);
}

#[test]
fn bad_files_are_refused_with_a_reason() {
    assert!(LevelTable::parse("").is_err());
    assert!(LevelTable::parse("[[level]]\ndepth = 3\n")
        .unwrap_err()
        .to_string()
        .contains("5 levels"));
    let mut text = LevelTable::default().to_toml();
    text = text.replacen("candidates = 4", "candidates = 0", 1);
    assert!(LevelTable::parse(&text).unwrap_err().to_string().contains("level 1"));
    // A syntax error says where, never what the file holds.
    let error = LevelTable::parse("[[level]]\ndepth = 3\nspeed = 3\n").unwrap_err();
    assert_eq!(error.to_string(), "not a valid levels file (line 3)");
    let error = LevelTable::parse("root:x:0:0:root:/root:/bin/bash\n").unwrap_err();
    assert_eq!(error.to_string(), "not a valid levels file (line 1)");
    let error = LevelTable::parse("{\n\"level\": secret\n}").unwrap_err();
    assert_eq!(error.to_string(), "not a valid levels file (line 2)");
    assert_eq!(LevelTable::parse_bytes(b"\xff\xfe"), Err(LevelsFileError::NotText));
    assert!(LevelTable::parse("{\"level\": 3}").is_err());
}

#[test]
fn uci_elo_interpolates_between_levels() {
    let table = LevelTable::default();
    let (low, high) = table.elo_range();
    assert_eq!(table.for_elo(low - 500.0), table.levels[0]);
    assert_eq!(table.for_elo(high + 500.0), table.levels[4]);
    let l1 = table.levels[0].elo.unwrap();
    let l2 = table.levels[1].elo.unwrap();
    assert_eq!(table.for_elo(l2), table.levels[1]);
    let middle = table.for_elo((l1 + l2) / 2.0);
    assert!(middle.noise_cp < table.levels[0].noise_cp && middle.noise_cp > table.levels[1].noise_cp);
    assert!(middle.nodes > table.levels[0].nodes && middle.nodes < table.levels[1].nodes);
    let top = table.for_elo(high - 1.0);
    assert!(top.nodes.unwrap() > table.levels[3].nodes.unwrap());
}

#[test]
fn uci_elo_near_full_strength_keeps_the_network() {
    let table = LevelTable::default();
    let (l4, l5) = (table.get(4).elo.unwrap(), table.get(5).elo.unwrap());
    assert!(table.get(4).network && !table.get(5).network && table.get(5).is_full());
    for t in [0.1, 0.5, 0.9] {
        let params = table.for_elo(l4 + (l5 - l4) * t);
        assert!(!params.is_full() && params.network, "t = {t}");
    }
}

#[test]
fn a_plain_chess_node_cap_serves_plain_chess_only() {
    let mut table = LevelTable::default();
    table.levels[1].chess_nodes = Some(20_000);
    table.levels[2].chess_nodes = None;
    let level = table.levels[1];
    assert_eq!(level.in_variant(false).nodes, Some(20_000));
    assert_eq!(level.in_variant(true).nodes, level.nodes);
    assert_eq!(table.levels[2].in_variant(false).nodes, table.levels[2].nodes);
    // UCI_Elo between two levels interpolates it, the other level's `nodes` standing in.
    let (l2, l3) = (table.levels[1].elo.unwrap(), table.levels[2].elo.unwrap());
    let middle = table.for_elo((l2 + l3) / 2.0);
    let plain = middle.nodes_in(false).unwrap();
    assert!(plain > 20_000.min(table.levels[2].nodes.unwrap()));
    assert!(plain < 20_000.max(table.levels[2].nodes.unwrap()));
    // Where neither level has one, neither has the mean.
    table.levels[1].chess_nodes = None;
    assert_eq!(table.for_elo((l2 + l3) / 2.0).chess_nodes, None);
    table.levels[1].chess_nodes = Some(20_000);
    let text = table.to_toml();
    assert_eq!(LevelTable::parse(&text), Ok(table));
    assert!(LevelTable::parse(&text.replacen("chess_nodes = 20000", "chess_nodes = 0", 1)).is_err());
}

#[test]
fn caps_only_tighten() {
    let params = LevelTable::default().levels[1];
    let mut limits = Limits {
        depth: Some(9),
        movetime: Some(Duration::from_millis(10)),
        ..Limits::default()
    };
    apply(&params, &mut limits, 1, 30, 1);
    assert_eq!(limits.depth, Some(9));
    assert_eq!(limits.nodes, params.nodes);
    assert!(params.nodes.is_some());
    assert_eq!(limits.movetime, Some(Duration::from_millis(10)));
}

/// The compiled-in table with Level 3's row made `params` (its Elo kept), and its file,
/// which must read back as the same table.
fn with_level_3(params: LevelParams) -> (LevelTable, String) {
    let mut table = LevelTable::default();
    table.levels[2] = LevelParams {
        elo: table.levels[2].elo,
        ..params
    };
    let text = table.to_toml();
    assert_eq!(LevelTable::parse(&text), Ok(table));
    (table, text)
}

#[test]
fn a_lapse_caps_the_nodes_of_its_share_of_moves_in_its_variant() {
    let params = LevelParams {
        nodes: Some(50_000),
        lapse_pct: 20,
        chess_lapse_pct: Some(0),
        lapse_nodes: Some(300),
        ..LevelParams::FULL
    };
    let nodes = |params: &LevelParams, key: u64| {
        // A lapse's glance has the lapse's cap; the full search that judges it, the level's.
        let mut limits = Limits::default();
        let glance = apply(params, &mut limits, key, 30, 9);
        assert_eq!(limits.nodes, Some(50_000));
        glance.map_or(limits.nodes, |glance| glance.nodes)
    };
    let covered = params.in_variant(true);
    let lapses = (0..2000).filter(|&key| nodes(&covered, key) == Some(300)).count();
    assert!((300..500).contains(&lapses), "{lapses} lapses in 2000 moves");
    assert!((0..2000).all(|key| [Some(300), Some(50_000)].contains(&nodes(&covered, key))));
    // The same move of the same game lapses every time; plain chess has its own rate.
    assert_eq!(nodes(&covered, 77), nodes(&covered, 77));
    let plain = params.in_variant(false);
    assert!((0..2000).all(|key| nodes(&plain, key) == Some(50_000)));
    // A lapse never loosens a tighter limit.
    let mut limits = Limits {
        nodes: Some(100),
        ..Limits::default()
    };
    let key = (0..).find(|&key| is_lapse(&covered, key, 9)).unwrap();
    let glance = apply(&covered, &mut limits, key, 30, 9);
    assert_eq!(
        (limits.nodes, glance.and_then(|glance| glance.nodes)),
        (Some(100), Some(100))
    );
    // Files say it, bounded; UCI_Elo interpolates it.
    let (table, text) = with_level_3(params);
    assert!(LevelTable::parse(&text.replacen("lapse_pct = 20", "lapse_pct = 101", 1)).is_err());
    assert!(LevelTable::parse(&text.replacen("lapse_nodes = 300", "lapse_nodes = 0", 1)).is_err());
    let (l2, l3) = (table.levels[1].elo.unwrap(), table.levels[2].elo.unwrap());
    let middle = table.for_elo((l2 + l3) / 2.0);
    assert_eq!(
        (middle.lapse_pct, middle.chess_lapse_pct, middle.lapse_nodes),
        (10, Some(0), Some(300))
    );
}

#[test]
fn plain_chess_may_have_a_choice_of_its_own() {
    let params = LevelParams {
        candidates: 5,
        temperature_cp: 71,
        chess_candidates: Some(4),
        chess_temperature_cp: Some(45),
        noise_cp: 40,
        chess_noise_cp: Some(30),
        ..LevelParams::FULL
    };
    let (covered, plain) = (params.in_variant(true), params.in_variant(false));
    assert_eq!(
        (covered.candidates, covered.temperature_cp, covered.noise_cp),
        (5, 71, 40)
    );
    assert_eq!((plain.candidates, plain.temperature_cp, plain.noise_cp), (4, 45, 30));
    let shared = LevelParams {
        chess_candidates: None,
        chess_temperature_cp: None,
        chess_noise_cp: None,
        ..params
    };
    assert_eq!(shared.in_variant(false).temperature_cp, 71);
    assert_eq!(shared.in_variant(false).noise_cp, 40);
    // Files say it, bounded; UCI_Elo interpolates it.
    let (table, text) = with_level_3(params);
    assert!(LevelTable::parse(&text.replacen("chess_candidates = 4", "chess_candidates = 0", 1)).is_err());
    assert!(LevelTable::parse(&text.replacen("chess_temperature_cp = 45", "chess_temperature_cp = -1", 1)).is_err());
    assert!(LevelTable::parse(&text.replacen("chess_noise_cp = 30", "chess_noise_cp = 1001", 1)).is_err());
    let (l3, l4) = (table.levels[2].elo.unwrap(), table.levels[3].elo.unwrap());
    let middle = table.for_elo((l3 + l4) / 2.0);
    let level4 = table.levels[3];
    assert_eq!(
        middle.chess_temperature_cp,
        Some(((45 + level4.temperature_cp) as f64 / 2.0).round() as i32)
    );
    assert_eq!(
        middle.temperature_cp,
        ((71 + level4.temperature_cp) as f64 / 2.0).round() as i32
    );
    assert_eq!(
        middle.chess_noise_cp,
        Some(((30 + level4.noise_cp) as f64 / 2.0).round() as i32)
    );
}

#[test]
fn noise_and_choice_are_fixed_by_key_and_seed() {
    assert_eq!(noise(1, 2, 50), noise(1, 2, 50));
    assert_eq!(noise(1, 2, 0), 0);
    let spread: Vec<i32> = (0..1000).map(|k| noise(k, 7, 50)).collect();
    assert!(spread.iter().all(|n| (-50..=50).contains(n)));
    assert!(spread.iter().any(|&n| n > 40) && spread.iter().any(|&n| n < -40));
    let position = crate::rules::Position::standard_start();
    let moves: Vec<Move> = position.legal_moves().iter().copied().take(4).collect();
    let lines: Vec<(Move, i32)> = moves.iter().zip([30, 20, 0, -300]).map(|(&m, s)| (m, s)).collect();
    let params = LevelTable::default().levels[0];
    let picks: Vec<Move> = (0..200).filter_map(|k| choose(&params, &lines, k, 1, None)).collect();
    assert_eq!(
        picks,
        (0..200)
            .filter_map(|k| choose(&params, &lines, k, 1, None))
            .collect::<Vec<_>>()
    );
    let count = |m: Move| picks.iter().filter(|&&p| p == m).count();
    assert!(count(moves[0]) > count(moves[2]) && count(moves[2]) > count(moves[3]));
    assert_eq!(choose(&LevelParams::FULL, &lines, 5, 5, None), Some(moves[0]));
}

/// The first legal moves of the start position with the given scores, best first.
fn scored_lines(scores: &[i32]) -> Vec<(Move, i32)> {
    let position = crate::rules::Position::standard_start();
    position
        .legal_moves()
        .iter()
        .copied()
        .zip(scores.iter().copied())
        .collect()
}

#[test]
fn a_capped_level_never_picks_a_move_losing_more_than_its_cap() {
    let lines = scored_lines(&[30, 20, -60, -71, -300, -900]);
    let hot = LevelParams {
        candidates: 6,
        temperature_cp: 1000,
        max_loss_cp: Some(100),
        ..LevelParams::FULL
    };
    let picks: Vec<Move> = (0..2000).filter_map(|k| choose(&hot, &lines, k, 3, None)).collect();
    let count = |i: usize| picks.iter().filter(|&&p| p == lines[i].0).count();
    // The moves within 100 cp of the best are all played; the others never.
    assert!(
        (0..3).all(|i| count(i) > 400),
        "{:?}",
        (0..6).map(count).collect::<Vec<_>>()
    );
    assert!((3..6).all(|i| count(i) == 0));
    // Without the cap the same draw plays them all.
    let uncapped = LevelParams {
        max_loss_cp: None,
        ..hot
    };
    let picks: Vec<Move> = (0..2000)
        .filter_map(|k| choose(&uncapped, &lines, k, 3, None))
        .collect();
    assert!(lines.iter().all(|&(m, _)| picks.contains(&m)));
}

#[test]
fn a_level_ahead_may_weigh_its_losses_in_winning_chances() {
    // Near zero the scale is centipawns; a lead is pressed together; mates and deficits
    // are left alone.
    assert_eq!(choice_scale(-250), -250.0);
    assert_eq!(choice_scale(0), 0.0);
    assert!((choice_scale(50) - 50.0).abs() < 0.5);
    assert!((choice_scale(600) - 436.0).abs() < 1.0, "{}", choice_scale(600));
    assert!((choice_scale(1000) - 516.0).abs() < 1.0, "{}", choice_scale(1000));
    assert_eq!(choice_scale(29_990), 29_990.0);
    let level = |chances_when_ahead| LevelParams {
        candidates: 4,
        temperature_cp: 40,
        max_loss_cp: Some(130),
        chances_when_ahead,
        ..LevelParams::FULL
    };
    let (careful, loose) = (level(false), level(true));
    let count = |params: &LevelParams, lines: &[(Move, i32)], i: usize| {
        (0..2000)
            .filter(|&k| choose(params, lines, k, 11, None) == Some(lines[i].0))
            .count()
    };
    // Far ahead, a move 200 cp worse is within the cap in winning chances, not in
    // centipawns.
    let ahead = scored_lines(&[900, 700, 650, 100]);
    assert_eq!(count(&careful, &ahead, 1), 0);
    assert!(count(&loose, &ahead, 1) > 200, "{}", count(&loose, &ahead, 1));
    assert_eq!(count(&loose, &ahead, 3), 0);
    // Even or behind, both choose alike, draw for draw.
    for scores in [[20, 0, -30, -200], [-400, -420, -480, -900]] {
        let lines = scored_lines(&scores);
        assert!((0..500).all(|k| choose(&careful, &lines, k, 4, None) == choose(&loose, &lines, k, 4, None)));
    }
    // A mate found is a mate played.
    let mating = scored_lines(&[29_997, 900, 880]);
    assert_eq!(count(&loose, &mating, 0), 2000);
    // Plain chess may have its own; files say it; UCI_Elo takes the nearer level's.
    let params = LevelParams {
        chess_chances_when_ahead: Some(true),
        ..careful
    };
    assert!(!params.in_variant(true).chances_when_ahead);
    assert!(params.in_variant(false).chances_when_ahead);
    let (table, text) = with_level_3(params);
    assert!(text.contains("chess_chances_when_ahead = true"));
    let (l3, l4) = (table.levels[2].elo.unwrap(), table.levels[3].elo.unwrap());
    let near3 = table.for_elo(l3 + (l4 - l3) * 0.25);
    assert!(near3.in_variant(false).chances_when_ahead && !near3.in_variant(true).chances_when_ahead);
    assert!(
        !table
            .for_elo(l3 + (l4 - l3) * 0.75)
            .in_variant(false)
            .chances_when_ahead
    );
}

#[test]
fn an_only_move_is_always_played() {
    let lines = scored_lines(&[50, -250, -260, -400]);
    let level = LevelParams {
        max_loss_cp: Some(250),
        ..LevelTable::default().levels[0]
    };
    assert!((0..1000).all(|k| choose(&level, &lines, k, 9, None) == Some(lines[0].0)));
}

#[test]
fn a_recapture_is_taken_as_often_as_the_level_says() {
    let lines = scored_lines(&[100, 90, 80, 70]);
    let square = lines[0].0.to();
    let level = |recapture_pct| LevelParams {
        candidates: 4,
        temperature_cp: 200,
        recapture_pct,
        ..LevelParams::FULL
    };
    let best_count = |params: &LevelParams, recapture: Option<Square>| {
        (0..1000)
            .filter(|&k| choose(params, &lines, k, 5, recapture) == Some(lines[0].0))
            .count()
    };
    // Always at 100%, never forced at 0% (the softmax then plays it about a third of the
    // time), about half-way between at 50%.
    assert_eq!(best_count(&level(100), Some(square)), 1000);
    let free = best_count(&level(0), Some(square));
    assert!((200..450).contains(&free), "{free}");
    let half = best_count(&level(50), Some(square));
    assert!((550..750).contains(&half), "{half}");
    // A capture elsewhere, or a best move that does not go there, changes nothing.
    assert_eq!(best_count(&level(100), None), free);
    assert_eq!(best_count(&level(100), Some(lines[1].0.to())), free);
}

#[test]
fn files_without_the_new_fields_still_load() {
    let text = LevelTable::default()
        .to_toml()
        .lines()
        .filter(|line| !line.starts_with("max_loss_cp") && !line.starts_with("recapture_pct"))
        .collect::<Vec<_>>()
        .join("\n");
    let table = LevelTable::parse(&text).unwrap();
    assert!(table
        .levels
        .iter()
        .all(|l| l.max_loss_cp.is_none() && l.recapture_pct == 0));
    let mut bad = LevelTable::default();
    bad.levels[2].max_loss_cp = Some(-1);
    assert!(LevelTable::parse(&bad.to_toml())
        .unwrap_err()
        .to_string()
        .contains("level 3"));
    bad.levels[2].max_loss_cp = None;
    bad.levels[2].recapture_pct = 101;
    assert!(LevelTable::parse(&bad.to_toml())
        .unwrap_err()
        .to_string()
        .contains("recapture_pct"));
}

#[test]
fn complexity_scales_the_node_cap_by_the_legal_moves_within_bounds() {
    let params = LevelParams {
        nodes: Some(60_000),
        chess_complexity_moves: Some(30),
        lapse_pct: 100,
        lapse_nodes: Some(300),
        ..LevelParams::FULL
    };
    let nodes = |params: &LevelParams, legal_moves: usize| {
        let mut limits = Limits::default();
        let glance = apply(params, &mut limits, 5, legal_moves, 9);
        glance.map_or(limits.nodes, |glance| glance.nodes)
    };
    // Covered chess has no reference here: the cap stands; a lapse's glance keeps its own
    // cap.
    let covered = LevelParams {
        lapse_pct: 0,
        ..params.in_variant(true)
    };
    assert_eq!(nodes(&covered, 10), Some(60_000));
    assert_eq!(nodes(&params.in_variant(true), 10), Some(300));
    let plain = LevelParams {
        lapse_pct: 0,
        ..params.in_variant(false)
    };
    assert_eq!(nodes(&plain, 30), Some(60_000));
    assert_eq!(nodes(&plain, 15), Some(120_000));
    assert_eq!(nodes(&plain, 40), Some(45_000));
    assert_eq!(nodes(&plain, 200), Some(30_000), "at least half");
    assert_eq!(nodes(&plain, 1), Some(240_000), "at most four times");
    assert_eq!(scaled_by_complexity(60_000, None, 3), 60_000);
    // Files say it, bounded; UCI_Elo takes the nearer level's.
    let (table, text) = with_level_3(params);
    assert!(text.contains("chess_complexity_moves = 30") && !text.contains("\ncomplexity_moves"));
    assert!(LevelTable::parse(&text.replacen("chess_complexity_moves = 30", "chess_complexity_moves = 0", 1)).is_err());
    let (l2, l3) = (table.levels[1].elo.unwrap(), table.levels[2].elo.unwrap());
    assert_eq!(table.for_elo(l2 * 0.1 + l3 * 0.9).complexity_moves_in(false), Some(30));
    assert_eq!(table.for_elo(l2 * 0.9 + l3 * 0.1).complexity_moves_in(false), None);
}

#[test]
fn a_move_stands_unless_it_throws_away_a_game_that_was_not_lost() {
    // Small and middling losses stand: a lapse or the choice is meant to cost something.
    assert!(move_stands(0, -150));
    assert!(move_stands(300, 0));
    // A won or level game given away does not.
    assert!(!move_stands(500, -100));
    assert!(!move_stands(0, -900));
    assert!(!move_stands(20_000, -300), "a mate let go");
    // From a lost position, nothing more is lost.
    assert!(move_stands(-200, -2_000));
}

/// Asserts that the table `text` with its first `field_line` changed to `changed` is refused
/// by a message naming `field`.
fn assert_refused(text: &str, field_line: &str, changed: &str, field: &str) {
    assert!(text.contains(field_line), "{text}");
    let error = LevelTable::parse(&text.replacen(field_line, changed, 1)).unwrap_err();
    assert!(error.to_string().contains(field), "{error}");
}

#[test]
fn quiet_reduction_is_per_variant_bounded_and_taken_from_the_nearer_level() {
    let params = LevelParams {
        nodes: Some(60_000),
        chess_quiet_reduction: Some(2),
        ..LevelParams::FULL
    };
    assert_eq!(params.in_variant(true).quiet_reduction, 0);
    assert_eq!(params.in_variant(false).quiet_reduction, 2);
    let (table, text) = with_level_3(params);
    assert!(text.contains("chess_quiet_reduction = 2") && !text.contains("\nquiet_reduction"));
    assert_refused(
        &text,
        "chess_quiet_reduction = 2",
        "chess_quiet_reduction = 5",
        "quiet_reduction",
    );
    let (l2, l3) = (table.levels[1].elo.unwrap(), table.levels[2].elo.unwrap());
    assert_eq!(table.for_elo(l2 * 0.1 + l3 * 0.9).quiet_reduction_in(false), 2);
    assert_eq!(table.for_elo(l2 * 0.9 + l3 * 0.1).quiet_reduction_in(false), 0);
    assert_eq!(table.for_elo(l2 * 0.1 + l3 * 0.9).quiet_reduction_in(true), 0);
}

#[test]
fn the_loss_cap_is_per_variant_bounded_and_interpolated() {
    let params = LevelParams {
        nodes: Some(60_000),
        max_loss_cp: Some(60),
        chess_max_loss_cp: Some(150),
        ..LevelParams::FULL
    };
    assert_eq!(params.in_variant(true).max_loss_cp, Some(60));
    assert_eq!(params.in_variant(false).max_loss_cp, Some(150));
    assert_eq!(params.in_variant(false).chess_max_loss_cp, None);
    let (table, text) = with_level_3(params);
    assert!(text.contains("chess_max_loss_cp = 150"), "{text}");
    assert_refused(
        &text,
        "chess_max_loss_cp = 150",
        "chess_max_loss_cp = 5000",
        "chess_max_loss_cp",
    );
    // Halfway to a level with a cap in both variants, the caps meet halfway in each.
    let (l3, l4) = (table.levels[2].elo.unwrap(), table.levels[3].elo.unwrap());
    let other = table.levels[3].max_loss_cp;
    let between = table.for_elo((l3 + l4) / 2.0);
    let halfway = |a: i32, b: Option<i32>| b.map_or(a, |b| (f64::from(a + b) / 2.0).round() as i32);
    assert_eq!(between.max_loss_in(true), Some(halfway(60, other)));
    assert_eq!(between.max_loss_in(false), Some(halfway(150, other)));
}
