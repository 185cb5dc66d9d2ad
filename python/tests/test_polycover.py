"""The Python module against the command line: counts, solutions, samples, CNF through
PySAT, pictures, errors, and Ctrl-C.

The command line is `target/release/polycover` (built by `cargo build --release`), or
the binary that POLYCOVER_BIN names.
"""

import itertools
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import polycover

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("POLYCOVER_BIN", ROOT / "target" / "release" / "polycover"))


def cli(*args, check=True):
    """Runs the command line; its standard output."""
    if not BIN.exists():
        pytest.fail(f"{BIN} is missing: run `cargo build --release` first")
    run = subprocess.run([str(BIN), *map(str, args)], capture_output=True, text=True)
    if check and run.returncode not in (0, 10, 20):
        pytest.fail(f"polycover {' '.join(map(str, args))}: exit {run.returncode}\n{run.stderr}")
    return run


def cli_count(*args):
    """The `s mc N` of `polycover count ...`."""
    out = cli("count", *args).stdout
    return int(re.search(r"^s mc (\d+)$", out, re.M).group(1))


@pytest.mark.parametrize("name", polycover.catalog())
def test_every_catalog_count_equals_the_command_lines(name):
    count = polycover.Puzzle.load(name).count()
    assert type(count) is int
    assert count == cli_count(name)


def test_catalog_is_the_command_lines_list():
    listed = cli("list").stdout
    for name in polycover.catalog():
        assert name in listed


def test_a_count_past_64_bits_is_an_exact_int():
    count = polycover.Puzzle.load("dominoes-16x16").count()
    assert count == 305611096281378760240051639364
    assert count > 2**64
    assert count == cli_count("dominoes-16x16")


def test_counts_agree_across_solvers_and_symmetry():
    soma = polycover.Puzzle.load("soma")
    assert soma.symmetry_modes[0] == "rotations"
    assert soma.count(solver="dlx") == 480
    assert soma.count(solver="bits", threads=2) == 480
    assert soma.count(solver="sat", amo="ladder") == 480
    assert soma.count(symmetry="reflections") == 240
    assert soma.count(symmetry="none") == 11520


def test_a_puzzle_from_cells_is_the_catalogs():
    pieces = {
        "V": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
        "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
        "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
        "Z": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
        "A": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
        "B": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],
        "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],
    }
    soma = polycover.Puzzle.polycubes(pieces, box=(3, 3, 3), name="my soma")
    assert soma.name == "my soma"
    assert soma.count() == 480
    dominoes = polycover.Puzzle.polycubes(
        {"D": [(0, 0, 0), (1, 0, 0)]}, box=(4, 4, 1), copies={"D": 8}
    )
    assert dominoes.count(symmetry="none") == 36


def test_from_toml_reads_what_a_file_holds():
    text = (ROOT / "encodings" / "pentomino-6x10.toml").read_text()
    assert polycover.Puzzle.from_toml(text).count() == 2339


def test_a_bad_puzzle_file_raises_the_command_lines_message(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nbox = [2, 2, 1]\n\n[[piece]]\nname = "A"\ncells = [[0, 0]]\n')
    with pytest.raises(polycover.PuzzleError) as raised:
        polycover.Puzzle.load(bad)
    run = cli("count", bad, check=False)
    assert run.returncode == 2
    assert run.stderr.strip() == f"polycover: error: {raised.value}"
    assert f"{bad}:6" in str(raised.value)
    with pytest.raises(polycover.PuzzleError, match=r"^<string>:\d+"):
        polycover.Puzzle.from_toml(bad.read_text())


def test_a_misspelled_name_raises_the_command_lines_message():
    with pytest.raises(polycover.PuzzleError) as raised:
        polycover.Puzzle.load("somma")
    run = cli("count", "somma", check=False)
    assert run.stderr.strip() == f"polycover: error: {raised.value}"


def test_wrong_arguments_raise():
    soma = polycover.Puzzle.load("soma")
    with pytest.raises(polycover.PuzzleError, match="unknown solver"):
        soma.count(solver="nope")
    with pytest.raises(polycover.PuzzleError, match="unknown symmetry"):
        soma.count(symmetry="mirror")
    with pytest.raises(polycover.PuzzleError, match="unknown at-most-one"):
        soma.cnf(amo="nope")
    with pytest.raises(polycover.PuzzleError, match="lazy"):
        soma.cnf(amo="lazy")


def test_a_refusal_names_the_keyword_arguments_where_the_command_line_names_flags(tmp_path):
    # The library names the settings it refuses; each front end words them its own way.
    soma = polycover.Puzzle.load("soma")
    with pytest.raises(polycover.PuzzleError) as raised:
        soma.certify(tmp_path / "x", solver="sat")
    message = str(raised.value)
    assert 'certify it with symmetry="none", or with solver memo, dlx or bits' in message, message
    assert "--" not in message, message
    run = cli("count", "soma", "--solver", "sat", "--certify", tmp_path / "y", check=False)
    assert run.returncode == 2
    said = run.stderr.strip().splitlines()[-1]
    assert said == "polycover: error: " + message.replace(
        'symmetry="none"', "--symmetry none").replace("solver memo", "--solver memo"), said


def test_a_timeout_raises_timeout_error():
    with pytest.raises(TimeoutError, match="stopped by the timeout"):
        polycover.Puzzle.load("bedlam").count(solver="dlx", timeout=1e-9)


def test_solutions_stream_and_stop():
    soma = polycover.Puzzle.load("soma")
    every = list(soma.solutions())
    assert len(every) == len(set(every)) == 480
    assert set(every) == set(soma.solutions(solver="dlx"))
    # A listing far too long to finish (1,629,189 solutions): five, then the search stops.
    with polycover.Puzzle.load("dominoes-8x8").solutions() as listing:
        first = list(itertools.islice(listing, 5))
    assert len(first) == 5
    assert next(listing, None) is None
    # A search between two solutions (the 16x16 box's second takes the bits listing
    # minutes): close() stops it there, through the library's stop flag.
    listing = polycover.Puzzle.load("dominoes-16x16").solutions()
    assert len(next(listing)) == 128
    listing.close()
    assert next(listing, None) is None
    assert polycover.Puzzle.load("soma").count() == 480  # the stop was withdrawn


def test_solve_prints_what_the_command_line_prints():
    solution = polycover.Puzzle.load("pentomino-6x10").solve()
    out = cli("solve", "pentomino-6x10").stdout
    assert out.split("s SATISFIABLE\n", 1)[1] == solution.text()


def test_the_notebook_picture_is_solve_svg(tmp_path):
    for name in ["soma", "pentomino-6x10", "bedlam"]:
        solution = polycover.Puzzle.load(name).solve()
        picture = tmp_path / f"{name}.svg"
        cli("solve", name, "--svg", picture)
        assert solution._repr_svg_() == picture.read_text()
        assert solution.svg() == picture.read_text()
        page = tmp_path / f"{name}.html"
        cli("solve", name, "--html", page)
        assert solution._repr_html_() == page.read_text()


def test_samples_are_the_command_lines_draws():
    drawn = polycover.Puzzle.load("soma").sample(4, seed=7)
    out = cli("sample", "soma", "-n", "4", "--seed", "7").stdout
    texts = re.split(r"^solution \d+\n", out, flags=re.M)[1:]
    assert [t.rstrip("\n") for t in texts] == [s.text().rstrip("\n") for s in drawn]


def test_the_cnf_is_the_dimacs_files(tmp_path):
    cnf = polycover.Puzzle.load("soma").cnf(amo="bimander")
    path = tmp_path / "soma.cnf"
    cli("dimacs", "soma", "--amo", "bimander", "--projection", "show", "-o", path)
    assert cnf.dimacs() == path.read_text()
    body = [l for l in path.read_text().splitlines() if l and l[0] not in "cp"]
    clauses = [[int(x) for x in l.split()[:-1]] for l in body]
    assert cnf.clauses == clauses
    assert cnf.projection == list(range(1, cnf.num_primary + 1))
    assert len(cnf.variables) == cnf.num_primary
    assert cnf.amo == "bimander" and cnf.symmetry == "rotations"


def test_pysat_enumerates_the_480_soma_solutions():
    pysat_solvers = pytest.importorskip("pysat.solvers")
    soma = polycover.Puzzle.load("soma")
    cnf = soma.cnf()
    found = set()
    with pysat_solvers.Solver(name="cadical153", bootstrap_with=cnf.to_pysat().clauses) as s:
        while s.solve():
            solution = cnf.decode(s.get_model())
            assert solution not in found
            found.add(solution)
            s.add_clause(cnf.blocking(solution))
            # The blocking clause is the projection's: the primary variables, negated.
            assert all(-l in cnf.projection for l in cnf.blocking(solution))
    assert len(found) == 480
    assert found == set(soma.solutions())


def test_a_model_that_is_no_solution_is_refused():
    cnf = polycover.Puzzle.load("soma").cnf()
    with pytest.raises(polycover.PuzzleError):
        cnf.decode([v for v in cnf.projection])


def test_the_gil_is_released_while_counting():
    puzzle = polycover.Puzzle.load("dominoes-16x16")
    counter = threading.Thread(target=puzzle.count)
    ticks = 0
    counter.start()
    while counter.is_alive():
        ticks += 1
        time.sleep(0.001)
    counter.join()
    # With the GIL held for the whole count, this thread would not have run meanwhile.
    assert ticks > 10


# The child installs Python's own SIGINT handler first: a process started in the
# background by a shell without job control (as CI scripts often are) inherits SIGINT
# ignored, and Python then never raises KeyboardInterrupt, whatever the library does.
CHILD = textwrap.dedent(
    """
    import signal, sys, time, polycover
    signal.signal(signal.SIGINT, signal.default_int_handler)
    puzzle = polycover.Puzzle.load(sys.argv[1])
    print("counting", flush=True)
    try:
        puzzle.count(solver=sys.argv[2], symmetry="none")
    except KeyboardInterrupt:
        print("KeyboardInterrupt at", time.monotonic(), flush=True)
        # The stop was withdrawn: the next search runs.
        print("then", polycover.Puzzle.load("soma").count(), flush=True)
    else:
        print("finished", flush=True)
    """
)


def interrupt_a_count(name, solver):
    """Sends SIGINT to a child counting `name`; the seconds until its KeyboardInterrupt."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, name, solver],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline() == "counting\n"
    time.sleep(0.5)  # into the search (a signal before it is also honoured)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    lines = out.splitlines()
    assert lines[0].startswith("KeyboardInterrupt at "), (out, err)
    assert lines[1] == "then 480"
    assert child.returncode == 0
    return float(lines[0].split()[-1]) - sent


@pytest.mark.parametrize("name,solver", [("bedlam", "bits"), ("dominoes-12x12", "dlx")])
def test_ctrl_c_raises_keyboard_interrupt_within_a_second(name, solver):
    # Every try must end in KeyboardInterrupt; the second is the bound, which the
    # 50 ms polling meets with a wide margin. A machine loaded by other work can delay
    # one child's wake-up past it, so one of three tries within it is enough: a count
    # that did not poll for signals would miss it every time (or never be interrupted).
    latencies = []
    for _ in range(3):
        latencies.append(interrupt_a_count(name, solver))
        if latencies[-1] < 1.0:
            break
    assert min(latencies) < 1.0, latencies


# Two searches at once in one interpreter: a thread counts the 6x10 pentominoes while
# the main thread counts Bedlam. Ctrl-C stops the main thread's count alone (each call
# has a stop of its own); the thread's count goes on to its known figure.
TWO_SEARCHES = textwrap.dedent(
    """
    import signal, sys, threading, time, polycover
    signal.signal(signal.SIGINT, signal.default_int_handler)
    pentominoes = polycover.Puzzle.load("pentomino-6x10")
    counted = []
    other = threading.Thread(
        target=lambda: counted.append(pentominoes.count(solver="dlx", symmetry="none"))
    )
    other.start()
    print("counting", flush=True)
    try:
        polycover.Puzzle.load("bedlam").count(solver="bits", threads=1)
    except KeyboardInterrupt:
        print("KeyboardInterrupt, the other still running:", other.is_alive(), flush=True)
    other.join()
    print("other", counted, flush=True)
    """
)


def test_ctrl_c_stops_one_of_two_searches():
    child = subprocess.Popen(
        [sys.executable, "-c", TWO_SEARCHES],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline() == "counting\n"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert out.splitlines() == [
        "KeyboardInterrupt, the other still running: True",
        "other [9356]",
    ], (out, err)
    assert child.returncode == 0


def test_closing_one_listing_leaves_another_search_running():
    # The listing's close raises its own stop; a count on another thread is not stopped.
    pentominoes = polycover.Puzzle.load("pentomino-6x10")
    counted = []
    other = threading.Thread(
        target=lambda: counted.append(pentominoes.count(solver="dlx", symmetry="none"))
    )
    other.start()
    listing = polycover.Puzzle.load("bedlam").solutions()
    next(listing)
    listing.close()
    assert other.is_alive()
    other.join()
    assert counted == [9356]


def test_the_encodings_example_runs_and_prints_its_table():
    pytest.importorskip("pysat.solvers")
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "encodings.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == [
        "puzzle", "job", "amo", "vars", "clauses", "solver", "models", "seconds"
    ]
    rows = [l.split() for l in lines[1:] if l.split()[0] in polycover.catalog()]
    assert len(rows) == 3 * 6 * 3
    assert {r[6] for r in rows if r[0] == "soma"} == {"1"}  # the first model
    assert {r[6] for r in rows if r[0] == "hesselink-5"} == {"1"}  # every model: one
    assert {r[6] for r in rows if r[0] == "one-sided-tetrominoes-4x7"} == {"0"}


def test_certify_writes_a_certificate_the_checker_and_verify_accept(tmp_path):
    """puzzle.certify writes what `count --certify` writes; `polycover verify` runs the
    CPOG checker (.ci/run builds it into target/tools) and redoes the Burnside sum."""
    checker = ROOT / "target" / "tools" / "cpog-check"
    if not checker.exists():
        pytest.fail(f"{checker} is missing: run `bash .ci/run`, which builds it")
    dominoes = polycover.Puzzle.from_toml(
        'name = "Dominoes 4x4"\nbox = [4, 4, 1]\n[[piece]]\nname = "D"\n'
        'cells = [[0,0,0], [1,0,0]]\ncount = 8\n'
    )
    assert dominoes.certify(tmp_path / "none", symmetry="none") == 36
    assert dominoes.certify(tmp_path / "dlx", symmetry="none", solver="dlx") == 36
    assert dominoes.certify(tmp_path / "rot", solver="memo") == 9
    out = cli("verify", tmp_path / "rot", "--checker", checker).stdout
    assert re.search(r"^s mc 9$", out, re.M), out
    assert sorted(p.name for p in (tmp_path / "none").iterdir()) == [
        "MANIFEST", "README", "dominoes-4x4.cnf", "dominoes-4x4.cpog"]
    with pytest.raises(polycover.PuzzleError, match="up to symmetry"):
        dominoes.certify(tmp_path / "x", solver="sat")


def test_verify_checks_a_certificate_from_python(tmp_path):
    """polycover.verify: the count of a certificate the checker accepts, the puzzle's
    CNF and group compared where one is given, an edited MANIFEST named, a timeout a
    TimeoutError (for verify and for certify)."""
    checker = ROOT / "target" / "tools" / "cpog-check"
    if not checker.exists():
        pytest.fail(f"{checker} is missing: run `bash .ci/run`, which builds it")
    trominoes = polycover.Puzzle.from_toml(
        'name = "L-trominoes 2x3x2"\nbox = [2, 3, 2]\n[[piece]]\nname = "L"\n'
        'cells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = 4\n'
    )
    cert = tmp_path / "tb"
    assert trominoes.certify(cert) == 9
    assert polycover.verify(cert, checker=checker) == 9
    assert polycover.verify(cert, checker=checker, puzzle=trominoes) == 9
    other = polycover.Puzzle.from_toml(
        'name = "L-trominoes 2x3x2"\nbox = [3, 2, 2]\n[[piece]]\nname = "L"\n'
        'cells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = 4\n'
    )
    with pytest.raises(polycover.PolycoverError, match="is not of the puzzle"):
        polycover.verify(cert, checker=checker, puzzle=other)
    manifest = cert / "MANIFEST"
    manifest.write_text(manifest.read_text().replace("term g2 1 ", "term g2 3 "))
    with pytest.raises(polycover.PolycoverError, match="multiplicity 3"):
        polycover.verify(cert, checker=checker)
    with pytest.raises(polycover.PuzzleError, match="MANIFEST"):
        polycover.verify(tmp_path, checker=checker)
    # The 16x16 dominoes' certificate takes seconds to write.
    big = polycover.Puzzle.load("dominoes-16x16")
    with pytest.raises(TimeoutError):
        big.certify(tmp_path / "big", symmetry="none", timeout=0.5)


def test_the_fifth_rounds_python_refusals_are_clear(tmp_path):
    """certify into a file is a usage error that says so; copies for an unknown piece is
    refused by name; decode of a string says what it takes; a timeout's message does not
    pass off the search's time as the call's."""
    dominoes = polycover.Puzzle.load("dominoes-8x8")
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    with pytest.raises(polycover.PolycoverError, match="is not a directory"):
        dominoes.certify(a_file)
    with pytest.raises(polycover.PolycoverError, match="`Z`, which is not one of the pieces"):
        polycover.Puzzle.polycubes(
            {"D": [[0, 0, 0], [1, 0, 0]]}, box=(2, 2, 1), copies={"Z": 2})
    with pytest.raises(TypeError, match="list of integers"):
        dominoes.cnf().decode("abc")
    bedlam = polycover.Puzzle.load("bedlam")
    with pytest.raises(TimeoutError) as stopped:
        bedlam.count(solver="dlx", symmetry="none", timeout=0.3)
    assert "the search itself ran" in str(stopped.value)


def test_sample_stops_at_its_timeout():
    """sample(n, timeout=...) raises TimeoutError, saying how many it drew, instead of
    drawing 10**9 solutions for minutes."""
    soma = polycover.Puzzle.load("soma")
    with pytest.raises(TimeoutError, match="solutions drawn"):
        soma.sample(10**9, timeout=0.3)
    assert len(soma.sample(3, seed=1, timeout=30)) == 3


def test_an_encoding_without_a_solver_names_the_solvers_that_take_one():
    # The solvers are read from what the engines declare (issue 63): the message names
    # them, and a solver that takes an encoding accepts it.
    soma = polycover.Puzzle.load("soma")
    with pytest.raises(polycover.PuzzleError, match=r'amo applies to solver="sat" only'):
        soma.count(amo="ladder")
    assert soma.count(solver="sat", amo="ladder") == 480


def test_the_frontier_declares_its_sweep_and_takes_it():
    # The frontier is an engine of its own (issue 63): its one setting, the sweep, is
    # listed from its declaration, taken by count, and refused elsewhere.
    (sweep,) = polycover.settings("frontier")
    assert sweep["name"] == "sweep"
    assert [v for v, _ in sweep["values"]] == ["narrowest", "cuthill-mckee"]
    assert sweep["default"] == "narrowest"
    assert polycover.settings("dlx") == []
    assert "amo" in [s["name"] for s in polycover.settings("sat")]
    box = polycover.Puzzle.polycubes(
        {"L": [(0, 0, 0), (1, 0, 0), (0, 1, 0)]}, box=(3, 3, 6), copies={"L": 18}
    )
    for order in ["narrowest", "cuthill-mckee"]:
        assert box.count(solver="frontier", symmetry="none", sweep=order) == 677834912
    with pytest.raises(polycover.PuzzleError, match=r'sweep applies to solver="frontier" only'):
        box.count(sweep="narrowest")
    with pytest.raises(polycover.PuzzleError, match=r"the frontier engine takes narrowest, cuthill-mckee"):
        box.count(solver="frontier", sweep="diagonal")
    with pytest.raises(polycover.PuzzleError, match=r"sweep"):
        box.count(solver="dlx", sweep="narrowest")
