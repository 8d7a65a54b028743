#!/usr/bin/env bash
# Retunes the strength levels after any change in strength, and rewrites the compiled-in
# table (src/search/levels.toml) and the table of levels in docs/levels.md with what it
# measured.
#
#   0. The levels that evaluate with a network use their own, networks/levels.nnue: a new
#      default network (networks/default.nnue) does not move them until they are retuned.
#      Unless KEEP_LEVELS_NETWORK is set, the script first makes the default network theirs
#      (copies it to networks/levels.nnue; commit it with the table).
#   1. Covered chess: `veil levels --tune` searches the node caps of Levels 4 down to 1 (the
#      share of lapses, for a level that lapses) so that each stands the target gap below
#      the level above (Level 5, full strength, is pinned), then verifies the tuned table
#      with a ladder at 5+0.05.
#   2. Plain chess: `veil levels --tune` against Stockfish `UCI_Elo` anchors searches each of
#      Levels 1-4's own plain-chess node cap (`chess_nodes`) so that it scores against the
#      anchor nearest its target as the target says (its covered play is left alone). Then
#      each level of the tuned table plays the two anchors nearest its Elo (Level 1, below
#      Stockfish's floor of 1320, plays the lowest anchor and Level 2), and its Elo is its
#      performance against them.
#   3. The tuned caps, the ladder's Elos (`covered_elo`) and the anchored Elos (`elo`, what
#      `UCI_Elo` means in a GUI) are written to src/search/levels.toml, and the generated
#      block of docs/levels.md is rewritten from it. Rebuild and commit.
#
# Usage: scripts/retune-levels.sh [OUT_DIR]
# Settings (environment): TARGETS (covered ladder, Levels 1..5), PROBE_GAMES, ITERATIONS,
# LADDER_GAMES (a step), CHESS_TARGETS (plain chess, Levels 1..4, and a fifth that is not
# used: Level 5 is full strength), CHESS_PROBE_GAMES, CHESS_ITERATIONS, ANCHOR_GAMES (a level
# against one anchor), TC, CONCURRENCY, SEED, FROM (a levels file to start from instead of
# the compiled-in table), PRECISION (probe a covered level until the fit's 95% error at its
# node cap is within this many Elo, ITERATIONS probes at most; every probe is kept in
# OUT_DIR/journal.jsonl, and a rerun into the same OUT_DIR takes up the probes that still
# apply, so a precision can be reached over several runs), CHESS_PRECISION (the same for a
# plain-chess level against its anchor, CHESS_ITERATIONS probes at most, its probes kept in
# OUT_DIR/journal-chess.jsonl; PRECISION when not given), STOCKFISH, SKIP_COVERED (reuse
# OUT_DIR/tuned.toml and covered.json from an earlier run), SKIP_CHESS (leave plain chess as
# it was measured: for a change that moves covered chess alone, such as a new covered-chess
# network; the covered tune keeps each level's plain-chess play, so its `elo` stands),
# KEEP_LEVELS_NETWORK (tune with the levels' network as it is).

set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/target/retune"}
mkdir -p "$out"

TARGETS=${TARGETS:-1100,1325,1550,1775,2000}
PROBE_GAMES=${PROBE_GAMES:-40}
ITERATIONS=${ITERATIONS:-4}
LADDER_GAMES=${LADDER_GAMES:-100}
CHESS_TARGETS=${CHESS_TARGETS:-$TARGETS}
CHESS_PROBE_GAMES=${CHESS_PROBE_GAMES:-40}
CHESS_ITERATIONS=${CHESS_ITERATIONS:-3}
ANCHOR_GAMES=${ANCHOR_GAMES:-20}
TC=${TC:-5+0.05}
CONCURRENCY=${CONCURRENCY:-2}
SEED=${SEED:-1}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
precision=()
if [ -n "${PRECISION:-}" ]; then
    precision=(--precision "$PRECISION" --journal "$out/journal.jsonl")
fi
chess_precision=()
CHESS_PRECISION=${CHESS_PRECISION:-${PRECISION:-}}
if [ -n "$CHESS_PRECISION" ]; then
    chess_precision=(--precision "$CHESS_PRECISION" --journal "$out/journal-chess.jsonl")
fi

if [ -z "${KEEP_LEVELS_NETWORK:-}" ]; then
    cp "$root/networks/default.nnue" "$root/networks/levels.nnue"
fi
cargo build --release --manifest-path "$root/Cargo.toml"
veil="$root/target/release/veil"
from=()
if [ -n "${FROM:-}" ]; then
    from=(--levels-file "$FROM")
fi

if [ -z "${SKIP_COVERED:-}" ]; then
echo "== 1. covered chess: tune to $TARGETS, then a ladder of $LADDER_GAMES games a step"
"$veil" levels "${from[@]}" --tune --variant covered --targets "$TARGETS" \
    --probe-games "$PROBE_GAMES" --iterations "$ITERATIONS" "${precision[@]}" --write "$out/tuned.toml" \
    --ladder --games "$LADDER_GAMES" --tc "$TC" --concurrency "$CONCURRENCY" --seed "$SEED" \
    --quiet --json "$out/covered.json" --svg "$out/levels-covered.svg" | tee "$out/covered.log"
fi

chess=()
if [ -z "${SKIP_CHESS:-}" ]; then
echo "== 2. plain chess: tune to $CHESS_TARGETS against the nearest anchor, then each level against its two nearest anchors, $ANCHOR_GAMES games each"
anchors=()
for elo in 1320 1600 1900 2200 2500; do
    anchors+=(--anchor "name=sf$elo" "cmd=$STOCKFISH" option.UCI_LimitStrength=true "option.UCI_Elo=$elo" "elo=$elo")
done
"$veil" levels --levels-file "$out/tuned.toml" --variant chess --openings "$root/openings/chess.epd" \
    --tune --targets "$CHESS_TARGETS" --probe-games "$CHESS_PROBE_GAMES" --iterations "$CHESS_ITERATIONS" \
    "${chess_precision[@]}" --write "$out/tuned-chess.toml" \
    --nearest-anchors "${anchors[@]}" --games "$ANCHOR_GAMES" --tc "$TC" \
    --concurrency "$CONCURRENCY" --seed "$SEED" --quiet --json "$out/chess.json" | tee "$out/chess.log"
chess=(--chess "$out/chess.json")
else
    echo "== 2. plain chess: skipped (SKIP_CHESS), the plain-chess Elos stand"
    cp "$out/tuned.toml" "$out/tuned-chess.toml"
fi

echo "== 3. write src/search/levels.toml and docs/levels.md"
python3 "$root/scripts/levels-table.py" "$out/tuned-chess.toml" --covered "$out/covered.json" \
    "${chess[@]}" --write "$root/src/search/levels.toml" --doc "$root/docs/levels.md"
echo "Rebuild (cargo build --release) and commit src/search/levels.toml and docs/levels.md."
