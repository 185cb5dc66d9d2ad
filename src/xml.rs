//! XML text in the files polycover writes (SVG pictures and charts, BurrTools and 3MF
//! files, the 3-D view's title): one escape for attributes and content alike.
//!
//! Invariant: the result holds no `&`, `<`, `>` or `"` but as the entities it wrote, so
//! it can stand inside a double-quoted attribute or between tags.

/// `text` with `&`, `<`, `>` and `"` replaced by their entities.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
