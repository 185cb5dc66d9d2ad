"""Packing puzzles as exact cover: exact counts, streamed solutions, uniform samples, the
CNF for PySAT, and solutions drawn as SVG in notebooks.

Searches release the GIL; Ctrl-C raises KeyboardInterrupt within about 50 ms of the
signal (the search is stopped first). Errors carry the command line's messages, with
the settings they name written as this module's keyword arguments (`symmetry="none"`
where the command line says `--symmetry none`).

Numbers follow the command line's rules (`RunOptions::parse_threads` and its kin in the
Rust library), with its messages: a value
out of range (a negative int, one past 64 bits) raises PuzzleError, never OverflowError;
a value of the wrong type (a str, None, a bool, a float for an int) raises TypeError.

- `threads`: 0 to 1024; 0 is the number of cores this process may use.
- `timeout`: seconds, an int or float greater than 0; `inf`, or more than 2^64 s, is
  no timeout (as None is).
- `n` (sample): 1 to 2^64 - 1; `seed`: 0 to 2^64 - 1.
- cells, box sizes and `copies`: any int, checked as in a puzzle file.
"""

from collections.abc import Iterator, Mapping, Sequence
from os import PathLike
from types import TracebackType
from typing import Any, Optional, Union

__version__: str

Cell = tuple[int, int, int]

class PolycoverError(Exception):
    """A failure while running on good input (the command line's exit 1)."""

class PuzzleError(PolycoverError):
    """A puzzle, option or model that cannot be used (the command line's exit 2); the
    message names the file and line where it can."""

def catalog() -> list[str]:
    """The names of the puzzles shipped in the catalog (`polycover list`), sorted."""

def verify(
    path: Union[str, PathLike[str]],
    checker: Optional[Union[str, PathLike[str]]] = None,
    puzzle: Optional[Puzzle] = None,
    timeout: Optional[float] = None,
) -> int:
    """Checks a certificate directory as `polycover verify` does and returns its count:
    the terms, their multiplicities and the group's order are derived from its CNFs, each
    term goes through the CPOG checker (`checker`, else `cpog-check` on PATH), and with
    `puzzle` the identity's CNF and the group are rebuilt from it and compared. Raises
    PolycoverError naming what does not hold, PuzzleError for a directory or checker that
    cannot be used, TimeoutError past `timeout` seconds."""

def solvers() -> list[str]:
    """The engines `solver=` takes."""

def settings(solver: str) -> list[dict[str, Any]]:
    """The settings the engine `solver` declares, as `polycover count --help` lists them:
    each a dict of `name`, `values` ((value, help) pairs; empty when any text of its own
    form is taken), `default` (None when the run chooses) and `help`."""

def encodings() -> list[str]:
    """The at-most-one encodings `amo=` takes."""

class Puzzle:
    """A packing puzzle: polycubes (Soma, Bedlam, pentominoes, domino boxes) or coloured
    cubes (Instant Insanity)."""

    @staticmethod
    def load(name_or_path: Union[str, PathLike[str]]) -> Puzzle:
        """A catalog puzzle by name, or a puzzle file (TOML, gzip, BurrTools)."""
    @staticmethod
    def from_toml(text: str, source: str = "<string>") -> Puzzle:
        """Puzzle text in the puzzle-file format; `source` names it in errors."""
    @staticmethod
    def polycubes(
        pieces: Mapping[str, Sequence[Cell]],
        box: Optional[Cell] = None,
        target: Optional[Sequence[Cell]] = None,
        copies: Optional[Mapping[str, int]] = None,
        name: str = "polycubes",
    ) -> Puzzle:
        """A polycube puzzle from each piece's cells, into a box of sizes (x, y, z) or a
        list of target cells; `copies` gives pieces with identical copies."""
    @property
    def name(self) -> str: ...
    @property
    def symmetry_modes(self) -> list[str]:
        """The symmetry modes the puzzle takes; the first is its default."""
    def count(
        self,
        solver: Optional[str] = None,
        symmetry: Optional[str] = None,
        threads: int = 1,
        timeout: Optional[float] = None,
        amo: Optional[str] = None,
        sweep: Optional[str] = None,
    ) -> int:
        """The exact number of distinct solutions (`polycover count`), on `threads`
        threads (0: every core). `amo`: the CNF's at-most-one encoding (solver="sat");
        `sweep`: the order of the frontier's layers (solver="frontier"). Raises TimeoutError past `timeout` seconds (see the
        module's rules for numbers), KeyboardInterrupt at Ctrl-C."""
    def certify(
        self,
        path: str,
        symmetry: Optional[str] = None,
        solver: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> int:
        """Writes a certificate of the count into directory `path` (`polycover count
        --certify`): per Burnside term a CNF and its CPOG certificate, a MANIFEST and a
        README; returns the certified count. `solver`: by default the engine whose
        certificate is smallest (the frontier's layers where one piece in copies fills every
        cell, else the memo's table); memo, frontier, dlx, bits, sat. Raises TimeoutError
        past `timeout` seconds. Check it with `verify(path)`."""
    def solve(
        self,
        solver: Optional[str] = None,
        symmetry: Optional[str] = None,
        timeout: Optional[float] = None,
        amo: Optional[str] = None,
    ) -> Optional[Solution]:
        """The first distinct solution (`polycover solve`), or None when there is none."""
    def solutions(
        self,
        solver: Optional[str] = None,
        symmetry: Optional[str] = None,
        threads: int = 1,
        timeout: Optional[float] = None,
        amo: Optional[str] = None,
    ) -> Solutions:
        """The distinct solutions, streamed as they are found (`polycover enumerate`)."""
    def sample(self, n: int, seed: int = 0, symmetry: Optional[str] = None,
               timeout: Optional[float] = None) -> list[Solution]:
        """`n` solutions drawn uniformly (`polycover sample -n N --seed SEED`): `n` from 1
        to 2^64 - 1, `seed` from 0 to 2^64 - 1, else PuzzleError. With `timeout`
        (seconds), TimeoutError once it passes, saying how many were drawn.

        Raises PuzzleError at once where the memo's table would not fit in memory (as the
        command line refuses it)."""
    def cnf(self, amo: str = "product", symmetry: Optional[str] = None, force: bool = False) -> Cnf:
        """The CNF of `polycover dimacs --amo AMO --symmetry SYMMETRY`."""

class Solutions(Iterator[Solution]):
    """Streamed solutions; close() (or leaving a `with` block) stops the search."""

    def __iter__(self) -> Solutions: ...
    def __next__(self) -> Solution: ...
    def close(self) -> None: ...
    def __enter__(self) -> Solutions: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> bool: ...

class Solution:
    """One solution; notebooks show its picture."""

    @property
    def options(self) -> list[int]:
        """Sorted option numbers; option o is the CNF's primary variable o + 1."""
    @property
    def placements(self) -> list[str]:
        """Each placement as a line of the DIMACS variable map."""
    def text(self) -> str:
        """As `polycover solve` prints it."""
    def json(self, index: int = 1) -> str:
        """As a line of `polycover enumerate --format jsonl`; `index` (0 to 2^64 - 1,
        else PuzzleError) is its number."""
    def svg(self) -> str:
        """The picture of `polycover solve --svg FILE`."""
    def html(self) -> str:
        """The 3-D view of `polycover solve --html FILE` (polycube puzzles)."""
    def _repr_svg_(self) -> Optional[str]: ...
    def _repr_html_(self) -> Optional[str]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Cnf:
    """The formula `polycover dimacs` writes; models projected on the primary variables
    are the distinct solutions."""

    @property
    def clauses(self) -> list[list[int]]: ...
    @property
    def num_vars(self) -> int: ...
    @property
    def num_primary(self) -> int: ...
    @property
    def projection(self) -> list[int]:
        """The `c p show` variables: 1..num_primary."""
    @property
    def variables(self) -> dict[int, str]:
        """The variable map: each primary variable's placement."""
    @property
    def amo(self) -> str: ...
    @property
    def symmetry(self) -> str: ...
    def dimacs(self) -> str:
        """The DIMACS text, `c` lines and projection included."""
    def to_pysat(self) -> Any:
        """A `pysat.formula.CNF` (needs PySAT: pip install python-sat)."""
    def decode(self, model: Sequence[int]) -> Solution:
        """The solution a model (DIMACS literals) stands for; PuzzleError when it is not
        one (a literal 0 or past 64 bits included)."""
    def blocking(self, solution: Solution) -> list[int]:
        """The clause that forbids `solution`."""
