#!/usr/bin/env bash
# Tuning the time manager's constants by matches (issue 37, docs/time.md): variants of one commit
# that differ only in constants of src/search/timeman.rs, played in a gauntlet against the
# commit's own binary. Run from the repository's root.
#
#   scripts/timeman-tune.sh variant NAME COMMIT CONST=VALUE...
#       build COMMIT with each CONST of src/search/timeman.rs set to VALUE (a Rust expression)
#       and copy the release binary to ~/.cache/moulin/bin/moulin-tune-NAME; NAME "base" with
#       no CONST builds the commit as it is. Build every variant before a match starts: a
#       build beside a timed match perturbs its clocks.
#   scripts/timeman-tune.sh gauntlet DIR TC NAME...
#       a gauntlet of moulin-tune-base against moulin-tune-NAME for each NAME, at TC
#       (e.g. 5+0.05), concurrency 2, 4,000 games from book/openings-nine.txt, records and
#       PGN under ~/.cache/moulin/matches/DIR. Resumable: run the same command again. Stop it
#       once the intervals say enough, with Ctrl-C or, in the background (where SIGINT is
#       ignored), `kill -TERM` of the runner; read it with
#       `moulin replay ~/.cache/moulin/matches/DIR/gauntlet-TC.txt`.
set -euo pipefail

BIN=$HOME/.cache/moulin/bin
MATCHES=$HOME/.cache/moulin/matches

case ${1:-} in
variant)
    name=${2:?variant NAME COMMIT CONST=VALUE...}
    commit=${3:?variant NAME COMMIT CONST=VALUE...}
    shift 3
    tree=$(mktemp -d -t moulin-tune-XXXXXX)
    trap 'git worktree remove --force "$tree" 2>/dev/null || true; rm -rf "$tree"' EXIT
    git worktree add --detach -q "$tree" "$commit"
    file=$tree/src/search/timeman.rs
    for setting in "$@"; do
        constant=${setting%%=*}
        value=${setting#*=}
        if ! grep -q "^pub(super) const $constant: " "$file"; then
            echo "no constant $constant in src/search/timeman.rs at $commit" >&2
            exit 2
        fi
        sed -i "s|^\(pub(super) const $constant: [a-z0-9]*\) = .*;|\1 = $value;|" "$file"
        line=$(grep "^pub(super) const $constant: " "$file")
        # A value rustfmt wrapped onto the next line is not matched: say so, not build the base.
        if [[ $line != *" = $value;" ]]; then
            echo "could not set $constant in src/search/timeman.rs: $line" >&2
            exit 2
        fi
        echo "$line" >&2
    done
    # The shared target directory keeps the dependencies built once for all variants.
    CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target} \
        cargo build --release -q --manifest-path "$tree/Cargo.toml"
    mkdir -p "$BIN"
    cp "${CARGO_TARGET_DIR:-$PWD/target}/release/moulin" "$BIN/moulin-tune-$name"
    echo "$BIN/moulin-tune-$name: $(git rev-parse --short "$commit") $*" >&2
    ;;
gauntlet)
    dir=${2:?gauntlet DIR TC NAME...}
    tc=${3:?gauntlet DIR TC NAME...}
    shift 3
    [[ $# -gt 0 ]] || { echo "gauntlet: name at least one variant" >&2; exit 2; }
    out=$MATCHES/$dir
    mkdir -p "$out"
    engines=(--engine "name=base cmd=$BIN/moulin-tune-base")
    for name in "$@"; do
        [[ -x $BIN/moulin-tune-$name ]] || { echo "no $BIN/moulin-tune-$name" >&2; exit 2; }
        engines+=(--engine "name=$name cmd=$BIN/moulin-tune-$name")
    done
    records=$out/gauntlet-$tc.txt resume=()
    [[ -e $records ]] && resume=(--resume)
    "$BIN/moulin-tune-base" match --tournament gauntlet "${engines[@]}" \
        --tc "$tc" --games 4000 --concurrency 2 --openings book/openings-nine.txt \
        --records "$records" --pgn "$out/gauntlet-$tc.pgn" "${resume[@]}"
    ;;
*)
    sed -n '2,17p' "$0"
    exit 2
    ;;
esac
