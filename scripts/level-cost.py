#!/usr/bin/env python3
"""What each strength level costs to host, and how many Level 2 games one core holds.

    python3 scripts/level-cost.py [--veil target/release/veil] [--out level-cost.json]

Part 1, per level: every position of a small set (covered and plain, opening to endgame) is
searched once under a 5+0.05 clock (`go wtime 5000 btime 5000 winc 50 binc 50`), in a fresh
engine per level; it reports the mean and largest milliseconds per move, the mean nodes per
move and the engine's peak resident memory (VmHWM).

Part 2, capacity: N Level 2 engines run pinned to one core (taskset -c 0), each asked for a
move every --pace seconds (the platform's pace), with clocks of a 5-minute game; it reports,
for growing N, the largest answer time seen, and the largest N whose every answer came
within the level's time cap plus --slack milliseconds.

Only the Python standard library is needed; Linux (/proc, taskset).
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

POSITIONS = [
    "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
    "xxx1kxxx/xxx1xxxx/8/3q4/8/8/XXXX1XXX/XXXXKXXX w KQkq - 0 3 Q1R2B2N2P7r2b1n2p8",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
]


class Engine:
    def __init__(self, command, options, pin=None):
        argv = ([ "taskset", "-c", str(pin)] if pin is not None else []) + [command]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def move(self, fen, go):
        self.send(f"position fen {fen}")
        started = time.monotonic()
        self.send(go)
        lines = self.wait("bestmove")
        elapsed = (time.monotonic() - started) * 1000.0
        nodes = 0
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
        return elapsed, nodes

    def peak_rss_kib(self):
        pid = self.process.pid
        try:
            # With taskset the engine is taskset's child after exec (same pid).
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()


def per_level(command):
    rows = []
    for level in range(1, 6):
        engine = Engine(command, {"Level": level})
        times, nodes = [], []
        for fen in POSITIONS:
            engine.send("ucinewgame")
            elapsed, searched = engine.move(fen, "go wtime 5000 btime 5000 winc 50 binc 50")
            times.append(elapsed)
            nodes.append(searched)
        rows.append({
            "level": level,
            "ms_per_move_mean": round(sum(times) / len(times), 1),
            "ms_per_move_max": round(max(times), 1),
            "nodes_per_move_mean": round(sum(nodes) / len(nodes)),
            "peak_rss_mib": round((engine.peak_rss_kib() or 0) / 1024, 1),
        })
        engine.close()
        print(json.dumps(rows[-1]), flush=True)
    return rows


def capacity(command, counts, pace, moves, slack_ms, cap_ms):
    results = []
    for count in counts:
        engines = [Engine(command, {"Level": 2}, pin=0) for _ in range(count)]
        worst = [0.0] * count

        def play(i):
            engine = engines[i]
            time.sleep(pace * i / count)
            for k in range(moves):
                fen = POSITIONS[(i + k) % len(POSITIONS)]
                started = time.monotonic()
                elapsed, _ = engine.move(fen, "go wtime 300000 btime 300000 winc 2000 binc 2000")
                worst[i] = max(worst[i], elapsed)
                time.sleep(max(0.0, pace - (time.monotonic() - started)))

        threads = [threading.Thread(target=play, args=(i,)) for i in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for engine in engines:
            engine.close()
        row = {"engines": count, "worst_ms": round(max(worst), 1), "within_budget": max(worst) <= cap_ms + slack_ms}
        results.append(row)
        print(json.dumps(row), flush=True)
        if not row["within_budget"]:
            break
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--veil", default="target/release/veil")
    parser.add_argument("--out", default="level-cost.json")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a Level 2 engine's moves")
    parser.add_argument("--moves", type=int, default=10, help="moves per Level 2 engine in the capacity test")
    parser.add_argument("--slack", type=float, default=50.0, help="milliseconds over the level's time cap allowed")
    parser.add_argument("--counts", default="4,8,16,32,48,64,96,128")
    args = parser.parse_args()
    command = os.path.abspath(args.veil)
    levels = per_level(command)
    cap_ms = 25.0  # Level 2's time cap per move in the compiled-in table.
    counts = [int(c) for c in args.counts.split(",")]
    held = capacity(command, counts, args.pace, args.moves, args.slack, cap_ms)
    fitting = [r["engines"] for r in held if r["within_budget"]]
    report = {"levels": levels, "capacity": held, "level2_engines_per_core": max(fitting) if fitting else 0}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
    print(json.dumps({"level2_engines_per_core": report["level2_engines_per_core"]}))


if __name__ == "__main__":
    sys.exit(main())
