//! Puzzle files: finding them (path or catalog name), reading them, and compiling them
//! into the exact-cover [`Matrix`] with its symmetry [`Group`].
//!
//! A puzzle kind lives in its own module and owns everything that depends on what its
//! options mean: parsing its TOML (errors carry the file and line), its matrix and its
//! symmetry groups, the modes it accepts, the DIMACS variable map, the text and JSON
//! renderings of a solution, and the rows of `info` and `list`. All of that is the
//! [`Kind`] trait. A new kind implements it and adds one line to [`KINDS`]; nothing
//! downstream of [`Compiled`] (engines, CNF, DIMACS, the command line) names a kind.
//!
//! Reading: a puzzle input (a file, standard input, or what a gzipped BurrTools file
//! inflates to) holds at most 256 MiB; more is refused, never read whole.
//!
//! Invariant: option `o` of a kind's matrix is the kind's option number `o` in every
//! [`Kind`] method that takes options (the matrix is built from the kind's own table).

pub(crate) mod burrtools;
pub(crate) mod colored;
mod drawing;
pub(crate) mod polycube;
mod toml_util;

use std::any::Any;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use itertools::Itertools;

use crate::catalog;
use crate::count::Count;
use crate::error::{Error, Result};
use crate::input;
use crate::matrix::Matrix;
use crate::stop::Stop;
use crate::symmetry::Group;

pub use colored::ColoredCubes;
pub use polycube::Polycube;
use toml_util::Document;

/// The registered kinds: the value of a puzzle file's `kind` key and the parser. A file
/// without `kind` is the first entry's.
pub const KINDS: &[(&str, Parser)] = &[
    ("polycubes", |source, text, document, stop| {
        Ok(Arc::new(Polycube::parse(source, text, document, stop)?))
    }),
    ("colored-cubes", |source, text, document, _| {
        Ok(Arc::new(ColoredCubes::parse(source, text, document)?))
    }),
];

/// Reads a puzzle file of one kind: (file name for messages, its text, that text parsed
/// once as TOML, the spans in the document byte ranges of the text; the stop of slow work
/// such as making the option table).
pub type Parser = fn(&str, &str, Document<'_>, &Stop) -> Result<Arc<dyn Kind>>;

/// What a puzzle kind knows: everything that depends on what its items and options mean.
pub(crate) trait Kind: fmt::Debug + Send + Sync {
    /// The puzzle's name, file and published counts.
    fn about(&self) -> About<'_>;
    /// The symmetry modes the kind accepts; the first is its default.
    fn symmetry_modes(&self) -> &'static [SymmetryMode];
    /// The exact-cover matrix, its options in the kind's option order.
    fn matrix(&self) -> Matrix;
    /// The symmetry group of `mode` (one of [`Kind::symmetry_modes`]) on `matrix`.
    fn group(&self, matrix: &Matrix, mode: SymmetryMode) -> Result<Group>;
    /// How the DIMACS variable map names the options.
    fn variable_map(&self) -> VariableMap;
    /// Option `o` as one line of the variable map, in its columns.
    fn describe_option(&self, o: u32) -> String;
    /// A solution (sorted options) for people.
    fn text(&self, solution: &[u32]) -> String;
    /// A solution as one JSON object.
    fn json(&self, solution: &[u32], index: u64) -> serde_json::Value;
    /// Short names for the matrix's items (at most 8 characters, no spaces or `|`), for
    /// formats such as Knuth's DLX input.
    fn item_names(&self, matrix: &Matrix) -> Vec<String>;
    /// One line saying how [`Kind::item_names`] read.
    fn item_legend(&self) -> String;
    /// A solution as a self-contained SVG picture (`crate::picture`).
    fn svg(&self, solution: &[u32]) -> Result<String>;
    /// Whether [`Kind::svg`] can draw this puzzle's solutions, known before solving: the
    /// error `svg` would give, or `Ok`.
    fn check_drawable(&self) -> Result<()> {
        Ok(())
    }
    /// A solution as a self-contained HTML page with a 3-D view one can turn
    /// (`crate::picture::webgl`). Kinds without one refuse ([`Kind::check_html`]).
    fn html(&self, _solution: &[u32]) -> Result<String> {
        self.check_html()?;
        Err(Error::Usage("no 3-D view for this puzzle".into()))
    }
    /// Whether [`Kind::html`] can show this puzzle's solutions, known before solving.
    fn check_html(&self) -> Result<()> {
        Err(Error::Usage(format!(
            "{}: {} draws a 3-D view of polycube puzzles only; use {} for a picture of \
             this kind",
            self.about().source,
            crate::setting::Setting::Html.mark(),
            crate::setting::Setting::Svg.mark()
        )))
    }
    /// The rows `polycover info` prints.
    fn info(&self, out: &mut dyn Write) -> Result<()>;
    /// Pieces (with copies), or cubes.
    fn pieces(&self) -> u64;
    /// Target cells, when the kind has cells.
    fn cells(&self) -> Option<u64>;
    /// For callers that need the concrete kind ([`Puzzle::downcast_ref`]).
    fn as_any(&self) -> &dyn Any;
}

/// What every puzzle file says about itself, whatever its kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct About<'a> {
    /// The file's `name`.
    pub name: &'a str,
    /// The file it came from, for messages.
    pub source: &'a str,
    /// Published counts from the `[expect]` table.
    pub expect: &'a Expect,
}

/// The DIMACS header's words for a kind's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VariableMap {
    /// What one option is, in a few words: `placement`.
    pub option: &'static str,
    /// The columns of a `c v` line after `VAR`.
    pub columns: &'static str,
}

/// Which solutions count as "the same".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryMode {
    /// Every solution counts.
    None,
    /// Solutions that differ by a rotation of the target are the same (the default).
    Rotations,
    /// Rotations and mirror images of the target are the same; the piece set must be its
    /// own mirror image.
    Reflections,
    /// Coloured cubes: columns that differ by a turn of the whole stack (about the
    /// vertical axis, or upside down) are the same (their default).
    Stack,
}

impl SymmetryMode {
    /// The mode's name as `--symmetry` and the `[expect]` table spell it: `none`,
    /// `rotations`, `reflections` or `stack`.
    pub fn as_str(self) -> &'static str {
        match self {
            SymmetryMode::None => "none",
            SymmetryMode::Rotations => "rotations",
            SymmetryMode::Reflections => "reflections",
            SymmetryMode::Stack => "stack",
        }
    }
}

/// A parsed and validated puzzle of any kind. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Puzzle(Arc<dyn Kind>);

/// What a puzzle says of its solutions and options, whatever its kind: the kind's
/// answers, through one door.
impl Puzzle {
    pub(crate) fn about(&self) -> About<'_> {
        self.0.about()
    }

    pub(crate) fn variable_map(&self) -> VariableMap {
        self.0.variable_map()
    }

    pub(crate) fn item_names(&self, matrix: &Matrix) -> Vec<String> {
        self.0.item_names(matrix)
    }

    pub(crate) fn item_legend(&self) -> String {
        self.0.item_legend()
    }

    /// The symmetry modes the puzzle's kind accepts; the first is its default.
    pub fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        self.0.symmetry_modes()
    }

    /// The exact-cover matrix, its options in the kind's option order.
    pub fn matrix(&self) -> Matrix {
        self.0.matrix()
    }

    /// Option `o` as one line of the DIMACS variable map, in its columns.
    pub fn describe_option(&self, o: u32) -> String {
        self.0.describe_option(o)
    }

    /// A solution (sorted options) for people.
    pub fn text(&self, solution: &[u32]) -> String {
        self.0.text(solution)
    }

    /// A solution as one JSON object; `index` numbers it.
    pub fn json(&self, solution: &[u32], index: u64) -> serde_json::Value {
        self.0.json(solution, index)
    }

    /// A solution as a self-contained SVG picture.
    ///
    /// # Errors
    ///
    /// What [`Puzzle::check_drawable`] says.
    pub fn svg(&self, solution: &[u32]) -> Result<String> {
        self.0.svg(solution)
    }

    /// Whether [`Puzzle::svg`] can draw this puzzle's solutions, known before solving.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a puzzle no picture shows (a box too large to draw, say).
    pub fn check_drawable(&self) -> Result<()> {
        self.0.check_drawable()
    }

    /// A solution as a self-contained HTML page with a 3-D view one can turn.
    ///
    /// # Errors
    ///
    /// What [`Puzzle::check_html`] says.
    pub fn html(&self, solution: &[u32]) -> Result<String> {
        self.0.html(solution)
    }

    /// Whether [`Puzzle::html`] can show this puzzle's solutions, known before solving.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a kind without a 3-D view (coloured cubes).
    pub fn check_html(&self) -> Result<()> {
        self.0.check_html()
    }

    /// Writes what `polycover info` prints of the puzzle: its pieces, target and counts.
    ///
    /// # Errors
    ///
    /// What writing to `out` returns.
    pub fn info(&self, out: &mut dyn std::io::Write) -> Result<()> {
        self.0.info(out)
    }

    /// How many pieces the puzzle has, copies counted (a coloured-cube puzzle: its
    /// cubes).
    pub fn pieces(&self) -> u64 {
        self.0.pieces()
    }

    /// How many cells the pieces fill; `None` for a kind without cells (coloured cubes).
    pub fn cells(&self) -> Option<u64> {
        self.0.cells()
    }
}

/// Published counts from a puzzle file's `[expect]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Expect {
    /// Distinct solutions up to rotations of the target (`--symmetry rotations`).
    pub rotations: Option<Count>,
    /// Distinct solutions up to rotations and mirror images (`--symmetry reflections`).
    pub reflections: Option<Count>,
    /// Every solution, none identified (`--symmetry none`).
    pub none: Option<Count>,
    /// Coloured cubes: distinct columns up to turns of the stack (`--symmetry stack`).
    pub stack: Option<Count>,
    /// Where each count is written, for messages; see [`Expect::at`].
    #[serde(skip)]
    pub(crate) lines: ExpectLines,
}

/// `file:line` of each count of an `[expect]` table, filled from the file's text by
/// [`Expect::located`]; empty for a puzzle made otherwise (a BurrTools problem). Not part
/// of the counts: any two are equal, so that two puzzles expecting the same counts are.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExpectLines(Vec<(SymmetryMode, String)>);

impl PartialEq for ExpectLines {
    fn eq(&self, _: &ExpectLines) -> bool {
        true
    }
}

impl Eq for ExpectLines {}

impl Expect {
    /// These counts, knowing where `text` (read from `source`) writes each.
    pub fn located(mut self, source: &str, text: &str) -> Expect {
        self.lines.0 = self
            .counts()
            .into_iter()
            .filter(|(_, count)| count.is_some())
            .map(|(m, _)| (m, toml_util::key_line(source, text, "expect", m.as_str())))
            .collect();
        self
    }

    /// What to say of an `[expect]` count too large for a TOML integer (past 2^63 - 1):
    /// that it can be written as a string of digits. `None` for any other key.
    pub(crate) fn explain_oversized(o: &toml_util::Oversized) -> Option<String> {
        match o.keys().as_slice() {
            ["expect", mode] if o.path.len() == 2 => Some(if o.decimal {
                format!(
                    "[expect] {mode} = {}: too large for a TOML integer (at most {}); \
                     write a count that large as a string of digits: {mode} = \"{}\"",
                    o.value,
                    i64::MAX,
                    o.value.trim_start_matches('+')
                )
            } else {
                format!(
                    "[expect] {mode} = {}: too large for a TOML integer (at most {}); \
                     write a count that large as a string of decimal digits",
                    o.value,
                    i64::MAX
                )
            }),
            _ => None,
        }
    }

    /// Every count the table can hold, with its mode. Exhaustive by construction: the
    /// pattern names every field (a new one does not compile until it is listed here), and
    /// [`Expect::get`] matches every mode (a new mode does not compile without its field),
    /// so no count is left unchecked or unlocated.
    pub fn counts(&self) -> [(SymmetryMode, Option<&Count>); 4] {
        let Expect {
            rotations,
            reflections,
            none,
            stack,
            lines: _,
        } = self;
        [
            (SymmetryMode::None, none.as_ref()),
            (SymmetryMode::Rotations, rotations.as_ref()),
            (SymmetryMode::Reflections, reflections.as_ref()),
            (SymmetryMode::Stack, stack.as_ref()),
        ]
    }

    /// `file:line` of the count for `mode`, where the file's text said it.
    pub fn at(&self, mode: SymmetryMode) -> Option<&str> {
        self.lines
            .0
            .iter()
            .find(|(m, _)| *m == mode)
            .map(|(_, at)| at.as_str())
    }

    /// The published count for `mode`, if the table gives one.
    pub fn get(&self, mode: SymmetryMode) -> Option<&Count> {
        match mode {
            SymmetryMode::None => self.none.as_ref(),
            SymmetryMode::Rotations => self.rotations.as_ref(),
            SymmetryMode::Reflections => self.reflections.as_ref(),
            SymmetryMode::Stack => self.stack.as_ref(),
        }
    }
}

/// A puzzle compiled for one symmetry mode: the matrix every engine reads and the group
/// that says which solutions are the same.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    /// The puzzle compiled; it says what each option of `matrix` is.
    pub(crate) puzzle: Puzzle,
    /// The symmetry mode `group` was built for; one the puzzle's kind accepts.
    pub(crate) mode: SymmetryMode,
    /// The full exact-cover matrix, options in the kind's order, before any reduction.
    pub(crate) matrix: Matrix,
    /// The symmetries of `matrix` under `mode`, identity first; trivial for `none`.
    pub(crate) group: Group,
}

impl Puzzle {
    /// The puzzle's name, from its file's `name` key.
    pub fn name(&self) -> &str {
        self.about().name
    }

    /// A polycube puzzle's pieces, each as its cells (one entry per piece, not per copy,
    /// in the file's order); `None` for a kind whose pieces are not cells (coloured
    /// cubes).
    pub fn piece_cells(&self) -> Option<Vec<Vec<[i32; 3]>>> {
        let p = self.downcast_ref::<polycube::Polycube>()?;
        Some(p.pieces.iter().map(|q| q.shape.cells().to_vec()).collect())
    }

    /// The box a polycube puzzle fills, in cells along x, y and z: `Some` when its
    /// target is a whole box from `[0,0,0]` (no holes, no optional cells) and no piece
    /// may be turned over into its mirror image.
    pub fn filled_box(&self) -> Option<[usize; 3]> {
        let p = self.downcast_ref::<polycube::Polycube>()?;
        let hi = p.target.iter().fold([0, 0, 0], |hi: [i32; 3], c| {
            [hi[0].max(c[0]), hi[1].max(c[1]), hi[2].max(c[2])]
        });
        let size = hi.map(|v| v as usize + 1);
        let whole = p.target.len() == size.iter().product::<usize>()
            && p.target.iter().all(|c| c.iter().all(|&v| v >= 0))
            && p.optional.iter().all(|&o| !o);
        (whole && !p.mirror).then_some(size)
    }

    /// The cells of each piece copy a solution (sorted options of [`Puzzle::matrix`])
    /// places, in the solution's order; `None` for a kind whose pieces are not cells.
    ///
    /// # Panics
    ///
    /// If `solution` names an option the matrix does not have.
    pub fn placed_cells(&self, solution: &[u32]) -> Option<Vec<Vec<[i32; 3]>>> {
        let p = self.downcast_ref::<polycube::Polycube>()?;
        let cells = |placement: &polycube::Placement| {
            placement
                .cells
                .iter()
                .map(|&t| p.target[t as usize])
                .collect()
        };
        Some(
            p.copies(solution)
                .into_iter()
                .map(|(q, _)| cells(q))
                .collect(),
        )
    }

    /// A word for file names: the puzzle file's stem (the catalog name), else its name,
    /// letters and digits kept, anything else a `-`.
    pub fn stem(&self) -> String {
        // A catalog puzzle's source is `catalog:NAME.toml`.
        let source = self.source();
        let source = source.strip_prefix("catalog:").unwrap_or(source);
        let from = std::path::Path::new(source)
            .file_name()
            .and_then(|s| s.to_str())
            .map(|s| s.trim_end_matches(".gz").trim_end_matches(".toml"))
            .filter(|s| !s.is_empty() && *s != "-")
            .unwrap_or(self.name());
        let mut stem = String::new();
        for c in from.chars() {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                stem.push(c);
            } else if !stem.ends_with('-') {
                stem.push('-');
            }
        }
        let stem = stem.trim_matches(['-', '.']).to_string();
        if stem.is_empty() {
            "puzzle".into()
        } else {
            stem
        }
    }

    /// Where the puzzle came from, for messages: a path, `<stdin>` or
    /// `catalog:NAME.toml`.
    pub fn source(&self) -> &str {
        self.about().source
    }

    /// The published counts from the file's `[expect]` table (empty when it has none).
    pub(crate) fn expect(&self) -> &Expect {
        self.about().expect
    }

    /// The published count for `mode` from the file's `[expect]` table, if it gives one.
    ///
    /// ```
    /// use polycover::{Puzzle, SymmetryMode};
    ///
    /// let soma = Puzzle::load("soma")?;
    /// assert_eq!(soma.expected(SymmetryMode::Rotations).unwrap().to_string(), "480");
    /// # Ok::<(), polycover::Error>(())
    /// ```
    pub fn expected(&self, mode: SymmetryMode) -> Option<&Count> {
        self.expect().get(mode)
    }

    /// Where the file writes the published count for `mode`, as `file:line`, for
    /// messages; `None` when it gives none, or for a puzzle not read from a file's text
    /// (a BurrTools problem).
    pub fn expected_at(&self, mode: SymmetryMode) -> Option<&str> {
        self.expect().at(mode)
    }

    /// The symmetry mode used when none is asked for.
    pub fn default_symmetry(&self) -> SymmetryMode {
        self.symmetry_modes()[0]
    }

    /// The concrete kind, when it is `K` (a polycube or coloured-cube puzzle).
    pub(crate) fn downcast_ref<K: Any>(&self) -> Option<&K> {
        self.0.as_any().downcast_ref()
    }

    /// The matrix and the group for `mode`, without the reduction (`Puzzle::compile`, in
    /// `problem.rs`, adds it).
    pub(crate) fn compiled(&self, mode: SymmetryMode) -> Result<Compiled> {
        let modes = self.symmetry_modes();
        if !modes.contains(&mode) {
            return Err(Error::Usage(format!(
                "{}: this puzzle counts with {} (the default: {}), not {}",
                self.source(),
                crate::setting::Setting::Symmetry.is(modes.iter().map(|m| m.as_str()).join(", ")),
                modes[0].as_str(),
                mode.as_str()
            )));
        }
        let matrix = self.matrix();
        let group = self.0.group(&matrix, mode)?;
        debug_assert_eq!(group.validate(&matrix), Ok(()));
        Ok(Compiled {
            puzzle: self.clone(),
            mode,
            matrix,
            group,
        })
    }

    /// Parses puzzle text. `source` names the file in error messages.
    ///
    /// # Errors
    ///
    /// [`Error::Puzzle`], at the line concerned, when the text is empty, is not TOML, has
    /// no keys, names an unknown `kind`, fails its kind's checks (unknown keys, bad cells
    /// or pieces, a target the pieces cannot fill by count), or gives an `[expect]` count
    /// in a mode the kind does not have.
    pub fn parse(source: &str, text: &str) -> Result<Puzzle> {
        Puzzle::parse_with(source, text, &Stop::new())
    }

    /// [`Puzzle::parse`], making the option table until `stop` says stop.
    ///
    /// # Errors
    ///
    /// As [`Puzzle::parse`]; also [`Error::Failed`] when `stop` ended the work.
    pub fn parse_with(source: &str, text: &str, stop: &Stop) -> Result<Puzzle> {
        if text.trim().is_empty() {
            return Err(Error::puzzle(source, "the file is empty"));
        }
        let document = toml_util::parse(source, text)?;
        if document.get_ref().is_empty() {
            return Err(Error::puzzle(
                source,
                "the file has no keys (is it a puzzle file?)",
            ));
        }
        let kind = match document.get_ref().get("kind") {
            None => KINDS[0].0,
            Some(k) => k
                .get_ref()
                .as_str()
                .ok_or_else(|| Error::puzzle(source, "`kind` must be a string"))?,
        };
        let Some((_, parse)) = KINDS.iter().find(|(name, _)| *name == kind) else {
            let known = KINDS.iter().map(|(n, _)| format!("\"{n}\"")).join(", ");
            let hint = crate::suggest::did_you_mean(kind, KINDS.iter().map(|(n, _)| *n));
            return Err(Error::puzzle(
                source,
                format!("unknown puzzle kind \"{kind}\" (known: {known}){hint}"),
            ));
        };
        let puzzle = Puzzle(parse(source, text, document, stop)?);
        puzzle.check_expect(source, text)?;
        Ok(puzzle)
    }

    /// `[expect]` may only give counts in modes the kind accepts: a `stack` count in a
    /// polycube file is a mistake, not a figure to ignore.
    fn check_expect(&self, source: &str, text: &str) -> Result<()> {
        let modes = self.symmetry_modes();
        for (mode, count) in self.expect().counts() {
            if count.is_some() && !modes.contains(&mode) {
                let names: Vec<&str> = modes.iter().map(|m| m.as_str()).collect();
                return Err(Error::puzzle(
                    toml_util::key_line(source, text, "expect", mode.as_str()),
                    format!(
                        "[expect] {}: this kind of puzzle has no such count (its modes: {})",
                        mode.as_str(),
                        names.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Loads a puzzle: `-` reads standard input; an existing file is read; otherwise a
    /// catalog name (`bedlam`). A directory never hides a catalog name. A file that
    /// shares its name with a catalog entry wins, and its source (the path) says so.
    ///
    /// ```
    /// use polycover::{Puzzle, SymmetryMode};
    /// let soma = Puzzle::load("soma")?;
    /// let problem = soma.compile(SymmetryMode::Rotations)?;
    /// assert_eq!(problem.symmetries(), 24);
    /// # Ok::<(), polycover::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Read`] for a file that cannot be read, [`Error::Puzzle`] for a name that
    /// is neither a file nor in the catalog, or a file that is not a valid puzzle.
    pub fn load(spec: impl AsRef<Path>) -> Result<Puzzle> {
        Puzzle::load_with(spec, None, &Stop::new())
    }

    /// [`Puzzle::load`], picking one problem (by name or number from 1) of a BurrTools
    /// file that holds several (other files have no problems to pick: `problem` must be
    /// `None` for them), and reading until `stop` says stop: a FIFO waits for its writer,
    /// and the option table is made, no longer.
    ///
    /// # Errors
    ///
    /// As [`Puzzle::load`]; also [`Error::Usage`] when `problem` is given for a catalog
    /// name or a puzzle file, names no problem of the BurrTools file, or is left out for
    /// a file that holds several, [`Error::Puzzle`] for a file that holds none, and
    /// [`Error::Read`] or [`Error::Failed`] when `stop` ended the reading.
    pub fn load_with(spec: impl AsRef<Path>, problem: Option<&str>, stop: &Stop) -> Result<Puzzle> {
        let path = spec.as_ref();
        if let Some((source, bytes)) = Puzzle::read_input(path, stop)? {
            return Puzzle::from_bytes(&source, bytes, problem, stop);
        }
        let name = path.to_str();
        if let Some(entry) = name.and_then(catalog::find) {
            if problem.is_some() {
                return Err(Error::Usage(format!(
                    "{} picks a problem of a BurrTools file; a catalog puzzle has one",
                    crate::setting::Setting::Problem.mark()
                )));
            }
            return Puzzle::parse_with(&format!("catalog:{}.toml", entry.name), entry.text, stop);
        }
        if path.exists() {
            return Err(Error::Read {
                path: path.to_path_buf(),
                source: std::io::Error::other("a directory (or device), not a puzzle file"),
            });
        }
        // A misspelled catalog name (`domino-8x8`, or `domino-8x8.toml` when no such
        // file is there) is told its closest entry.
        let suggestion = name
            .filter(|n| !n.contains('/') && !n.contains('\\'))
            .and_then(catalog::suggest);
        let looks_like_a_path =
            name.is_none_or(|n| n.ends_with(".toml") || n.contains('/') || n.contains('\\'));
        if looks_like_a_path {
            let why = match suggestion {
                Some(entry) => {
                    format!("no such file, nor a catalog entry; did you mean `{entry}`?")
                }
                None => "no such file".to_string(),
            };
            return Err(Error::Read {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, why),
            });
        }
        let hint = match suggestion {
            Some(entry) => format!("; did you mean `{entry}`? (see `polycover list`)"),
            None => " (see `polycover list`)".to_string(),
        };
        Err(Error::Usage(format!(
            "no puzzle file or catalog entry named \"{}\"{hint}",
            path.display()
        )))
    }

    /// Reads and parses the file at `path`, never a catalog name or standard input;
    /// `problem` and `stop` as for [`Puzzle::load_with`].
    ///
    /// # Errors
    ///
    /// [`Error::Read`] when the file cannot be read or is too large, then the errors of
    /// [`Puzzle::from_bytes`].
    pub fn read_file(path: &Path, problem: Option<&str>, stop: &Stop) -> Result<Puzzle> {
        let bytes = input::read_puzzle_file(path, stop)?;
        Puzzle::from_bytes(&path.display().to_string(), bytes, problem, stop)
    }

    /// The bytes of a puzzle input that is read, not looked up: `-` (standard input, read
    /// once; its name in messages is `<stdin>`) or an existing file, with that name.
    /// `None` for anything else (a catalog name, a directory, a missing file), which
    /// [`Puzzle::load_with`] explains. A FIFO waits for its writer until `stop` says stop.
    ///
    /// # Errors
    ///
    /// [`Error::Read`] when the file or standard input cannot be read, or is larger than a
    /// puzzle file may be.
    pub fn read_input(path: &Path, stop: &Stop) -> Result<Option<(String, Vec<u8>)>> {
        input::read_puzzle_input(path, stop)
    }

    /// The puzzle the problem of a BurrTools file makes (the one asked for): its typed
    /// values checked as a puzzle file's are, with no puzzle file in between.
    ///
    /// # Errors
    ///
    /// [`Error::Puzzle`] when the problem's pieces and result fail a puzzle file's checks
    /// (for example no piece, or pieces whose cells cannot fill the result by count).
    pub fn from_burrtools(file: &burrtools::BurrTools, stop: &Stop) -> Result<Puzzle> {
        let source = &file.source;
        let polycube = Polycube::from_spec(source, &file.puzzle, stop).map_err(|e| {
            Error::puzzle(
                source,
                format!("the BurrTools problem does not make a polycover puzzle: {e}"),
            )
        })?;
        Ok(Puzzle(Arc::new(polycube)))
    }

    /// Parses a file's bytes; `source` names it in messages. Gzip is inflated first (known
    /// by its magic bytes); then a BurrTools file is known by its content (XML with a
    /// `<puzzle>` root), whatever its name, and anything else is a puzzle file.
    ///
    /// # Errors
    ///
    /// [`Error::Puzzle`] for gzip data that does not inflate (or inflates past the size
    /// limit), a BurrTools file that cannot be read or whose problem makes no puzzle, text
    /// that is not UTF-8, or anything [`Puzzle::parse`] refuses; [`Error::Usage`] when
    /// `problem` is given for a puzzle file, names no problem of a BurrTools file, or is
    /// left out for one that holds several.
    pub fn from_bytes(
        source: &str,
        bytes: Vec<u8>,
        problem: Option<&str>,
        stop: &Stop,
    ) -> Result<Puzzle> {
        let bytes = input::gunzipped(source, bytes)?;
        if burrtools::is_burrtools(&bytes) {
            return Puzzle::from_burrtools(&burrtools::read(source, &bytes, problem)?, stop);
        }
        if problem.is_some() {
            return Err(Error::Usage(format!(
                "{source}: {} picks a problem of a BurrTools file; this is a puzzle file",
                crate::setting::Setting::Problem.mark()
            )));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Error::puzzle(format!("{source}:{line}"), "the file is not UTF-8 text")
        })?;
        Puzzle::parse_with(source, &text, stop)
    }
}
