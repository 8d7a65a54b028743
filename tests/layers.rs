//! The layers hold: the rules core names no room above it, the search does not know the
//! protocol or the arbiter, and the arbiter talks to engines only through the protocol, so it
//! never links the search; inside the search, mod.rs is only the front. Each test reads the
//! sources of a folder and fails on the lines of code (comments aside) that break a rule.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively, in a stable order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

/// The lines of code under `src/<folder>` that name one of `forbidden` (a top-level module
/// of the crate) through `crate::`, `veil::` or a `super::` chain reaching the crate root.
fn offending_lines(folder: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(folder);
    let files = rust_files(&root);
    assert!(!files.is_empty(), "no sources under {}", root.display());
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for module in forbidden {
                let named = [
                    format!("crate::{module}"),
                    format!("veil::{module}"),
                    format!("super::super::{module}"),
                    format!("super::super::super::{module}"),
                ]
                .iter()
                .any(|path| code.contains(path.as_str()));
                if named {
                    found.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn the_arbiter_never_names_the_search() {
    let found = offending_lines("arbiter", &["search"]);
    assert!(found.is_empty(), "the arbiter links the search:\n{}", found.join("\n"));
}

#[test]
fn the_rules_core_names_no_room_above_it() {
    let above = ["search", "protocol", "arbiter", "levels", "tuning", "tools"];
    let found = offending_lines("rules", &above);
    assert!(
        found.is_empty(),
        "the rules core knows a room above it:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_search_knows_neither_the_protocol_nor_the_arbiter() {
    let found = offending_lines("search", &["protocol", "arbiter", "levels", "tuning"]);
    assert!(
        found.is_empty(),
        "the search knows a room above it:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_forbidden_path() {
    // The scan itself works: the levels tool does use the search.
    assert!(!offending_lines("levels", &["search"]).is_empty());
}

#[test]
fn the_files_of_the_search_import_one_another_by_name() {
    // search/mod.rs is only the front: a file of the folder that takes an item straight from
    // `super` (`use super::{Limits, MATE}`) would make it a shared-types file again.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join("search");
    let mut found = Vec::new();
    for file in rust_files(&root) {
        if file.parent() != Some(root.as_path()) || file.ends_with("mod.rs") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let Some(path) = line.strip_prefix("use super::") else {
                continue;
            };
            let first = path.trim_start_matches('{').chars().next().unwrap_or(' ');
            let items_in_braces = path.starts_with('{')
                && path
                    .trim_matches(|c| c == '{' || c == '}' || c == ';')
                    .split(',')
                    .any(|item| item.trim().starts_with(|c: char| c.is_ascii_uppercase()));
            if first.is_ascii_uppercase() || items_in_braces {
                found.push(format!("{}:{}: {line}", file.display(), number + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "items taken from search/mod.rs:\n{}",
        found.join("\n")
    );
}
