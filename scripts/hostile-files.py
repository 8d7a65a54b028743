#!/usr/bin/env python3
"""Checks that option values naming hostile files leave the engine answering (protocol.md,
"File options"): for each path, `setoption name OPTION value <path>` then `isready`.

Usage: scripts/hostile-files.py [path/to/veil] [--repeats N] [--option LevelsFile|EvalFile]
       (default binary target/release/veil, default 5 repetitions per path, LevelsFile)

Paths: /dev/zero, /dev/urandom, a FIFO nobody writes to, a directory, a 1 GiB sparse file,
/etc/passwd, a file of random bytes, a link to /dev/zero, a file one byte over the bound.
For each it prints the error line, the `isready` -> `readyok` latency (median and worst of
the repetitions, measured from the `isready` sent right after the `setoption`), the growth
of the engine's resident memory (VmRSS, before and after), and whether the position and the
declared options stayed the same and no output showed the file's content. Exit status 1 if
any path fails the goals: one error line, readyok within 50 ms, RSS growth below 1 MiB,
nothing changed, nothing leaked.
"""

import argparse
import os
import queue
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

COVERED_MIDGAME = "e2e4=P e7e5=P g1f3=N b8c6=B f1c4=Q d7d6=P d2d3=R c8g4=N"
WAIT = 10.0
LATENCY_GOAL_MS = 50.0
RSS_GOAL_KIB = 1024
LEVELS_FILE_MAX_BYTES = 16 * 1024


class Engine:
    """A running engine with a reader thread timestamping every output line."""

    def __init__(self, path):
        self.lines = queue.Queue()
        self.seen = []
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        sent = time.perf_counter()
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()
        return sent

    def until(self, done):
        """Lines up to and including the first for which done(line) holds, with its time."""
        lines = []
        deadline = time.perf_counter() + WAIT
        while True:
            at, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            if line is None:
                raise RuntimeError("the engine ended its output")
            self.seen.append(line)
            lines.append(line)
            if done(line):
                return lines, at

    def state(self):
        """The declared options and the position's FEN."""
        self.send("uci")
        declared, _ = self.until(lambda l: l == "uciok")
        self.send("d")
        shown, _ = self.until(lambda l: l.startswith("Checkers:"))
        fen = next(l for l in shown if l.startswith("Fen: "))
        return declared, fen

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=WAIT)
        except Exception:
            self.process.kill()
        self.process.stderr.read()


def make_files(directory):
    """The hostile paths, with the content that must never be shown (or None)."""
    random_bytes = random.Random(17).randbytes(4096)
    with open(os.path.join(directory, "random.bin"), "wb") as file:
        file.write(random_bytes)
    with open(os.path.join(directory, "sparse"), "wb") as file:
        file.truncate(1 << 30)
    with open(os.path.join(directory, "over.toml"), "wb") as file:
        file.write(b"#" * (LEVELS_FILE_MAX_BYTES + 1))
    os.mkfifo(os.path.join(directory, "fifo"))
    os.mkdir(os.path.join(directory, "directory"))
    os.symlink("/dev/zero", os.path.join(directory, "to-zero"))
    try:
        with open("/etc/passwd") as file:
            passwd = file.readline().strip()
    except OSError:
        passwd = None
    return [
        ("/dev/zero", "/dev/zero", None),
        ("/dev/urandom", "/dev/urandom", None),
        ("FIFO, no writer", os.path.join(directory, "fifo"), None),
        ("directory", os.path.join(directory, "directory"), None),
        ("1 GiB sparse file", os.path.join(directory, "sparse"), None),
        ("/etc/passwd", "/etc/passwd", passwd),
        ("4 KiB random bytes", os.path.join(directory, "random.bin"), None),
        ("link to /dev/zero", os.path.join(directory, "to-zero"), None),
        ("16 KiB + 1 byte file", os.path.join(directory, "over.toml"), None),
    ]


def check(binary, option, label, path, secret, repeats):
    engine = Engine(binary)
    try:
        engine.send("setoption name UCI_Variant value covered")
        engine.send("setoption name Level value 3")
        engine.send(f"position startpos moves {COVERED_MIDGAME}")
        before = engine.state()
        engine.send("isready")
        engine.until(lambda l: l == "readyok")
        rss_before = engine.rss_kib()
        latencies, errors, others = [], [], []
        for _ in range(repeats):
            engine.send(f"setoption name {option} value {path}")
            sent = engine.send("isready")
            lines, at = engine.until(lambda l: l == "readyok")
            latencies.append((at - sent) * 1000.0)
            errors += [l for l in lines if l.startswith("info string error: ")]
            others += [l for l in lines[:-1] if not l.startswith("info string error: ")]
        rss_after = engine.rss_kib()
        after = engine.state()
    finally:
        engine.close()
    leaked = secret is not None and any(secret in line for line in engine.seen)
    growth = rss_after - rss_before
    worst = max(latencies)
    ok = (
        len(errors) == repeats
        and not others
        and worst <= LATENCY_GOAL_MS
        and growth < RSS_GOAL_KIB
        and before == after
        and not leaked
    )
    print(f"{label}: {'ok' if ok else 'FAILED'}")
    print(f"  error line: {errors[0] if errors else '(none)'}")
    print(
        f"  errors {len(errors)}/{repeats}, other lines {len(others)}, readyok median "
        f"{statistics.median(latencies):.2f} ms, worst {worst:.2f} ms, RSS {rss_before} -> "
        f"{rss_after} KiB ({growth:+d} KiB), unchanged {before == after}, content shown {leaked}"
    )
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?", default="target/release/veil")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--option", default="LevelsFile", help="the file option to send the paths to")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="veil-hostile-")
    try:
        results = [check(args.binary, args.option, label, path, secret, args.repeats) for label, path, secret in make_files(directory)]
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    failed = results.count(False)
    print(f"{len(results) - failed} of {len(results)} paths within the goals")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
