#!/usr/bin/env bash
# Perft speed of Veil against Stockfish on standard chess, plus Veil's covered start perft(4).
#
# Builds the release binary, then for each position runs `veil perft` and Stockfish's
# `go perft` alternately, REPEATS times each (the order swaps every round), checks that both
# report the same `Nodes searched`, and prints best-of and median-of wall-clock times.
# Stockfish's process wall clock includes its startup (loading the network); the startup time,
# measured separately with `uci` / `quit`, is subtracted, and the raw figure is shown too.
#
# Usage: scripts/compare-perft.sh [-n REPEATS]
# Environment: REPEATS (default 3), STOCKFISH (path to the binary; default /usr/games/stockfish
# or `stockfish` on PATH), CARGO_TARGET_DIR (as for cargo).

set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }

repeats="${REPEATS:-3}"
while [ $# -gt 0 ]; do
    case "$1" in
        -n | --repeats)
            [ $# -ge 2 ] || { echo "error: $1 needs a value" >&2; exit 2; }
            repeats="$2"
            shift 2
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        *)
            echo "error: unknown argument '$1'" >&2
            usage >&2
            exit 2
            ;;
    esac
done
case "$repeats" in
    '' | *[!0-9]* | 0)
        echo "error: repeats must be a positive integer, got '$repeats'" >&2
        exit 2
        ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo_root="$(pwd)"

# --- tools -------------------------------------------------------------------------------

stockfish="${STOCKFISH:-}"
if [ -z "$stockfish" ]; then
    if [ -x /usr/games/stockfish ]; then
        stockfish=/usr/games/stockfish
    elif command -v stockfish >/dev/null 2>&1; then
        stockfish="$(command -v stockfish)"
    else
        echo "error: stockfish not found in /usr/games or on PATH (run scripts/setup.sh)" >&2
        exit 1
    fi
fi
[ -x "$stockfish" ] || { echo "error: '$stockfish' is not executable" >&2; exit 1; }
command -v awk >/dev/null 2>&1 || { echo "error: awk is required" >&2; exit 1; }

echo "+ cargo build --release"
cargo build --release
veil="${CARGO_TARGET_DIR:-$repo_root/target}/release/veil"
case "$veil" in /*) ;; *) veil="$repo_root/$veil" ;; esac
[ -x "$veil" ] || { echo "error: $veil was not built" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- helpers -----------------------------------------------------------------------------

now() { date +%s.%N; }

# run_timed OUT INPUT CMD...: runs CMD with stdin from INPUT, stdout to OUT, stderr to OUT.err;
# prints the wall-clock seconds. Fails if CMD fails.
run_timed() {
    local out="$1" input="$2" start end
    shift 2
    start="$(now)"
    if ! "$@" <"$input" >"$out" 2>"$out.err"; then
        echo "error: command failed: $*" >&2
        cat "$out.err" >&2
        return 1
    fi
    end="$(now)"
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", b - a }'
}

nodes_of() { awk -F': *' '/^Nodes searched/ { print $2 }' "$1"; }

# best / median of whitespace-separated numbers
best_of() { printf '%s\n' "$@" | sort -g | head -n 1; }
median_of() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.6f\n", v[(NR + 1) / 2]; else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
minus_floor() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = 0; printf "%.6f\n", d }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else print "inf" }'; }

# --- positions ---------------------------------------------------------------------------

names=(startpos kiwipete)
fens=(
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
)
depths=(6 5)
covered_depth=4
covered_expected=110020817

printf 'uci\nquit\n' >"$work/startup.in"
: >"$work/empty.in"
for i in "${!names[@]}"; do
    printf 'position fen %s\ngo perft %s\nquit\n' "${fens[$i]}" "${depths[$i]}" >"$work/sf.$i.in"
done

echo
echo "Veil:      $veil ($(git -C "$repo_root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$repo_root" diff --quiet HEAD -- src 2>/dev/null || echo ', src modified'))"
echo "Stockfish: $stockfish ($("$stockfish" <"$work/startup.in" 2>/dev/null | awk '/^id name/ { sub(/^id name /, ""); print; exit }'))"
echo "CPU:       $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown), $(nproc 2>/dev/null || echo '?') logical cores; every run is single-threaded"
echo "Repeats:   $repeats per measurement, alternating Veil and Stockfish (order swapped each round)"
echo
echo "Commands:"
for i in "${!names[@]}"; do
    echo "  $veil perft --fen '${fens[$i]}' --depth ${depths[$i]}"
    printf "  printf 'position fen %s\\\\ngo perft %s\\\\nquit\\\\n' | %s\n" "${fens[$i]}" "${depths[$i]}" "$stockfish"
done
printf "  printf 'uci\\\\nquit\\\\n' | %s    (Stockfish startup, subtracted)\n" "$stockfish"
echo "  $veil perft --depth $covered_depth    (covered start position, the default FEN)"
echo

# --- measurements ------------------------------------------------------------------------

status=0
startup_times=()
declare -A veil_times sf_times nodes_veil nodes_sf

for ((round = 1; round <= repeats; round++)); do
    printf 'round %d/%d:' "$round" "$repeats"
    startup_times+=("$(run_timed "$work/startup.out" "$work/startup.in" "$stockfish")")
    for i in "${!names[@]}"; do
        veil_cmd=("$veil" perft --fen "${fens[$i]}" --depth "${depths[$i]}")
        if ((round % 2)); then
            tv="$(run_timed "$work/veil.$i.out" "$work/empty.in" "${veil_cmd[@]}")"
            ts="$(run_timed "$work/sf.$i.out" "$work/sf.$i.in" "$stockfish")"
        else
            ts="$(run_timed "$work/sf.$i.out" "$work/sf.$i.in" "$stockfish")"
            tv="$(run_timed "$work/veil.$i.out" "$work/empty.in" "${veil_cmd[@]}")"
        fi
        veil_times[$i]="${veil_times[$i]:-} $tv"
        sf_times[$i]="${sf_times[$i]:-} $ts"
        nv="$(nodes_of "$work/veil.$i.out")"
        ns="$(nodes_of "$work/sf.$i.out")"
        if [ -z "$nv" ] || [ -z "$ns" ] || [ "$nv" != "$ns" ]; then
            echo
            echo "MISMATCH ${names[$i]} depth ${depths[$i]}: veil '${nv:-none}' stockfish '${ns:-none}'" >&2
            echo "per-move differences (< veil, > stockfish):" >&2
            diff <(grep -E '^[a-h][1-8][a-h][1-8][qrbn]?: ' "$work/veil.$i.out" | sort) \
                <(grep -E '^[a-h][1-8][a-h][1-8][qrbn]?: ' "$work/sf.$i.out" | sort) >&2 || true
            status=1
        fi
        nodes_veil[$i]="$nv"
        nodes_sf[$i]="$ns"
        printf ' %s veil %.3fs sf %.3fs;' "${names[$i]}" "$tv" "$ts"
    done
    echo
done

covered_times=()
covered_internal=()
for ((round = 1; round <= repeats; round++)); do
    covered_times+=("$(run_timed "$work/covered.out" "$work/empty.in" "$veil" perft --depth "$covered_depth")")
    covered_internal+=("$(awk '/^time / { print $2; exit }' "$work/covered.out.err")")
done
covered_nodes="$(nodes_of "$work/covered.out")"

# --- report ------------------------------------------------------------------------------

# shellcheck disable=SC2086 # word splitting of the time lists is intended
startup_best="$(best_of ${startup_times[*]})"
# shellcheck disable=SC2086
startup_median="$(median_of ${startup_times[*]})"

print_table() {
    local kind="$1" pick="$2" startup="$3" i tv ts_raw ts
    echo
    printf '%s of %s (seconds, wall clock; Stockfish net of %.3f s startup):\n' "$kind" "$repeats" "$startup"
    printf '%-10s %5s %12s %9s %13s %11s %17s %6s\n' \
        position depth nodes veil_s stockfish_s "ratio v/sf" stockfish_raw_s match
    for i in "${!names[@]}"; do
        # shellcheck disable=SC2086
        tv="$($pick ${veil_times[$i]})"
        # shellcheck disable=SC2086
        ts_raw="$($pick ${sf_times[$i]})"
        ts="$(minus_floor "$ts_raw" "$startup")"
        printf '%-10s %5s %12s %9.3f %13.3f %11s %17.3f %6s\n' \
            "${names[$i]}" "${depths[$i]}" "${nodes_veil[$i]:-?}" "$tv" "$ts" "$(ratio "$tv" "$ts")" \
            "$ts_raw" "$([ "${nodes_veil[$i]}" = "${nodes_sf[$i]}" ] && echo yes || echo NO)"
    done
}

echo
printf 'Stockfish startup (uci/quit): best %.3f s, median %.3f s\n' "$startup_best" "$startup_median"
print_table "Best" best_of "$startup_best"
print_table "Median" median_of "$startup_median"

# shellcheck disable=SC2086
covered_best="$(best_of ${covered_times[*]})"
# shellcheck disable=SC2086
covered_median="$(median_of ${covered_times[*]})"
# shellcheck disable=SC2086
covered_internal_best="$(best_of ${covered_internal[*]})"
echo
echo "Covered start position perft($covered_depth) (veil perft --depth $covered_depth):"
if [ "$covered_nodes" = "$covered_expected" ]; then
    echo "  leaves:          $covered_nodes (expected $covered_expected: ok)"
else
    echo "  leaves:          ${covered_nodes:-none} (expected $covered_expected: MISMATCH)"
    status=1
fi
awk -v n="${covered_nodes:-0}" -v b="$covered_best" -v m="$covered_median" -v i="$covered_internal_best" 'BEGIN {
    printf "  wall clock:      best %.3f s, median %.3f s\n", b, m
    printf "  leaves/s:        %.0f (best wall clock), %.0f (veil'\''s own timer, best %.3f s)\n", n / b, n / i, i
}'

if [ "$status" -ne 0 ]; then
    echo
    echo "FAILED: node counts differ (see above)" >&2
fi
exit "$status"
