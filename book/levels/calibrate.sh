#!/bin/sh
# Calibrates moulin's levels by matches (README, "Levels"): each level against the next one up
# (1-2, 2-3, ..., 19-20, where 20 is the full engine), then each level against the full engine,
# at 100 ms a move from book/openings-nine.txt. Records and summaries go under
# ~/.cache/moulin/levels; a stopped run resumes where it stopped (a match whose summary exists
# is skipped, one with records only is resumed). Then `book/levels/table.sh` prints the table.
#
#   sh book/levels/calibrate.sh [binary] [games per pair] [games against the full engine] \
#       [games at once]
set -eu
bin=${1:-target/release/moulin}
pair_games=${2:-200}
full_games=${3:-50}
concurrency=${4:-1}
dir=${MOULIN_CACHE:-$HOME/.cache/moulin}/levels
mkdir -p "$dir"

play() { # name-a level-a name-b level-b games
    out="$dir/$1-$3"
    [ -s "$out.txt" ] && return 0
    resume=""
    [ -s "$out.records" ] && resume="--resume"
    "$bin" match \
        --engine "name=$1 cmd=$bin option.Level=$2" \
        --engine "name=$3 cmd=$bin option.Level=$4" \
        --games "$5" --movetime 100 --openings book/openings-nine.txt --concurrency "$concurrency" \
        --records "$out.records" $resume > "$out.partial"
    mv "$out.partial" "$out.txt"
    grep -E "^(W |Elo)" "$out.txt" | tr '\n' ' ' | sed "s/^/$1-$3: /"
    echo
}

level=1
while [ $level -lt 20 ]; do
    up=$((level + 1))
    play "L$level" $level "L$up" $up "$pair_games"
    level=$up
done
level=1
while [ $level -lt 19 ]; do
    play "L$level" $level full 20 "$full_games"
    level=$((level + 1))
done
