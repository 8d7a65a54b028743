#!/usr/bin/env python3
"""Writes a levels table with measured Elos, and the table of levels in docs/levels.md.

Reads a levels file (TOML, as `veil levels --tune --write` leaves it), sets each level's
`covered_elo` from a covered calibration (`veil levels --json`) and its `elo` from a plain
chess measurement against anchors (`veil levels --nearest-anchors --json`), writes the
result, and rewrites the block between the markers in the doc:

    <!-- levels-table:begin -->
    ...
    <!-- levels-table:end -->

Usage: levels-table.py TABLE.toml [--covered C.json] [--chess P.json] [--write OUT.toml]
                       [--doc docs/levels.md]
"""

import argparse
import json
import re
import sys
import tomllib

BEGIN = "<!-- levels-table:begin -->"
END = "<!-- levels-table:end -->"


def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.1f}"
    return str(v)


def with_elos(text, levels):
    """The levels file `text` (as veil wrote it) with each level's `elo` and `covered_elo`
    lines set to those of `levels`, everything else as it was."""
    head, *blocks = re.split(r"(?m)^(?=\[\[level\]\])", text)
    if len(blocks) != len(levels):
        sys.exit(f"expected {len(levels)} [[level]] tables, found {len(blocks)}")
    out = [head]
    for block, level in zip(blocks, levels):
        for key in ("elo", "covered_elo"):
            if key not in level:
                continue
            line = f"{key} = {value(level[key])}"
            pattern = rf"(?m)^{key} = .*$"
            if re.search(pattern, block):
                block = re.sub(pattern, line, block)
            else:
                block = block.rstrip("\n") + "\n" + line + "\n\n"
        out.append(block)
    return "".join(out).rstrip("\n") + "\n"


def lapses(level):
    covered = level.get("lapse_pct", 0)
    plain = level.get("chess_lapse_pct", covered)
    if not covered and not plain:
        return "0"
    return f"{covered} / {plain} at {value(level['lapse_nodes']) if 'lapse_nodes' in level else 'no cap'}"


def second_look(level):
    covered = level.get("second_look", False)
    plain = level.get("chess_second_look", covered)
    yes = {True: "yes", False: "no"}
    return yes[covered] if covered == plain else f"{yes[covered]} / {yes[plain]}"


def per_variant(shared, plain):
    """A cell of a field that plain chess may override: `covered / plain` when it does."""
    return shared if plain is None else f"{shared} / {plain}"


def markdown(levels):
    rows = [
        "| level | nodes | plain-chess nodes | ms cap | noise cp (covered / plain) | candidates (covered / plain) | temperature cp (covered / plain) | loss cap cp (covered / plain) "
        "| recapture % | lapses % (covered / plain) at nodes | second look (covered / plain) "
        "| complexity moves (covered / plain) | quiet moves plies shallower (covered / plain) "
        "| covered pieces as | evaluation in covered chess "
        "| plain Elo (`UCI_Elo` scale) | covered Elo (ladder) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |",
    ]
    for number, level in enumerate(levels, 1):
        def get(key, default):
            return value(level[key]) if key in level else default

        def elo(key):
            return f"{level[key]:.0f}" if key in level else "-"

        cells = [
            str(number),
            get("nodes", "no cap"),
            get("chess_nodes", get("nodes", "no cap")),
            get("movetime_ms", "no cap"),
            per_variant(get("noise_cp", "0"), get("chess_noise_cp", None)),
            per_variant(get("candidates", "1"), get("chess_candidates", None)),
            per_variant(get("temperature_cp", "0"), get("chess_temperature_cp", None)),
            per_variant(get("max_loss_cp", "none"), get("chess_max_loss_cp", None)),
            get("recapture_pct", "0"),
            lapses(level),
            second_look(level),
            per_variant(get("complexity_moves", "none"), get("chess_complexity_moves", None)),
            per_variant(str(get("quiet_reduction", 0)), get("chess_quiet_reduction", None)),
            "their covers" if level.get("naive_covers") else "their pools",
            "network" if level.get("network") or number == 5 else "hand-written",
            elo("elo"),
            elo("covered_elo"),
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("--covered")
    parser.add_argument("--chess")
    parser.add_argument("--write")
    parser.add_argument("--doc")
    args = parser.parse_args()

    with open(args.table, "rb") as f:
        original = f.read().decode()
    levels = tomllib.loads(original)["level"]
    if len(levels) != 5:
        sys.exit(f"{args.table}: expected 5 levels, found {len(levels)}")
    if args.covered:
        with open(args.covered) as f:
            for line in json.load(f)["lines"]:
                if line.get("level") and line.get("elo") is not None:
                    levels[line["level"] - 1]["covered_elo"] = round(line["elo"])
    if args.chess:
        with open(args.chess) as f:
            for performance in json.load(f):
                levels[performance["level"] - 1]["elo"] = round(performance["elo"])
    for level in levels:
        for key in ("elo", "covered_elo"):
            if key in level:
                level[key] = float(level[key])

    text = with_elos(original, levels)
    if args.write:
        with open(args.write, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.doc:
        with open(args.doc) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"{args.doc}: no {BEGIN} ... {END} block")
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        with open(args.doc, "w") as f:
            f.write(head + BEGIN + "\n" + markdown(levels) + END + tail)


if __name__ == "__main__":
    main()
