#!/usr/bin/env python3
"""Writes the hostile PGN inputs of issue 33 into a folder (default /tmp/pgn-inputs), to measure
the record reader (docs/results.md):

    python3 scripts/pgn-inputs.py /tmp/pgn-inputs
    for f in /tmp/pgn-inputs/*.pgn; do
        /usr/bin/time -f "$(basename $f) %e s %M KB" target/release/moulin replay $f >/dev/null
    done
"""
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/pgn-inputs"
os.makedirs(out, exist_ok=True)


def write(name, parts):
    with open(os.path.join(out, name), "wb") as f:
        for p in parts:
            f.write(p if isinstance(p, bytes) else p.encode())


# 100,000 nested variations (500 KB).
n = 100_000
write("deep.pgn", ["1. d6 ", "(d6 " * n, ")" * n, " *\n"])
# Many tags, each named differently.
for n in (20_000, 50_000, 80_000, 100_000):
    write(f"tags-{n // 1000}k.pgn", [f'[T{i} "v"]\n' for i in range(n)] + ["\n*\n"])
# One move and 1,000,000 or 2,000,000 glyphs.
for n in (1, 2):
    write(f"bangs-{n}m.pgn", ["1. d6", "!" * n * 1_000_000, " *\n"])
# 16 MB of short games.
game = '[Event "e"]\n[Result "*"]\n\n1. d6 f4 2. d2 *\n\n'
write("short-games.pgn", [game * (16_000_000 // len(game))])
# A 50 MB comment.
write("comment.pgn", ["1. d6 {", "a" * 50_000_000, "} *\n"])
# A 10 MB move word.
write("word.pgn", ["1. ", "d" * 10_000_000, " *\n"])
# Control characters in a move.
write("bell.pgn", ["1. d6\a *\n"])
write("escape.pgn", ["1. d6 d\x1bc\x00 *\n"])
# What used to be taken for match records.
write("bom.pgn", ["\ufeff[Event \"e\"]\n\n1. d6 f4 *\n"])
write("star.pgn", ["*\n"])
write("paren.pgn", ["(1. d6) *\n"])
write("nag.pgn", ["$1 1. d6 *\n"])
# The most a game under the 1 MB limit may cost: 1 MB of one-move variations, of empty
# comments, of `$1` glyphs.
fill = 1_000_000
write("many-variations.pgn", ["1. d6 ", "(d6) " * (fill // 5), "*\n"])
write("many-comments.pgn", ["1. d6 ", "{} " * (fill // 3), "*\n"])
write("many-nags.pgn", ["1. d6 ", "$1 " * (fill // 3), "*\n"])
