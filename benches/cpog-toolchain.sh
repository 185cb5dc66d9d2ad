#!/usr/bin/env bash
# The CPOG toolchain's row of the certificates table (benches/certify.sh): D4 v1 compiles
# polycover's certified CNF (`dimacs --certified`) into a d-DNNF, the CPOG project's
# cpog-gen turns CNF + d-DNNF into a CPOG certificate, and the checker that certify.sh
# uses checks it.
#
#   bash benches/cpog-toolchain.sh            # after cargo build --release; about 11 minutes
#   CHECK=0 bash benches/cpog-toolchain.sh    # without running the checker
#   D4=... CPOG_GEN=... bash benches/cpog-toolchain.sh
#
# Neither tool is built by .ci/run. Built by hand (2 cores; gmp, zlib and boost headers
# from Debian: apt-get install libgmp-dev zlib1g-dev libboost-dev cadical), from the
# sources of github.com/crillab/d4 (v1, not d4v2), github.com/rebryant/cpog and
# github.com/marijnheule/drat-trim unpacked under target/tools/cpog-toolchain/:
#
#   make -C target/tools/cpog-toolchain/d4 -j2            # -> d4 (its README's build)
#   make -C target/tools/cpog-toolchain/cpog/src -j2      # -> cpog-gen, cpog-check
#   make -C target/tools/cpog-toolchain/drat-trim drat-trim
#
# cpog-gen runs `cadical` (Debian's package) and `drat-trim` from PATH for its SAT
# sub-problems; the drat-trim built above is put on PATH (DRAT_TRIM names another).
#
# Each row: the puzzle with `--symmetry none` (the certified CNF has no symmetry breaking),
# the model count D4 prints, the wall (and user + system) seconds of D4 writing the d-DNNF
# (`-dDNNF -out=`), the same for cpog-gen, the CPOG file's bytes, and the wall seconds of
# target/tools/cpog-check on CNF + CPOG. The checker's count must be D4's, and D4's must be
# polycover's own; a failure or a differing count stops it. The certificate of the 4x4x4
# box is 2.35 GB, written under TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${POLYCOVER:-target/release/polycover}
CHECKER=${CPOG_CHECK:-target/tools/cpog-check}
TOOLS=target/tools/cpog-toolchain
D4=${D4:-$TOOLS/d4/d4}
CPOG_GEN=${CPOG_GEN:-$TOOLS/cpog/src/cpog-gen}
DRAT_TRIM=${DRAT_TRIM:-$TOOLS/drat-trim/drat-trim}
CHECK=${CHECK:-1}

missing=()
[ -x "$D4" ] || missing+=("D4 v1 (D4=$D4)")
[ -x "$CPOG_GEN" ] || missing+=("cpog-gen (CPOG_GEN=$CPOG_GEN)")
if [ -x "$DRAT_TRIM" ]; then
    PATH="$(cd "$(dirname "$DRAT_TRIM")" && pwd):$PATH"
fi
command -v drat-trim >/dev/null || missing+=("drat-trim (DRAT_TRIM=$DRAT_TRIM, or on PATH)")
command -v cadical >/dev/null || missing+=("cadical on PATH (apt-get install cadical)")
if [ "${#missing[@]}" -gt 0 ]; then
    echo "cpog-toolchain: skipped, not built here: ${missing[*]}; see the head of $0" >&2
    exit 0
fi
if [ "$CHECK" = 1 ] && [ ! -x "$CHECKER" ]; then
    mkdir -p target/tools
    cc -O2 -o "$CHECKER" ../shared/tools/cpog-check/cpog-check.c ../shared/tools/cpog-check/q25.c
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# timed NAME CMD...: runs CMD, its output into $work/NAME.log, and writes "wall user+sys"
# (seconds, its children's included) to $work/NAME.t; a failure shows the log's tail and stops
timed() {
    local name=$1 rc=0
    shift
    local TIMEFORMAT='%R %U %S'
    { time "$@" >"$work/$name.log" 2>&1; } 2>"$work/time" || rc=$?
    if [ "$rc" != 0 ]; then
        echo "$label: $name failed (exit $rc)" >&2
        tail -5 "$work/$name.log" >&2
        exit 1
    fi
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$work/time" >"$work/$name.t"
}

printf 'name = "d444"\nbox = [4, 4, 4]\n[[piece]]\nname = "P"\ncells = [%s]\ncount = 32\n' \
    "[0,0,0], [1,0,0]" >"$work/d444.toml"

# puzzle | label | the count polycover gives
rows=(
  "dominoes-8x8|dominoes 8x8|12988816"
  "$work/d444.toml|dominoes 4x4x4|5051532105"
)

echo "| CPOG toolchain, \`--symmetry none\` | count | D4 v1 (d-DNNF) | cpog-gen | certificate | checked |"
echo "|---|---:|---:|---:|---:|---:|"
for row in "${rows[@]}"; do
    IFS='|' read -r puzzle label expected <<<"$row"
    cnf=$work/t.cnf nnf=$work/t.nnf cpog=$work/t.cpog
    rm -f "$cnf" "$nnf" "$cpog"
    "$BIN" dimacs "$puzzle" --certified -o "$cnf"
    timed d4 "$D4" "$cnf" -dDNNF -out="$nnf"
    count=$(sed -n 's/^s //p' "$work/d4.log")
    if [ "$count" != "$expected" ]; then
        echo "$label: d4 counts '$count', polycover $expected" >&2
        exit 1
    fi
    timed cpog-gen "$CPOG_GEN" "$cnf" "$nnf" "$cpog"
    if [ ! -s "$cpog" ]; then
        echo "$label: cpog-gen wrote no certificate" >&2
        exit 1
    fi
    rm -f "$nnf"
    bytes=$(wc -c <"$cpog")
    checked=""
    if [ "$CHECK" = 1 ]; then
        # The checker prints a line per clause lookup: only its tail is kept.
        start=$(date +%s.%N)
        tail_out=$("$CHECKER" "$cnf" "$cpog" 2>&1 | grep -v '^Looking for clause' | tail -n 20) || true
        checked=$(printf '%.1f s' "$(echo "$(date +%s.%N) - $start" | bc)")
        verified=$(echo "$tail_out" | sed -n 's/^CHECK: Regular model count = //p')
        if ! echo "$tail_out" | grep -q 'FULL-PROOF SUCCESS' || [ "$verified" != "$count" ]; then
            echo "$label: the checker says '$verified', d4 said '$count'" >&2
            echo "$tail_out" >&2
            exit 1
        fi
    fi
    read -r d4_wall d4_cpu <"$work/d4.t"
    read -r gen_wall gen_cpu <"$work/cpog-gen.t"
    printf '| %s | %s | %s s (%s s CPU) | %s s (%s s CPU) | %s B (%s MB) | %s |\n' "$label" \
        "$count" "$d4_wall" "$d4_cpu" "$gen_wall" "$gen_cpu" "$bytes" \
        "$(printf '%.1f' "$(echo "scale=3; $bytes / 1000000" | bc)")" "$checked"
    rm -f "$cpog"
done
