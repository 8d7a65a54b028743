//! `veil levels --tune` end to end, with a journal: a first run keeps its probes, a second
//! takes them up before it plays its own, and both write a table.

mod common;

use common::{scratch_dir, veil};

fn tune(dir: &std::path::Path, iterations: &str) -> String {
    let journal = dir.join("journal.jsonl");
    let write = dir.join("tuned.toml");
    let out = veil(&[
        "levels",
        "--tune",
        "--tune-levels",
        "1",
        "--variant",
        "covered",
        "--probe-games",
        "2",
        "--iterations",
        iterations,
        "--precision",
        "1",
        "--journal",
        journal.to_str().unwrap(),
        "--write",
        write.to_str().unwrap(),
        "--games",
        "0",
        "--tc",
        "nodes=200",
        "--concurrency",
        "1",
        "--quiet",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(write.exists(), "{stdout}");
    stdout
}

#[test]
fn a_tuning_takes_up_the_probes_its_journal_kept() {
    let dir = scratch_dir("tune");
    let first = tune(&dir, "2");
    assert_eq!(first.matches("probe: L1 nodes").count(), 2, "{first}");
    assert!(!first.contains("(journal)"), "{first}");
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 2, "{journal}");
    // A precision of 1 Elo is out of reach: the second run plays its one probe after the two
    // it took up, and its fit stands on all three.
    let second = tune(&dir, "1");
    assert_eq!(second.matches("probe (journal): L1 nodes").count(), 2, "{second}");
    assert_eq!(second.matches("probe: L1 nodes").count(), 1, "{second}");
    assert!(
        second.contains("(the fit of 3 probes, 6 games, 4 of them from the journal)"),
        "{second}"
    );
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 3, "{journal}");
}
