#!/usr/bin/env python3
"""Lazy SMP, measured: nodes per second and time to depth with Threads 1 and Threads 2.

    python3 scripts/threads.py [--veil target/release/veil] [--depth 10] [--out threads.json]

Every position (covered and plain, opening to endgame) is searched to --depth in a fresh
engine with `Threads` 1, then 2, alternating, --repeat times each; it reports per position the
median time to depth and nodes per second of each, and over all positions the geometric mean
of the time-to-depth speed-up (1-thread time / 2-thread time) and of the NPS ratio. Run it on
an otherwise idle machine with at least two cores. Only the Python standard library is needed.
"""

import argparse
import json
import math
import statistics
import subprocess
import time

POSITIONS = [
    "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
    "xxx1kxxx/xxx1xxxx/8/3q4/8/8/XXXX1XXX/XXXXKXXX w KQkq - 0 3 Q1R2B2N2P7r2b1n2p8",
    "x3kxxx/x3xx1x/1p6/1Pr1n1n1/2P2P2/1QR5/X5XX/XX2K1XX b KQkq - 0 16 B2N1P4q1r1b1p5",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


def search(veil, fen, threads, depth):
    """(seconds to depth, nodes) from the engine's last info line before bestmove."""
    proc = subprocess.Popen([veil], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send = lambda line: (proc.stdin.write(line + "\n"), proc.stdin.flush())
    send("uci")
    send(f"setoption name Threads value {threads}")
    send("setoption name Hash value 64")
    send(f"position fen {fen}")
    send("isready")
    while proc.stdout.readline().strip() != "readyok":
        pass
    start = time.monotonic()
    send(f"go depth {depth}")
    nodes = 0
    for line in proc.stdout:
        words = line.split()
        if "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
        if line.startswith("bestmove"):
            break
    elapsed = time.monotonic() - start
    send("quit")
    proc.wait()
    return elapsed, nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--veil", default="target/release/veil")
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default="threads.json")
    args = parser.parse_args()
    rows = []
    for fen in POSITIONS:
        runs = {1: [], 2: []}
        for _ in range(args.repeat):
            for threads in (1, 2):
                runs[threads].append(search(args.veil, fen, threads, args.depth))
        row = {"fen": fen}
        for threads, results in runs.items():
            seconds = statistics.median(r[0] for r in results)
            nps = statistics.median(r[1] / max(r[0], 1e-6) for r in results)
            row[f"seconds_{threads}"] = round(seconds, 3)
            row[f"nps_{threads}"] = round(nps)
        row["speedup"] = round(row["seconds_1"] / max(row["seconds_2"], 1e-6), 3)
        row["nps_ratio"] = round(row["nps_2"] / max(row["nps_1"], 1), 3)
        rows.append(row)
        print(json.dumps(row), flush=True)
    geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
    summary = {
        "depth": args.depth,
        "positions": len(rows),
        "time_to_depth_speedup": round(geo([r["speedup"] for r in rows]), 3),
        "nps_ratio": round(geo([r["nps_ratio"] for r in rows]), 3),
    }
    print(json.dumps(summary))
    with open(args.out, "w") as f:
        json.dump({"rows": rows, "summary": summary}, f, indent=1)


if __name__ == "__main__":
    main()
