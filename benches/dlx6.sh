#!/usr/bin/env bash
# Knuth's dlx6 (Algorithm X with a memo of subproblem signatures, after Nishino et al.'s
# DXZ) against polycover's memo, counting the same domino boxes, one thread each, in the
# same run (issue 37: "at least as fast as dlx6 in CPU").
#
# Usage: benches/dlx6.sh PATH/TO/dlx6.w [BOXES] [RUNS]
#   BOXES  domino boxes as WxH, comma-separated (default: 8x8,8x10,12x12,16x16)
#   RUNS   runs of each program, alternating; the median CPU time is reported (default 3).
#          A run of a small box repeats the program (100 times up to 80 cells, 20 up to
#          144) and reports the CPU time of one: /usr/bin/time has 10 ms steps.
#   POLYCOVER=path  the polycover binary (default: target/release/polycover, built here)
#   LOGHASH=k       dlx6's hash table of 2^k entries (default 24: 128 MiB, address space
#                   only until used; the 16x16 box makes about 400,000 signatures)
#   CACHE=k         dlx6's cache of signatures: 2^k octabytes (default 28: 2 GiB of address
#                   space). dlx6 touches its arrays as it starts: on small boxes, small
#                   LOGHASH and CACHE (e.g. 14 and 18) give its best user+sys time
#   DLX6_CH=path    a CWEB change file applied when tangling (e.g. Knuth's dlx6-noMRV.ch)
#
# dlx6.w is Knuth's CWEB source, from his programs page
# (https://www-cs-faculty.stanford.edu/~knuth/programs/dlx6.w); a copy is in the GitHub
# repository ascherer/cwebtest (dlx6.w). It carries no licence, so polycover does not ship
# it: give its path. Tangling needs `ctangle` (Debian: `apt-get install
# --no-install-recommends texlive-binaries`; elsewhere the `cweb` package), and a C
# compiler.
#
# The matrix: `polycover export --format dlx` writes the cells as items and the dominoes
# as one item with multiplicity (`32|D` on the item line, `D` in every option). dlx6
# reads DLX2's format: primary and secondary items, no multiplicities (a `|` in an item
# name is refused). In a box of one piece the piece item is implied by the cells (every
# option covers it, and covering the cells exactly uses all its copies), so the script
# drops it; it refuses a matrix with more than one item with multiplicity. dlx6 branches
# on the item with the fewest options (ties to the first), polycover's memo along its
# sweep (see src/solver/memo/order.rs): the trees differ, the counts agree. dlx6 counts
# in 64 bits: on 16x16 (2.4e30 tilings) its count overflows (it says so), so only its
# time is compared there.
set -euo pipefail

w=${1:?usage: benches/dlx6.sh PATH/TO/dlx6.w [BOXES] [RUNS]}
boxes=${2:-8x8,8x10,12x12,16x16}
runs=${3:-3}
loghash=${LOGHASH:-24}
cache=${CACHE:-28}
root=$(cd "$(dirname "$0")/.." && pwd)
w=$(cd "$(dirname "$w")" && pwd)/$(basename "$w")
[ -r "$w" ] || { echo "cannot read $w" >&2; exit 2; }
command -v ctangle >/dev/null || { echo "ctangle not found (see the comment at the top)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (Debian: apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# dlx6 takes the hash codes of its signatures from the Stanford GraphBase's random
# numbers (gb_flip). Any well-mixed 31-bit numbers serve: a stand-in header with a
# xorshift generator, so the GraphBase need not be installed.
cat >"$work/gb_flip.h" <<'EOF'
static unsigned long long gb_state = 0x9e3779b97f4a7c15ULL;
static void gb_init_rand(long seed) { gb_state = 0x9e3779b97f4a7c15ULL ^ (unsigned long long)seed; }
static long gb_next_rand(void) {
    gb_state ^= gb_state << 13; gb_state ^= gb_state >> 7; gb_state ^= gb_state << 17;
    return (long)(gb_state >> 33);
}
static long gb_unif_rand(long m) { return gb_next_rand() % m; }
EOF
# The hash table: 2^loghash entries; the cache of signatures: 2^cache octabytes (by
# default 2 GiB of address space, touched only as used) instead of 16 GB.
sed -e "s/^@d loghashsize .*/@d loghashsize $loghash/" \
    -e "s/^@d max_cache .*/@d max_cache (1<<$cache) \/* octabytes in the cache *\//" \
    "$w" >"$work/dlx6.w"
ch=-
if [ -n "${DLX6_CH:-}" ]; then
    cp "$DLX6_CH" "$work/dlx6.ch"
    ch=./dlx6.ch
fi
# ctangle looks files up through kpathsea: a path with a slash is taken as it is.
(cd "$work" && ctangle ./dlx6.w "$ch" ./dlx6.c >/dev/null)
gcc -O2 -w -I"$work" -o "$work/dlx6" "$work/dlx6.c"

pc=${POLYCOVER:-}
if [ -z "$pc" ]; then
    (cd "$root" && cargo build --release --quiet)
    pc=$root/target/release/polycover
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "domino boxes, --symmetry none, one thread, $runs run(s) each, median CPU s of one run:"
echo "user, and user+sys (the kernel's share: mapping, page faults, process start-up)"
printf '%-6s %-34s %-22s %9s %9s %9s %9s %9s %9s\n' box "polycover count" "dlx6 count" memo dlx6 "memo/dlx6" "memo u+s" "dlx6 u+s" "ratio u+s"
for box in ${boxes//,/ }; do
    x=${box%x*}
    y=${box#*x}
    cat >"$work/box.toml" <<EOF
name = "dominoes $box"
box = [$x, $y, 1]

[[piece]]
name = "D"
cells = [[0,0,0], [1,0,0]]
count = $((x * y / 2))
EOF
    "$pc" export "$work/box.toml" --format dlx --symmetry none >"$work/plain.dlx"
    # Drop the item with multiplicity (`n|NAME` on the item line) and its name from the
    # options.
    awk '
        /^\|/ { next }
        !items {
            items = 1; line = ""; n = 0
            for (i = 1; i <= NF; i++) {
                if ($i ~ /\|/) { split($i, a, "|"); drop[a[2]] = 1; n++ }
                else line = line (line == "" ? "" : " ") $i
            }
            if (n > 1) { print "more than one item with multiplicity" > "/dev/stderr"; exit 2 }
            print line; next
        }
        {
            line = ""
            for (i = 1; i <= NF; i++) if (!($i in drop)) line = line (line == "" ? "" : " ") $i
            print line
        }' "$work/plain.dlx" >"$work/matrix.dlx"
    repeat=1
    [ $((x * y)) -le 144 ] && repeat=20
    [ $((x * y)) -le 80 ] && repeat=100
    : >"$work/dlx6.cpu"
    : >"$work/memo.cpu"
    : >"$work/dlx6.all"
    : >"$work/memo.all"
    # One timed shell runs the program `repeat` times: its user time includes theirs.
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%U %S' -o "$work/t" sh -c 'for i in $(seq "$1"); do "$2" <"$3" >/dev/null 2>"$4"; done' \
            sh "$repeat" "$work/dlx6" "$work/matrix.dlx" "$work/dlx6.err"
        awk -v r="$repeat" '{ printf "%.4f\n", $1 / r }' "$work/t" >>"$work/dlx6.cpu"
        awk -v r="$repeat" '{ printf "%.4f\n", ($1 + $2) / r }' "$work/t" >>"$work/dlx6.all"
        /usr/bin/time -f '%U %S' -o "$work/t" sh -c 'for i in $(seq "$1"); do "$2" count "$3" --symmetry none --solver memo --threads 1 >"$4" 2>&1; done' \
            sh "$repeat" "$pc" "$work/box.toml" "$work/memo.out"
        awk -v r="$repeat" '{ printf "%.4f\n", $1 / r }' "$work/t" >>"$work/memo.cpu"
        awk -v r="$repeat" '{ printf "%.4f\n", ($1 + $2) / r }' "$work/t" >>"$work/memo.all"
    done
    k_sols=$(sed -n 's/^Altogether \([0-9]*\) solutions.*/\1/p' "$work/dlx6.err")
    if grep -q overflowed "$work/dlx6.err"; then
        k_sols="overflowed"
    fi
    p_sols=$(sed -n 's/^s mc //p' "$work/memo.out")
    k_cpu=$(median <"$work/dlx6.cpu")
    p_cpu=$(median <"$work/memo.cpu")
    k_all=$(median <"$work/dlx6.all")
    p_all=$(median <"$work/memo.all")
    ratio() { awk -v p="$1" -v k="$2" 'BEGIN { if (k > 0) printf "%.2f", p / k; else print "-" }'; }
    printf '%-6s %-34s %-22s %9s %9s %9s %9s %9s %9s\n' "$box" "$p_sols" "$k_sols" "$p_cpu" "$k_cpu" \
        "$(ratio "$p_cpu" "$k_cpu")" "$p_all" "$k_all" "$(ratio "$p_all" "$k_all")"
done
