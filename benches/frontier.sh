#!/usr/bin/env bash
# The frontier engine against the memo's search and a plain profile DP written apart
# (benches/profile_dp.c), on boxes of dominoes and L-trominoes, thin and wide, and 2-D
# boards: every tiling (--symmetry none), one thread, the median CPU seconds (user +
# system) and peak memory of RUNS runs, taken in turn so that the machine's load falls
# on all alike. Each count is checked against the C program's.
#
#   bash benches/frontier.sh            # after cargo build --release
#   RUNS=5 bash benches/frontier.sh
#
# Prints a Markdown table: the ratios are frontier / C and frontier / memo. A count that
# differs from the C program's (or, without it, from the first engine's) stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
BIN=${POLYCOVER:-target/release/polycover}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/profile_dp" benches/profile_dp.c

domino="0,0,0 1,0,0"
ell="0,0,0 1,0,0 0,1,0"
# name, box, piece's cells, and whether the C program and the memo's search run: the C
# program sweeps with x fastest, so it takes each box with its longest side last, and
# on 5x6x6 (a 31-cell window) takes too long; the memo's search takes minutes and
# gigabytes there. The frontier takes every box as it is given (6x6x4 is 4x6x6 turned).
# The last field: how many times a run repeats within one measure (the small boxes).
cases=(
  "dominoes 4x4x12|4 4 12|$domino|yes|yes|5"
  "L-trominoes 3x3x6|3 3 6|$ell|yes|yes|50"
  "dominoes 4x5x6|4 5 6|$domino|yes|yes|1"
  "dominoes 4x6x6|4 6 6|$domino|yes|yes|1"
  "dominoes 6x6x4|6 6 4|$domino|yes|yes|1"
  "dominoes 5x6x6|5 6 6|$domino|no|no|1"
  "dominoes 8x8|8 8 1|$domino|yes|yes|50"
  "dominoes 12x12|12 12 1|$domino|yes|yes|20"
  "dominoes 16x16|16 16 1|$domino|yes|yes|5"
)

# CPU seconds and peak KiB of a command run $repeat times (the CPU divided by them: a
# run of milliseconds is below the clock's 10 ms), its standard output into $work/out.
measure() {
  /usr/bin/time -f "%U %S %M" -o "$work/time" \
    bash -c 'for _ in $(seq "$0"); do "$@" > "'"$work/out"'" 2> /dev/null; done' "$repeat" "$@"
  awk -v n="$repeat" '{printf "%.4f %d\n", ($1 + $2) / n, $3}' "$work/time"
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

toml() { # box, cells -> a puzzle file
  local x y z n cells=""
  read -r x y z <<< "$1"
  n=$(wc -w <<< "$2")
  for c in $2; do cells+="[$c],"; done
  printf 'name = "bench"\nbox = [%s, %s, %s]\n[[piece]]\nname = "p"\ncells = [%s]\ncount = %s\n' \
    "$x" "$y" "$z" "${cells%,}" $((x * y * z / n)) > "$work/p.toml"
}

echo "| box | C profile DP | frontier | memo | frontier / C | frontier / memo |"
echo "|---|---:|---:|---:|---:|---:|"
for case in "${cases[@]}"; do
  IFS='|' read -r name dims cells reference memo repeat <<< "$case"
  toml "$dims" "$cells"
  sorted=$(tr ' ' '\n' <<< "$dims" | sort -n | tr '\n' ' ')
  : > "$work/c"; : > "$work/f"; : > "$work/m"
  want=""
  for _ in $(seq "$RUNS"); do
    if [ "$reference" = yes ]; then
      # shellcheck disable=SC2086
      measure "$work/profile_dp" $sorted "$cells" >> "$work/c"
      want=$(cat "$work/out")
    fi
    for engine in frontier memo; do
      [ "$engine" = memo ] && [ "$memo" = no ] && continue
      measure "$BIN" count "$work/p.toml" --symmetry none --threads 1 --solver "$engine" \
        >> "$work/${engine:0:1}"
      got=$(grep '^s mc ' "$work/out" | cut -d' ' -f3)
      [ -z "$want" ] && want=$got
      [ "$got" = "$want" ] || { echo "$name: $engine counted $got, not $want" >&2; exit 1; }
    done
  done
  if [ "$reference" = yes ]; then
    c=$(cut -d' ' -f1 "$work/c" | median); cm=$(cut -d' ' -f2 "$work/c" | median)
    c_cell="$c s, $((cm / 1024)) MiB"
  else
    c=0; c_cell="not run"
  fi
  f=$(cut -d' ' -f1 "$work/f" | median); fm=$(cut -d' ' -f2 "$work/f" | median)
  if [ "$memo" = yes ]; then
    m=$(cut -d' ' -f1 "$work/m" | median); mm=$(cut -d' ' -f2 "$work/m" | median)
    memo_cell="$m s, $((mm / 1024)) MiB"
    ratio=$(awk -v a="$f" -v b="$m" 'BEGIN {if (b > 0) printf "%.2f", a / b; else printf "-"}')
  else
    memo_cell="not run"; ratio="-"
  fi
  cr=$(awk -v a="$f" -v b="$c" 'BEGIN {if (b > 0) printf "%.2f", a / b; else printf "-"}')
  echo "| $name | $c_cell | $f s, $((fm / 1024)) MiB | $memo_cell | $cr | $ratio |"
done
