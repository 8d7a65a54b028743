//! The network: incremental accumulators equal fresh ones along random games with reveals
//! (both variants), the network file and the training records round-trip, and a tiny
//! network trains end to end.

mod common;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use veil::nnue::{default_network, evaluate_from_scratch, AccumulatorStack, Base, Network};
use veil::rules::{Position, Role};
use veil::training::format::{read_records, write_records, Record};
use veil::training::trainer::{loss, train, Decay, FloatNetwork, Sample, Schedule};

/// A network with every weight drawn at random (so that every feature matters).
fn random_network(seed: u64) -> Network {
    FloatNetwork::random(seed, Base::Nothing).quantise(0, "random")
}

/// A random reveal for `m` from the mover's pool.
fn draw(position: &Position, m: veil::rules::Move, rng: &mut Xoshiro256PlusPlus) -> Option<Role> {
    let outcomes = position.reveal_outcomes(m);
    if outcomes.len() == 1 && outcomes[0].0.is_none() {
        return None;
    }
    Some(
        outcomes[rng.gen_range(0..outcomes.len())]
            .0
            .expect("a reveal draws a role"),
    )
}

/// The positions of a game of random moves from `start` (reveals drawn from the pools), at
/// most `plies` long, each after its move.
fn random_game(start: Position, plies: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Position> {
    let mut positions = Vec::new();
    let mut position = start;
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.gen_range(0..moves.len())];
        let reveal = draw(&position, m, rng);
        position = position.play(m, reveal);
        positions.push(position.clone());
    }
    positions
}

/// A test's training schedule: rate 0.003 falling to `final_rate_share` of it, 2 threads.
fn schedule(epochs: usize, batch: usize, final_rate_share: f32) -> Schedule {
    Schedule {
        epochs,
        batch,
        rate: 0.003,
        final_rate_share,
        decay: Decay::ByEpoch,
        threads: 2,
        seed: 1,
    }
}

/// The positions of `games` random games of 40 plies (seeded by `seed`); game `g` is plain
/// chess where `plain(g)`, covered chess elsewhere.
fn random_games(seed: u64, games: u64, plain: impl Fn(u64) -> bool) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = Vec::new();
    for game in 0..games {
        let start = if plain(game) {
            Position::standard_start()
        } else {
            Position::covered_start()
        };
        positions.extend(random_game(start, 40, &mut rng));
    }
    positions
}

#[test]
fn incremental_accumulators_equal_fresh_ones_along_random_games() {
    let bucketed = {
        let mut float = FloatNetwork::random(13, Base::Nothing).bucketed();
        for (b, bias) in float.output_bias.iter_mut().enumerate() {
            *bias = b as f32 * 0.1;
        }
        float.quantise(0, "random, bucketed")
    };
    for (network, seed) in [
        (random_network(1), 11u64),
        (default_network().as_ref().clone(), 12),
        (bucketed, 13),
    ] {
        for start in [Position::covered_start(), Position::standard_start()] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _game in 0..20 {
                let mut stack = AccumulatorStack::new(130);
                let mut position = start.clone();
                for ply in 0..120 {
                    let moves = position.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    assert_eq!(
                        stack.evaluate(&network, &position, ply),
                        evaluate_from_scratch(&network, &position),
                        "{}",
                        position.to_fen()
                    );
                    // Every child, as a search visits them (reveal outcomes are siblings).
                    for &m in moves.iter().take(6) {
                        for (role, _) in position.reveal_outcomes(m) {
                            let child = position.play(m, role);
                            assert_eq!(
                                stack.evaluate(&network, &child, ply + 1),
                                evaluate_from_scratch(&network, &child),
                                "{} after {m:?}",
                                position.to_fen()
                            );
                        }
                    }
                    let m = moves.as_slice()[rng.gen_range(0..moves.len())];
                    let reveal = draw(&position, m, &mut rng);
                    position = position.play(m, reveal);
                }
            }
        }
    }
}

#[test]
fn a_network_file_round_trips_and_damage_is_refused() {
    let network = random_network(3);
    let bytes = network.to_bytes();
    let back = Network::from_bytes(&bytes).expect("reads back");
    assert_eq!(back.to_bytes(), bytes);
    assert_eq!(back.description, "random");
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    assert!(Network::from_bytes(&damaged).is_err());
    assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    assert!(Network::from_bytes(b"root:x:0:0").is_err());
}

#[test]
fn records_round_trip() {
    let fens = [
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
        "x2xk1xx/2xp2x1/ppr4p/1N3n2/1p2P3/2P2P1B/XXXX2X1/X1XXK2X w KQkq - 0 9 Q1R2B1P5q1r1b2n1p2",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "5k2/n2N1x2/rp2n3/8/P1P2pPP/1PB5/2X5/X4PK1 b - - 1 29 N1P1p1",
    ];
    let records: Vec<Record> = fens
        .iter()
        .enumerate()
        .map(|(i, fen)| {
            let position = Position::from_fen(fen).expect("valid FEN");
            Record {
                position,
                score: -300 + 200 * i as i16,
                result: (i % 3) as u8,
            }
        })
        .collect();
    let mut bytes = Vec::new();
    write_records(&mut bytes, &records).expect("writes to memory");
    assert_eq!(bytes.len(), 32 * records.len());
    // A partial record at the end (a run stopped mid-write) is dropped.
    bytes.extend_from_slice(&[0u8; 7]);
    let back = read_records(&mut bytes.as_slice()).expect("reads back");
    assert_eq!(back.len(), records.len());
    for (a, b) in records.iter().zip(&back) {
        assert_eq!(a.score, b.score);
        assert_eq!(a.result, b.result);
        // The board, pools, side and castling survive; clocks and en passant are not kept.
        let fields = |p: &Position| p.to_fen().split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(&a.position), fields(&b.position));
        assert_eq!(a.position.pool_field(), b.position.pool_field());
    }
}

#[test]
fn a_tiny_network_trains_end_to_end() {
    // Data: positions of random games, labelled by material from the mover's view.
    let mut samples = Vec::new();
    for position in random_games(5, 60, |game| game % 2 == 1) {
        let score = veil::search::eval::evaluate(&position).clamp(-2000, 2000) as i16;
        let record = Record {
            position,
            score,
            result: 1,
        };
        samples.push(Sample::from_record(&record, 0.0, 190.0, 0));
    }
    let held_out = samples.split_off(samples.len() * 9 / 10);
    let mut network = FloatNetwork::random(9, Base::Nothing);
    let before = loss(&network, &held_out);
    let schedule = schedule(15, 256, 0.2);
    let mut reports = Vec::new();
    train(&mut network, &samples, &held_out, &schedule, |report| {
        reports.push(*report)
    });
    let after = loss(&network, &held_out);
    assert_eq!(reports.len(), 15);
    assert!(after < before * 0.7, "held-out loss {before} -> {after}");
    // The quantised network scores like the float one, within the rounding of its weights
    // (an output weight is kept to 1/64, a feature weight to 1/255).
    let quantised = network.quantise(1, "tiny");
    let file = Network::from_bytes(&quantised.to_bytes()).expect("reads back");
    assert_eq!(file.generation, 1);
    let position = Position::covered_start().play(
        Position::covered_start().legal_moves().as_slice()[0],
        Some(Role::Knight),
    );
    let record = Record {
        position: position.clone(),
        score: 0,
        result: 1,
    };
    let float_cp = network.evaluate(&Sample::from_record(&record, 0.0, 190.0, 0));
    let quantised_cp = evaluate_from_scratch(&file, &position) as f32;
    assert!(
        (float_cp - quantised_cp).abs() < 30.0 + float_cp.abs() * 0.05,
        "{float_cp} vs {quantised_cp}"
    );
}

#[test]
fn veil_datagen_records_train_a_network() {
    use veil::training::datagen::{self, Settings, VariantChoice};
    let dir = common::scratch_dir("datagen");
    let out = dir.join("data.bin");
    let settings = Settings {
        variant: VariantChoice::Both,
        games: 6,
        nodes: 300,
        threads: 2,
        seed: 3,
        shard: None,
        first_game: 0,
        random_plies: 8,
        book: Vec::new(),
        hash_mb: 1,
        evaluator: veil::search::Evaluator::everywhere(default_network()),
    };
    let summary = datagen::run(&settings, &out, false).expect("writes the data");
    let records = read_records(&mut std::fs::File::open(&out).unwrap()).expect("reads back");
    assert_eq!(records.len() as u64, summary.positions);
    assert!(records.len() > 50, "{summary:?}");
    for record in &records {
        // The filters: nobody in check, no mate scores.
        assert!(!record.position.is_check());
        assert!(record.result <= 2);
    }
    // Both variants were played.
    assert!(records.iter().any(|r| !r.position.covered().is_empty()));
    assert!(records.iter().any(|r| r.position.covered().is_empty()));
    // A second run appends.
    datagen::run(
        &Settings {
            seed: 4,
            ..settings.clone()
        },
        &out,
        true,
    )
    .expect("appends");
    let more = read_records(&mut std::fs::File::open(&out).unwrap()).expect("reads back");
    assert!(more.len() > records.len());
    // A run continued from its third game (--first-game 2) writes what one whole run writes.
    let one = dir.join("one.bin");
    let parts = dir.join("parts.bin");
    let single = Settings {
        variant: VariantChoice::Covered,
        games: 4,
        threads: 1,
        ..settings.clone()
    };
    datagen::run(&single, &one, false).expect("writes the data");
    datagen::run(
        &Settings {
            games: 2,
            ..single.clone()
        },
        &parts,
        false,
    )
    .expect("writes the data");
    let rest = datagen::run(
        &Settings {
            first_game: 2,
            ..single
        },
        &parts,
        true,
    )
    .expect("appends");
    assert_eq!(rest.games, 2);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&parts).unwrap());
    let samples: Vec<Sample> = more.iter().map(|r| Sample::from_record(r, 0.5, 190.0, 0)).collect();
    let mut network = FloatNetwork::random(2, Base::Nothing);
    let before = loss(&network, &samples);
    let schedule = schedule(5, 64, 0.5);
    train(&mut network, &samples, &samples, &schedule, |_| {});
    assert!(loss(&network, &samples) < before);
}

/// A network trained as a correction to the hand-written evaluation starts as that
/// evaluation: with its output layer at zero, a search with it is the hand-written search,
/// node for node.
#[test]
fn a_fresh_correction_searches_like_the_hand_written_evaluation() {
    let float = FloatNetwork::random(4, Base::Nothing).correcting(Base::HandWritten);
    let network = Network::from_bytes(&float.quantise(3, "zero correction").to_bytes()).unwrap();
    assert_eq!(network.base, Base::HandWritten);
    let evaluator = veil::search::Evaluator::everywhere(std::sync::Arc::new(network));
    let (with_network, _) = veil::search::bench::bench_with(4, &evaluator, None);
    let (hand_written, _) = veil::search::bench::bench_with(4, &veil::search::Evaluator::HandWritten, None);
    assert_eq!(with_network, hand_written);
}

/// A correction moved to another base keeps what it learnt (its output layer), and a whole
/// network made a correction starts from the base alone.
#[test]
fn a_correction_keeps_its_output_on_a_new_base() {
    let zero = |float: &FloatNetwork| {
        let network = float.quantise(3, "probe");
        network
            .outputs
            .iter()
            .all(|layer| layer.weights.iter().flatten().all(|&w| w == 0) && layer.bias == 0)
    };
    let whole = FloatNetwork::random(6, Base::Nothing);
    assert!(!zero(&whole));
    let correction = whole.clone().correcting(Base::HandWritten);
    assert!(zero(&correction));
    // A correction made from nothing (veil train --base without --init) starts as its base.
    assert!(zero(&FloatNetwork::random(6, Base::Material)));
    let mut trained = FloatNetwork::random(6, Base::Nothing);
    trained.base = Base::HandWritten;
    let rebased = trained.clone().correcting(Base::Material);
    assert_eq!(rebased.base, Base::Material);
    assert!(!zero(&rebased));
    assert!(rebased.quantise(3, "a").outputs == trained.quantise(3, "a").outputs);
}

/// A correction learns what the hand-written evaluation lacks: here, scores that value each
/// covered piece of the side to move 60 centipawns more than the evaluation does.
#[test]
fn a_correction_learns_what_the_base_lacks() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let mut samples = Vec::new();
    for _ in 0..60 {
        for position in random_game(Position::covered_start(), 30, &mut rng) {
            let base = veil::search::eval::evaluate(&position);
            let mover = position.side_to_move();
            let own = (position.covered() & position.pieces(mover)).count() as i32;
            let other = (position.covered() & position.pieces(!mover)).count() as i32;
            let score = (base + 60 * (own - other)).clamp(-2000, 2000) as i16;
            let record = Record {
                position: position.clone(),
                score,
                result: 1,
            };
            samples.push(Sample::from_record(&record, 0.0, 400.0, base));
        }
    }
    let held_out = samples.split_off(samples.len() * 9 / 10);
    let mut network = FloatNetwork::random(5, Base::Nothing).correcting(Base::HandWritten);
    let before = loss(&network, &held_out);
    let schedule = schedule(10, 128, 0.2);
    train(&mut network, &samples, &held_out, &schedule, |_| {});
    let after = loss(&network, &held_out);
    assert!(after < before * 0.5, "held-out loss {before} -> {after}");
    assert_eq!(network.quantise(3, "tiny correction").base, Base::HandWritten);
}

/// Fine-tuning a narrower network starts from exactly its evaluation, with the new units
/// able to learn (random inputs, no output yet).
#[test]
fn a_narrower_network_widens_without_changing_its_evaluation() {
    use veil::nnue::network::HIDDEN;
    let width = HIDDEN / 2;
    let mut narrow = random_network(11);
    for row in narrow.feature_weights.iter_mut() {
        row[width..].fill(0);
    }
    narrow.feature_bias[width..].fill(0);
    for half in narrow.outputs.iter_mut().flat_map(|layer| &mut layer.weights) {
        half[width..].fill(0);
    }
    narrow.width = width;
    let narrow = Network::from_bytes(&narrow.to_bytes()).unwrap();
    let widened = FloatNetwork::from_quantised(&narrow, 3).quantise(1, "widened");
    assert_eq!(widened.width, HIDDEN);
    assert!(widened
        .feature_weights
        .iter()
        .any(|row| row[width..].iter().any(|&w| w != 0)));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    for position in random_game(Position::covered_start(), 60, &mut rng) {
        assert_eq!(
            evaluate_from_scratch(&widened, &position),
            evaluate_from_scratch(&narrow, &position)
        );
    }
}

/// A network given an output layer per bucket of pieces evaluates exactly as before, and
/// then each layer learns its own part of the game: here, scores that favour the side to
/// move by 100 centipawns with more than 20 pieces on the board and by none with fewer.
#[test]
fn output_buckets_start_as_the_one_layer_and_learn_apart() {
    let network = random_network(14);
    let bucketed = FloatNetwork::from_quantised(&network, 1)
        .bucketed()
        .quantise(0, "bucketed");
    assert_eq!((network.buckets(), bucketed.buckets()), (1, 8));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let mut samples = Vec::new();
    for game in 0..80 {
        let start = if game % 2 == 0 {
            Position::covered_start()
        } else {
            Position::standard_start()
        };
        for position in random_game(start, 90, &mut rng) {
            assert_eq!(
                evaluate_from_scratch(&network, &position),
                evaluate_from_scratch(&bucketed, &position)
            );
            let base = veil::search::eval::evaluate(&position);
            let bonus = if position.occupied().count() > 20 { 100 } else { 0 };
            let record = Record {
                position: position.clone(),
                score: (base + bonus).clamp(-2000, 2000) as i16,
                result: 1,
            };
            samples.push(Sample::from_record(&record, 0.0, 400.0, base));
        }
    }
    let held_out = samples.split_off(samples.len() * 9 / 10);
    let schedule = schedule(8, 128, 0.2);
    let mut one = FloatNetwork::random(16, Base::Nothing).correcting(Base::HandWritten);
    let mut eight = one.clone().bucketed();
    train(&mut one, &samples, &held_out, &schedule, |_| {});
    train(&mut eight, &samples, &held_out, &schedule, |_| {});
    let (one_loss, eight_loss) = (loss(&one, &held_out), loss(&eight, &held_out));
    assert!(
        eight_loss < one_loss,
        "held-out loss: one layer {one_loss}, eight {eight_loss}"
    );
    let quantised = eight.quantise(2, "eight");
    assert_ne!(quantised.outputs[0].bias, quantised.outputs[7].bias);
}

/// `veil train --teacher`: the labels are the teacher's evaluation as the search makes it
/// (its base and its output, for the side to move), so that a student which is the teacher
/// fits them exactly, and a fresh whole network learns them.
#[test]
fn a_teacher_labels_positions_with_its_own_evaluation() {
    use veil::search::eval::base_score;
    use veil::training::teacher::taught;
    let teacher = default_network();
    let records: Vec<Record> = random_games(21, 20, |game| game % 4 == 0)
        .into_iter()
        .map(|position| {
            let record = Record {
                position,
                score: 0,
                result: 2,
            };
            taught(&record, &teacher)
        })
        .collect();
    let sample = |record: &Record, base: Base| {
        Sample::from_record(record, 0.0, 400.0, base_score(base, &record.position, false))
    };
    // The teacher as a student: its labels are its own evaluation, to the rounding of the
    // float copy of its weights.
    let student = FloatNetwork::from_quantised(&teacher, 1).correcting(teacher.base);
    let samples: Vec<Sample> = records.iter().map(|r| sample(r, teacher.base)).collect();
    assert!(loss(&student, &samples) < 1e-5, "{}", loss(&student, &samples));
    // Results do not enter a target at lambda 0; a lost game's record labels alike.
    let lost = Record {
        result: 0,
        ..records[7].clone()
    };
    assert_eq!(taught(&lost, &teacher).score, records[7].score);
    // A whole network learns them.
    let samples: Vec<Sample> = records.iter().map(|r| sample(r, Base::Nothing)).collect();
    let mut network = FloatNetwork::random(4, Base::Nothing);
    let before = loss(&network, &samples);
    let schedule = schedule(10, 128, 0.3);
    train(&mut network, &samples, &samples, &schedule, |_| {});
    assert!(loss(&network, &samples) < before * 0.7);
}

/// `veil datagen` stopped by a signal starts no new game, writes the games in progress
/// whole, says so, and exits with status 130.
#[test]
fn a_signal_stops_datagen_with_whole_games_written() {
    let dir = common::scratch_dir("datagen-signal");
    let out = dir.join("data.bin");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_veil"))
        .args(["datagen", "--out", out.to_str().unwrap(), "--variant", "covered"])
        .args(["--games", "100000", "--nodes", "300", "--threads", "2", "--seed", "8"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let size = || std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let stdout = common::stop_when(child, || size() >= 10 * 32, libc::SIGTERM, false);
    assert!(stdout.contains("stopped by hand"), "{stdout}");
    assert!(stdout.contains("--first-game"), "{stdout}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len() % 32, 0, "a record was cut");
    let records = read_records(&mut bytes.as_slice()).unwrap();
    assert!(
        stdout.contains(&format!("{} positions written", records.len())),
        "{stdout}"
    );
}

/// `veil datagen ... | head` and `veil train ... | head`: a reader that stops early ends
/// neither run before it has written its file.
#[test]
fn datagen_and_train_write_their_files_when_the_reader_stops() {
    let dir = common::scratch_dir("closed-stdout");
    let (data, net) = (dir.join("data.bin"), dir.join("net.nnue"));
    let run = |args: &[&str]| {
        let out = common::veil_with_stdout_closed(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let (data_arg, net_arg) = (data.to_str().unwrap(), net.to_str().unwrap());
    run(&["datagen", "--out", data_arg, "--variant", "covered", "--games", "2"]
        .into_iter()
        .chain(["--nodes", "300", "--threads", "1", "--seed", "5"])
        .collect::<Vec<_>>());
    let records = read_records(&mut std::fs::File::open(&data).unwrap()).unwrap();
    assert!(!records.is_empty());
    run(&[
        "train",
        "--data",
        data_arg,
        "--out",
        net_arg,
        "--epochs",
        "1",
        "--threads",
        "1",
    ]);
    Network::from_bytes(&std::fs::read(&net).unwrap()).expect("a network file");
}

/// `veil train --held-out-data F` holds out every record of F (here the training file
/// itself, with `--held-out 0`), and the network's description names the training whole,
/// `--decay step` included, within the file's 56 bytes; it reports the held-out loss of the
/// network it wrote (rounded) and how many weights differ from the initial network's.
#[test]
fn train_holds_out_whole_files_and_decays_by_step() {
    let dir = common::scratch_dir("held-out-data");
    let (data, net) = (dir.join("data.bin"), dir.join("net.nnue"));
    let (data_arg, net_arg) = (data.to_str().unwrap(), net.to_str().unwrap());
    let gen = common::veil(&[
        "datagen",
        "--out",
        data_arg,
        "--variant",
        "covered",
        "--games",
        "2",
        "--nodes",
        "300",
        "--seed",
        "6",
    ]);
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    let records = read_records(&mut std::fs::File::open(&data).unwrap()).unwrap();
    let out = common::veil(&[
        "train",
        "--data",
        data_arg,
        "--held-out",
        "0",
        "--held-out-data",
        data_arg,
        "--out",
        net_arg,
        "--epochs",
        "2",
        "--batch",
        "16",
        "--decay",
        "step",
        "--threads",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let n = records.len();
    assert!(
        stdout.contains(&format!("{n} training and {n} held-out positions")),
        "{stdout}"
    );
    assert!(stdout.contains("held-out loss of the network written"), "{stdout}");
    // No step: the network written is the initial one, weight for weight.
    let again = dir.join("again.nnue");
    let out = common::veil(&[
        "train",
        "--data",
        data_arg,
        "--init",
        net_arg,
        "--out",
        again.to_str().unwrap(),
        "--epochs",
        "0",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\n0 of 119169 weights differ"), "{stdout}");
    let network = Network::from_bytes(&std::fs::read(&net).unwrap()).expect("a network file");
    assert!(
        network
            .description
            .ends_with(&format!(": {} pos, 2x16/step, λ0.5 K190/400", 2 * n)),
        "{}",
        network.description
    );
}
