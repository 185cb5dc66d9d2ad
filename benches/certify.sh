#!/usr/bin/env bash
# Certified counts: what `count --certify` writes and what checking it takes, the table
# of the certificates issue (#61) again, with the figures before it beside them.
#
#   bash benches/certify.sh              # after cargo build --release; the rows of minutes
#   SLOW=1 bash benches/certify.sh       # also the rows that take many minutes or gigabytes
#   CHECK=0 bash benches/certify.sh      # without running the checker
#
# Each row: `count --symmetry none --certify` (the engine named, else the default under
# --certify), the CPOG file's size, the wall seconds of the whole command, then `polycover
# verify` (the CPOG checker from ../shared/tools/cpog-check, built into target/tools by
# .ci/run) and its wall seconds; the certified count must be the engine's. The CPOG
# toolchain's rows follow, as benches/cpog-toolchain.sh measured them.
#
# Prints a Markdown table. A check that fails, or a count that differs, stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${POLYCOVER:-target/release/polycover}
CHECKER=${CPOG_CHECK:-target/tools/cpog-check}
CHECK=${CHECK:-1}
SLOW=${SLOW:-0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$CHECK" = 1 ] && [ ! -x "$CHECKER" ]; then
    mkdir -p target/tools
    cc -O2 -o "$CHECKER" ../shared/tools/cpog-check/cpog-check.c ../shared/tools/cpog-check/q25.c
fi

box() { # name w h d cells... count
    local name=$1 w=$2 h=$3 d=$4 count=$5
    shift 5
    printf 'name = "%s"\nbox = [%s, %s, %s]\n[[piece]]\nname = "P"\ncells = [%s]\ncount = %s\n' \
        "$name" "$w" "$h" "$d" "$*" "$count" >"$work/$name.toml"
    echo "$work/$name.toml"
}
domino="[0,0,0], [1,0,0]"
ell="[0,0,0], [1,0,0], [0,1,0]"
d444=$(box d444 4 4 4 32 "$domino")
d229=$(box d229 2 2 9 18 "$domino")
d238=$(box d238 2 3 8 24 "$domino")
d456=$(box d456 4 5 6 60 "$domino")
d466=$(box d466 4 6 6 72 "$domino")
l336=$(box l336 3 3 6 18 "$ell")

# puzzle | label | solver ("" = the default under --certify) | before (the issue's table) | slow
rows=(
  "dominoes-8x8|dominoes 8x8||3.0 MB, 0.05 s|0"
  "$d444|dominoes 4x4x4||689 MB, 25 s CPU; checked in 73-115 s|0"
  "$d229|dominoes 2x2x9 (memo)|memo|43 MB|0"
  "$l336|L-trominoes 3x3x6||over 3 GB, stopped|0"
  "$d238|dominoes 2x3x8, default engine||bits' tree: 3.3 GB after 120 s|0"
  "dominoes-16x16|dominoes 16x16||15.2 GB, 432 s; checked in 2,214 s|0"
  "soma|Soma (default engine)||over 1.24 GB (bits), 1.72 GB (memo)|1"
  "pentomino-3x20|pentominoes 3x20 (default engine)||73 MB (memo, 2026-11-29)|0"
  "pentomino-4x15|pentominoes 4x15 (default engine)||3,912 MB, 100 s (memo, 2026-11-29)|1"
  "$d456|dominoes 4x5x6||(not in the issue)|1"
  "pentomino-6x10|pentominoes 6x10 (dlx)|dlx|35 GB|1"
  "$d466|dominoes 4x6x6||(not in the issue)|1"
)

echo "| puzzle, \`--symmetry none\` | count | certificate now | written | checked | before |"
echo "|---|---:|---:|---:|---:|---|"
for row in "${rows[@]}"; do
    IFS='|' read -r puzzle label solver before slow <<<"$row"
    if [ "$slow" = 1 ] && [ "$SLOW" != 1 ]; then
        echo "| $label | | not run (SLOW=1) | | | $before |"
        continue
    fi
    dir="$work/cert"
    rm -rf "$dir"
    args=(count "$puzzle" --symmetry none --certify "$dir")
    if [ -n "$solver" ]; then args+=(--solver "$solver"); fi
    start=$(date +%s.%N)
    out=$("$BIN" "${args[@]}" 2>&1)
    written=$(echo "$(date +%s.%N) - $start" | bc)
    count=$(echo "$out" | sed -n 's/^s mc //p')
    bytes=$(cat "$dir"/*.cpog | wc -c)
    size=$(printf "%.1f" "$(echo "scale=3; $bytes / 1000000" | bc)")
    checked=""
    if [ "$CHECK" = 1 ]; then
        start=$(date +%s.%N)
        verified=$("$BIN" verify "$dir" --checker "$CHECKER" 2>/dev/null | sed -n 's/^s mc //p')
        checked=$(printf '%.1f s' "$(echo "$(date +%s.%N) - $start" | bc)")
        if [ "$verified" != "$count" ]; then
            echo "$label: verify says '$verified', count said '$count'" >&2
            exit 1
        fi
    fi
    printf '| %s | %s | %s MB | %.1f s | %s | %s |\n' "$label" "$count" "$size" "$written" \
        "$checked" "$before"
done
# The CPOG toolchain's rows (D4 v1, then cpog-gen) come from benches/cpog-toolchain.sh,
# which needs both built (its head says how) and takes about 11 minutes; its own table
# has D4's and cpog-gen's times apart. Its medians here on 2026-11-29 (the machine
# loaded by a build; CPU seconds in brackets):
echo "| CPOG toolchain (D4 v1, cpog-gen), dominoes 8x8 | 12988816 | 6.2 MB | 2.1 s (2.0 s CPU) | 0.6 s | by benches/cpog-toolchain.sh |"
echo "| CPOG toolchain (D4 v1, cpog-gen), dominoes 4x4x4 | 5051532105 | 2,349.4 MB | 438 s (413 s CPU) | 191 s | by benches/cpog-toolchain.sh |"
