#!/usr/bin/env bash
# Thread scaling of the engines, as issue 36 asks it measured: Bedlam with bits and with
# the DLX, SAT cubes on Bedlam (bench's `sat` entrant: what `count --solver sat` runs,
# cubes at every thread count), and the memo on the 16x16 domino box. Each is one
# `polycover bench PUZZLE --solvers ENGINE --threads LIST`; the script prints their rows
# as one markdown table on standard output (bench's own lines go to standard error).
#
# Usage: benches/scaling.sh [POLYCOVER]     (default: target/release/polycover)
#
# Environment (thread lists are comma-separated; seconds are per count):
#   ENGINES       which rows, in this order: bits dlx memo sat (default: all four)
#   THREADS       bits's thread counts                      (default 1,2,4,8,12,16)
#   DLX_THREADS   the DLX's (1 thread alone takes 60-120 s)  (default 1,4,16)
#   MEMO_THREADS  the memo's                                 (default 1,2,4,8,16)
#   SAT_THREADS   SAT cubes'                                 (default 1,4,16)
#   BITS_TIMEOUT, DLX_TIMEOUT, MEMO_TIMEOUT, SAT_TIMEOUT     (default 60, 150, 40, 15)
#   BITS_PUZZLE, DLX_PUZZLE, MEMO_PUZZLE, SAT_PUZZLE         (default bedlam, bedlam,
#                 dominoes-16x16, bedlam: a full SAT count of Bedlam takes ~1,800 s of
#                 CPU, so its rows are rates; pentomino-6x10 counts in ~25 s)
#   BUDGET        seconds for the whole script (default 285): each bench gets what is
#                 left and is stopped by SIGTERM past it, keeping the rows it measured
#                 (bench writes its CSV on a stop); an engine with under 5 s left is
#                 skipped, and the table says so.
#
# The defaults finish in under 5 minutes on a 16-core machine. A SAT count on Bedlam
# takes about 1,800 CPU seconds, so SAT rows stop at their timeout: their speed-up is
# one of solutions per second (an estimate; the table's status says `timeout`). Exit
# status: 0, or 1 when a bench failed (counts that disagree across thread counts, a
# crash), after printing the table of what was measured.
set -euo pipefail

polycover=${1:-target/release/polycover}
if [[ ! -x $polycover ]]; then
    echo "scaling.sh: no polycover executable at $polycover (build it: cargo build --release)" >&2
    exit 2
fi
engines=${ENGINES:-bits dlx memo sat}
budget=${BUDGET:-285}
start=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# engine -> puzzle, thread list, per-count timeout
declare -A puzzle=([bits]=${BITS_PUZZLE:-bedlam} [dlx]=${DLX_PUZZLE:-bedlam} [memo]=${MEMO_PUZZLE:-dominoes-16x16} [sat]=${SAT_PUZZLE:-bedlam})
declare -A threads=(
    [bits]=${THREADS:-1,2,4,8,12,16}
    [dlx]=${DLX_THREADS:-1,4,16}
    [memo]=${MEMO_THREADS:-1,2,4,8,16}
    [sat]=${SAT_THREADS:-1,4,16}
)
declare -A timeout=(
    [bits]=${BITS_TIMEOUT:-60}
    [dlx]=${DLX_TIMEOUT:-150}
    [memo]=${MEMO_TIMEOUT:-40}
    [sat]=${SAT_TIMEOUT:-15}
)

notes=()
failed=0
for engine in ${engines//,/ }; do
    if [[ -z ${puzzle[$engine]:-} ]]; then
        echo "scaling.sh: unknown engine '$engine' in ENGINES (bits, dlx, memo, sat)" >&2
        exit 2
    fi
    left=$((budget - (SECONDS - start)))
    if ((left < 5)); then
        notes+=("$engine: not run, the budget of $budget s was spent")
        continue
    fi
    set +e
    timeout -s TERM -k 10 "$left" "$polycover" bench "${puzzle[$engine]}" \
        --solvers "$engine" --threads "${threads[$engine]}" \
        --timeout "${timeout[$engine]}" --csv "$work/$engine.csv" >&2
    code=$?
    set -e
    case $code in
    0) ;;
    124 | 143) notes+=("$engine: stopped by the budget of $budget s; the rows before the stop are shown") ;;
    *)
        notes+=("$engine: bench failed (exit $code), see its standard error")
        failed=1
        ;;
    esac
done

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
echo "## Thread scaling, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "Machine: $(nproc) cores available (nproc), ${cpu:-CPU model unknown}; $("$polycover" --version)."
echo "Wall: the count's time; CPU: user+sys of the process that ran it; busy = CPU / wall;"
echo "speed-up against the engine's smallest thread count; efficiency = speed-up per thread."
echo
echo "| puzzle | engine | threads | wall s | CPU s | busy | speed-up | efficiency | solutions | status |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
for engine in ${engines//,/ }; do
    [[ -f $work/$engine.csv ]] || continue
    # A CSV reader for the fields bench writes: quoted fields may hold commas and quotes.
    awk '
        function split_csv(line, f,    n, i, c, field, quoted) {
            n = 0; field = ""; quoted = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (quoted) {
                    if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field c; i++ }
                    else if (c == "\"") quoted = 0
                    else field = field c
                } else if (c == "\"") quoted = 1
                else if (c == ",") { f[++n] = field; field = "" }
                else field = field c
            }
            f[++n] = field
            return n
        }
        function cut(x) { return x == "" ? "-" : x }
        NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
        {
            split_csv($0, f)
            wall = f[col["count_s"]] == "" ? "" : sprintf("%.3f", f[col["count_s"]])
            cpu = f[col["cpu_s"]] == "" ? "" : sprintf("%.3f", f[col["cpu_s"]])
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                f[col["puzzle"]], f[col["engine"]], f[col["threads"]], cut(wall), cut(cpu),
                cut(f[col["cpu_use"]]), cut(f[col["speedup"]] == "" ? "" : f[col["speedup"]] "x"),
                cut(f[col["efficiency"]]), cut(f[col["solutions"]]), f[col["status"]]
        }
    ' "$work/$engine.csv"
done
for note in "${notes[@]+"${notes[@]}"}"; do
    echo
    echo "Note: $note."
done
echo
echo "Total $((SECONDS - start)) s."
exit $failed
