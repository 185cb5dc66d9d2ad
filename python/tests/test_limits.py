"""Issue 46: the numbers a run takes follow the command line's rules (src/limits.rs),
and no call into the module panics, whatever its arguments.

The rules' cases are tests/fixtures/limits.txt, which tests/limits.rs runs through the
command line: here each case runs through the module and the command line alike.
"""

import signal
import subprocess
from pathlib import Path

import pytest

import polycover
from polycover import PolycoverError, PuzzleError

ROOT = Path(__file__).resolve().parents[2]

from test_polycover import BIN  # noqa: E402  (the command line under test)


def cases():
    lines = (ROOT / "tests" / "fixtures" / "limits.txt").read_text().splitlines()
    for line in lines:
        if line.strip() and not line.startswith("#"):
            rule, value, verdict, *words = line.split(" ", 3)
            yield pytest.param(rule, value, words[0] if words else None, id=f"{rule}={value}")


def python_value(text):
    """The value as a Python program writes it: an int where the text is one."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def shown(value):
    """How a refusal names the value: an int's str, a float's repr."""
    return repr(value) if isinstance(value, float) else str(value)


SOMA = polycover.Puzzle.load("soma")

TRIES = {
    "threads": (lambda v: SOMA.count(threads=v), ["count", "soma", "--threads"]),
    "timeout": (lambda v: SOMA.count(timeout=v), ["count", "soma", "--timeout"]),
    "samples": (lambda v: SOMA.sample(v, seed=1), ["sample", "soma", "--seed", "1", "-n"]),
    "seed": (lambda v: SOMA.sample(1, seed=v), ["sample", "soma", "--seed"]),
}


@pytest.mark.parametrize("rule,text,refusal", list(cases()))
def test_the_module_and_the_command_line_take_and_refuse_alike(rule, text, refusal):
    call, args = TRIES[rule]
    value = python_value(text)
    run = subprocess.run([str(BIN), *args, text], capture_output=True, text=True)
    if refusal is None:
        call(value)
        assert run.returncode == 0, run.stderr
    else:
        with pytest.raises(PuzzleError) as raised:
            call(value)
        assert str(raised.value) == f"`{shown(value)}`: {refusal}"
        assert run.returncode == 2, run.stderr
        assert f"`{text}`: {refusal}" in run.stderr


def test_threads_0_is_every_core_and_an_endless_timeout_is_none():
    assert SOMA.count(threads=0) == 480
    assert SOMA.count(timeout=1e300) == 480
    assert SOMA.count(timeout=float("inf")) == 480
    assert SOMA.solve(timeout=float("inf")) is not None
    with SOMA.solutions(threads=0, timeout=2**70) as solutions:
        assert next(solutions) is not None


# Extreme and wrong-typed values for every argument of every entry point.
EXTREMES = [
    1e300,
    float("inf"),
    float("-inf"),
    float("nan"),
    -1,
    0,
    1,
    2**70,
    -(2**70),
    2**64,
    -(2**63),
    "x",
    "",
    None,
    True,
    1.5,
    "x" * 100_000,
    [],
    [None],
    {},
    b"x",
    object(),
]

# Allowed outcomes besides a result: the module's errors, and TypeError or ValueError
# for a value of the wrong type (as documented in polycover.pyi).
ALLOWED = (PuzzleError, PolycoverError, TypeError, ValueError)


class Hung(Exception):
    pass


def _hung(signum, frame):
    raise Hung()


def entry_points():
    """(name, call) for each argument of each function and method of the module."""
    solution = SOMA.solve()
    cnf = polycover.Puzzle.load("soma").cnf()
    model = [o + 1 for o in solution.options]
    cells = [(0, 0, 0), (1, 0, 0)]

    def first(**kw):
        with SOMA.solutions(**kw) as s:
            return next(s, None)

    points = {
        "catalog": lambda v: polycover.catalog(v),
        "solvers": lambda v: polycover.solvers(v),
        "encodings": lambda v: polycover.encodings(v),
        "load": lambda v: polycover.Puzzle.load(v),
        "from_toml.text": lambda v: polycover.Puzzle.from_toml(v),
        "from_toml.source": lambda v: polycover.Puzzle.from_toml("x = ", source=v),
        "polycubes.pieces": lambda v: polycover.Puzzle.polycubes(v, box=(2, 1, 1)),
        "polycubes.piece": lambda v: polycover.Puzzle.polycubes({"a": v}, box=(2, 1, 1)),
        "polycubes.piece_name": lambda v: polycover.Puzzle.polycubes({v: cells}, box=(2, 1, 1)),
        "polycubes.cell": lambda v: polycover.Puzzle.polycubes({"a": [(0, 0, 0), (v, 0, 0)]}, box=(2, 1, 1)),
        "polycubes.box": lambda v: polycover.Puzzle.polycubes({"a": cells}, box=v),
        "polycubes.box_side": lambda v: polycover.Puzzle.polycubes({"a": cells}, box=(v, 1, 1)),
        "polycubes.target": lambda v: polycover.Puzzle.polycubes({"a": cells}, target=v),
        "polycubes.target_cell": lambda v: polycover.Puzzle.polycubes({"a": cells}, target=[(0, 0, 0), (v, 0, 0)]),
        "polycubes.copies": lambda v: polycover.Puzzle.polycubes({"a": cells}, box=(2, 1, 1), copies=v),
        "polycubes.copy": lambda v: polycover.Puzzle.polycubes({"a": cells}, box=(2, 1, 1), copies={"a": v}),
        "polycubes.name": lambda v: polycover.Puzzle.polycubes({"a": cells}, box=(2, 1, 1), name=v),
        "count.solver": lambda v: SOMA.count(solver=v),
        "count.symmetry": lambda v: SOMA.count(symmetry=v),
        "count.threads": lambda v: SOMA.count(threads=v),
        "count.timeout": lambda v: SOMA.count(timeout=v),
        "count.amo": lambda v: SOMA.count(solver="sat", amo=v),
        "solve.solver": lambda v: SOMA.solve(solver=v),
        "solve.symmetry": lambda v: SOMA.solve(symmetry=v),
        "solve.timeout": lambda v: SOMA.solve(timeout=v),
        "solve.amo": lambda v: SOMA.solve(solver="sat", amo=v),
        "solutions.solver": lambda v: first(solver=v),
        "solutions.symmetry": lambda v: first(symmetry=v),
        "solutions.threads": lambda v: first(threads=v),
        "solutions.timeout": lambda v: first(timeout=v),
        "solutions.amo": lambda v: first(solver="sat", amo=v),
        "sample.n": lambda v: SOMA.sample(v, seed=1),
        "sample.seed": lambda v: SOMA.sample(1, seed=v),
        "sample.symmetry": lambda v: SOMA.sample(1, symmetry=v),
        "cnf.amo": lambda v: SOMA.cnf(amo=v),
        "cnf.symmetry": lambda v: SOMA.cnf(symmetry=v),
        "cnf.force": lambda v: SOMA.cnf(force=v),
        "Solution.json": lambda v: solution.json(v),
        "Solution.eq": lambda v: solution == v,
        "Solution.text": lambda v: solution.text(v),
        "Cnf.decode": lambda v: cnf.decode(v),
        "Cnf.decode.literal": lambda v: cnf.decode([v]),
        "Cnf.decode.extra": lambda v: cnf.decode(model + [v]),
        "Cnf.blocking": lambda v: cnf.blocking(v),
    }
    return points


@pytest.mark.parametrize("name", sorted(entry_points()))
def test_no_call_panics_or_hangs_whatever_its_arguments(name):
    call = entry_points()[name]
    old = signal.signal(signal.SIGALRM, _hung)
    try:
        for value in EXTREMES:
            signal.setitimer(signal.ITIMER_REAL, 30)
            try:
                call(value)
            except BaseException as e:  # PanicException is a BaseException
                if isinstance(e, Hung):
                    pytest.fail(f"{name}({value!r:.40}) ran past 30 s")
                if not isinstance(e, ALLOWED) or type(e).__name__ == "PanicException":
                    pytest.fail(f"{name}({value!r:.40}) raised {type(e).__name__}: {e!s:.300}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, old)


def test_negative_numbers_raise_the_modules_error_not_overflow():
    for call in [
        lambda: SOMA.count(threads=-1),
        lambda: SOMA.count(timeout=-1),
        lambda: SOMA.solutions(threads=-(2**70)),
        lambda: SOMA.sample(-1),
        lambda: SOMA.sample(1, seed=-1),
        lambda: SOMA.solve().json(-1),
        lambda: polycover.Puzzle.polycubes({"a": [(0, 0, 0)]}, box=(1, 1, 1), copies={"a": -1}),
        lambda: polycover.Puzzle.polycubes({"a": [(0, 0, 0)]}, box=(-1, 1, 1)),
    ]:
        with pytest.raises(PuzzleError):
            call()
