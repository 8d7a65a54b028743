#!/usr/bin/env bash
# One shard of a large `veil match`, as a Slurm array job: every array task plays the slice
# of the match its index names, and `veil merge` combines the results files afterwards.
#
#   sbatch --array=0-15 scripts/match-slurm.sh          # 16 shards
#   veil merge results/shard-*.jsonl                     # when all have finished
#
# The same seed gives the same games however the match is split, so the merged report is the
# report of the whole match. Outside Slurm, SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT
# can be set by hand to play one shard.
#SBATCH --job-name=veil-match
#SBATCH --cpus-per-task=2
#SBATCH --output=results/shard-%a.log
set -euo pipefail

veil=${VEIL:-veil}
shard=${SLURM_ARRAY_TASK_ID:?set by sbatch --array}
count=${SLURM_ARRAY_TASK_COUNT:?set by sbatch --array}
mkdir -p results

"$veil" match \
    --engine name=new cmd="$veil" \
    --engine name=base cmd="$veil" option.Level=4 \
    --variant covered --tc 5+0.05 --games "${GAMES:-2000}" --seed "${SEED:-1}" \
    --concurrency "${SLURM_CPUS_PER_TASK:-2}" \
    --shard "$shard/$count" --results "results/shard-$shard.jsonl" \
    --pgn "results/shard-$shard.pgn" --quiet
