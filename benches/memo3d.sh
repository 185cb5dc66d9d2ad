#!/usr/bin/env bash
# The memo against the bitset engine on 3-D boxes (issue 37), one thread each, in the
# same run: `count BOX --symmetry none --solver memo|bits --threads 1`, user CPU seconds
# (/usr/bin/time), bits stopped by `--timeout` where it cannot finish.
#
# Usage: benches/memo3d.sh [TIMEOUT] [BOXES]
#   TIMEOUT  seconds for the bitset engine (default 60)
#   BOXES    PIECE:AxBxC, comma-separated, PIECE d (domino) or l (L-tromino)
#            (default: d:4x4x6,d:4x4x12,d:2x2x40,l:3x3x12)
#   POLYCOVER=path  the polycover binary (default: target/release/polycover, built here)
set -euo pipefail

timeout=${1:-60}
boxes=${2:-d:4x4x6,d:4x4x12,d:2x2x40,l:3x3x12}
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (Debian: apt-get install time)" >&2; exit 2; }
pc=${POLYCOVER:-}
if [ -z "$pc" ]; then
    (cd "$root" && cargo build --release --quiet)
    pc=$root/target/release/polycover
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "--symmetry none, one thread, user CPU s; bits stopped at $timeout s"
printf '%-16s %-34s %8s %10s %s\n' box count memo "memo table" bits
for spec in ${boxes//,/ }; do
    piece=${spec%%:*}
    dims=${spec#*:}
    IFS=x read -r a b c <<<"$dims"
    case $piece in
        d) name=dominoes cells='[[0,0,0], [1,0,0]]' size=2 ;;
        l) name=L-trominoes cells='[[0,0,0], [1,0,0], [0,1,0]]' size=3 ;;
        *) echo "unknown piece $piece (d or l)" >&2; exit 2 ;;
    esac
    cat >"$work/box.toml" <<EOF
name = "$name $dims"
box = [$a, $b, $c]

[[piece]]
name = "P"
cells = $cells
count = $((a * b * c / size))
EOF
    /usr/bin/time -f %U -o "$work/t" "$pc" count "$work/box.toml" --symmetry none \
        --solver memo --threads 1 >"$work/memo.out" 2>&1 || true
    memo=$(tail -1 "$work/t")
    count=$(sed -n 's/^s mc //p' "$work/memo.out")
    table=$(grep -o 'table [0-9.]* MiB' "$work/memo.out" | sed 's/table //')
    /usr/bin/time -f %U -o "$work/t" "$pc" count "$work/box.toml" --symmetry none \
        --solver bits --threads 1 --timeout "$timeout" >"$work/bits.out" 2>&1 || true
    if grep -q '^s mc ' "$work/bits.out"; then
        bits=$(tail -1 "$work/t")
        [ "$(sed -n 's/^s mc //p' "$work/bits.out")" = "$count" ] || bits="$bits (count differs!)"
    else
        bits="no answer in $timeout s"
    fi
    printf '%-16s %-34s %8s %10s %s\n' "$name $dims" "$count" "$memo" "$table" "$bits"
done
