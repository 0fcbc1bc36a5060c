#!/usr/bin/env bash
# The hostile inputs of issue 51 given to a moulin binary, each under a 4 GB memory limit and a
# 20 s timeout, in a scratch folder: one table row each (wall time, peak memory, exit status,
# the first error line). Run it on two builds to compare them (docs/results.md).
#
#   scripts/hostile-inputs.sh BINARY [DIR]
set -u
bin=$(realpath "$1")
dir=${2:-$(mktemp -d)}
mkdir -p "$dir" && cd "$dir" || exit 1
engine="cmd=$bin"
row() {
  local name=$1
  shift
  (ulimit -v 4000000; /usr/bin/time -o time.txt -f "%e s, %M KB, exit %x" timeout 20 "$@" \
    >/dev/null 2>err.txt)
  printf '| %s | %s | %s |\n' "$name" "$(tail -1 time.txt)" \
    "$(grep -v '^ ' err.txt | head -1 | head -c 100)"
}
match=("$bin" match --engine "$engine" --engine "$engine" --games 2 --movetime 5)
rm -f rec.txt huge.txt headed.txt blob.json fifo
"${match[@]}" --records rec.txt >/dev/null 2>&1
truncate -s 4G huge.txt
printf '# x\n' >headed.txt && truncate -s 4G headed.txt
printf 'bench depth 99999999999\n' >bench.in
printf '[Event "x"]\n\n1. d6 *\n' >g.pgn
echo "| input | time, peak memory, exit | first error line |"
echo "|---|---|---|"
row "match --openings /dev/zero" "${match[@]}" --openings /dev/zero
row "match --openings (4 GiB, no line break)" "${match[@]}" --openings huge.txt
row "match --records /dev/zero --resume" "${match[@]}" --records /dev/zero --resume
row "match --records (4 GiB after a # line) --resume" "${match[@]}" --records headed.txt --resume
row "replay --drawn /dev/zero" "$bin" replay --drawn /dev/zero rec.txt
row "replay --drawn (4 GiB)" "$bin" replay --drawn huge.txt rec.txt
row "book check /dev/zero" "$bin" book check /dev/zero
row "book check (4 GiB)" "$bin" book check huge.txt
row "train fit --labels /dev/zero" "$bin" train fit --labels /dev/zero
row "train fit --labels (4 GiB after a # line)" "$bin" train fit --labels headed.txt
row "bench depth 99999999999 (protocol, piped)" sh -c "\"$bin\" <bench.in"
printf '{"key": "value"}' >blob.json
"${match[@]}" --records blob.json --resume >/dev/null 2>err.txt
printf '| --resume on a 16-byte JSON blob | exit %s, the file %s bytes | %s |\n' "$?" \
  "$(stat -c %s blob.json)" "$(grep -v '^ ' err.txt | head -1 | head -c 100)"
mkfifo fifo
timeout 20 "$bin" analyse g.pgn --depth 1 --html fifo --force >/dev/null 2>err.txt
printf '| analyse --html FIFO --force | exit %s, the FIFO now %s | %s |\n' "$?" \
  "$(stat -c %F fifo)" "$(head -1 err.txt | head -c 100)"
