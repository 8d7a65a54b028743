#!/usr/bin/env python3
"""Writes varied, roughly balanced plain-chess start positions for self-play data.

Each position is the start position (or, with --book, a position of the book drawn at
random) after PLIES uniformly random legal moves; positions that are over, repeated, or
that Veil scores beyond MARGIN centipawns (a short search, `go nodes N`) are dropped. A
fixed-node self-play match from these positions (`veil match --openings FILE --tc nodes=N`)
gives games that differ from the first move, which is what `veil tune` and a fixed-node
screen need; a handful of book openings would replay the same games.

Usage: python3 scripts/random-openings.py --engine target/release/veil --count 3000 \
           --plies 8 --seed 1 --out openings.epd
       python3 scripts/random-openings.py --engine target/release/veil --count 1000 \
           --book openings/chess.epd --plies 4 --seed 1 --out book4.epd
Needs python-chess (`bash scripts/setup.sh` installs it).
"""

import argparse
import random
import sys

import chess
import chess.engine


def read_book(path):
    """The book's positions: one EPD or FEN a line (blank lines and # comments skipped)."""
    boards = []
    with open(path) as book:
        for number, line in enumerate(book, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            try:
                board = chess.Board(" ".join(fields[:4] + ["0", "1"]))
            except ValueError as error:
                sys.exit(f"random-openings: {path}:{number}: not a plain-chess position ({error})")
            boards.append(board)
    if not boards:
        sys.exit(f"random-openings: {path} holds no position")
    return boards


def random_position(rng, plies, book):
    board = rng.choice(book).copy() if book else chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
    if board.is_game_over():
        return None
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="the engine that judges balance")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--margin", type=int, default=120, help="largest |score| kept, cp")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes of the judging search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--book", help="start from this book's positions (EPD or FEN a line)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    book = read_book(args.book) if args.book else []
    seen = set()
    kept = []
    tried = 0
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        while len(kept) < args.count:
            tried += 1
            if tried > 100 * args.count:
                sys.exit(f"random-openings: only {len(kept)} of {args.count} after {tried} tries")
            board = random_position(rng, args.plies, book)
            if board is None:
                continue
            epd = board.epd()
            if epd in seen:
                continue
            seen.add(epd)
            info = engine.analyse(board, chess.engine.Limit(nodes=args.nodes))
            score = info["score"].white()
            if score.is_mate() or abs(score.score()) > args.margin:
                continue
            kept.append(epd)
    with open(args.out, "w") as out:
        for epd in kept:
            out.write(epd + "\n")
    print(f"random-openings: {len(kept)} positions kept of {tried} tried -> {args.out}")


if __name__ == "__main__":
    main()
