#!/bin/sh
# The design curves of the guide (docs/guide/design.md): 4x4x4 in 12 and 13 pieces,
# seeds 1-5, one walk each (`--threads 1`, reproducible), the best count over time from
# `design --curve`, drawn by docs/design-curve.py into docs/design-curve.svg.
#
# Usage: sh docs/design-curves.sh [OUT_DIR]   (from the repository's root; about two
# hours of one core: 12 pieces stop after 5 minutes, 13 after 30)
set -eu
out=${1:-target/design-curves}
mkdir -p "$out"
cargo build --release --quiet
bin=target/release/polycover
args=""
for pieces in 12 13; do
    limit=$([ "$pieces" = 12 ] && echo 300 || echo 1800)
    for seed in 1 2 3 4 5; do
        name="$out/p$pieces-s$seed"
        start=$(date +%s)
        # Exit 1 is a search that --timeout stopped: its curve is drawn all the same.
        "$bin" design --box 4,4,4 --pieces "$pieces" --seed "$seed" --threads 1 \
            --timeout "$limit" -o "$name.toml" --curve "$name.csv" 2>"$name.log" || [ $? -eq 1 ]
        echo "$pieces pieces, seed $seed: $(tail -n 2 "$name.log" | head -n 1) ($(($(date +%s) - start)) s)"
        args="$args $pieces-pieces-seed-$seed=$name.csv"
    done
done
# shellcheck disable=SC2086
python3 docs/design-curve.py $args > docs/design-curve.svg
