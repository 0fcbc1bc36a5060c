#!/bin/sh
# Prints the levels' calibration (README, "Levels") from the summaries calibrate.sh wrote: each
# level against the next one up and against the full engine, and each level's Elo chained down
# from the anchor, the full engine at 100 ms a move = ANCHOR (2000 unless given).
#
#   sh book/levels/table.sh [anchor]
set -eu
anchor=${1:-2000}
dir=${MOULIN_CACHE:-$HOME/.cache/moulin}/levels

field() { # file -> "W D L elo low high"
    awk '/^W /{w=$2; d=$4; l=$6}
         /^Elo difference/{gsub(/[\[\],]/, ""); e=$3; lo=$6; hi=$7}
         END{print w, d, l, e, lo, hi}' "$1"
}

echo "| level | against the next level up (W D L) | Elo difference | against the full engine (W D L) | Elo difference | Elo |"
echo "|---|---|---|---|---|---|"
elo=$anchor
level=19
rows=""
while [ $level -ge 1 ]; do
    up=$((level + 1))
    next="$dir/L$level-L$up.txt"
    full="$dir/L$level-full.txt"
    # Level 19's next level up is the full engine.
    [ $level -eq 19 ] && full="$next"
    [ -s "$next" ] || { echo "missing $next" >&2; exit 1; }
    set -- $(field "$next")
    pair="$1 $2 $3"
    diff=$4
    range="$4 [$5, $6]"
    elo=$(awk -v e="$elo" -v d="$diff" 'BEGIN{printf "%.0f", e + d}')
    if [ -s "$full" ]; then
        set -- $(field "$full")
        vs="$1 $2 $3"
        vsd="$4 [$5, $6]"
    else
        vs="-"
        vsd="-"
    fi
    rows="| $level | $pair | $range | $vs | $vsd | $elo |
$rows"
    level=$((level - 1))
done
printf "%s" "$rows"
echo "| 20 (full) | | | | | $anchor |"
