#!/usr/bin/env python3
"""Where an engine spends its clock: the time it used per ply, read from the comments that
`moulin match --pgn` writes after each move (`{+0.35/12 0.51s}`, `{book}`), as a table over the
games of a PGN file (issue 37):

    python3 scripts/time-per-ply.py games.pgn new

One row per ply (half-move, 1 = White's first) at which ENGINE moved: the games that reached it,
the mean, median and largest time of its move there (book moves count 0), and the mean of its
clock used so far. With no ENGINE, the first engine named in a White tag.
"""
import re
import statistics
import sys

MOVE_COMMENT = re.compile(r"\{([^}]*)\}")
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def games(path):
    """Yields (tags, [comment of each ply]) for each game of the file."""
    tags, movetext = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if movetext:
                    yield tags, plies("".join(movetext))
                    tags, movetext = {}, []
                tags[m.group(1)] = m.group(2)
            else:
                movetext.append(line)
    if movetext or tags:
        yield tags, plies("".join(movetext))


def plies(text):
    """The comment after each move of the movetext, in order (the last one, how the game ended,
    shares its move's comment and is skipped when it holds no time)."""
    out = []
    for c in MOVE_COMMENT.findall(text):
        c = c.strip()
        if c == "book":
            out.append(0.0)
            continue
        t = TIME.search(c)
        if t:
            out.append(float(t.group(1)))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    engine = sys.argv[2] if len(sys.argv) > 2 else None
    per_ply, used_so_far = {}, {}
    count = 0
    for tags, times in games(path):
        if engine is None:
            engine = tags.get("White")
        if engine not in (tags.get("White"), tags.get("Black")):
            continue
        count += 1
        first = 0 if tags.get("White") == engine else 1
        total = 0.0
        for ply in range(first, len(times), 2):
            total += times[ply]
            per_ply.setdefault(ply + 1, []).append(times[ply])
            used_so_far.setdefault(ply + 1, []).append(total)
    print(f"# {engine}: {count} games of {path}")
    print(f"{'ply':>4} {'games':>6} {'mean s':>8} {'median s':>9} {'max s':>7} {'used s':>8}")
    for ply in sorted(per_ply):
        t = per_ply[ply]
        print(
            f"{ply:>4} {len(t):>6} {statistics.mean(t):>8.3f} {statistics.median(t):>9.3f}"
            f" {max(t):>7.3f} {statistics.mean(used_so_far[ply]):>8.2f}"
        )


if __name__ == "__main__":
    main()
