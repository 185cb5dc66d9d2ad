#!/usr/bin/env bash
# Count a puzzle in N parts as a Slurm job array, and add the parts up in a job that
# runs when every part has succeeded.
#
#   examples/slurm-parts.sh PUZZLE N [COUNT OPTIONS...]
#   examples/slurm-parts.sh bedlam 16 --symmetry none
#
# Each array task runs `polycover count PUZZLE --part K/N` with K = $SLURM_ARRAY_TASK_ID
# and writes its `c part` line to $PARTS_DIR/part-K.txt; the merge job writes the total
# (`s mc N`) to $PARTS_DIR/total.txt. A missing or failed part makes the merge refuse.
#
# Environment: POLYCOVER (the binary, default `polycover` on PATH), PARTS_DIR (default
# `parts`), SBATCH_WAIT=1 to wait until the merge job is done (sbatch --wait).
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 PUZZLE N [COUNT OPTIONS...]" >&2
    exit 2
fi
puzzle=$1
n=$2
shift 2
polycover=${POLYCOVER:-polycover}
dir=${PARTS_DIR:-parts}
mkdir -p "$dir"
rm -f "$dir"/part-*.txt "$dir"/total.txt

# One CPU per task: the scheduler spreads the tasks over the nodes' cores.
array=$(sbatch --parsable --job-name=polycover-parts --cpus-per-task=1 \
    --array=1-"$n" --output="$dir/part-%a.txt" \
    --wrap="$polycover count $puzzle --part \$SLURM_ARRAY_TASK_ID/$n --threads 1 $*")
echo "parts: job array $array"

wait_flag=()
if [ "${SBATCH_WAIT:-0}" = 1 ]; then wait_flag=(--wait); fi
merge=$(sbatch --parsable --job-name=polycover-merge --dependency=afterok:"$array" \
    --output="$dir/total.txt" "${wait_flag[@]}" \
    --wrap="$polycover merge $dir/part-*.txt")
echo "merge: job $merge, total in $dir/total.txt"
