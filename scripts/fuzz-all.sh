#!/usr/bin/env bash
# Runs every coverage-guided fuzz target in fuzz/ for SECONDS each (default 600), one after
# the other, on the stable toolchain, and prints one summary line per target: runs,
# executions per second, edges covered (of those instrumented), features, corpus size, and
# whether it crashed.
#
#   scripts/fuzz-all.sh [SECONDS] [TARGET...]      (default: fen moves protocol rules data)
#
# Each target starts from its committed seeds (fuzz/seeds/TARGET) and the inputs that once
# failed (fuzz/regressions/TARGET); what it finds goes to fuzz/corpus/TARGET and crashes to
# fuzz/artifacts/TARGET (both ignored by git). The full libFuzzer log of each run is kept in
# fuzz/artifacts/TARGET.log. A crash makes the exit status 1; its input reproduces with
#   cd fuzz && cargo fuzz run --sanitizer none TARGET artifacts/TARGET/crash-...
# and belongs, once fixed, in fuzz/regressions/TARGET (tests/fuzz_corpus.rs replays it).
set -uo pipefail

seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fen moves protocol rules data)

cd "$(dirname "$0")/../fuzz"
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz
fi
cargo fuzz build --sanitizer none >/dev/null 2>&1 || { echo "cargo fuzz build failed" >&2; exit 2; }

status=0
printf '%-9s %10s %9s %16s %8s %7s  %s\n' target runs exec/s edges features corpus result
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    dirs=("corpus/$target" "seeds/$target")
    [ -d "regressions/$target" ] && dirs+=("regressions/$target")
    log="artifacts/$target.log"
    cargo fuzz run --sanitizer none "$target" "${dirs[@]}" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1
    code=$?
    total=$(grep -o 'Loaded 1 modules *([0-9]* inline 8-bit counters)' "$log" | grep -o '[0-9]* inline' | grep -o '[0-9]*')
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
    cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*')
    ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*')
    corpus=$(grep -o 'corp: [0-9]*' <<<"$last" | grep -o '[0-9]*')
    result=ok
    if [ $code -ne 0 ]; then
        result="CRASH (exit $code, see $log)"
        status=1
    fi
    printf '%-9s %10s %9s %16s %8s %7s  %s\n' "$target" "${runs:-?}" "${rate:-?}" \
        "${cov:-?}/${total:-?}" "${ft:-?}" "${corpus:-?}" "$result"
done
exit $status
