#!/usr/bin/env python3
"""Soak test: long `veil match` self-play, watching the engines.

Runs `veil match` (covered and plain chess, one after the other) between two copies of the
engine at a fast time control, samples the resident memory (VmRSS) of every engine process
the match starts, and reports crashes (disconnects), illegal moves, time losses and memory
growth (median engine RSS over the first and the last hundred games).

    python3 scripts/soak.py --games 2000 --tc 1+0.01 --concurrency 2 --out soak

writes soak/<variant>.jsonl (results), soak/<variant>.pgn, soak/<variant>-rss.csv
(seconds, games done, pid, RSS in KiB) and soak/summary.txt; exits 1 if any crash, illegal
move, too many time losses (over --max-time-losses, default 0.5%) or memory growth over 10%
was seen. Only the Python standard library is needed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def children(pid):
    """Direct children of a process (Linux /proc)."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found.extend(int(c) for c in f.read().split())
    except OSError:
        pass
    return found


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def count_games(path):
    try:
        with open(path) as f:
            return max(0, sum(1 for _ in f) - 1)
    except OSError:
        return 0


def soak(args, variant):
    results = os.path.join(args.out, f"{variant}.jsonl")
    pgn = os.path.join(args.out, f"{variant}.pgn")
    samples_path = os.path.join(args.out, f"{variant}-rss.csv")
    games = args.games // 2 if args.variant == "both" else args.games
    command = [
        args.veil, "match",
        "--engine", "name=one", f"cmd={args.veil}",
        "--engine", "name=two", f"cmd={args.veil}",
        "--variant", variant, "--games", str(games), "--tc", args.tc,
        "--concurrency", str(args.concurrency), "--seed", str(args.seed),
        "--results", results, "--pgn", pgn, "--quiet",
    ]
    if variant == "chess" and args.openings:
        command += ["--openings", args.openings]
    started = time.monotonic()
    with open(os.path.join(args.out, f"{variant}.log"), "w") as log, open(samples_path, "w") as samples:
        samples.write("seconds,games,pid,rss_kib\n")
        match = subprocess.Popen(command, stdout=log, stderr=subprocess.DEVNULL)
        while match.poll() is None:
            done = count_games(results)
            now = time.monotonic() - started
            for pid in children(match.pid):
                rss = rss_kib(pid)
                if rss is not None:
                    samples.write(f"{now:.1f},{done},{pid},{rss}\n")
            samples.flush()
            time.sleep(args.interval)
    elapsed = time.monotonic() - started
    rows = []
    with open(results) as f:
        next(f)
        rows = [json.loads(line) for line in f if line.strip()]
    endings = {}
    for row in rows:
        endings[row["ending"]] = endings.get(row["ending"], 0) + 1
    rss_by_games = []
    with open(samples_path) as f:
        next(f)
        for line in f:
            _, done, _, rss = line.strip().split(",")
            rss_by_games.append((int(done), int(rss)))
    first = [rss for done, rss in rss_by_games if done < 100]
    last = [rss for done, rss in rss_by_games if done >= len(rows) - 100]
    first_median = statistics.median(first) if first else 0
    last_median = statistics.median(last) if last else 0
    growth = (last_median - first_median) / first_median if first_median else 0.0
    return {
        "variant": variant,
        "games": len(rows),
        "seconds": round(elapsed, 1),
        "exit_code": match.returncode,
        "endings": endings,
        "crashes": endings.get("disconnect", 0),
        "illegal_moves": endings.get("illegal-move", 0),
        "time_losses": endings.get("time-forfeit", 0) + endings.get("timeout-no-mate", 0),
        "rss_first100_median_kib": first_median,
        "rss_last100_median_kib": last_median,
        "rss_max_kib": max((rss for _, rss in rss_by_games), default=0),
        "rss_growth": round(growth, 4),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--veil", default="target/release/veil")
    parser.add_argument("--games", type=int, default=2000, help="games in all (split between the variants)")
    parser.add_argument("--variant", choices=["covered", "chess", "both"], default="both")
    parser.add_argument("--tc", default="1+0.01")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--openings", default="openings/chess.epd")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between RSS samples")
    parser.add_argument("--max-time-losses", type=float, default=0.005)
    parser.add_argument("--out", default="soak")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    variants = ["covered", "chess"] if args.variant == "both" else [args.variant]
    reports = [soak(args, v) for v in variants]
    ok = True
    lines = []
    for r in reports:
        lines.append(json.dumps(r))
        losses = r["time_losses"] / max(1, r["games"])
        if r["exit_code"] != 0 or r["crashes"] or r["illegal_moves"] or losses > args.max_time_losses:
            ok = False
        if abs(r["rss_growth"]) > 0.10:
            ok = False
    lines.append("PASS" if ok else "FAIL")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
