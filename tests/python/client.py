#!/usr/bin/env python3
"""Drives the engine with python-chess, as a GUI or a bot framework would.

Usage: python3 tests/python/client.py [path/to/veil]   (default: target/release/veil)

Checks, through chess.engine.SimpleEngine.popen_uci:
  - the handshake: id and option list as python-chess parses them;
  - analyse() to depth 8 on a plain position: depth, score and a legal pv;
  - analyse(..., multipv=3): three distinct legal lines;
  - analyse with a mate limit and with root moves;
  - a self-play game of up to 40 plies with a clock and increment: every move legal, played
    within the clock;
  - play(..., ponder=True) over several moves, against an opponent that sometimes plays the
    expected move (python-chess then sends ponderhit) and sometimes another one (stop);
  - play() on a checkmated board: no move;
  - configure() with the engine's own options, and the refusal of the options python-chess
    manages itself (MultiPV, UCI_Variant, Ponder);
  - quit(): the process exits with status 0.

Every line the engine prints is watched: an `info string error:` line or a line python-chess
finds unexpected is a failure. Exits non-zero with a message on the first failure; prints a
summary line on success.
"""

import logging
import random
import sys
import time

try:
    import chess
    import chess.engine
except ImportError as error:  # pragma: no cover - reported by the Rust wrapper
    print(f"client: FAIL: python-chess is not importable: {error}", file=sys.stderr)
    sys.exit(2)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Transcript(logging.Handler):
    """Collects the lines python-chess sends and receives, and its warnings."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.sent = []
        self.received = []
        self.warnings = []

    def emit(self, record):
        message = record.getMessage()
        if record.levelno >= logging.WARNING:
            self.warnings.append(message)
        elif ": << " in message:
            self.sent.append(message.split(": << ", 1)[1])
        elif ": >> " in message:
            self.received.append(message.split(": >> ", 1)[1])

    def tail(self, count=30):
        return "\n".join(self.received[-count:])


def legal_pv(board, pv):
    """Whether every move of pv is legal in turn from board."""
    board = board.copy()
    for move in pv:
        if move not in board.legal_moves:
            return False
        board.push(move)
    return True


def check_handshake(engine):
    name = engine.id.get("name", "")
    check(name.startswith("Veil"), f"id name is {name!r}")
    expected = {
        "UCI_Variant": "combo",
        "Hash": "spin",
        "Threads": "spin",
        "Clear Hash": "button",
        "MultiPV": "spin",
        "Ponder": "check",
        "Move Overhead": "spin",
        "Level": "spin",
        "Seed": "spin",
    }
    for option, kind in expected.items():
        check(option in engine.options, f"option {option} missing: {list(engine.options)}")
        check(engine.options[option].type == kind, f"option {option} has type {engine.options[option].type}")
    variant = engine.options["UCI_Variant"]
    check(set(variant.var) == {"chess", "covered"}, f"UCI_Variant values {variant.var}")
    check(engine.options["Hash"].default == 16, "Hash default")
    check(engine.options["Level"].max == 5, "Level max")


def check_analyse(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, chess.engine.Limit(depth=8))
    check(info.get("depth") == 8, f"analyse depth 8 reported depth {info.get('depth')}")
    check("score" in info, f"no score in {info}")
    score = info["score"].white()
    check(score.score() is not None or score.mate() is not None, f"score {score}")
    pv = info.get("pv", [])
    check(len(pv) >= 2, f"pv too short: {pv}")
    check(legal_pv(board, pv), f"illegal pv {pv}")
    check("nodes" in info and info["nodes"] > 0, f"nodes in {info}")
    return info


def check_multipv(engine):
    board = chess.Board()
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    check(len(infos) == 3, f"multipv=3 gave {len(infos)} lines")
    firsts = set()
    for index, info in enumerate(infos):
        check(info.get("multipv") == index + 1, f"line {index} has multipv {info.get('multipv')}")
        check("score" in info, f"line {index} has no score")
        pv = info.get("pv", [])
        check(pv and legal_pv(board, pv), f"line {index} pv {pv}")
        firsts.add(pv[0])
    check(len(firsts) == 3, f"multipv lines start with the same move: {[i['pv'][0] for i in infos]}")
    # Back to one line: the next analyse gives a single dict.
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    check(isinstance(info, dict) and info.get("multipv", 1) == 1, f"single-line analyse: {info}")


def check_mate_and_root_moves(engine):
    board = chess.Board("k7/8/2K5/8/8/8/8/7R w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    mate = info["score"].white().mate()
    check(mate == 2, f"mate-in-2 position scored {info['score']}")
    start = chess.Board()
    roots = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    result = engine.play(start, chess.engine.Limit(depth=4), root_moves=roots)
    check(result.move in roots, f"root_moves {roots} but played {result.move}")
    mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    result = engine.play(mated, chess.engine.Limit(depth=2))
    check(result.move is None, f"checkmated side played {result.move}")


def self_play(engine, plies=40, clock=3.0, increment=0.05):
    board = chess.Board()
    clocks = {chess.WHITE: clock, chess.BLACK: clock}
    slowest = 0.0
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < plies:
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=increment,
            black_inc=increment,
        )
        started = time.monotonic()
        result = engine.play(board, limit)
        used = time.monotonic() - started
        side = board.turn
        check(result.move is not None, f"no move at ply {len(board.move_stack)} in {board.fen()}")
        check(result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}")
        check(used < clocks[side], f"used {used:.3f}s with {clocks[side]:.3f}s on the clock")
        clocks[side] += increment - used
        slowest = max(slowest, used)
        board.push(result.move)
    return board, slowest


def ponder_games(engine, transcript, moves=8):
    """Plays White with pondering against an opponent that follows the expected reply on
    even moves (ponderhit) and deviates on odd ones (stop)."""
    rng = random.Random(7)
    game = object()
    board = chess.Board()
    limit = chess.engine.Limit(white_clock=5.0, black_clock=5.0, white_inc=0.05, black_inc=0.05)
    sent_before = len(transcript.sent)
    played = 0
    for index in range(moves):
        if board.is_game_over():
            break
        result = engine.play(board, limit, ponder=True, game=game)
        check(result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
        played += 1
        if board.is_game_over():
            break
        legal = list(board.legal_moves)
        expected = result.ponder if result.ponder in legal else None
        if index % 2 == 0 and expected is not None:
            reply = expected
        else:
            others = [m for m in legal if m != expected] or legal
            reply = rng.choice(others)
        board.push(reply)
    sent = transcript.sent[sent_before:]
    ponders = sum(1 for line in sent if line.startswith("go ponder"))
    hits = sent.count("ponderhit")
    stops = sent.count("stop")
    check(ponders >= moves // 2, f"only {ponders} 'go ponder' sent: {sent}")
    check(hits >= 1, f"no ponderhit sent: {sent}")
    check(stops >= 1, f"no stop sent: {sent}")
    # End the pending ponder search with an ordinary search of another position.
    result = engine.play(chess.Board(), chess.engine.Limit(depth=2), game=game)
    check(result.move in chess.Board().legal_moves, f"after pondering: {result.move}")
    return played, ponders, hits, stops


def check_configure(engine):
    engine.configure({"Hash": 32, "Threads": 2, "Move Overhead": 20, "Level": 3, "Seed": 7})
    engine.configure({"Clear Hash": None})
    for name, value in (("MultiPV", 1), ("UCI_Variant", "chess"), ("Ponder", True)):
        try:
            engine.configure({name: value})
        except chess.engine.EngineError:
            pass
        else:
            raise Failure(f"python-chess accepted configuring managed option {name}")
    engine.ping()
    # Level 3 caps the search (tens of thousands of nodes in plain chess in the compiled-in
    # table, which retuning moves; an uncapped search to depth 30 takes many millions).
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=30))
    check(1 <= info.get("depth", 0) < 30, f"Level 3 searched to depth {info.get('depth')}")
    check(info.get("nodes", 0) <= 250000, f"Level 3 searched {info.get('nodes')} nodes")
    result = engine.play(board, chess.engine.Limit(depth=5))
    check(result.move in board.legal_moves, f"illegal move {result.move} with two threads")
    engine.configure({"Level": 5, "Threads": 1, "Hash": 16})
    info = engine.analyse(board, chess.engine.Limit(depth=5))
    check(info.get("depth") == 5, f"Level 5 searched to depth {info.get('depth')}")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "target/release/veil"
    transcript = Transcript()
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(transcript)
    logger.propagate = False

    started = time.monotonic()
    engine = chess.engine.SimpleEngine.popen_uci([path], timeout=15)
    try:
        check_handshake(engine)
        info = check_analyse(engine)
        check_multipv(engine)
        check_mate_and_root_moves(engine)
        board, slowest = self_play(engine)
        played, ponders, hits, stops = ponder_games(engine, transcript)
        check_configure(engine)
    except Exception:
        engine.close()
        raise
    engine.quit()
    code = engine.returncode.result(timeout=10)
    check(code == 0, f"engine exit status {code}")

    errors = [line for line in transcript.received if line.startswith("info string error")]
    check(not errors, f"engine reported errors: {errors}")
    check(not transcript.warnings, f"python-chess warnings: {transcript.warnings}")

    outcome = board.outcome(claim_draw=True)
    result = outcome.result() if outcome else "unfinished"
    print(
        f"client: OK: analyse depth {info['depth']} score {info['score'].white()} pv {len(info['pv'])} moves; "
        f"multipv 3 distinct; mate 2 found; self-play {len(board.move_stack)} plies ({result}, slowest move "
        f"{slowest * 1000:.0f} ms); ponder {played} moves ({ponders} go ponder, {hits} ponderhit, {stops} stop); "
        f"configure ok; exit 0; {time.monotonic() - started:.1f} s"
    )


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        print(f"client: FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
    except Exception as error:  # noqa: BLE001 - any other error is a failure too
        print(f"client: FAIL: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
