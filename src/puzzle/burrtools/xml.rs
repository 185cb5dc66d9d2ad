//! The text of a BurrTools file as XML: gunzipped when gzipped (within
//! [`input::MAX_PUZZLE_BYTES`]), UTF-8, and parsed by roxmltree, each failure placed at
//! its line and column.
//!
//! Invariant: an error of a text that ends too soon is placed where the text ends (the
//! parser's own position is 1:1 or a little before the end), and says that the file is
//! cut short; any other is placed where roxmltree stopped.

use crate::error::{Error, Result};
use crate::input;

/// The XML text of a BurrTools file (gunzipped when gzipped). What the gzip inflates to
/// is refused past [`input::MAX_PUZZLE_BYTES`]: a bomb fails before it fills memory.
pub(super) fn xml_text(source: &str, bytes: &[u8]) -> Result<String> {
    let raw = input::gunzipped(source, bytes.to_vec())?;
    String::from_utf8(raw).map_err(|_| Error::puzzle(source, "the XML is not UTF-8 text"))
}

/// The parsed document of `xml`, or the error placed as the module doc says.
pub(super) fn parse_xml<'a>(source: &str, xml: &'a str) -> Result<roxmltree::Document<'a>> {
    roxmltree::Document::parse(xml).map_err(|e| {
        // The errors of a text that ends too soon have no position of their own (roxmltree
        // gives 1:1): they are placed where the text ends, which is where the parser
        // stopped.
        // So are the errors inside the text's last markup when that is unfinished (the
        // text stops after `<voxel x="3` or after `<`).
        let end = end_of(xml);
        let last_open = xml.rfind('<');
        let unfinished = last_open.is_some_and(|k| xml.rfind('>').is_none_or(|g| g < k));
        let p = match e {
            roxmltree::Error::UnclosedRootNode | roxmltree::Error::UnexpectedEndOfStream => end,
            roxmltree::Error::NoRootNode if unfinished => end,
            _ if unfinished && last_open.is_some_and(|k| offset_of(xml, e.pos()) >= k) => end,
            _ => e.pos(),
        };
        let reason = if p == end {
            format!(
                "the XML ends here, unfinished: the file is cut short, not well-formed XML ({e})"
            )
        } else {
            format!("not well-formed XML: {e}")
        };
        Error::puzzle(format!("{source}:{}:{}", p.row, p.col), reason)
    })
}

/// The byte offset in `text` of line and column `p` (from 1, columns in characters).
fn offset_of(text: &str, p: roxmltree::TextPos) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(p.row as usize - 1)
        .map(str::len)
        .sum();
    let line = &text[line_start..];
    line_start
        + line
            .char_indices()
            .nth(p.col as usize - 1)
            .map_or(line.len(), |(k, _)| k)
}

/// The line and column (from 1, columns in characters) just past the end of `text`.
fn end_of(text: &str) -> roxmltree::TextPos {
    let row = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    roxmltree::TextPos::new(row as u32, col as u32)
}
