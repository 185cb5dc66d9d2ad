#!/usr/bin/env python3
"""Count or solve a polycover OPB model with OR-Tools CP-SAT.

Usage: cpsat.py count|solve MODEL.opb [--time-limit SECONDS]

The OPB is what `polycover export --format opb` writes: `* ...` comment lines, then
linear constraints `+1 x3 +1 x7 ... = k ;` over 0/1 variables x1..xN (with `~xN` for a
negated variable allowed, and `>=`, `<=` as well as `=`). Each becomes one CP-SAT linear
constraint; no encoding is needed.

count: enumerates every solution (CP-SAT's enumerate_all_solutions, one worker, as CP-SAT
requires for enumeration) and prints `s mc N`.

Both print CP-SAT's own wall time on a `c CP-SAT ... s` line: the search, without
Python's start-up and the reading of the file.
solve: prints `s SATISFIABLE` and one `v x1 -x2 ...` line, the pseudo-Boolean output
format that `polycover decode` reads, or `s UNSATISFIABLE`.

--time-limit: CP-SAT stops there. A count stopped early prints `c partial count N` and
`s UNKNOWN`, never `s mc`, and exits 1, as does a solve that found nothing by then.

`polycover bench --solvers cpsat` runs a copy of this script (built into the binary).
"""
import re
import sys

from ortools.sat.python import cp_model


def read_opb(path):
    model = cp_model.CpModel()
    variables = {}

    def var(n):
        if n not in variables:
            variables[n] = model.NewBoolVar(f"x{n}")
        return variables[n]

    with open(path) as f:
        header = f.readline()
        m = re.search(r"#variable=\s*(\d+)", header)
        if not m:
            sys.exit(f"{path}: not an OPB file (no #variable= header)")
        for n in range(1, int(m.group(1)) + 1):
            var(n)
        for line_no, line in enumerate(f, start=2):
            line = line.split("*", 1)[0].strip()
            if not line:
                continue
            if not line.endswith(";"):
                sys.exit(f"{path}:{line_no}: a constraint must end with ;")
            m = re.fullmatch(r"(.*?)\s*(=|>=|<=)\s*(-?\d+)\s*;", line)
            if not m:
                sys.exit(f"{path}:{line_no}: cannot read {line!r}")
            terms, op, rhs = m.group(1).split(), m.group(2), int(m.group(3))
            expr = 0
            for coef, lit in zip(terms[0::2], terms[1::2]):
                if lit.startswith("~"):
                    expr += int(coef) * (1 - var(int(lit[2:])))
                else:
                    expr += int(coef) * var(int(lit[1:]))
            if op == "=":
                model.Add(expr == rhs)
            elif op == ">=":
                model.Add(expr >= rhs)
            else:
                model.Add(expr <= rhs)
    return model, variables


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self):
        super().__init__()
        self.count = 0

    def on_solution_callback(self):
        self.count += 1


def main():
    args = sys.argv[1:]
    limit = None
    if len(args) == 4 and args[2] == "--time-limit":
        limit = float(args[3])
        args = args[:2]
    if len(args) != 2 or args[0] not in ("count", "solve"):
        sys.exit(__doc__)
    model, variables = read_opb(args[1])
    solver = cp_model.CpSolver()
    if limit is not None:
        solver.parameters.max_time_in_seconds = limit
    if args[0] == "count":
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        counter = Counter()
        status = solver.Solve(model, counter)
        print(f"c CP-SAT {solver.WallTime():.3f} s, {solver.StatusName(status)}")
        # An enumeration that ran to the end is OPTIMAL (or INFEASIBLE); FEASIBLE and
        # UNKNOWN mean the time limit stopped it.
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            print(f"c partial count {counter.count}")
            print("s UNKNOWN")
            sys.exit(1)
        print(f"s mc {counter.count}")
    else:
        status = solver.Solve(model)
        print(f"c CP-SAT {solver.WallTime():.3f} s, {solver.StatusName(status)}")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            print("s SATISFIABLE")
            lits = [
                ("" if solver.Value(variables[n]) else "-") + f"x{n}"
                for n in sorted(variables)
            ]
            print("v " + " ".join(lits))
        elif status == cp_model.INFEASIBLE:
            print("s UNSATISFIABLE")
        else:
            print(f"c CP-SAT stopped: {solver.StatusName(status)}")
            print("s UNKNOWN")
            sys.exit(1)


if __name__ == "__main__":
    main()
