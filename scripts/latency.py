#!/usr/bin/env python3
"""Measures the protocol latencies of the engine (measures only; asserts nothing).

Usage: scripts/latency.py [path/to/veil] [-n REPEATS]
       (default binary target/release/veil, default 20 repetitions)

For each measure, REPEATS samples, printed as min / median / mean / p90 / max in ms beside
its goal:
  - startup: from process spawn (with `uci` written at once) to `uciok`;        goal <= 10 ms
  - readyok: `isready` sent while `go infinite` runs, to `readyok`;             goal <=  5 ms
  - stop (standard start): `stop` during `go infinite`, to `bestmove`;          goal <= 10 ms
  - stop (covered midgame): the same on a covered position full of reveals;     goal <= 10 ms
  - stop (covered, Threads 2): the same with a helper search thread;            goal <= 10 ms

Times are taken on this side of the pipes: a line's time is when the reader thread gets it.
The search runs for a random 50-250 ms before isready / stop, so they land mid-iteration.
"""

import argparse
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

COVERED_MIDGAME = "e2e4=P e7e5=P g1f3=N b8c6=B f1c4=Q d7d6=P d2d3=R c8g4=N"
WAIT = 10.0


class Engine:
    """A running engine with a reader thread timestamping every output line."""

    def __init__(self, path, first_line=None):
        self.lines = queue.Queue()
        self.spawned = time.perf_counter()
        self.process = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        if first_line is not None:
            self.send(first_line)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        sent = time.perf_counter()
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()
        return sent

    def wait_for(self, predicate, what):
        """The time of the first line matching predicate (lines before it are dropped)."""
        deadline = time.perf_counter() + WAIT
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise RuntimeError(f"no {what} within {WAIT} s")
            try:
                at, line = self.lines.get(timeout=left)
            except queue.Empty:
                raise RuntimeError(f"no {what} within {WAIT} s") from None
            if line is None:
                raise RuntimeError(f"engine output ended while waiting for {what}")
            if predicate(line):
                return at

    def sync(self):
        self.send("isready")
        self.wait_for(lambda line: line == "readyok", "readyok")

    def close(self):
        try:
            self.send("quit")
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def measure_startup(path, repeats):
    samples = []
    for _ in range(repeats):
        engine = Engine(path, first_line="uci")
        at = engine.wait_for(lambda line: line == "uciok", "uciok")
        samples.append(at - engine.spawned)
        engine.close()
    return samples


def start_infinite(engine, rng):
    engine.send("go infinite")
    engine.wait_for(lambda line: line.startswith("info depth"), "a first info line")
    time.sleep(rng.uniform(0.05, 0.25))


def measure_readyok(path, repeats, rng):
    engine = Engine(path)
    engine.send("position startpos")
    engine.sync()
    samples = []
    for _ in range(repeats):
        start_infinite(engine, rng)
        sent = engine.send("isready")
        at = engine.wait_for(lambda line: line == "readyok", "readyok")
        samples.append(at - sent)
        engine.send("stop")
        engine.wait_for(lambda line: line.startswith("bestmove"), "bestmove")
    engine.close()
    return samples


def measure_stop(path, repeats, rng, setup):
    engine = Engine(path)
    for line in setup:
        engine.send(line)
    engine.sync()
    samples = []
    for _ in range(repeats):
        start_infinite(engine, rng)
        sent = engine.send("stop")
        at = engine.wait_for(lambda line: line.startswith("bestmove"), "bestmove")
        samples.append(at - sent)
        engine.sync()
    engine.close()
    return samples


def summary(name, samples, goal_ms):
    ms = sorted(s * 1000 for s in samples)
    p90 = ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]
    median = statistics.median(ms)
    verdict = "meets" if median <= goal_ms else "misses"
    return (
        f"{name:<26} n={len(ms):<3} min {ms[0]:7.2f}  median {median:7.2f}  mean {statistics.mean(ms):7.2f}  "
        f"p90 {p90:7.2f}  max {ms[-1]:7.2f} ms   goal <= {goal_ms} ms (median {verdict} it)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?", default="target/release/veil")
    parser.add_argument("-n", "--repeats", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("repeats must be at least 1")
    rng = random.Random(args.seed)

    try:
        rows = [
            summary("startup (spawn to uciok)", measure_startup(args.binary, args.repeats), 10),
            summary("readyok during search", measure_readyok(args.binary, args.repeats, rng), 5),
            summary(
                "stop, standard start",
                measure_stop(args.binary, args.repeats, rng, ["position startpos"]),
                10,
            ),
            summary(
                "stop, covered midgame",
                measure_stop(
                    args.binary,
                    args.repeats,
                    rng,
                    ["setoption name UCI_Variant value covered", f"position startpos moves {COVERED_MIDGAME}"],
                ),
                10,
            ),
            summary(
                "stop, covered, Threads 2",
                measure_stop(
                    args.binary,
                    args.repeats,
                    rng,
                    [
                        "setoption name UCI_Variant value covered",
                        "setoption name Threads value 2",
                        f"position startpos moves {COVERED_MIDGAME}",
                    ],
                ),
                10,
            ),
        ]
    except (OSError, RuntimeError) as error:
        print(f"latency: error: {error}", file=sys.stderr)
        return 1
    print(f"latency of {args.binary} ({args.repeats} samples each)")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
