//! How wide text will be, without a font: an upper estimate, so that text laid out by it
//! stays inside its room in any viewer.
//!
//! A picture names only the generic family `sans-serif`, so the viewer picks the font.
//! The widths below are those of DejaVu Sans (the widest common sans-serif, and the
//! usual fallback) rounded up by character class; Helvetica, Arial and Liberation Sans
//! are narrower, so a line measured here fits in all of them. Characters outside ASCII
//! count a full em (CJK glyphs are one em wide).
//!
//! Invariant: [`fit`] and every line of [`wrap`] measure at most the room they were
//! given, unless the room is narrower than an ellipsis.

/// Width of `text` at font size `size`, in the same unit as `size`.
pub fn width(text: &str, size: f64) -> f64 {
    text.chars().map(em).sum::<f64>() * size
}

/// The advance of one character, in ems, rounded up from DejaVu Sans.
fn em(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | 'I' | 'J' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.33,
        ' ' | 'f' | 'r' | 't' | '(' | ')' | '[' | ']' | '{' | '}' | '-' | '/' | '\\' | '"' => 0.43,
        'm' | 'w' | 'M' | 'W' | '@' | '%' => 1.0,
        'a'..='z' | '0'..='9' | '_' | '*' | '^' | '`' => 0.65,
        'A'..='Z' | '#' | '=' | '+' | '~' | '<' | '>' | '&' | '$' | '?' => 0.84,
        '\u{2026}' => 1.0,
        c if c.is_ascii() => 0.84,
        _ => 1.0,
    }
}

/// `text` if it fits in `room`, else as much of it as fits followed by an ellipsis.
pub fn fit(text: &str, size: f64, room: f64) -> String {
    if width(text, size) <= room {
        return text.to_string();
    }
    let budget = room - width("\u{2026}", size);
    let mut used = 0.0;
    let mut out = String::new();
    for c in text.chars() {
        used += em(c) * size;
        if used > budget {
            break;
        }
        out.push(c);
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\u{2026}');
    out
}

/// `text` in at most `lines` lines of at most `room` each: broken at spaces, a word too
/// long for a line broken anywhere, and the last line cut with an ellipsis when text is
/// left over. Never empty.
pub fn wrap(text: &str, size: f64, room: f64, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&candidate, size) <= room {
            line = candidate;
            continue;
        }
        if width(word, size) <= room {
            // The word fits a line of its own.
            out.push(std::mem::take(&mut line));
            line = word.to_string();
            continue;
        }
        // A word wider than a line: broken by characters, starting on this line.
        if !line.is_empty() {
            line.push(' ');
        }
        for c in word.chars() {
            if width(&line, size) + em(c) * size > room && !line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    if out.len() > lines.max(1) {
        let rest = out.split_off(lines.max(1) - 1).join(" ");
        // Ends with an ellipsis either way: the one given, or the one `fit` adds.
        out.push(fit(&format!("{rest}\u{2026}"), size, room));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitted_and_wrapped_text_stays_in_its_room() {
        let long = "W".repeat(64);
        let short = fit(&long, 14.0, 200.0);
        assert!(width(&short, 14.0) <= 200.0 && short.ends_with('\u{2026}'));
        assert_eq!(fit("soma", 14.0, 200.0), "soma");
        let lines = wrap(&format!("the {long} puzzle of many words"), 18.0, 300.0, 2);
        assert_eq!(lines.len(), 2, "{lines:?}");
        for l in &lines {
            assert!(width(l, 18.0) <= 300.0, "{l}");
        }
        assert!(lines[1].ends_with('\u{2026}'));
        assert_eq!(wrap("a b", 10.0, 100.0, 2), ["a b"]);
        assert_eq!(wrap("", 10.0, 100.0, 2), [""]);
    }
}
