//! "Did you mean ...?" for names the program resolves itself: catalog puzzles, `bench
//! --solvers` and `--amo` names, BurrTools problems, puzzle kinds. (clap already suggests
//! for subcommands, flags and the values it parses.)
//!
//! Invariant: a suggestion is always one of the known names, and is offered only when it
//! is close enough to the name given that a typo is the likely cause; a name far from
//! every known one gets none, rather than a guess that would mislead.

/// How alike two names must be (Jaro-Winkler similarity, 0 to 1) for one to be offered
/// as the other. 0.8 is the threshold clap uses for its own suggestions: `domino-8x8`
/// against `dominoes-8x8` is 0.96, `bedlamm` against `bedlam` 0.97, `cube` against
/// `soma` 0.
const THRESHOLD: f64 = 0.8;

/// The known name most like `name` (case-insensitively), if any is alike enough.
pub(crate) fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_lowercase();
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(&name, &k.to_lowercase()), k))
        .filter(|(score, _)| *score >= THRESHOLD)
        // The first of equally close names: callers list their names in a stable order.
        .fold(None, |best: Option<(f64, &str)>, (score, k)| match best {
            Some((b, _)) if b >= score => best,
            _ => Some((score, k)),
        })
        .map(|(_, k)| k)
}

/// `"; did you mean `NAME`?"` for the closest known name, or nothing.
pub(crate) fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, known)
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default()
}

/// The library's suggestions, for a program on it that resolves names of its own (the
/// lab's solver names, the command line's `--amo` lists), in the same words.
impl crate::error::Error {
    /// `"; did you mean `NAME`?"` for the known name most like `name` (Jaro-Winkler, as
    /// clap suggests), or nothing when none is close: appended to a message that names
    /// an unknown one.
    ///
    /// ```
    /// use polycover::Error;
    /// assert_eq!(Error::did_you_mean("bedlamm", ["soma", "bedlam"]), "; did you mean `bedlam`?");
    /// assert_eq!(Error::did_you_mean("cube", ["soma"]), "");
    /// ```
    pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
        did_you_mean(name, known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_the_name_and_strangers_find_none() {
        let names = [
            "bedlam",
            "dominoes-8x8",
            "dominoes-8x10",
            "soma",
            "pentomino-6x10",
        ];
        assert_eq!(closest("domino-8x8", names), Some("dominoes-8x8"));
        assert_eq!(closest("Dominoes-8X10", names), Some("dominoes-8x10"));
        assert_eq!(closest("bedlamm", names), Some("bedlam"));
        assert_eq!(closest("pentomino-6x11", names), Some("pentomino-6x10"));
        assert_eq!(closest("cube", names), None);
        assert_eq!(closest("x", names), None);
        assert_eq!(closest("anything", []), None);
        assert_eq!(did_you_mean("somma", names), "; did you mean `soma`?");
        assert_eq!(did_you_mean("tetris", names), "");
    }
}
