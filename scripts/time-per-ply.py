#!/usr/bin/env python3
"""Where an engine spends its clock: the time it used per ply, read from the comments that
`moulin match --pgn` writes after each move (`{+0.35/12 0.51s}`, `{book}`), as a table over the
games of a PGN file (issue 37):

    python3 scripts/time-per-ply.py games.pgn new

One row per ply (half-move, 1 = White's first) at which ENGINE moved: the games that reached it,
the mean, median and largest time of its move there (book moves count 0), and the mean of its
clock used so far. With no ENGINE, the first engine named in a White tag.

    python3 scripts/time-per-ply.py games.pgn --bands new main

A Markdown table instead, by bands of plies (the book's plies, the rest of the placing, then
the moving phase in longer bands), one column pair per engine: the mean time of a move in the
band, and the mean time a game spent in it (over the games that reached it).
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


BANDS = [(1, 8), (9, 18), (19, 30), (31, 50), (51, 100), (101, 10_000)]


def bands(path, engines):
    """The Markdown table of `--bands`."""
    rows = {e: {b: ([], []) for b in BANDS} for e in engines}
    counts = dict.fromkeys(engines, 0)
    for tags, times in games(path):
        for engine in engines:
            if engine not in (tags.get("White"), tags.get("Black")):
                continue
            counts[engine] += 1
            first = 0 if tags.get("White") == engine else 1
            for band in BANDS:
                lo, hi = band
                mine = [times[p - 1] for p in range(lo, min(hi, len(times)) + 1)
                        if (p - 1) % 2 == first]
                if mine:
                    rows[engine][band][0].extend(mine)
                    rows[engine][band][1].append(sum(mine))
    games_said = ", ".join(f"{e} {counts[e]}" for e in engines)
    print(f"<!-- {path}: games {games_said} -->")
    head = " | ".join(f"{e}: s a move | {e}: s a game" for e in engines)
    print(f"| plies | {head} |")
    print("|---" * (1 + 2 * len(engines)) + "|")
    for band in BANDS:
        lo, hi = band
        name = f"{lo}-{hi}" if hi < 10_000 else f"{lo}+"
        cells = []
        for e in engines:
            moves, per_game = rows[e][band]
            if moves:
                cells.append(f"{statistics.mean(moves):.3f} | {statistics.mean(per_game):.2f}")
            else:
                cells.append("- | -")
        print(f"| {name} | " + " | ".join(cells) + " |")


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--bands":
        bands(sys.argv[1], sys.argv[3:] or ["new"])
        return
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
