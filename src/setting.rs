//! The caller's settings that the library's messages name, worded by each front end.
//!
//! A refusal says what was refused and what would lift it: "reflections needs a piece
//! set that is its own mirror image (use symmetry rotations)". The setting it names is
//! the caller's, and each caller spells it its own way: the command line as a flag
//! (`--symmetry rotations`), the Python module as a keyword argument
//! (`symmetry="rotations"`), a Rust program as its own words. So the library never
//! writes a flag: a message names a [`Setting`], with the value it refers to where there
//! is one, and the text keeps a mark of it that the front end words
//! (`Error::render`, [`Setting::render`]). The library's own
//! `Display` words a setting plainly: its name, then the value (`symmetry rotations`).
//!
//! Invariants:
//! - A mark is `\u{E000}NAME\u{E000}`, or `\u{E000}NAME\u{E001}VALUE\u{E000}` with a
//!   value: characters of Unicode's private use area, which no message of the library
//!   writes otherwise. Only a mark whose name is a setting's is worded; anything else is
//!   left as it stands.
//! - Every message that names a setting goes through a mark: the test
//!   `architecture::the_library_writes_no_command_line_flag` finds any flag written in
//!   the library's source.

use std::fmt;

/// The start and end of a mark.
const MARK: char = '\u{E000}';
/// Between a mark's name and its value.
const VALUE: char = '\u{E001}';

/// A setting of the caller's, as the library's messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Setting {
    /// The at-most-one encoding of the CNF.
    Amo,
    /// The SAT solver behind the SAT engine.
    Backend,
    /// The box a generated or designed puzzle fills.
    Box,
    /// The program that checks a certificate.
    Checker,
    /// Whether a design keeps chiral pieces only.
    Chiral,
    /// How many coloured cubes a generated puzzle stacks.
    Cubes,
    /// Who picks the SAT solver's decisions.
    Decide,
    /// Whether a design keeps flat pieces only.
    FlatPieces,
    /// Whether the CNF is built past its size limit.
    Force,
    /// The clearance between printed pieces, in mm.
    Gap,
    /// A solution drawn as a 3-D web page.
    Html,
    /// The most memory a table of counts may take.
    Memory,
    /// How many pieces a generated or designed puzzle has.
    Pieces,
    /// Whether the SAT engine checks its propagator's invariants as it runs.
    Paranoid,
    /// The problem of a BurrTools file.
    Problem,
    /// An option of CaDiCaL's own.
    SatOption,
    /// The seed of random draws.
    Seed,
    /// The sizes of a generated puzzle's pieces.
    Sizes,
    /// The engine.
    Solver,
    /// How the SAT engine splits its search.
    Strategy,
    /// The order the frontier engine sweeps the cells in.
    Sweep,
    /// A solution drawn as an SVG picture.
    Svg,
    /// Which solutions count as the same.
    Symmetry,
    /// The side of a printed cube, in mm.
    Unit,
}

impl Setting {
    /// Every setting.
    pub const ALL: &'static [Setting] = &[
        Setting::Amo,
        Setting::Backend,
        Setting::Box,
        Setting::Checker,
        Setting::Chiral,
        Setting::Cubes,
        Setting::Decide,
        Setting::FlatPieces,
        Setting::Force,
        Setting::Gap,
        Setting::Html,
        Setting::Memory,
        Setting::Paranoid,
        Setting::Pieces,
        Setting::Problem,
        Setting::SatOption,
        Setting::Seed,
        Setting::Sizes,
        Setting::Solver,
        Setting::Strategy,
        Setting::Sweep,
        Setting::Svg,
        Setting::Symmetry,
        Setting::Unit,
    ];

    /// The setting's name, in lower case, words joined by `-`: `symmetry`,
    /// `flat-pieces`. The command line's flag is
    /// `--` and this name; the Python module's keyword argument is this name, where it has
    /// the setting.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Amo => "amo",
            Setting::Backend => "backend",
            Setting::Box => "box",
            Setting::Checker => "checker",
            Setting::Chiral => "chiral",
            Setting::Cubes => "cubes",
            Setting::Decide => "decide",
            Setting::FlatPieces => "flat-pieces",
            Setting::Force => "force",
            Setting::Gap => "gap",
            Setting::Html => "html",
            Setting::Memory => "memory",
            Setting::Pieces => "pieces",
            Setting::Paranoid => "paranoid",
            Setting::Problem => "problem",
            Setting::SatOption => "sat-option",
            Setting::Seed => "seed",
            Setting::Sizes => "sizes",
            Setting::Solver => "solver",
            Setting::Strategy => "strategy",
            Setting::Sweep => "sweep",
            Setting::Svg => "svg",
            Setting::Symmetry => "symmetry",
            Setting::Unit => "unit",
        }
    }

    /// The setting alone, marked for a message: `memory` in the library's words,
    /// `--memory` on the command line.
    pub(crate) fn mark(self) -> String {
        format!("{MARK}{}{MARK}", self.name())
    }

    /// The setting with a value, marked for a message: `symmetry rotations` in the
    /// library's words, `--symmetry rotations` on the command line.
    pub(crate) fn is(self, value: impl fmt::Display) -> String {
        format!("{MARK}{}{VALUE}{value}{MARK}", self.name())
    }

    /// `text` with each setting it names worded by `words`, which is given the setting
    /// and the value the text names with it, if any.
    ///
    /// ```
    /// use polycover::{Engine, Setting};
    /// // The lazy encoding needs CaDiCaL's propagator: varisat cannot run it.
    /// let varisat = Engine::from_name("sat-varisat").unwrap();
    /// let why = varisat.configure([(Setting::Amo, "lazy")]).unwrap_err();
    /// let keyword = |s: Setting, v: Option<&str>| format!("{}={:?}", s.name(), v.unwrap_or(""));
    /// assert!(why.render(&keyword).starts_with(r#"amo="lazy" needs backend="cadical""#));
    /// ```
    pub fn render(text: &str, words: &dyn Fn(Setting, Option<&str>) -> String) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(MARK) {
            out.push_str(&rest[..start]);
            let inside = &rest[start + MARK.len_utf8()..];
            let Some(end) = inside.find(MARK) else {
                out.push_str(&rest[start..]);
                return out;
            };
            let mark = &inside[..end];
            let (name, value) = match mark.split_once(VALUE) {
                Some((name, value)) => (name, Some(value)),
                None => (mark, None),
            };
            match Setting::ALL.iter().find(|s| s.name() == name) {
                Some(&setting) => out.push_str(&words(setting, value)),
                None => out.push_str(&rest[start..start + 2 * MARK.len_utf8() + end]),
            }
            rest = &inside[end + MARK.len_utf8()..];
        }
        out.push_str(rest);
        out
    }

    /// The library's own words: the name, then the value.
    pub(crate) fn plainly(setting: Setting, value: Option<&str>) -> String {
        match value {
            Some(v) => format!("{} {v}", setting.name()),
            None => setting.name().into(),
        }
    }
}

/// The setting's name, as the library words it ([`Setting::name`]).
impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(s: Setting, v: Option<&str>) -> String {
        match v {
            Some(v) => format!("--{} {v}", s.name()),
            None => format!("--{}", s.name()),
        }
    }

    #[test]
    fn marks_are_worded_by_the_front_end() {
        let text = format!(
            "use {} or a larger {}",
            Setting::Symmetry.is("none"),
            Setting::Memory.mark()
        );
        assert_eq!(
            Setting::render(&text, &flags),
            "use --symmetry none or a larger --memory"
        );
        assert_eq!(
            Setting::render(&text, &Setting::plainly),
            "use symmetry none or a larger memory"
        );
    }

    #[test]
    fn text_without_a_setting_stays_as_it_is() {
        for text in [
            "plain",
            "",
            "\u{E000}unclosed",
            "\u{E000}nosuch\u{E000} left",
        ] {
            assert_eq!(Setting::render(text, &flags), text);
        }
    }

    #[test]
    fn every_setting_reads_back_by_its_name() {
        for &s in Setting::ALL {
            assert_eq!(
                Setting::render(&s.mark(), &flags),
                format!("--{}", s.name())
            );
            assert_eq!(s.to_string(), s.name());
        }
    }
}
