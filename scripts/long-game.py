#!/usr/bin/env python3
"""A long session of long games: memory and the time of each `position` command stay flat.

Usage: scripts/long-game.py [BINARY] [--games 10] [--plies 1000] [--seed 1] [--go "nodes 300"]

BINARY defaults to target/release/veil (build it with `cargo build --release`).

1. Games. A first engine process plays GAMES random covered games of PLIES plies each: at
   every ply `go perft 1` lists the legal moves, the FEN from `d` shows the covered pieces
   and the pools, a move is drawn uniformly and, if it reveals, its role from the mover's
   pool with probability count / total. A game that reaches a position with no legal move
   (checkmate or stalemate) before its last ply backs up and tries another move. Draws by
   the rules do not end a game: `position` accepts any legal sequence.

2. The session. A second, fresh engine process gets, for each game, `ucinewgame`, then
   after every ply `position startpos moves <every move so far>` and `isready`: the time
   from sending `position` to `readyok` is that command's time. Unless --go is empty, a
   `go <GO>` follows each position, and its `bestmove` must be one of the ply's legal moves.
   VmRSS (from /proc/PID/status) is read after every 100 plies.

It prints, for each game, the median time of `position` over its first and last 100 plies
(replaying n moves takes time in proportion to n, so the last are slower), the slowest, and
the RSS at its start and end; then the first game against the last. The exit status is 1 if
a bestmove was not legal, the engine died or printed an error, or the peak RSS of the second
half of the games is more than 10% (and 4 MiB) above that of the first half: memory may move
about as the allocator reuses its heap, but must not grow with the session.
"""

import argparse
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 30.0


class Engine:
    """An engine process with a reader thread, so no read can hang the script."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, bufsize=0)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("setoption name UCI_Variant value covered")
        self.sync()

    def _read(self):
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def until(self, done):
        """Lines up to and including the first for which done(line) holds."""
        got = []
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                sys.exit(f"no answer within {TIMEOUT} s; last lines: {got[-5:]}")
            if line is None:
                sys.exit(f"the engine exited (status {self.process.wait()}); last lines: {got[-5:]}")
            if line.startswith("info string error"):
                sys.exit(f"engine error: {line}")
            got.append(line)
            if done(line):
                return got

    def sync(self):
        self.send("isready")
        return self.until(lambda l: l == "readyok")[:-1]

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=TIMEOUT)


def position_line(moves):
    return "position startpos" + (" moves " + " ".join(moves) if moves else "")


def legal_moves(engine):
    lines = engine.until(lambda l: l.startswith("Nodes searched:"))
    return [l.split(":")[0] for l in lines if ":" in l and not l.startswith("Nodes")]


def fen_of(engine):
    engine.send("d")
    lines = engine.until(lambda l: l.startswith("Checkers:"))
    return next(l[len("Fen: "):] for l in lines if l.startswith("Fen: "))


def board_of(fen):
    """Square name -> FEN letter."""
    board = {}
    for rank_index, rank in enumerate(fen.split()[0].split("/")):
        file = 0
        for c in rank:
            if c.isdigit():
                file += int(c)
            else:
                board["abcdefgh"[file] + str(8 - rank_index)] = c
                file += 1
    return board


def pool_of(fen, white):
    """The side's pool as {role letter: count}."""
    fields = fen.split()
    pool, text = {}, fields[6] if len(fields) > 6 else ""
    i = 0
    while i < len(text):
        letter = text[i]
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        if letter.isupper() == white and int(text[i + 1:j] or 0) > 0:
            pool[letter.upper()] = int(text[i + 1:j])
        i = j
    return pool


def reveals(move, board):
    """Whether a move (plain UCI) moves a covered piece or castles with a covered corner."""
    origin, target = move[:2], move[2:4]
    if board.get(origin) in ("X", "x"):
        return True
    if board.get(origin) in ("K", "k") and origin[0] == "e" and target[0] in "cg":
        corner = ("h" if target[0] == "g" else "a") + origin[1]
        return board.get(corner) in ("X", "x")
    return False


def play_games(binary, games, plies, rng):
    """Random covered games: a list of (moves, legal moves at each ply) per game."""
    engine = Engine(binary)
    played = []
    for game in range(games):
        moves, options = [], []      # options[i]: the moves still untried at ply i
        backtracks = 0
        while len(moves) < plies:
            engine.send(position_line(moves))
            engine.send("go perft 1")
            legal = legal_moves(engine)
            if len(options) == len(moves):
                options.append(list(legal))
            choices = options[len(moves)]
            if not choices:                  # no legal move left here: back up a ply
                options.pop()
                moves.pop()
                backtracks += 1
                continue
            move = choices.pop(rng.randrange(len(choices)))
            fen = fen_of(engine)
            if reveals(move, board_of(fen)):
                pool = pool_of(fen, fen.split()[1] == "w")
                roles = sorted(pool)
                move += "=" + rng.choices(roles, weights=[pool[r] for r in roles])[0]
            moves.append(move)
        # The legal moves at each ply, for checking bestmoves (plain UCI, as go answers).
        legal_by_ply = []
        for ply in range(plies + 1):
            engine.send(position_line(moves[:ply]))
            engine.send("go perft 1")
            legal_by_ply.append(set(legal_moves(engine)))
        played.append((moves, legal_by_ply))
        print(f"game {game + 1}: {plies} plies generated ({backtracks} back-ups)", flush=True)
    engine.quit()
    return played


def session(binary, played, go):
    engine = Engine(binary)
    report, failures = [], 0
    for game, (moves, legal_by_ply) in enumerate(played):
        engine.send("ucinewgame")
        times, rss = [], []
        for ply in range(1, len(moves) + 1):
            started = time.perf_counter()
            engine.send(position_line(moves[:ply]))
            engine.sync()
            times.append(time.perf_counter() - started)
            if go:
                engine.send("go " + go)
                best = engine.until(lambda l: l.startswith("bestmove"))[-1].split()[1]
                legal = legal_by_ply[ply]
                if best not in legal and not (best == "(none)" and not legal):
                    print(f"game {game + 1} ply {ply}: illegal bestmove {best}", flush=True)
                    failures += 1
            if ply % 100 == 0:
                rss.append(engine.rss_kib())
        first = 1000 * statistics.median(times[:100])
        last = 1000 * statistics.median(times[-100:])
        report.append((first, last, max(times) * 1000, rss))
        print(f"game {game + 1}: position {first:.2f} ms (plies 1-100) -> {last:.2f} ms "
              f"(last 100), max {max(times) * 1000:.2f} ms; RSS {rss[0]} -> {rss[-1]} KiB",
              flush=True)
    engine.quit()
    return report, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, "target/release/veil"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--plies", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--go", default="nodes 300", help="go limits after each position ('' for none)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    started = time.monotonic()
    played = play_games(args.binary, args.games, args.plies, rng)
    print(f"generated in {time.monotonic() - started:.0f} s", flush=True)
    started = time.monotonic()
    report, failures = session(args.binary, played, args.go)
    positions = args.games * args.plies
    print(f"session: {positions} positions in {time.monotonic() - started:.0f} s")
    (first_a, first_b, _, first_rss), (last_a, last_b, _, last_rss) = report[0], report[-1]
    print(f"first game: position {first_a:.2f} -> {first_b:.2f} ms, RSS {first_rss[-1]} KiB")
    print(f"last game:  position {last_a:.2f} -> {last_b:.2f} ms, RSS {last_rss[-1]} KiB")
    half = len(report) // 2
    early = max(max(rss) for *_, rss in report[:max(half, 1)])
    late = max(max(rss) for *_, rss in report[half:])
    print(f"peak RSS: {early} KiB in the first half of the games, {late} KiB in the second")
    if late - early > max(4096, early // 10):
        print(f"RSS grew by {late - early} KiB")
        failures += 1
    print("OK" if failures == 0 else f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
