#!/usr/bin/env bash
# Checks the bench signature: `veil bench` must print the node count that the history
# declares. The declared count is the `Bench: N` line of the newest commit that touched
# something the search tree depends on and carries such a line:
#
#   src/search  src/rules  src/nnue  networks  build.rs
#
# Commits that touched those paths without a `Bench:` line are named and looked past: a
# refactor that keeps the tree may omit it, and then the older line still has to hold. A
# mismatch fails with both numbers and the commit the expected one came from.
#
# Without history to read (not a git work tree, or a shallow clone whose fetched commits
# hold no `Bench:` line for those paths) the check is skipped with a message and exit 0:
# CI runs on full clones; `git fetch --unshallow` makes a shallow one checkable. Pass
# --strict to make a skipped check fail instead.
#
# Usage: bash scripts/check-bench.sh [--strict] [--no-build]
#   --no-build  use target/release/veil as it is (CI: just built by cargo test --release)

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BENCH_PATHS=(src/search src/rules src/nnue networks build.rs)
strict=0
build=1
for arg in "$@"; do
    case "$arg" in
        --strict) strict=1 ;;
        --no-build) build=0 ;;
        *) echo "check-bench: unknown argument $arg" >&2; exit 2 ;;
    esac
done

skip() {
    echo "check-bench: SKIPPED: $*"
    if [ "$strict" -eq 1 ]; then exit 1; fi
    exit 0
}

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    skip "not a git work tree, so no commit to read a Bench: line from"
fi
shallow=$(git rev-parse --is-shallow-repository 2>/dev/null || echo false)

expected=""
source_commit=""
missing=()
while read -r commit; do
    [ -n "$commit" ] || continue
    line=$(git log -1 --format=%B "$commit" | grep -E '^Bench: [0-9]+\s*$' | tail -n 1 || true)
    if [ -n "$line" ]; then
        expected=$(echo "$line" | grep -oE '[0-9]+')
        source_commit=$commit
        break
    fi
    missing+=("$(git log -1 --format='%h %s' "$commit" | cut -c1-100)")
done < <(git log --format=%H HEAD -- "${BENCH_PATHS[@]}")

if [ -z "$expected" ]; then
    if [ "$shallow" = "true" ]; then
        skip "shallow clone: no commit in the fetched history touching ${BENCH_PATHS[*]} carries a Bench: line (git fetch --unshallow to check)"
    fi
    echo "check-bench: FAILED: no commit touching ${BENCH_PATHS[*]} carries a Bench: line" >&2
    exit 1
fi
if [ "${#missing[@]}" -gt 0 ]; then
    echo "check-bench: newer commits touching the bench paths without a Bench: line (the tree must be unchanged):"
    printf '  %s\n' "${missing[@]}"
fi
if [ -n "$(git status --porcelain -- "${BENCH_PATHS[@]}" 2>/dev/null)" ]; then
    echo "check-bench: note: uncommitted changes to the bench paths; their commit needs a Bench: line if the count moves"
fi

if [ "$build" -eq 1 ] || [ ! -x target/release/veil ]; then
    cargo build --release --quiet
fi
output=$(./target/release/veil bench 2>&1)
actual=$(echo "$output" | grep -E '^Nodes searched: [0-9]+' | grep -oE '[0-9]+' | tail -n 1 || true)
if [ -z "$actual" ]; then
    echo "check-bench: FAILED: veil bench printed no 'Nodes searched:' line" >&2
    echo "$output" >&2
    exit 1
fi

from=$(git log -1 --format='%h' "$source_commit")
if [ "$actual" != "$expected" ]; then
    echo "check-bench: FAILED: veil bench searched $actual nodes; commit $from declares Bench: $expected" >&2
    exit 1
fi
echo "check-bench: ok: Bench: $actual (declared by commit $from)"
