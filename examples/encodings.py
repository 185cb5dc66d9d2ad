# %% [markdown]
# # At-most-one encodings under PySAT's solvers
#
# A notebook-style script (`# %%` cells open in Jupyter, VS Code or `jupytext`; run it
# whole with `python examples/encodings.py`). It needs the `polycover` package and PySAT:
# `pip install './python[pysat]'`.
#
# Each puzzle's CNF (`polycover dimacs --amo AMO`) says "every cell covered once, every
# piece placed once"; the at-most-one half is what the encodings do differently: pairwise
# clauses, or auxiliary variables (ladder, bitwise, commander, bimander, product). Three
# puzzles, three jobs:
#
# - Soma: the first model.
# - Hesselink's 5x5x5 box: every model, each blocked after it is found (one, unique).
# - One-sided tetrominoes in 4x7: no model at all (a refutation).
#
# (Every model of Soma, 480 up to rotation, takes PySAT a few seconds per encoding and
# solver: the package's tests do it once.)

# %%
import sys
import time

import polycover

try:
    from pysat.solvers import Solver
except ImportError:
    sys.exit("this example needs PySAT: pip install python-sat")

PUZZLES = [
    ("soma", "first"),
    ("hesselink-5", "all"),
    ("one-sided-tetrominoes-4x7", "refute"),
]
ENCODINGS = ["pairwise", "ladder", "bitwise", "commander", "bimander", "product"]
SOLVERS = ["cadical153", "glucose4", "minisat22"]


# %%
def run(cnf, clauses, solver, job):
    """Models found and seconds taken by `solver` on `cnf` (its `clauses`) for `job`."""
    start = time.perf_counter()
    models = 0
    with Solver(name=solver, bootstrap_with=clauses) as s:
        while s.solve():
            models += 1
            # Each model must decode into a solution of the puzzle.
            solution = cnf.decode(s.get_model())
            if job != "all":
                break
            s.add_clause(cnf.blocking(solution))
    return models, time.perf_counter() - start


rows = []
for name, job in PUZZLES:
    puzzle = polycover.Puzzle.load(name)
    expected = puzzle.count()
    for amo in ENCODINGS:
        cnf = puzzle.cnf(amo=amo)
        formula = cnf.to_pysat()  # a pysat.formula.CNF
        clauses = len(formula.clauses)
        for solver in SOLVERS:
            models, seconds = run(cnf, formula.clauses, solver, job)
            wanted = expected if job == "all" else min(expected, 1)
            if models != wanted:
                sys.exit(f"{name} {amo} {solver}: {models} models, expected {wanted}")
            rows.append((name, job, amo, cnf.num_vars, clauses, solver, models, seconds))

# %% [markdown]
# The table: variables and clauses per encoding, and each solver's time. The counts were
# checked against `Puzzle.count()` above.

# %%
header = ("puzzle", "job", "amo", "vars", "clauses", "solver", "models", "seconds")
widths = [max(len(str(r[i])) if i != 7 else 7 for r in rows + [header]) for i in range(8)]
print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
for row in rows:
    cells = [str(v) for v in row[:7]] + [f"{row[7]:.3f}"]
    print("  ".join(c.ljust(w) for c, w in zip(cells, widths)))

# %% [markdown]
# The fastest encoding per puzzle, over the three solvers together.

# %%
for name, _ in PUZZLES:
    totals = {
        amo: sum(r[7] for r in rows if r[0] == name and r[2] == amo) for amo in ENCODINGS
    }
    best = min(totals, key=totals.get)
    print(f"{name}: {best} ({totals[best]:.3f} s for the three solvers)")
