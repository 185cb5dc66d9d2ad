#!/usr/bin/env bash
# Knuth's dlx1 against polycover's DLX on the same exact-cover matrix, one thread each, in
# the same run (issue 36: "the DLX as fast as Knuth's").
#
# Usage: benches/dlx1.sh PATH/TO/dlx1.w [PUZZLE] [RUNS]
#   PUZZLE  a catalog name or puzzle file (default: bedlam)
#   RUNS    runs of each program, alternating; the median CPU time is reported (default 1)
#   POLYCOVER=path  the polycover binary (default: target/release/polycover, built here)
#   EXPORT_ARGS     extra arguments for `polycover export` and `count` (e.g. "--symmetry none")
#
# dlx1.w is Knuth's CWEB source, from his programs page
# (https://www-cs-faculty.stanford.edu/~knuth/programs/dlx1.w); a copy is in the GitHub
# repository ascherer/cwebtest (dlx1.w). It carries no licence, so polycover does not ship
# it: give its path. Tangling needs `ctangle` (Debian: `apt-get install
# --no-install-recommends texlive-binaries`, about 12 MB to download; elsewhere the `cweb`
# package), and a C compiler.
#
# The same tree: polycover exports the matrix its DLX searches (the options the symmetry
# reduction keeps, with the pinned item). Both branch on an item with the fewest options,
# but on a tie dlx1 takes the first item listed and polycover the last, so the script
# reverses the item line: then the two walk the same tree and their node counts agree,
# except that polycover does not count the few nodes above its subproblems (the split
# into 48 per thread). dlx1 counts raw solutions of the matrix; polycover prints them as
# `raw solutions`.
set -euo pipefail

w=${1:?usage: benches/dlx1.sh PATH/TO/dlx1.w [PUZZLE] [RUNS]}
puzzle=${2:-bedlam}
runs=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
w=$(cd "$(dirname "$w")" && pwd)/$(basename "$w")
[ -r "$w" ] || { echo "cannot read $w" >&2; exit 2; }
command -v ctangle >/dev/null || { echo "ctangle not found (see the comment at the top)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (Debian: apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# dlx1 includes the Stanford GraphBase's random numbers for its `s` (seed) option, which
# this script never passes: a stand-in header that stops if it is ever called.
cat >"$work/gb_flip.h" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static void gb_init_rand(long seed) { (void)seed; fputs("no gb_flip here\n", stderr); exit(3); }
static long gb_unif_rand(long m) { (void)m; fputs("no gb_flip here\n", stderr); exit(3); }
EOF
cp "$w" "$work/dlx1.w"
# ctangle looks files up through kpathsea: a path with a slash is taken as it is.
(cd "$work" && ctangle ./dlx1.w >/dev/null)
gcc -O2 -w -I"$work" -o "$work/dlx1" "$work/dlx1.c"

pc=${POLYCOVER:-}
if [ -z "$pc" ]; then
    (cd "$root" && cargo build --release --quiet)
    pc=$root/target/release/polycover
fi
# shellcheck disable=SC2086 # EXPORT_ARGS is a list of words
"$pc" export "$puzzle" --format dlx ${EXPORT_ARGS:-} >"$work/plain.dlx"
# Reverse the item line (the first line that is not a `|` comment).
awk '!done && !/^\|/ { n = split($0, a, " "); s = a[n]; for (i = n - 1; i >= 1; i--) s = s " " a[i]; print s; done = 1; next } { print }' \
    "$work/plain.dlx" >"$work/matrix.dlx"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
: >"$work/dlx1.cpu"
: >"$work/polycover.cpu"
for _ in $(seq "$runs"); do
    /usr/bin/time -f %U -o "$work/t" "$work/dlx1" <"$work/matrix.dlx" >/dev/null 2>"$work/dlx1.err"
    cat "$work/t" >>"$work/dlx1.cpu"
    # shellcheck disable=SC2086
    /usr/bin/time -f %U -o "$work/t" "$pc" count "$puzzle" --solver dlx --threads 1 ${EXPORT_ARGS:-} \
        >"$work/pc.out" 2>&1
    cat "$work/t" >>"$work/polycover.cpu"
done

k_sols=$(sed -n 's/^Altogether \([0-9]*\) solutions.*/\1/p' "$work/dlx1.err")
k_nodes=$(sed -n 's/.* \([0-9]*\) nodes.*/\1/p' "$work/dlx1.err")
p_sols=$(sed -n 's/.*raw solutions \([0-9]*\).*/\1/p' "$work/pc.out")
p_nodes=$(sed -n 's/.*nodes \([0-9]*\),.*/\1/p' "$work/pc.out")
k_cpu=$(median <"$work/dlx1.cpu")
p_cpu=$(median <"$work/polycover.cpu")
echo "puzzle $puzzle ${EXPORT_ARGS:-}, $runs run(s) each, median user CPU"
printf '%-10s %12s %12s %10s\n' program solutions nodes "CPU s"
printf '%-10s %12s %12s %10s\n' dlx1 "$k_sols" "$k_nodes" "$k_cpu"
printf '%-10s %12s %12s %10s\n' polycover "$p_sols" "$p_nodes" "$p_cpu"
awk -v p="$p_cpu" -v k="$k_cpu" 'BEGIN { printf "polycover / dlx1 CPU: %.3f\n", p / k }'
