#!/usr/bin/env bash
# Builds the endgame tables up to N a side (default 4) and the placing solution of the game of N
# a side through a real one-node Slurm cluster (the scripts of ../shared/slurm: munged, slurmctld
# and slurmd on this machine; root needed), following the scripts `moulin tables plan --slurm`
# and `moulin tables plan --placing --slurm` print (the placing's jobs waiting for the tables'
# through AFTER), and checks that the files and `moulin tables stats` equal those of a local
# build. Exit status 0 when they do. The tables
# directory and the binary the nodes run are given by paths that hold a space, a quote, a `%`
# and a `$(touch RAN)`: the jobs must build in that directory, and nothing in a path may run.
#
#   scripts/slurm-tables.sh [N]
#
# Environment: MOULIN_SLURM_SCRIPTS (default ../shared/slurm next to the repository); those
# scripts' own (MOULIN_SLURM_DIR and the ports) to run a cluster beside another.
set -euo pipefail
pieces=${1:-4}
root=$(cd "$(dirname "$0")/.." && pwd)
slurm=${MOULIN_SLURM_SCRIPTS:-$root/../shared/slurm}
bin=$root/target/release/moulin
(cd "$root" && cargo build --release --quiet)
work=$(mktemp -d /tmp/moulin-slurm-tables.XXXXXX)
chmod 755 "$work"
as_root() { if [[ $(id -u) == 0 ]]; then "$@"; else sudo -E "$@"; fi; }
started=$(as_root "$slurm/local-cluster-start.sh")  # a failed start ends the script here
eval "$started"
trap 'as_root "$slurm/local-cluster-stop.sh" >/dev/null 2>&1 || true' EXIT

odd="it's 100% a \$(touch RAN) dir"
cluster="$work/tables $odd"
mkdir "$work/bin $odd"
cp "$bin" "$work/bin $odd/moulin"
"$bin" tables plan --pieces "$pieces" --dir "$cluster" --binary "$work/bin $odd/moulin" \
    --slurm >"$work/plan.sh"
"$bin" tables plan --placing --pieces "$pieces" --dir "$cluster" --binary "$work/bin $odd/moulin" \
    --slurm >"$work/placing.sh"
submitted=$(cd "$work" && bash "$work/plan.sh")
echo "$submitted"
after=$(echo "$submitted" | sed 's/^submitted: //' | tr ' ' ':')
placing=$(cd "$work" && AFTER=$after bash "$work/placing.sh")
echo "placing $placing"
jobs=$(echo "$submitted ${placing#submitted: }" | sed 's/^submitted: //' | tr ' ' ',')
while [[ -n $(squeue -h -j "$jobs" -o %i 2>/dev/null) ]]; do sleep 0.5; done
states=$(squeue -h -t all -j "$jobs" -o '%i %j %T')
echo "$states"
if grep -v COMPLETED <<<"$states"; then
    echo "a job did not complete; logs in $cluster/slurm" >&2
    exit 1
fi
if [[ -n $(find "$work" -name RAN) ]]; then
    echo "a \$(...) in a path ran: $(find "$work" -name RAN)" >&2
    exit 1
fi
outputs=()
for out in "$cluster"/slurm/*.out; do
    grep -q 'positions in' "$out" || { echo "$out: no build reported" >&2; exit 1; }
    outputs+=("$(basename "$out")")
done
echo "job outputs in the directory named: ${outputs[*]}"

"$bin" tables build --pieces "$pieces" --dir "$work/local" 2>/dev/null
diff <("$bin" tables stats --dir "$cluster") <("$bin" tables stats --dir "$work/local")
for f in "$work"/local/*.tbl; do
    cmp "$f" "$cluster/$(basename "$f")"
done
echo "the cluster's tables equal the local build's ($(ls "$work"/local/*.tbl | wc -l) files)"
"$bin" tables build --placing --pieces "$pieces" --dir "$work/local" 2>/dev/null
for f in "$work"/local/placing/*.plc; do
    cmp "$f" "$cluster/placing/$(basename "$f")"
done
n=$(ls "$work"/local/placing/*.plc | wc -l)
[[ $n == $(ls "$cluster"/placing/*.plc | wc -l) ]] || { echo "placing: not the same groups" >&2; exit 1; }
echo "the cluster's placing solution equals the local build's ($n groups)"
rm -rf "$work"
