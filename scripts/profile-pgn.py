#!/usr/bin/env python3
"""Judges every move of plain-chess games in a PGN file and writes the move log that
`veil levels --profile-from` reads, so that any player's games (another engine's, such as the
Stockfish `UCI_Elo` anchors, or people's) can be profiled beside the levels with the same
figures.

Each position is scored by the judge (a UCI engine at a fixed node count) for its side to
move, capped at +-1000 as the profile caps it (a mate for the mover is +1000, against it
-1000); a position the rules have ended is scored by the rules (mated -1000, any draw a player
could claim 0). Both sides' moves are judged; every line carries the `--level` it is given, so
that several players' logs can share one file.

Usage:
  veil match --engine name=a cmd=stockfish option.UCI_LimitStrength=true option.UCI_Elo=1600 \\
             --engine name=b cmd=stockfish option.UCI_LimitStrength=true option.UCI_Elo=1600 \\
             --variant chess --openings openings/chess.epd --games 20 --tc 5+0.05 --pgn sf1600.pgn
  python3 scripts/profile-pgn.py --pgn sf1600.pgn --level 4 --out sf1600.jsonl
  veil levels --profile --variant chess --profile-from sf1600.jsonl --profile-levels 4

(The profile sets the log beside the human figures at the Elo the levels table gives the level
named; `--levels-file` with that row's `elo` changed sets it at another.)

Needs python-chess (scripts/setup.sh installs it).
"""

import argparse
import json
import math
import sys

import chess
import chess.engine
import chess.pgn

CAP = 1000
SLOPE = 0.00368208


def win_percent(cp):
    return 50.0 + 50.0 * (2.0 / (1.0 + math.exp(-SLOPE * cp)) - 1.0)


def rules_score(board):
    if board.is_checkmate():
        return -CAP
    if board.is_game_over(claim_draw=True):
        return 0
    return None


def judge_score(engine, board, nodes):
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
    score = info["score"].pov(board.turn)
    if score.is_mate():
        return CAP if score.mate() > 0 else -CAP
    return max(-CAP, min(CAP, score.score()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pgn", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--level", type=int, default=1, help="the level number the lines carry (1-5)")
    parser.add_argument("--judge", default="/usr/games/stockfish")
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--games", type=int, default=0, help="judge at most this many games (0: all)")
    args = parser.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.judge)
    judged = 0
    with open(args.pgn) as pgn, open(args.out, "w") as out:
        index = 0
        while True:
            game = chess.pgn.read_game(pgn)
            if game is None or (args.games and index >= args.games):
                break
            board = game.board()
            moves = list(game.mainline_moves())
            scores = []
            for move in moves:
                rules = rules_score(board)
                scores.append(rules if rules is not None else judge_score(engine, board, args.nodes))
                board.push(move)
            rules = rules_score(board)
            scores.append(rules if rules is not None else judge_score(engine, board, args.nodes))
            board = game.board()
            for ply, move in enumerate(moves):
                before = scores[ply]
                after = -scores[ply + 1]
                line = {
                    "level": args.level,
                    "pair": index // 2 + 1,
                    "game": index % 2 + 1,
                    "ply": ply + 1,
                    "fen": board.fen(),
                    "move": move.uci(),
                    "before": before,
                    "after": float(after),
                    "loss": max(0, before - after),
                    "win_before": win_percent(before),
                    "win_after": win_percent(after),
                }
                out.write(json.dumps(line) + "\n")
                board.push(move)
                judged += 1
            index += 1
            print(f"game {index}: {len(moves)} moves judged", file=sys.stderr)
    engine.quit()
    print(f"{index} games, {judged} moves judged", file=sys.stderr)


if __name__ == "__main__":
    main()
