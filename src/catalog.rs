//! The puzzle files shipped in `encodings/`, embedded at build time and found by name
//! (ignoring case and a `.toml` suffix); a misspelled name finds its closest entry as a
//! suggestion ([`CatalogEntry::suggest`]).

/// One shipped puzzle file.
#[derive(Clone, Copy, Debug)]
pub struct CatalogEntry {
    /// The file name without `.toml`, e.g. `bedlam`.
    pub name: &'static str,
    /// The file's TOML text.
    pub text: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// Every shipped puzzle, sorted by name.
pub(crate) fn entries() -> &'static [CatalogEntry] {
    ENTRIES
}

/// The shipped puzzle called `name` (with or without `.toml`, and with or without the
/// `catalog:` that `info` and the `c puzzle` lines show), ignoring case.
pub(crate) fn find(name: &str) -> Option<&'static CatalogEntry> {
    let name = name.strip_prefix("catalog:").unwrap_or(name);
    let name = name.strip_suffix(".toml").unwrap_or(name);
    ENTRIES.iter().find(|e| e.name.eq_ignore_ascii_case(name))
}

/// The shipped puzzle whose name is closest to `name`, for "did you mean ...?" when
/// `name` is none of them (with or without `.toml`).
pub(crate) fn suggest(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".toml").unwrap_or(name);
    crate::suggest::closest(name, ENTRIES.iter().map(|e| e.name))
}

/// The catalog, by name.
impl CatalogEntry {
    /// Every shipped puzzle, sorted by name.
    pub fn all() -> &'static [CatalogEntry] {
        entries()
    }

    /// The shipped puzzle called `name` (ignoring case and a `.toml` suffix).
    ///
    /// ```
    /// let soma = polycover::CatalogEntry::find("Soma.toml").unwrap();
    /// assert_eq!(soma.name, "soma");
    /// ```
    pub fn find(name: &str) -> Option<&'static CatalogEntry> {
        find(name)
    }

    /// The shipped puzzle's name most like `name`, for "did you mean": `None` when none
    /// is close.
    pub fn suggest(name: &str) -> Option<&'static str> {
        suggest(name)
    }
}
