//! A part's result line, `c part K/N fingerprint F check H solutions C`, as a part run
//! prints it and `merge` reads it, with the checksum that ties the line to its file.
//!
//! Invariant: `merge` takes a line only when its checksum matches what the line and its
//! file say ([`PartResult::matches`]); the line's fields are written and read here only.

use std::fmt;
use std::str::FromStr;

use polycover::{Count, Split};

/// `K/N`: part K (from 1) of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PartSpec {
    /// Which part, from 1; `1 <= k <= n`.
    pub k: usize,
    /// How many parts the search is dealt into; `1 <= n <= Split::MOST_PARTS`.
    pub n: usize,
}

impl PartSpec {
    /// The whole search as one part.
    pub const WHOLE: PartSpec = PartSpec { k: 1, n: 1 };
}

impl FromStr for PartSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PartSpec, String> {
        let most = Split::MOST_PARTS;
        let bad = || format!("`{s}`: a part is K/N, with 1 <= K <= N <= {most} (for example 3/16)");
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n || n > most {
            return Err(bad());
        }
        Ok(PartSpec { k, n })
    }
}

impl fmt::Display for PartSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// What a part run prints when it is done, one line that `merge` reads:
/// `c part K/N fingerprint F check H solutions C`, then for an enumeration
/// ` format text|jsonl file PATH` (the path last, so that it may hold spaces; a count's
/// line ends with its count, as before the checksum).
///
/// `H`, the checksum, is 32 hexadecimal digits: the MD5 of the part's file (its bytes
/// as written, before any gzip), then of the part, the fingerprint, the count and the
/// format ([`Checksum`]). `merge` refuses a part that does not match it: a count figure
/// or a record edited, by hand or by accident. It is a check against accidents, not
/// against someone who means to forge a part (MD5 is not secure, and anyone can compute
/// it again). The file's path is not in it: a file moved to another directory may be
/// named anew on its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartResult {
    /// Which part of how many the line reports.
    pub part: PartSpec,
    /// The split's fingerprint, 16 hexadecimal digits; `merge` adds up only parts whose
    /// fingerprints agree.
    pub fingerprint: String,
    /// The part's count of distinct solutions.
    pub solutions: Count,
    /// The checksum, 32 hexadecimal digits ([`Checksum`]).
    pub check: String,
    /// An enumeration's solutions: their format and file.
    pub file: Option<(String, std::path::PathBuf)>,
}

impl fmt::Display for PartResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "c part {} fingerprint {} check {} solutions {}",
            self.part, self.fingerprint, self.check, self.solutions
        )?;
        if let Some((format, path)) = &self.file {
            write!(f, " format {format} file {}", path.display())?;
        }
        Ok(())
    }
}

/// A part's checksum ([`PartResult`]) as it is made: the part's file is fed to it (as a
/// `Write`, or by [`Checksum::update`]) as it is written or read, and [`Checksum::seal`]
/// adds what the `c part` line says. A count's part has no file: its checksum is of the
/// line alone.
#[derive(Clone, Debug, Default)]
pub struct Checksum(md5::Md5);

impl Checksum {
    /// A checksum fed nothing yet.
    pub fn new() -> Checksum {
        Checksum::default()
    }

    /// Adds bytes of the part's file.
    pub fn update(&mut self, bytes: &[u8]) {
        md5::Digest::update(&mut self.0, bytes);
    }

    /// The checksum of the file fed so far and of the line's part, fingerprint, count
    /// and (for an enumeration) format: 32 hexadecimal digits.
    pub fn seal(
        mut self,
        part: PartSpec,
        fingerprint: &str,
        solutions: &Count,
        format: Option<&str>,
    ) -> String {
        // After the file, a line that cannot be a record's, so that the file's end and
        // the line's start cannot trade bytes.
        let line = format!(
            "\0polycover part check 1\0{part}\0{fingerprint}\0{solutions}\0{}",
            format.unwrap_or("count")
        );
        self.update(line.as_bytes());
        md5::Digest::finalize(self.0)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl std::io::Write for Checksum {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl PartResult {
    /// The line of a part whose file (for an enumeration, `file`) was fed to `content`.
    pub fn new(
        part: PartSpec,
        fingerprint: String,
        solutions: Count,
        file: Option<(String, std::path::PathBuf)>,
        content: Checksum,
    ) -> PartResult {
        let format = file.as_ref().map(|f| f.0.as_str());
        let check = content.seal(part, &fingerprint, &solutions, format);
        PartResult {
            part,
            fingerprint,
            solutions,
            check,
            file,
        }
    }

    /// Whether the line's checksum is that of what it says and of the file fed to
    /// `content` (nothing, for a count's part).
    pub fn matches(&self, content: Checksum) -> bool {
        let format = self.file.as_ref().map(|f| f.0.as_str());
        content.seal(self.part, &self.fingerprint, &self.solutions, format) == self.check
    }

    /// Reads a `c part` line; `None` for any other line, an error for a `c part` line
    /// that is not whole.
    ///
    /// # Errors
    ///
    /// `Some(Err(message))` when the line starts `c part ` but its part is not `K/N`, its
    /// fingerprint is not 16 hexadecimal digits, its count does not parse, its checksum
    /// is missing (a line of an older polycover) or not 32 hexadecimal digits, a key is
    /// missing or out of order, or a tail is not `format F file PATH`.
    pub fn parse(line: &str) -> Option<Result<PartResult, String>> {
        let rest = line
            .trim_end_matches(['\r', '\n'])
            .strip_prefix("c part ")?;
        Some(PartResult::parse_fields(rest))
    }

    fn parse_fields(rest: &str) -> Result<PartResult, String> {
        let bad = || format!("a `c part` line that is not whole: `c part {rest}`");
        let mut words = rest.splitn(8, ' ');
        let part: PartSpec = words.next().ok_or_else(bad)?.parse()?;
        let mut key = |k: &str| match (words.next(), words.next()) {
            (Some(w), Some(v)) if w == k => Ok(v.to_string()),
            _ => Err(bad()),
        };
        let fingerprint = key("fingerprint")?;
        if fingerprint.len() != 16 || !fingerprint.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let check = key("check").map_err(|_| {
            format!(
                "a `c part` line without its checksum (`check`), made by an older polycover \
                 or edited: `c part {rest}`; run the part again with this one"
            )
        })?;
        if check.len() != 32 || !check.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let solutions = key("solutions")?.parse().map_err(|_| bad())?;
        let file = match words.next() {
            None => None,
            Some(tail) => {
                let tail = tail
                    .strip_prefix("format ")
                    .and_then(|t| t.split_once(" file "))
                    .ok_or_else(bad)?;
                Some((tail.0.to_string(), std::path::PathBuf::from(tail.1)))
            }
        };
        Ok(PartResult {
            part,
            fingerprint,
            solutions,
            check,
            file,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_specs_parse_and_refuse() {
        assert_eq!("3/16".parse(), Ok(PartSpec { k: 3, n: 16 }));
        assert_eq!(PartSpec { k: 3, n: 16 }.to_string(), "3/16");
        for bad in [
            "0/4",
            "5/4",
            "4",
            "a/b",
            "1/0",
            "1/999999999",
            "1/65537",
            "",
        ] {
            assert!(bad.parse::<PartSpec>().is_err(), "{bad}");
        }
        assert!("65536/65536".parse::<PartSpec>().is_ok());
    }

    #[test]
    fn part_results_read_back() {
        let part = PartSpec { k: 2, n: 8 };
        let mut content = Checksum::new();
        content.update(b"{\"index\":1}\n");
        let r = PartResult::new(
            part,
            "00112233aabbccdd".into(),
            1440u64.into(),
            Some(("jsonl".into(), "my parts/p 2.jsonl".into())),
            content.clone(),
        );
        assert_eq!(PartResult::parse(&r.to_string()), Some(Ok(r.clone())));
        assert!(r.matches(content.clone()));
        assert!(!r.matches(Checksum::new()));
        let whole = PartResult::new(
            part,
            r.fingerprint.clone(),
            1440u64.into(),
            None,
            Checksum::new(),
        );
        assert_eq!(
            PartResult::parse(&whole.to_string()),
            Some(Ok(whole.clone()))
        );
        assert!(whole.matches(Checksum::new()));
        let edited = PartResult {
            solutions: 1441u64.into(),
            ..whole
        };
        assert!(!edited.matches(Checksum::new()));
        assert_eq!(PartResult::parse("c puzzle Soma"), None);
        assert!(matches!(
            PartResult::parse("c part 2/8 fingerprint 00"),
            Some(Err(_))
        ));
        // An older line, without a checksum: refused, saying why.
        match PartResult::parse("c part 2/8 fingerprint 00112233aabbccdd solutions 1440") {
            Some(Err(why)) => assert!(why.contains("without its checksum"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}
