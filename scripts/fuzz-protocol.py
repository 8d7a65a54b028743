#!/usr/bin/env python3
"""Stress-tests the engine's protocol loop for crashes, hangs and malformed output.

Usage: scripts/fuzz-protocol.py [BINARY] [--seed N] [--duration SECONDS] [--skip REGEX]...
       scripts/fuzz-protocol.py [BINARY] --replay FILE

The fuzzer runs the engine (default target/release/veil) in sessions of a few hundred to a few
thousand input lines and sends it random mixes of
  - valid commands: uci, isready, ucinewgame, setoption (UCI_Variant, Hash, Threads, MultiPV,
    Level, ...), position startpos / fen (FENs from perft/*.epd) with legal move sequences
    (legal moves from `go perft 1`, reveal suffixes from the pool read off `d`), go with small
    limits (depth, nodes, movetime, clocks, infinite + stop, ponder + ponderhit / stop,
    searchmoves, mate, perft), stop, ponderhit, d, debug on/off, bench 1;
  - garbage: random bytes, invalid UTF-8, NUL and other control bytes, lone CR, Unicode
    whitespace, very long lines, truncated and mutated commands, mutated FENs and moves,
    random tokens and edge-case numbers.

Every input line is also parsed here the way the engine parses it, so the fuzzer knows what
each line should produce. It checks:
  - after every few lines, `isready` is answered with `readyok` within 5 s (else: a hang);
  - the process stays alive and writes nothing to stderr (a panic message in particular);
  - the number of `info string error:` lines fits the lines sent (exactly one for a line with
    no known command, a bad option value, a bad `position`, ...), counted at every `readyok`;
  - every `go` gets exactly one `bestmove` (checked after `stop` at checkpoints and at the
    end), every `go perft` and `bench` one `Nodes searched`; when the position is known, the
    bestmove is one of its legal moves (or of the `searchmoves`), `(none)` without one;
  - every output line is valid UTF-8 and a recognised UCI / perft / `d` line; error lines are
    cut to their documented length;
  - legal moves with a reveal suffix from the pool are accepted, a wrong suffix is refused;
  - `quit` (or the end of input) ends the engine with exit status 0 within 5 s.

Lines that would legitimately block the engine for long (`go perft` above 3, `bench` above
depth 2) or use a lot of memory (`Hash` above 256, `Threads` above 8) are not generated.

On a failure the session's whole input is written, byte for byte, to
/tmp/fuzz-failure-<seed>.txt (`veil < file` replays it; later failures of the same run get
-2, -3, ... suffixes), a description with the last 50 lines sent and the last output lines to
the same name with `.log`, and a new session starts. The exit status is 1 if anything failed.

`--replay FILE` sends FILE's lines one at a time, each followed by `isready`, with the same
checks, then `quit`: a quick way to confirm and shrink a saved failure.
"""

import argparse
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 5.0
MAX_ERROR_MESSAGE = 400

# --- The engine's parser, mirrored ------------------------------------------------------------

# Rust's char::is_whitespace (Unicode White_Space), which str::trim and split_whitespace use.
RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
)

COMMANDS = ["uci", "debug", "isready", "setoption", "ucinewgame", "position", "go", "stop",
            "ponderhit", "quit", "d", "bench"]
GO_KEYWORDS = ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
               "movetime", "infinite", "ponder", "searchmoves", "perft"]
GO_NUMBERS = {"wtime": (True, 64), "btime": (True, 64), "winc": (True, 64), "binc": (True, 64),
              "movestogo": (False, 32), "depth": (False, 32), "nodes": (False, 64),
              "mate": (False, 32), "movetime": (True, 64), "perft": (False, 32)}
SPIN_OPTIONS = {"hash": (1, 16384), "threads": (1, 64), "multipv": (1, 256),
                "move overhead": (0, 5000), "level": (1, 5), "seed": (0, 2147483647)}

# The engine's bounds (protocol.md, "Limits"; src/protocol/limits.rs).
MAX_LINE_BYTES = 256 * 1024
MAX_POSITION_MOVES = 10_000
MAX_GO_DEPTH = 100
MAX_PERFT_DEPTH = 100
MAX_BENCH_DEPTH = 6

# Limits on what the fuzzer sends (see the module docstring).
MAX_PERFT = 3
MAX_BENCH = 2
MAX_HASH = 256
MAX_THREADS = 8


def rust_split(text):
    tokens, current = [], []
    for ch in text:
        if ch in RUST_WHITESPACE:
            if current:
                tokens.append("".join(current))
                current = []
        else:
            current.append(ch)
    if current:
        tokens.append("".join(current))
    return tokens


def rust_int(text, signed, bits):
    """`text.parse::<iN/uN>()`: an optional sign, ASCII digits, no overflow; None on error."""
    if text is None:
        text = ""
    negative = False
    if text[:1] == "+" or (signed and text[:1] == "-"):
        negative = text[0] == "-"
        text = text[1:]
    if not text or any(not "0" <= c <= "9" for c in text):
        return None
    value = -int(text) if negative else int(text)
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return value if low <= value <= high else None


def ascii_lower(text):
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)


class Parsed:
    """What one input line should do: its command and how many error lines it may print."""

    def __init__(self, kind, errors=(0, 0), **details):
        self.kind = kind
        self.errors = errors
        self.details = details

    def __repr__(self):
        return f"Parsed({self.kind}, errors={self.errors}, {self.details})"


def parse_line(data):
    """Mirrors the engine's handle_line / command::parse / Options::set for one input line."""
    if len(data) > MAX_LINE_BYTES:
        return Parsed("bad", (1, 1))
    text = data.decode("utf-8", "replace")
    tokens = rust_split(text)
    if not tokens:
        return Parsed("empty")
    start = next((i for i, t in enumerate(tokens) if t in COMMANDS), None)
    if start is None:
        return Parsed("unknown", (1, 1))
    command, args = tokens[start], tokens[start + 1:]
    if command in ("uci", "isready", "ucinewgame", "stop", "ponderhit", "quit", "d"):
        return Parsed(command)
    if command == "debug":
        return Parsed("debug") if args[:1] in (["on"], ["off"]) else Parsed("bad", (1, 1))
    if command == "bench":
        if not args:
            return Parsed("bench", depth=None)
        depth = rust_int(args[0], False, 32)
        if depth is None or depth > MAX_BENCH_DEPTH:
            return Parsed("bad", (1, 1))
        return Parsed("bench", depth=depth)
    if command == "setoption":
        return parse_setoption(args)
    if command == "position":
        return parse_position(args)
    return parse_go(args)


def parse_setoption(args):
    if args[:1] != ["name"]:
        return Parsed("bad", (1, 1))
    value_at = args.index("value") if "value" in args else None
    name_tokens = args[1:value_at if value_at is not None else len(args)]
    if not name_tokens:
        return Parsed("bad", (1, 1))
    value = " ".join(args[value_at + 1:]) if value_at is not None else None
    if value == "":
        return Parsed("bad", (1, 1))
    name = ascii_lower(" ".join(name_tokens))
    refused = Parsed("bad", (1, 1))
    if name == "uci_variant":
        variant = ascii_lower(value) if value is not None else None
        if variant not in ("chess", "covered"):
            return refused
        return Parsed("setoption", option=name, value=variant)
    if name == "clear hash":
        return Parsed("setoption", option=name, value=None)
    if name == "ponder":
        if value is None or ascii_lower(value) not in ("true", "false"):
            return refused
        return Parsed("setoption", option=name, value=ascii_lower(value))
    if name in SPIN_OPTIONS:
        number = rust_int(value, True, 64)
        low, high = SPIN_OPTIONS[name]
        if number is None or not low <= number <= high:
            return refused
        return Parsed("setoption", option=name, value=number)
    return refused


def parse_position(args):
    moves_at = args.index("moves") if "moves" in args else None
    head = args[:moves_at if moves_at is not None else len(args)]
    moves = args[moves_at + 1:] if moves_at is not None else []
    if len(moves) > MAX_POSITION_MOVES:
        return Parsed("bad", (1, 1))
    if head[:1] == ["startpos"]:
        if len(head) > 1:
            return Parsed("bad", (1, 1))
        return Parsed("position", (0, 1) if moves else (0, 0), moves=moves)
    if head[:1] == ["fen"] and len(head) >= 2:
        return Parsed("position", (0, 1), moves=moves)
    return Parsed("bad", (1, 1))


def parse_go(args):
    problems, perft, searchmoves, i = 0, None, [], 0
    while i < len(args):
        keyword = args[i]
        value = args[i + 1] if i + 1 < len(args) else None
        takes_value, ok = True, True
        if keyword in GO_NUMBERS:
            number = rust_int(value, *GO_NUMBERS[keyword])
            ok = number is not None
            if ok and keyword == "perft":
                perft = number
            if ok and keyword == "depth" and number > MAX_GO_DEPTH:
                ok = False  # searched to the bound, with one error line
        elif keyword in ("infinite", "ponder"):
            takes_value = False
        elif keyword == "searchmoves":
            takes_value = False
            while i + 1 < len(args) and args[i + 1] not in GO_KEYWORDS:
                searchmoves.append(args[i + 1])
                i += 1
        else:
            takes_value, ok = False, False
        if ok:
            i += 2 if takes_value else 1
        else:
            skip = takes_value and value is not None and value not in GO_KEYWORDS
            i += 2 if skip else 1
            problems += 1
    if perft is not None and perft > MAX_PERFT_DEPTH:
        return Parsed("bad", (1, 1))
    if perft is not None:
        return Parsed("perft", (problems, problems), depth=perft)
    return Parsed("go", (problems, problems + len(searchmoves)), searchmoves=searchmoves)


def too_heavy(parsed):
    """Lines the fuzzer does not send: they would block the engine or use much memory."""
    d = parsed.details
    if parsed.kind == "perft":
        return d["depth"] > MAX_PERFT
    if parsed.kind == "bench":
        return d["depth"] is None or d["depth"] > MAX_BENCH
    if parsed.kind == "setoption":
        return (d["option"] == "hash" and d["value"] > MAX_HASH) or (
            d["option"] == "threads" and d["value"] > MAX_THREADS)
    return False


# --- Output lines ------------------------------------------------------------------------------

MOVE = r"[a-h][1-8][a-h][1-8][qrbn]?"
RE_BESTMOVE = re.compile(rf"bestmove (?:({MOVE})|\(none\))(?: ponder {MOVE})?")
RE_DIVIDE = re.compile(rf"({MOVE}): (\d+)")
RE_NODES = re.compile(r"Nodes searched: (\d+)")
RE_SEARCH_INFO = re.compile(
    r"info depth \d+ seldepth \d+ multipv \d+ score (?:cp|mate) -?\d+(?: lowerbound| upperbound)?"
    rf" nodes \d+ nps \d+ hashfull \d+ time \d+ pv(?: {MOVE})*")
RECOGNISED = [re.compile(p) for p in (
    r"id name Veil \S+", r"id author .+",
    r"option name .+ type (?:spin|check|combo|button|string)(?: .*)?",
    r"uciok", r"readyok",
    r"info string .*", r"info depth 0 score (?:mate 0|cp 0)",
    rf"{MOVE}: \d+", r"", r"Nodes searched: \d+", r"Nodes/second: \d+",
    r" \+(?:---\+){8}", r" \|(?:[ ?][pnbrqkPNBRQK ] \|){8} [1-8]",
    r"   a   b   c   d   e   f   g   h",
    r"Covered pieces .*", r"(?:White|Black) pool: .*", r"Fen: .+", r"Key: [0-9A-F]{16}",
    r"Checkers:(?: [a-h][1-8])*",
)] + [RE_SEARCH_INFO, RE_BESTMOVE]


class Failure(Exception):
    pass


def show(text):
    """Text with control and other unprintable characters escaped, for reports."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


# --- The engine process --------------------------------------------------------------------------

class Engine:
    """A running engine: a writer thread for its input, readers for its stdout and stderr that
    check and count every line."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.cond = threading.Condition()
        self.sent = []            # every line sent (bytes, without the newline)
        self.output = []          # every output line (text)
        self.problems = []        # what the readers found wrong
        self.stderr = []
        self.closed = False       # stdout reached its end
        # Counts of what was sent and what came back.
        self.gos = self.bestmoves = 0
        self.counted = self.nodes_lines = 0          # go perft + bench, `Nodes searched` lines
        self.readies = self.readyoks = 0
        self.errors = 0
        self.error_bounds = [0, 0]                   # cumulated over the lines sent
        self.bounds_at_ready = []                    # error bounds at each isready sent
        self.errors_at_readyok = []                  # errors seen at each readyok
        self.nodes_at = []                           # output index of each `Nodes searched`
        self.fen_at = []                             # output index of each `Fen:` line
        self.go_allowed = []                         # per go: allowed bestmoves, or None
        self.input = queue.Queue()
        threading.Thread(target=self._write, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _write(self):
        while True:
            data = self.input.get()
            try:
                if data is None:
                    self.process.stdin.close()
                    return
                self.process.stdin.write(data)
                if self.input.empty():
                    self.process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                return

    def _problem(self, text):
        if len(self.problems) < 20:
            self.problems.append(text)

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            with self.cond:
                self._take(raw)
                self.cond.notify_all()
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def _take(self, raw):
        if not raw.endswith(b"\n"):
            self._problem(f"output ends without a newline: {raw[-80:]!r}")
        try:
            line = raw[:-1].decode("utf-8") if raw.endswith(b"\n") else raw.decode("utf-8")
        except UnicodeDecodeError:
            self._problem(f"output line is not valid UTF-8: {raw[:120]!r}")
            line = raw.decode("utf-8", "replace").rstrip("\n")
        self.output.append(line)
        if not any(p.fullmatch(line) for p in RECOGNISED):
            self._problem(f"unrecognised output line: {line[:200]!r}")
        if line.startswith("info string error: "):
            self.errors += 1
            message = line[len("info string error: "):]
            if len(message.encode()) > MAX_ERROR_MESSAGE + 3:
                self._problem(f"error message longer than {MAX_ERROR_MESSAGE} bytes + '...': "
                              f"{len(message.encode())} bytes")
        elif line == "readyok":
            self.readyoks += 1
            self.errors_at_readyok.append(self.errors)
            if self.readyoks > self.readies:
                self._problem("readyok without an isready")
            else:
                low, high = self.bounds_at_ready[self.readyoks - 1]
                if not low <= self.errors <= high:
                    expected = f"{low}" if low == high else f"{low}..{high}"
                    self._problem(f"{self.errors} error lines before readyok {self.readyoks}, "
                                  f"expected {expected}")
        elif line.startswith("bestmove"):
            self.bestmoves += 1
            if self.bestmoves > self.gos:
                self._problem(f"bestmove number {self.bestmoves} after only {self.gos} go")
            else:
                allowed = self.go_allowed[self.bestmoves - 1]
                match = RE_BESTMOVE.fullmatch(line)
                if allowed is not None and match and match.group(1) not in allowed:
                    self._problem(f"'{line}' for go number {self.bestmoves}, expected one of "
                                  f"{sorted(allowed, key=str)[:12]}")
        elif RE_NODES.fullmatch(line):
            self.nodes_lines += 1
            self.nodes_at.append(len(self.output) - 1)
            if self.nodes_lines > self.counted:
                self._problem(f"'Nodes searched' number {self.nodes_lines} after only "
                              f"{self.counted} go perft / bench")
        elif line.startswith("Fen: "):
            self.fen_at.append(len(self.output) - 1)

    def _read_stderr(self):
        for raw in iter(self.process.stderr.readline, b""):
            with self.cond:
                text = raw.decode("utf-8", "replace").rstrip("\n")
                if "panicked" in text:
                    self._problem(f"panic: {text[:300]}")
                elif not self.stderr:
                    self._problem(f"output on stderr: {show(text[:300])}")
                self.stderr.append(text)
                self.cond.notify_all()

    def send(self, data, parsed=None, allowed=None):
        """Queues one line; parsed says what the engine should make of it. allowed: for a
        go, the moves its bestmove may be (None: unknown)."""
        parsed = parsed or parse_line(data)
        with self.cond:
            self.sent.append(data)
            self.error_bounds[0] += parsed.errors[0]
            self.error_bounds[1] += parsed.errors[1]
            if parsed.kind == "go":
                self.gos += 1
                self.go_allowed.append(allowed)
            elif parsed.kind in ("perft", "bench"):
                self.counted += 1
            elif parsed.kind == "isready":
                self.readies += 1
                self.bounds_at_ready.append(tuple(self.error_bounds))
        self.input.put(data + b"\n")
        return parsed

    def wait(self, predicate, what, timeout=TIMEOUT):
        with self.cond:
            seen = len(self.output)
            if not self.cond.wait_for(lambda: predicate() or self.closed or self.problems,
                                      timeout):
                raise Failure(f"hang: no {what} within {timeout:.0f} s "
                              f"({len(self.output) - seen} output lines meanwhile)")
            self.check()
            if not predicate():
                raise Failure(f"engine output ended while waiting for {what} "
                              f"(exit status {self.process.poll()})")

    def check(self):
        if self.problems:
            raise Failure("; ".join(self.problems))
        if self.process.poll() is not None:
            raise Failure(f"engine exited with status {self.process.returncode} unasked")

    def sync(self):
        self.send(b"isready")
        target = self.readies
        self.wait(lambda: self.readyoks >= target, "readyok")

    def settle(self):
        """Stops any search and requires every go / perft / bench to be answered."""
        self.send(b"stop")
        self.sync()
        self.wait(lambda: self.bestmoves == self.gos and self.nodes_lines == self.counted,
                  "bestmove after stop")

    def finish(self, by_quit=True):
        """Ends the session; requires exit status 0 and everything answered."""
        if by_quit:
            self.send(b"quit")
        self.input.put(None)
        try:
            status = self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failure(f"hang: still running {TIMEOUT:.0f} s after "
                          f"{'quit' if by_quit else 'the end of input'}") from None
        with self.cond:
            self.cond.wait_for(lambda: self.closed, TIMEOUT)
        time.sleep(0.05)  # let the stderr reader finish
        with self.cond:
            if self.problems:
                raise Failure("; ".join(self.problems))
            if status != 0:
                raise Failure(f"exit status {status} after {'quit' if by_quit else 'EOF'}")
            if self.bestmoves != self.gos:
                raise Failure(f"{self.gos} go but {self.bestmoves} bestmove at exit")
            if self.nodes_lines != self.counted:
                raise Failure(f"{self.counted} go perft / bench but {self.nodes_lines} "
                              "'Nodes searched' at exit")

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.input.put(None)


# --- Positions -----------------------------------------------------------------------------------

def read_fens(name):
    fens = []
    with open(os.path.join(ROOT, "perft", name)) as file:
        for line in file:
            line = line.split(";")[0].strip()
            if line and not line.startswith("#"):
                fens.append(line)
    return fens


def board_of(fen):
    """Square name -> piece letter, from a FEN's first field."""
    board = {}
    for rank_index, rank in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in rank:
            if ch.isdigit():
                file += int(ch)
            else:
                board["abcdefgh"[file] + str(8 - rank_index)] = ch
                file += 1
    return board


def pools_of(fen):
    """The roles each side's pool holds (count > 0): {'w': 'QRBNP'-subset, 'b': ...}."""
    fields = fen.split()
    pools = {"w": "", "b": ""}
    if len(fields) >= 7 and fields[6] != "-":
        for letter, count in re.findall(r"([QRBNPqrbnp])(\d+)", fields[6]):
            if int(count) > 0:
                pools["w" if letter.isupper() else "b"] += letter.upper()
    return pools


def reveals(move, board):
    """Whether a move (plain UCI) moves a covered piece, castling included."""
    origin, target = move[:2], move[2:4]
    piece = board.get(origin)
    if piece in ("X", "x"):
        return True
    if piece in ("K", "k") and origin[0] == "e" and target[0] in "cg" and origin[1] == target[1]:
        corner = ("h" if target[0] == "g" else "a") + origin[1]
        return board.get(corner) in ("X", "x")
    return False


# --- Generators ----------------------------------------------------------------------------------

EDGE_NUMBERS = ["0", "-0", "+0", "1", "-1", "+7", "2", "3", "255", "256", "65535", "2147483647",
                "2147483648", "-2147483648", "4294967295", "4294967296", "9223372036854775807",
                "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                "18446744073709551615", "18446744073709551616", "99999999999999999999999",
                "1e3", "0x10", "3.5", "1_000", "", "+", "-", "٣", "１２", "NaN", "inf"]
VOCABULARY = COMMANDS + GO_KEYWORDS + [
    "name", "value", "startpos", "fen", "moves", "on", "off", "Hash", "Threads", "MultiPV",
    "Level", "UCI_Variant", "Clear", "Ponder", "Move", "Overhead", "Seed", "covered", "chess",
    "true", "false", "e2e4", "e2e4=P", "e7e8q", "e1g1", "e1g1=B", "a7a8q=P", "0000", "(none)",
    "w", "b", "KQkq", "-", "x", "X", "=", "=P", "?", "register", "later", "joho", "setoption",
    "bestmove", "info", "readyok", "uciok", "UCI", "GO", "Go", "ISREADY", "debug", "dd"]
SPECIAL_BYTES = [b"\x00", b"\r", b"\t", b"\x0b", b"\x0c", b"\x1b", b"\x7f", b"\xff", b"\xfe",
                 b"\xc3", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                 b"\xc0\xaf", b"\xf0\x9f\x98", b"\xc2\x85", b"\xc2\xa0", b"\xe2\x80\xa8",
                 b"\xe3\x80\x80", b"\xef\xbb\xbf", b"\xe2\x80\x8b", "é".encode(), "♞".encode(),
                 "𝕏".encode(), b"\x1c", b"\x1f"]
FEN_CHARS = "pnbrqkPNBRQKxX12345678/ -wbKQkqacdefgh0123459"
ROLES = "QRBNP"


class Fuzzer:
    def __init__(self, binary, seed, skip=(), out=sys.stdout):
        self.binary = binary
        self.skip = [re.compile(pattern) for pattern in skip]
        self.seed = seed
        self.rng = random.Random(seed)
        self.out = out
        self.plain_fens = read_fens("standard.epd")
        self.covered_fens = read_fens("covered.epd")
        self.engine = None
        self.legal = None         # legal moves of the engine's position, when known
        self.pending = []         # [lines left, line]: stop / ponderhit due later
        self.failures = 0
        self.stats = dict(sessions=0, lines=0, bytes=0, garbage=0, searches=0, perfts=0,
                          walks=0, walk_moves=0, refusals_checked=0, checkpoints=0, syncs=0)

    # Sending ----------------------------------------------------------------------------------

    def send(self, data, allowed=None, garbage=False):
        if isinstance(data, str):
            data = data.encode()
        parsed = parse_line(data)
        if parsed.kind in ("position", "setoption"):
            self.legal = None
        if parsed.kind == "go" and allowed is None and self.legal is not None:
            searchmoves = parsed.details["searchmoves"]
            if not self.legal:
                allowed = {None}
            elif searchmoves and all(m in self.legal for m in searchmoves):
                allowed = set(searchmoves)
            elif not searchmoves:
                allowed = set(self.legal)
        self.engine.send(data, parsed, allowed)
        self.stats["lines"] += 1
        self.stats["bytes"] += len(data) + 1
        self.stats["garbage"] += garbage
        self.stats["searches"] += parsed.kind == "go"
        self.stats["perfts"] += parsed.kind == "perft"
        return parsed

    def later(self, line, within):
        self.pending.append([self.rng.randint(0, within), line])

    def tick(self):
        """Sends the stop / ponderhit lines that are due."""
        for item in list(self.pending):
            item[0] -= 1
            if item[0] < 0:
                self.pending.remove(item)
                self.send(item[1])

    # Queries (synchronous) --------------------------------------------------------------------

    def query_fen(self):
        engine = self.engine
        with engine.cond:
            before = len(engine.fen_at)
        self.send("d")
        engine.wait(lambda: len(engine.fen_at) > before, "Fen line after d")
        with engine.cond:
            return engine.output[engine.fen_at[before]][len("Fen: "):]

    def query_moves(self):
        engine = self.engine
        self.send("go perft 1")
        target = engine.counted
        engine.wait(lambda: engine.nodes_lines >= target, "Nodes searched after go perft 1")
        with engine.cond:
            end = engine.nodes_at[target - 1]
            begin = engine.nodes_at[target - 2] if target >= 2 else -1
            lines = engine.output[begin + 1:end]
            total = int(RE_NODES.fullmatch(engine.output[end]).group(1))
        divide = [RE_DIVIDE.fullmatch(line) for line in lines]
        divide = [m for m in divide if m]
        if sum(int(m.group(2)) for m in divide) != total:
            raise Failure(f"go perft 1: divide lines sum to {sum(int(m.group(2)) for m in divide)}"
                          f", Nodes searched says {total}")
        moves = [m.group(1) for m in divide]
        if len(set(moves)) != len(moves):
            raise Failure(f"go perft 1 lists a move twice: {moves}")
        return moves

    def errors_of(self, line):
        """Sends isready, line and isready; the number of error lines the line caused."""
        engine = self.engine
        self.sync()
        before = engine.readies
        self.send(line)
        self.sync()
        with engine.cond:
            previous = engine.errors_at_readyok[before - 1] if before else 0
            return engine.errors_at_readyok[-1] - previous

    def sync(self):
        self.stats["syncs"] += 1
        self.engine.sync()

    # Valid commands ---------------------------------------------------------------------------

    def start_text(self):
        """A valid position start: startpos, or a FEN from the perft suites."""
        r = self.rng.random()
        if r < 0.25:
            return "startpos"
        fens = self.covered_fens if r < 0.7 else self.plain_fens
        return "fen " + self.rng.choice(fens)

    def decorate(self, move, fen):
        """The move as played, with a reveal suffix when it needs one (and now and then a
        wrong one); and whether the engine must accept it."""
        board, side = board_of(fen), fen.split()[1]
        roles = pools_of(fen)[side]
        r = self.rng.random()
        if reveals(move, board):
            if r < 0.85:
                letter = self.rng.choice(roles)
                return move + "=" + self.rng.choice([letter, letter.lower()]), True
            if r < 0.95:
                letter = self.rng.choice("QRBNPK")
                return move + "=" + letter, letter in roles
            return move, False
        if r < 0.96:
            return move, True
        return move + "=" + self.rng.choice(ROLES), False

    def walk(self):
        """position + a legal move sequence built one move at a time, checking that legal
        moves are accepted and wrong suffixes refused."""
        self.stats["walks"] += 1
        start = self.start_text()
        if self.errors_of(f"position {start}") != 0:
            raise Failure(f"'position {start}' refused")
        moves = []
        for _ in range(self.rng.randint(0, 10)):
            fen = self.query_fen()
            legal = self.query_moves()
            if not legal:
                break
            text, good = self.decorate(self.rng.choice(legal), fen)
            line = f"position {start} moves {' '.join(moves + [text])}"
            errors = self.errors_of(line)
            self.stats["refusals_checked"] += 1
            if good and errors != 0:
                raise Failure(f"legal move '{text}' refused in {fen}")
            if not good and errors != 1:
                raise Failure(f"'{text}' accepted in {fen} ({errors} error lines)")
            if good:
                moves.append(text)
                self.stats["walk_moves"] += 1
        self.legal = self.query_moves()

    def go_line(self):
        rng = self.rng
        r = rng.random()
        parts = ["go"]
        if r < 0.15:
            parts += ["depth", str(rng.randint(1, 4))]
        elif r < 0.28:
            parts += ["nodes", str(rng.randint(1, 20000))]
        elif r < 0.40:
            parts += ["movetime", str(rng.randint(1, 50))]
        elif r < 0.52:
            parts += ["wtime", str(rng.randint(0, 3000)), "btime", str(rng.randint(0, 3000))]
            if rng.random() < 0.5:
                parts += ["winc", str(rng.randint(0, 100)), "binc", str(rng.randint(0, 100))]
            if rng.random() < 0.4:
                parts += ["movestogo", str(rng.randint(1, 40))]
        elif r < 0.57:
            parts += [rng.choice(["wtime", "btime"]), str(rng.randint(0, 500))]
        elif r < 0.68:
            parts.append("infinite")
            self.later("stop", 6)
        elif r < 0.78:
            parts += ["ponder", "wtime", str(rng.randint(10, 2000)),
                      "btime", str(rng.randint(10, 2000))]
            self.later(rng.choice(["ponderhit", "stop", "ponderhit"]), 6)
        elif r < 0.85:
            parts += ["mate", str(rng.randint(1, 3))]
            if rng.random() < 0.5:
                parts += ["depth", str(rng.randint(1, 4))]
        elif r < 0.93:
            parts += ["perft", str(rng.randint(1, 2))]
        else:
            parts += ["depth", str(rng.randint(1, 3))]
        if self.legal and rng.random() < 0.2 and "perft" not in parts:
            chosen = rng.sample(self.legal, rng.randint(1, min(4, len(self.legal))))
            parts += ["searchmoves"] + chosen
        return " ".join(parts)

    def valid_line(self):
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            return self.go_line()
        if r < 0.45:
            return rng.choice(["stop", "ponderhit", "isready", "d"])
        if r < 0.5:
            return rng.choice(["uci", "ucinewgame", "debug on", "debug off", "bench 1"])
        if r < 0.75:
            name, value = rng.choice([
                ("UCI_Variant", rng.choice(["covered", "chess", "Covered", "CHESS"])),
                ("Hash", rng.randint(1, 64)), ("Threads", rng.randint(1, 2)),
                ("MultiPV", rng.randint(1, 4)), ("Level", rng.randint(1, 5)),
                ("Ponder", rng.choice(["true", "false"])), ("Move Overhead", rng.randint(0, 50)),
                ("Seed", rng.randint(0, 2147483647)), ("Clear Hash", None),
                ("hash", rng.randint(1, 64)), ("multipv", rng.randint(1, 4))])
            return f"setoption name {name}" + ("" if value is None else f" value {value}")
        if r < 0.85:
            return f"position {self.start_text()}"
        return None  # a walk

    # Garbage ----------------------------------------------------------------------------------

    def random_bytes(self, length):
        return bytes(self.rng.choice([b for b in range(256) if b != 10]) for _ in range(length))

    def mutate_bytes(self, data):
        rng = self.rng
        data = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            r = rng.random()
            at = rng.randint(0, len(data))
            if r < 0.3 and data:
                del data[min(at, len(data) - 1)]
            elif r < 0.6:
                data[at:at] = rng.choice(SPECIAL_BYTES + [bytes([rng.randint(32, 126)])])
            elif r < 0.8 and data:
                data[min(at, len(data) - 1)] = rng.randint(0, 255)
            elif data:
                end = min(len(data), at + rng.randint(1, 8))
                data[at:at] = data[at:end]
        return bytes(data).replace(b"\n", b"")

    def mutate_tokens(self, text):
        rng = self.rng
        tokens = text.split(" ")
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            at = rng.randrange(len(tokens)) if tokens else 0
            if r < 0.25 and tokens:
                del tokens[at]
            elif r < 0.45:
                tokens.insert(at, rng.choice(VOCABULARY))
            elif r < 0.65 and tokens:
                tokens[at] = rng.choice(EDGE_NUMBERS)
            elif r < 0.8 and tokens:
                tokens.insert(at, tokens[at])
            elif len(tokens) > 1:
                other = rng.randrange(len(tokens))
                tokens[at], tokens[other] = tokens[other], tokens[at]
        return " ".join(tokens)

    def random_pool(self):
        rng = self.rng
        letters = [letter for letter in "QRBNPqrbnp" if rng.random() < 0.7]
        if rng.random() < 0.2 and letters:
            letters.append(rng.choice(letters))
        rng.shuffle(letters)
        counts = ["0", "1", "2", "8", "9", "10", "99", "-1", "", "18446744073709551616"]
        return "".join(letter + rng.choice(counts if rng.random() < 0.3 else "012")
                       for letter in letters) or rng.choice(["-", "", "Q", "xx"])

    def mutate_fen(self, fen):
        rng = self.rng
        fields = fen.split()
        r = rng.random()
        if r < 0.35:
            chars = list(fen)
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(chars))
                op = rng.random()
                if op < 0.4:
                    chars[at] = rng.choice(FEN_CHARS)
                elif op < 0.7:
                    del chars[at]
                else:
                    chars.insert(at, rng.choice(FEN_CHARS))
            return "".join(chars)
        if r < 0.5:
            ranks = fields[0].split("/")
            at = rng.randrange(len(ranks))
            ranks[at] = "".join(rng.choice("pnbrqkPNBRQKxX12345678") for _ in
                                range(rng.randint(0, 9)))
            if rng.random() < 0.2:
                ranks.insert(at, ranks[at])
            fields[0] = "/".join(ranks)
        elif r < 0.6:
            fields[1:2] = [rng.choice(["w", "b", "W", "B", "-", "x", "wb", ""])]
        elif r < 0.7:
            if len(fields) > 2:
                fields[2] = rng.choice(["KQkq", "-", "KK", "Kk", "Q", "kq", "KQkqK", "HAha",
                                        "x", "KQ-", "qkQK"])
        elif r < 0.8:
            if len(fields) > 3:
                fields[3] = rng.choice(["-", "e3", "e6", "d6", "a3", "h6", "a1", "e4", "i9",
                                        "e", "33", "-e3"])
        elif r < 0.9:
            while len(fields) < 7:
                fields.append(rng.choice(["0", "1"]))
            fields[6] = self.random_pool()
        else:
            at = rng.randrange(len(fields) + 1)
            if rng.random() < 0.5 and fields:
                del fields[min(at, len(fields) - 1)]
            else:
                fields.insert(at, rng.choice(EDGE_NUMBERS + ["-", "w", "Q1", "0", "1"]))
        if len(fields) > 5 and rng.random() < 0.2:
            fields[rng.choice([4, 5])] = rng.choice(EDGE_NUMBERS)
        return " ".join(fields)

    def random_move(self):
        rng = self.rng
        files, ranks = "abcdefgh", "12345678"
        move = (rng.choice(files) + rng.choice(ranks) + rng.choice(files) + rng.choice(ranks))
        if rng.random() < 0.15:
            move += rng.choice("qrbnkpQx")
        if rng.random() < 0.4:
            move += rng.choice(["=P", "=Q", "=K", "=", "==P", "=PP", "=p=q", "=?", "=é", "=X"])
        if rng.random() < 0.05:
            move = rng.choice(["0000", "e2e", "e2e4e", "E2E4", "e2-e4", "O-O", "i9j0", "e2e4=",
                               "e1g1", "e8c8", "a2a1q", "a7a8", "é2é4"])
        return move

    def garbage_line(self):
        rng = self.rng
        r = rng.random()
        if r < 0.08:
            return self.random_bytes(rng.randint(0, 120))
        if r < 0.14:
            return b"".join(rng.choice(SPECIAL_BYTES + [b" ", b"go", b"isready", b"d", b"x"])
                            for _ in range(rng.randint(1, 20)))
        if r < 0.18:
            return self.long_line()
        if r < 0.24:
            valid = (self.valid_line() or f"position {self.start_text()}").encode()
            return valid[:rng.randint(0, len(valid))]
        if r < 0.36:
            valid = (self.valid_line() or f"position {self.start_text()}").encode()
            return self.mutate_bytes(valid)
        if r < 0.48:
            valid = self.valid_line() or f"position {self.start_text()}"
            return self.mutate_tokens(valid).encode()
        if r < 0.56:
            return " ".join(rng.choice(VOCABULARY + EDGE_NUMBERS)
                            for _ in range(rng.randint(1, 10))).encode()
        if r < 0.74:
            fen = rng.choice(self.covered_fens + self.plain_fens)
            line = "position fen " + self.mutate_fen(fen)
            if rng.random() < 0.3:
                line += " moves " + " ".join(self.random_move() for _ in range(rng.randint(0, 4)))
            return line.encode()
        if r < 0.84:
            start = (self.start_text() if rng.random() < 0.7
                     else rng.choice(["", "fen", "startpos x"]))
            moves = [rng.choice(self.legal) if self.legal and rng.random() < 0.5
                     else self.random_move() for _ in range(rng.randint(0, 6))]
            return f"position {start} moves {' '.join(moves)}".encode()
        if r < 0.92:
            keywords = GO_KEYWORDS + ["x", "depth", "perft"]
            parts = ["go"]
            for _ in range(rng.randint(0, 6)):
                parts.append(rng.choice(keywords))
                if rng.random() < 0.7:
                    parts.append(rng.choice(EDGE_NUMBERS + [self.random_move(), "1", "2"]))
            return " ".join(parts).encode()
        name = rng.choice(["Hash", "Threads", "MultiPV", "Level", "UCI_Variant", "Ponder", "Seed",
                           "Move Overhead", "Clear Hash", "hash", "LEVEL", "Nope", "", "Clear",
                           "value", "Hash Hash", "UCI_Variant é"])
        value = rng.choice(EDGE_NUMBERS + ["covered", "chess", "true", "FALSE", "atomic", "",
                                           "1 2", "value", "name"])
        line = rng.choice([f"setoption name {name} value {value}", f"setoption name {name}",
                           f"setoption {name} value {value}", f"setoption name value {value}",
                           f"setoption name {name} value"])
        return line.encode()

    def long_line(self):
        rng = self.rng
        n = rng.choice([1000, 5000, 70000, 300000])
        r = rng.random()
        if r < 0.2:
            return b"a" * n
        if r < 0.35:
            return ("position fen " + "é" * (n // 4)).encode()
        if r < 0.5:
            moves = " ".join(self.random_move() for _ in range(n // 6))
            return ("go searchmoves " + moves).encode()
        if r < 0.6:
            return ("setoption name " + "x" * (n // 2) + " value 1").encode()
        if r < 0.7:
            return ("position startpos moves " + " ".join(
                rng.choice(["g1f3", "g8f6", "f3g1", "f6g8"]) for _ in range(n // 5))).encode()
        if r < 0.8:
            return b" " * n + b"isready"
        if r < 0.9:
            return ("unknown " * (n // 8)).encode() + b"d"
        return self.random_bytes(n)

    def safe_garbage(self):
        """A garbage line that does not block the engine for long (too_heavy), matches no
        --skip pattern, and is rarely a quit."""
        while True:
            data = self.garbage_line().replace(b"\n", b"")
            parsed = parse_line(data)
            if too_heavy(parsed):
                continue
            text = data.decode("utf-8", "replace")
            if any(pattern.search(text) for pattern in self.skip):
                continue
            if parsed.kind == "quit" and self.rng.random() < 0.8:
                continue
            return data

    # Sessions -----------------------------------------------------------------------------------

    def step(self):
        """One action: a burst of lines (now and then a long one), then isready (now and then
        a full checkpoint: stop, isready, every go answered)."""
        rng = self.rng
        burst = rng.randint(30, 150) if rng.random() < 0.03 else rng.randint(1, 8)
        for _ in range(burst):
            self.tick()
            if rng.random() < 0.45:
                data = self.safe_garbage()
                parsed = self.send(data, garbage=True)
                if parsed.kind == "quit":
                    return False
            else:
                line = self.valid_line()
                if line is None:
                    self.walk()
                else:
                    self.send(line)
        if rng.random() < 0.08:
            self.stats["checkpoints"] += 1
            self.engine.settle()
            self.pending.clear()
        else:
            self.sync()
        self.engine.check()
        return True

    def session(self, deadline):
        self.stats["sessions"] += 1
        self.engine = Engine(self.binary)
        self.legal = None
        self.pending = []
        length = self.rng.randint(200, 3000)
        ended_by_quit = False
        try:
            self.send("uci")
            self.sync()
            while len(self.engine.sent) < length:
                if time.monotonic() >= deadline:
                    break
                if not self.step():
                    ended_by_quit = True
                    break
            if ended_by_quit:
                self.engine.finish(by_quit=False)
            else:
                if self.rng.random() < 0.5:
                    self.engine.settle()
                self.engine.finish(by_quit=self.rng.random() < 0.8)
        except Failure as failure:
            self.report(str(failure))
        finally:
            self.engine.kill()

    def report(self, message):
        self.failures += 1
        suffix = "" if self.failures == 1 else f"-{self.failures}"
        path = f"/tmp/fuzz-failure-{self.seed}{suffix}.txt"
        engine = self.engine
        time.sleep(0.3)  # the rest of a panic message and its backtrace
        with engine.cond:
            sent = list(engine.sent)
            output = list(engine.output[-60:])
            stderr = list(engine.stderr[:60])
        with open(path, "wb") as file:
            file.write(b"".join(line + b"\n" for line in sent))
        last = [repr(line)[2:-1][:300] for line in sent[-50:]]
        text = [f"FAILURE (seed {self.seed}, session {self.stats['sessions']}, "
                f"line {len(sent)} of the session): {message}",
                f"whole session input: {path}  (replay: veil < {path})",
                "last 50 lines sent:"] + ["  > " + line for line in last]
        text += ["last output lines:"] + ["  < " + show(line[:300]) for line in output]
        if stderr:
            text += ["stderr:"] + ["  ! " + show(line[:300]) for line in stderr]
        with open(path[:-4] + ".log", "w") as file:
            file.write("\n".join(text) + "\n")
        print("\n".join(text), file=self.out, flush=True)

    def run(self, duration):
        deadline = time.monotonic() + duration
        started = time.monotonic()
        while time.monotonic() < deadline:
            self.session(deadline)
        stats = ", ".join(f"{k} {v}" for k, v in self.stats.items())
        print(f"seed {self.seed}: {time.monotonic() - started:.0f} s, {stats}, "
              f"failures {self.failures}", file=self.out, flush=True)
        return self.failures == 0

    def replay(self, path):
        with open(path, "rb") as file:
            lines = file.read().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        self.engine = Engine(self.binary)
        try:
            for data in lines:
                parsed = self.engine.send(data)
                if parsed.kind == "quit":
                    self.engine.finish(by_quit=False)
                    break
                self.engine.sync()
            else:
                self.engine.settle()
                self.engine.finish()
            print(f"replay of {len(lines)} lines: no failure")
            return True
        except Failure as failure:
            with self.engine.cond:
                output = self.engine.output[-30:]
            print(f"replay FAILURE after line {len(self.engine.sent)}: {failure}")
            print("\n".join("  < " + show(line[:300]) for line in output))
            return False
        finally:
            self.engine.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, "target/release/veil"),
                        help="the engine (default target/release/veil)")
    parser.add_argument("-s", "--seed", type=int, default=None, help="random seed")
    parser.add_argument("-d", "--duration", type=float, default=60.0, help="seconds to fuzz")
    parser.add_argument("--skip", metavar="REGEX", action="append", default=[],
                        help="send no garbage line matching REGEX (to fuzz past a known failure)")
    parser.add_argument("--replay", metavar="FILE", help="replay a saved input with the checks")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no engine at {args.binary} (cargo build --release)")
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    fuzzer = Fuzzer(args.binary, seed, args.skip)
    if args.replay:
        sys.exit(0 if fuzzer.replay(args.replay) else 1)
    print(f"fuzzing {args.binary} with seed {seed} for {args.duration:.0f} s", flush=True)
    sys.exit(0 if fuzzer.run(args.duration) else 1)


if __name__ == "__main__":
    main()
