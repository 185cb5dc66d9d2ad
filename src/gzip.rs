//! Reading files that may be gzip-compressed: answer files, `merge`'s parts, puzzle
//! files. gzip is recognised by its magic bytes, whatever the file is called.
//!
//! Invariant: a gzip stream inflates to at most the limit its caller gives; past it the
//! read fails with [`io::ErrorKind::FileTooLarge`] (a gzip bomb is refused, not read into
//! memory), and the message names the limit and what it is for. This module depends on
//! nothing but the error type, so the puzzle loaders, the SAT answers and the command
//! line can all use it.

use std::io::{self, BufRead};
use std::path::Path;

use crate::error::{Error, Result};

/// Opens a file for reading, decompressing gzip when its first two bytes are the gzip
/// magic number (1f 8b); the inflated stream may be at most `limit` bytes, the limit for
/// `what` (named in the message, see [`inflated_too_large`]).
pub fn open_capped(path: &Path, limit: u64, what: &'static str) -> Result<Box<dyn BufRead>> {
    let rerr = |e: io::Error| Error::Read {
        path: path.to_path_buf(),
        source: e,
    };
    let mut file = io::BufReader::new(std::fs::File::open(path).map_err(rerr)?);
    let magic = file.fill_buf().map_err(rerr)?;
    if magic.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(io::BufReader::new(Capped {
            inner: flate2::read::MultiGzDecoder::new(file),
            left: limit,
            limit,
            what,
        })))
    } else {
        Ok(Box::new(file))
    }
}

/// The error of a gzip stream that inflates past `limit` bytes, the limit for `what`.
pub fn inflated_too_large(limit: u64, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "the gzip data inflates to more than {}, polycover's limit for {what} \
             (a gzip bomb?)",
            size_name(limit)
        ),
    )
}

/// `256 MiB`, `1 GiB`: a limit as people read it.
pub fn size_name(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;
    if bytes >= GIB && bytes % GIB == 0 {
        format!("{} GiB", bytes / GIB)
    } else if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// A reader that fails once more than `limit` bytes have come out of `inner`.
struct Capped<R> {
    inner: R,
    left: u64,
    limit: u64,
    what: &'static str,
}

impl<R: io::Read> io::Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // One byte past the limit is asked for, so that a stream of exactly `limit`
        // bytes still reads whole.
        let want = buf
            .len()
            .min(usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            return Err(inflated_too_large(self.limit, self.what));
        }
        self.left -= n as u64;
        Ok(n)
    }
}
