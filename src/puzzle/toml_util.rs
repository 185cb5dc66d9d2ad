//! Small helpers that turn TOML byte spans into `file:line:column` locations.

use std::ops::Range;

use crate::error::Error;

/// `file:line:column` for the start of `span` in `text` (1-based).
pub fn location(source: &str, text: &str, span: Option<Range<usize>>) -> String {
    match span {
        None => source.to_string(),
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("{source}:{line}:{column}")
        }
    }
}

/// `file:line` for the start of `span`.
pub fn line(source: &str, text: &str, span: Range<usize>) -> String {
    let before = &text[..span.start.min(text.len())];
    format!("{source}:{}", before.matches('\n').count() + 1)
}

/// A TOML syntax or schema error, located, on one line.
pub fn error(source: &str, text: &str, e: &toml::de::Error) -> Error {
    let message = e.message().trim().replace('\n', " ");
    Error::puzzle(location(source, text, e.span()), message)
}
