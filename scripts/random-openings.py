#!/usr/bin/env python3
"""Writes varied, roughly balanced plain-chess start positions for self-play data.

Each position is the start position after PLIES uniformly random legal moves; positions
that are over, repeated, or that Veil scores beyond MARGIN centipawns (a short search,
`go nodes N`) are dropped. A fixed-node self-play match from these positions
(`veil match --openings FILE --tc nodes=N`) gives games that differ from the first move,
which is what `veil tune` needs; a handful of book openings would replay the same games.

Usage: python3 scripts/random-openings.py --engine target/release/veil --count 3000 \
           --plies 8 --seed 1 --out openings.epd
Needs python-chess (`bash scripts/setup.sh` installs it).
"""

import argparse
import random
import sys

import chess
import chess.engine


def random_position(rng, plies):
    board = chess.Board()
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
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    seen = set()
    kept = []
    tried = 0
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        while len(kept) < args.count:
            tried += 1
            if tried > 100 * args.count:
                sys.exit(f"random-openings: only {len(kept)} of {args.count} after {tried} tries")
            board = random_position(rng, args.plies)
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
