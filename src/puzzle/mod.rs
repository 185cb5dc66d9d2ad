//! Puzzle files: finding them (path or catalog name), reading them, and compiling them
//! into the exact-cover [`Matrix`] with its symmetry [`Group`].
//!
//! Every puzzle kind lives in its own module and exposes the same things: a parser from
//! TOML text that reports errors with the file and line, a `matrix` and a `group` (which
//! [`Puzzle::compile`] turns into a [`Compiled`]), and a renderer for solutions. Nothing downstream of [`Compiled`] knows
//! which kind it came from, except the renderers.

pub mod colored;
pub mod polycube;
mod toml_util;

use std::path::Path;

use crate::catalog;
use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::symmetry::Group;

pub use colored::ColoredCubes;
pub use polycube::Polycube;

/// Which solutions count as "the same".
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
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
    pub fn as_str(self) -> &'static str {
        match self {
            SymmetryMode::None => "none",
            SymmetryMode::Rotations => "rotations",
            SymmetryMode::Reflections => "reflections",
            SymmetryMode::Stack => "stack",
        }
    }
}

/// A parsed and validated puzzle of any kind.
#[derive(Clone, Debug)]
pub enum Puzzle {
    Polycube(Polycube),
    ColoredCubes(ColoredCubes),
}

/// Published counts from a puzzle file's `[expect]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub rotations: Option<u64>,
    pub reflections: Option<u64>,
    pub none: Option<u64>,
    pub stack: Option<u64>,
}

impl Expect {
    pub fn get(&self, mode: SymmetryMode) -> Option<u64> {
        match mode {
            SymmetryMode::None => self.none,
            SymmetryMode::Rotations => self.rotations,
            SymmetryMode::Reflections => self.reflections,
            SymmetryMode::Stack => self.stack,
        }
    }
}

/// A puzzle compiled for one symmetry mode: the matrix every engine reads and the group
/// that says which solutions are the same.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub puzzle: Puzzle,
    pub mode: SymmetryMode,
    pub matrix: Matrix,
    pub group: Group,
}

impl Puzzle {
    pub fn name(&self) -> &str {
        match self {
            Puzzle::Polycube(p) => &p.name,
            Puzzle::ColoredCubes(p) => &p.name,
        }
    }

    /// The symmetry mode used when none is asked for.
    pub fn default_symmetry(&self) -> SymmetryMode {
        match self {
            Puzzle::Polycube(_) => SymmetryMode::Rotations,
            Puzzle::ColoredCubes(_) => SymmetryMode::Stack,
        }
    }

    pub fn expect(&self) -> &Expect {
        match self {
            Puzzle::Polycube(p) => &p.expect,
            Puzzle::ColoredCubes(p) => &p.expect,
        }
    }

    /// The exact-cover matrix and the symmetry group for `mode`: each kind supplies the
    /// two, and nothing downstream needs to know which kind it was.
    pub fn compile(&self, mode: SymmetryMode) -> Result<Compiled> {
        let (matrix, group) = match self {
            Puzzle::Polycube(p) => {
                let matrix = p.matrix();
                let group = p.group(&matrix, mode)?;
                (matrix, group)
            }
            Puzzle::ColoredCubes(p) => {
                let matrix = p.matrix();
                let group = p.group(&matrix, mode)?;
                (matrix, group)
            }
        };
        Ok(Compiled {
            puzzle: self.clone(),
            mode,
            matrix,
            group,
        })
    }

    /// Parses puzzle text. `source` names the file in error messages.
    pub fn parse(source: &str, text: &str) -> Result<Puzzle> {
        if text.trim().is_empty() {
            return Err(Error::puzzle(source, "the file is empty"));
        }
        let table: toml::Table =
            toml::from_str(text).map_err(|e| toml_util::error(source, text, &e))?;
        if table.is_empty() {
            return Err(Error::puzzle(
                source,
                "the file has no keys (is it a puzzle file?)",
            ));
        }
        match table.get("kind").map(|k| k.as_str()) {
            None | Some(Some("polycubes")) => Ok(Puzzle::Polycube(Polycube::parse(source, text)?)),
            Some(Some("colored-cubes")) => {
                Ok(Puzzle::ColoredCubes(ColoredCubes::parse(source, text)?))
            }
            Some(Some(other)) => Err(Error::puzzle(
                source,
                format!(
                    "unknown puzzle kind \"{other}\" (known: \"polycubes\", \"colored-cubes\")"
                ),
            )),
            Some(None) => Err(Error::puzzle(source, "`kind` must be a string")),
        }
    }

    /// Loads a puzzle from a file path, or from the catalog by name (`bedlam`).
    pub fn load(spec: &str) -> Result<Puzzle> {
        let path = Path::new(spec);
        if path.exists() {
            return Puzzle::read_file(path);
        }
        if let Some(entry) = catalog::find(spec) {
            return Puzzle::parse(&format!("{}.toml", entry.name), entry.text);
        }
        if spec.ends_with(".toml") || spec.contains('/') || spec.contains('\\') {
            return Err(Error::Read {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
        Err(Error::Usage(format!(
            "no puzzle file or catalog entry named \"{spec}\" (see `polycover list`)"
        )))
    }

    pub fn read_file(path: &Path) -> Result<Puzzle> {
        let bytes = std::fs::read(path).map_err(|e| Error::Read {
            path: path.to_path_buf(),
            source: e,
        })?;
        let source = path.display().to_string();
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Error::puzzle(format!("{source}:{line}"), "the file is not UTF-8 text")
        })?;
        Puzzle::parse(&source, &text)
    }
}
