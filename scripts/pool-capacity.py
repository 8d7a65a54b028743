#!/usr/bin/env python3
"""How many games one engine process serves in pool mode before answers get slow.

    python3 scripts/pool-capacity.py [--veil target/release/veil] [--level 2]
        [--games 1,2,4,8,16,32] [--duration 60] [--pace 2.0] [--cap-ms 1000]
        [--go "wtime 60000 btime 60000 winc 0 binc 0"] [--variant mixed] [--seed 1]

For each number K of simulated games (--games, growing), one fresh engine serves K games at
--level for --duration seconds, as a server in pool mode would (protocol.md, "Pool mode"):
every request is stateless,

    ucinewgame
    setoption name UCI_Variant value <the game's variant>
    setoption name Level value <level>
    setoption name Seed value <the game's seed>
    position startpos moves <the game's moves, reveals included>
    go <--go>

and waits for its bestmove. A UCI engine searches one `go` at a time, so requests wait in one
first-in-first-out queue. Each game asks for its next move a random time after its last answer
(exponentially distributed with mean --pace seconds, the opponent's thinking), plays the
engine's move (drawing its reveal from the pool, as an arbiter would) and restarts after its
game ends or after 200 plies. The time of a request is from when it was due to its bestmove:
queue wait plus search.

The default --go is a platform's clock of a minute a side: levels 1-4 then stop at their own
caps (nodes, and a time cap of at most 150 ms); the clock matters only at Level 5. A fixed
`nodes N` is reproducible but ignores what the level would cost under a real clock.

It prints, per K, the requests answered, the engine's busy share, and the time-to-bestmove
p50, p99 and max in ms; then the largest K whose p99 stayed within --cap-ms. It stops at the
first K over the cap. With few requests the p99 is the largest time seen. The engine runs on
whatever core the system gives it: to measure one core, run the script under
`taskset -c 0` (the engine inherits the affinity).

Only the Python standard library is needed.
"""

import argparse
import heapq
import queue
import random
import subprocess
import sys
import threading
import time

WAIT = 30.0
MAX_PLIES = 200
START_POOL = {"Q": 1, "R": 2, "B": 2, "N": 2, "P": 8}


class Engine:
    """A running engine with a reader thread timestamping every output line."""

    def __init__(self, path):
        self.lines = queue.Queue()
        self.process = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, text):
        self.process.stdin.write((text + "\n").encode())
        self.process.stdin.flush()

    def wait_for(self, predicate, what):
        """The first line matching predicate and its time (lines before it are dropped)."""
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
            if line.startswith("info string error"):
                raise RuntimeError(f"engine error: {line}")
            if predicate(line):
                return at, line

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


def fen_squares(fen):
    """Square name -> piece letter of a FEN's board ('X'/'x' for covered pieces)."""
    squares = {}
    for rank_index, row in enumerate(fen.split()[0].split("/")):
        file_index = 0
        for char in row:
            if char.isdigit():
                file_index += int(char)
            else:
                squares["abcdefgh"[file_index] + str(8 - rank_index)] = char
                file_index += 1
    return squares


def fen_pool(fen, white):
    """The pool of the side named, role letter -> count, from the FEN's seventh field."""
    fields = fen.split()
    pool = {}
    if len(fields) < 7 or fields[6] == "-":
        return pool
    text = fields[6]
    index = 0
    while index < len(text):
        letter = text[index]
        index += 1
        digits = ""
        while index < len(text) and text[index].isdigit():
            digits += text[index]
            index += 1
        if letter.isupper() == white and digits:
            pool[letter.upper()] = int(digits)
    return pool


def reveal_suffix(fen, move, rng):
    """The reveal suffix the move carries as played, drawn from the mover's pool."""
    squares = fen_squares(fen)
    white = fen.split()[1] == "w"
    origin = move[:2]
    revealing = squares.get(origin) in ("X", "x")
    if squares.get(origin) in ("K", "k") and origin[0] == "e" and move[2] in "cg":
        corner = ("h" if move[2] == "g" else "a") + origin[1]
        revealing = squares.get(corner) in ("X", "x")
    if not revealing:
        return ""
    pool = fen_pool(fen, white)
    roles = [role for role, count in pool.items() for _ in range(count)]
    return "=" + rng.choice(roles)


class Game:
    """One simulated game: its variant, seed and moves as played."""

    def __init__(self, index, variant, seed):
        self.variant = variant
        self.seed = seed
        self.rng = random.Random(seed * 7919 + index)
        self.moves = []

    def request(self, level, go):
        moves = f" moves {' '.join(self.moves)}" if self.moves else ""
        return [
            "ucinewgame",
            f"setoption name UCI_Variant value {self.variant}",
            f"setoption name Level value {level}",
            f"setoption name Seed value {self.seed}",
            f"position startpos{moves}",
            f"go {go}",
        ]


def run(args, games_count, rng):
    """Serves games_count games for the duration; returns (times in ms, busy share)."""
    engine = Engine(args.veil)
    engine.send("isready")
    engine.wait_for(lambda line: line == "readyok", "readyok")
    variants = {"chess": ["chess"], "covered": ["covered"], "mixed": ["covered", "chess"]}[args.variant]
    games = [Game(i, variants[i % len(variants)], rng.randrange(2**31)) for i in range(games_count)]
    start = time.perf_counter()
    end = start + args.duration
    # The games' next requests, (due time, game index); the first ones spread over a pace.
    due = [(start + rng.uniform(0, args.pace), i) for i in range(games_count)]
    heapq.heapify(due)
    waiting = []
    times = []
    busy = 0.0
    try:
        while True:
            now = time.perf_counter()
            while due and due[0][0] <= now:
                waiting.append(heapq.heappop(due))
            waiting.sort()
            if not waiting:
                if not due or due[0][0] >= end:
                    break
                time.sleep(max(0.0, due[0][0] - now))
                continue
            asked_at, index = waiting.pop(0)
            if asked_at >= end:
                break
            game = games[index]
            sent = time.perf_counter()
            for line in game.request(args.level, args.go):
                engine.send(line)
            answered, line = engine.wait_for(lambda text: text.startswith("bestmove"), "bestmove")
            busy += answered - sent
            times.append((answered - asked_at) * 1000.0)
            move = line.split()[1]
            # Off the clock: the position as it stood, to find the move's reveal.
            engine.send("d")
            _, fen_line = engine.wait_for(lambda text: text.startswith("Fen: "), "the Fen line")
            if move == "(none)" or len(game.moves) >= MAX_PLIES:
                game.moves = []
            else:
                game.moves.append(move + reveal_suffix(fen_line[5:], move, game.rng))
            heapq.heappush(due, (answered + rng.expovariate(1.0 / args.pace), index))
    finally:
        engine.close()
    return times, busy / args.duration


def percentile(sorted_values, share):
    return sorted_values[min(len(sorted_values) - 1, int(round(share * (len(sorted_values) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--veil", default="target/release/veil")
    parser.add_argument("--level", type=int, default=2, choices=range(1, 6))
    parser.add_argument("--games", default="1,2,4,8,16,32", help="comma-separated K values, growing")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per K")
    parser.add_argument("--pace", type=float, default=2.0, help="mean seconds between a game's requests")
    parser.add_argument("--cap-ms", type=float, default=1000.0, help="the p99 a K must stay within")
    parser.add_argument("--go", default="wtime 60000 btime 60000 winc 0 binc 0", help="the limits after `go`")
    parser.add_argument("--variant", default="mixed", choices=["chess", "covered", "mixed"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        counts = [int(k) for k in args.games.split(",")]
    except ValueError:
        parser.error("--games takes comma-separated whole numbers")
    if not counts or min(counts) < 1 or args.duration <= 0 or args.pace <= 0:
        parser.error("--games, --duration and --pace must be positive")
    rng = random.Random(args.seed)

    print(
        f"pool capacity of {args.veil}: Level {args.level}, {args.variant} games, a request every "
        f"{args.pace:g} s on average per game, {args.duration:g} s per K, go {args.go}"
    )
    print(f"{'K':>4} {'requests':>9} {'busy':>6} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    best = None
    for count in sorted(counts):
        try:
            times, busy = run(args, count, rng)
        except (OSError, RuntimeError) as error:
            print(f"pool-capacity: error: {error}", file=sys.stderr)
            return 1
        if not times:
            print(f"{count:>4} {0:>9}   (no request fell due: lengthen --duration)")
            continue
        ordered = sorted(times)
        p99 = percentile(ordered, 0.99)
        print(
            f"{count:>4} {len(ordered):>9} {busy:>6.1%} {percentile(ordered, 0.5):>9.1f} "
            f"{p99:>9.1f} {ordered[-1]:>9.1f}"
        )
        if p99 > args.cap_ms:
            break
        best = count
    if best is None:
        print(f"no K tried kept p99 within {args.cap_ms:g} ms")
    else:
        print(f"largest K with p99 within {args.cap_ms:g} ms: {best}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
