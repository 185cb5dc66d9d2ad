#!/usr/bin/env python3
"""Projected model counting for the tests, with the PyPI packages d4solver (py_d4) and
pyganak, neither of which ships a command-line tool.

Usage: count_models.py d4|ganak FILE.cnf

Reads a DIMACS file with its projection line (`c p show V... 0`), counts the models
projected onto those variables, and prints the model-counting competition answer line
`c s exact arb int N`. Exit code 0 on success, 2 on bad input.
"""

import sys


def read_dimacs(path):
    show, clauses, nvars = [], [], 0
    with open(path) as f:
        for line in f:
            if line.startswith("c p show"):
                show.extend(int(t) for t in line.split()[3:] if t != "0")
            elif line.startswith("p cnf"):
                nvars = int(line.split()[2])
            elif line and line[0] not in "cp\n":
                lits = [int(t) for t in line.split()]
                assert lits and lits[-1] == 0, f"clause without terminating 0: {line!r}"
                clauses.append(lits[:-1])
    return nvars, show, clauses


def count_d4(path):
    import py_d4

    # d4 reads the `c p show` projection from the file itself.
    return py_d4.Solver(path).count().getIntResult()


def count_ganak(path):
    import pyganak

    nvars, show, clauses = read_dimacs(path)
    counter = pyganak.Counter()
    counter.new_vars(nvars)
    counter.add_clauses(clauses)
    if show:
        counter.set_sampling_set(show)
    return counter.count()


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("d4", "ganak"):
        print(__doc__, file=sys.stderr)
        return 2
    count = {"d4": count_d4, "ganak": count_ganak}[sys.argv[1]](sys.argv[2])
    print(f"c s exact arb int {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
