#!/usr/bin/env bash
# The matches of issue 37 (time management), each resumable: run the same command again after
# an interruption and it plays the games its records lack (`moulin match --resume`).
#
#   scripts/time-matches.sh install    copy target/release/moulin to ~/.cache/moulin/bin/moulin-i37
#   scripts/time-matches.sh sprt       SPRT elo0=0 elo1=10 at 5+0.05, the branch against main
#   scripts/time-matches.sh fast       1,000 games at 1+0.01 (no loss on time)
#   scripts/time-matches.sh slow       200 games at 60+0 (no loss on time; no regression)
#   scripts/time-matches.sh smoke      10 games at 1+0.01, to try the script
#   scripts/time-matches.sh losses     the games each engine lost on time, per match
#   scripts/time-matches.sh table NAME the time per ply of `new` over a match's PGN (sprt, fast...)
#   scripts/time-matches.sh bands NAME new's and main's time by bands of plies (the README's table)
#
# All at concurrency 2 on book/openings-nine.txt, `new` (NEW, the branch's release binary) first
# against `main` (OLD, main's release binary). Records and PGN go to OUT (default
# target/time-matches, in the worktree). Run from the repository's root.
set -euo pipefail

NEW=${NEW:-$HOME/.cache/moulin/bin/moulin-i37}
OLD=${OLD:-$HOME/.cache/moulin/bin/moulin-i35b}
OUT=${OUT:-target/time-matches}
OPENINGS=${OPENINGS:-book/openings-nine.txt}
CONCURRENCY=${CONCURRENCY:-2}

# One match named $1, resumed when its records exist; the other arguments go to `moulin match`.
match() {
    local name=$1
    shift
    mkdir -p "$OUT"
    local records="$OUT/$name.txt" pgn="$OUT/$name.pgn" resume=()
    [[ -e $records ]] && resume=(--resume)
    "$NEW" match \
        --engine "name=new cmd=$NEW" \
        --engine "name=main cmd=$OLD" \
        --openings "$OPENINGS" --concurrency "$CONCURRENCY" \
        --records "$records" --pgn "$pgn" "${resume[@]}" "$@"
}

case ${1:-} in
install)
    # Writes under ~/.cache/moulin/bin: the coordinator's step, not a helper's.
    mkdir -p "$(dirname "$NEW")"
    cp target/release/moulin "$NEW"
    ;;
sprt) match sprt-5+0.05 --tc 5+0.05 --games 20000 --sprt elo0=0 elo1=10 ;;
fast) match fast-1+0.01 --tc 1+0.01 --games 1000 ;;
slow) match slow-60+0 --tc 60+0 --games 200 ;;
smoke) match smoke-1+0.01 --tc 1+0.01 --games 10 ;;
losses)
    for f in "$OUT"/*.txt; do
        printf '%s: %s games, on time lost by new %s, by main %s\n' "$(basename "$f" .txt)" \
            "$(grep -c '^game=' "$f" || true)" \
            "$(grep -c 'end=time.*loser=new' "$f" || true)" \
            "$(grep -c 'end=time.*loser=main' "$f" || true)"
    done
    ;;
table)
    name=${2:?which match: sprt-5+0.05, fast-1+0.01, slow-60+0 or smoke-1+0.01}
    python3 "$(dirname "$0")/time-per-ply.py" "$OUT/$name.pgn" "${3:-new}"
    ;;
bands)
    name=${2:?which match: sprt-5+0.05, fast-1+0.01, slow-60+0 or smoke-1+0.01}
    python3 "$(dirname "$0")/time-per-ply.py" "$OUT/$name.pgn" --bands new main
    ;;
*)
    sed -n '2,18p' "$0"
    exit 2
    ;;
esac
