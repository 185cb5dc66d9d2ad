//! Reading inputs: a path or `-` (standard input), plain or gzip, within a size cap.
//!
//! Every reader here is bounded: a puzzle input holds at most 256 MiB, and a
//! gzip stream may inflate to at most the limit its caller gives (a gzip bomb, megabytes
//! that inflate to gigabytes, fails with a message instead of filling memory). Gzip is
//! recognised by its magic bytes (1f 8b), whatever the file is called, and what it holds
//! is then told by its own content (a gzipped puzzle file is a puzzle file).
//!
//! An input is a path, `-` (standard input) or a FIFO (`<(cat soma.toml)`, whose
//! `/dev/fd/N` is a pipe, or a `mkfifo`): each is read once, from start to end, so a
//! stream that cannot be read twice is never asked to be.
//!
//! Messages: an input that is too large is an [`Error::Read`] of kind
//! [`io::ErrorKind::FileTooLarge`] naming the limit in people's units ([`size_name`]);
//! a gzip stream that inflates too far says so.
//!
//! This module knows no puzzle, formula or answer format: the puzzle loader and the
//! DIMACS answer reader both read through it. A program on the library reads its own
//! inputs, and names their limits, in the same words: [`open_capped`] is public at the
//! crate's root, and [`size_name`] as [`Error::size_name`].

use std::io::{self, BufRead, Read};
use std::path::Path;

use crate::error::{Error, Result};
use crate::stop::Stop;

/// The most bytes a puzzle input may hold: 256 MiB, read from a file or standard input,
/// and again for what a gzipped BurrTools file inflates to. The largest puzzle files
/// shipped are a few kB; the limit is there so that a gzip bomb (megabytes that inflate to
/// gigabytes) or `/dev/zero` fails with a message instead of filling memory.
pub(crate) const MAX_PUZZLE_BYTES: u64 = 256 << 20;

/// Whether `bytes` start with the gzip magic number.
pub(crate) fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// Whether `path` is `-`, standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `path` leads to a FIFO: a named pipe, or a process substitution's
/// `/dev/fd/N` (links followed).
pub(crate) fn is_fifo(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// The bytes of an input that is read, not looked up: `-` (standard input, read once; its
/// name in messages is `<stdin>`), an existing file or a FIFO (read once), with its name.
/// `None` for anything else (a catalog name, a directory, a missing file), which the
/// caller explains.
pub(crate) fn read_puzzle_input(path: &Path, stop: &Stop) -> Result<Option<(String, Vec<u8>)>> {
    if is_stdin(path) {
        #[cfg(target_os = "linux")]
        let bytes = read_capped(PolledStdin { stop: stop.clone() }, path)
            .map_err(|e| waiting_error(e, path))?;
        #[cfg(not(target_os = "linux"))]
        let bytes = read_capped(io::stdin().lock(), path)?;
        return Ok(Some(("<stdin>".into(), bytes)));
    }
    if !(path.is_file() || is_fifo(path)) {
        return Ok(None);
    }
    Ok(Some((
        path.display().to_string(),
        read_puzzle_file(path, stop)?,
    )))
}

/// The bytes of the file at `path`, refused past [`MAX_PUZZLE_BYTES`]. A FIFO is waited
/// for until `stop` says stop (read without blocking, then polled).
pub(crate) fn read_puzzle_file(path: &Path, stop: &Stop) -> Result<Vec<u8>> {
    #[cfg(target_os = "linux")]
    if is_fifo(path) {
        let waiting = Waiting::open(path, stop).map_err(|e| Error::Read {
            path: path.to_path_buf(),
            source: e,
        })?;
        return read_capped(waiting, path).map_err(|e| waiting_error(e, path));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::Read {
        path: path.to_path_buf(),
        source: e,
    })?;
    read_capped(file, path)
}

/// Why a wait on a FIFO ended without its data: the error a [`Waiting`] reader fails
/// with, told apart from the FIFO's own errors by [`waiting_error`].
#[derive(Debug)]
enum GaveUp {
    Deadline,
    Stop,
}

impl std::fmt::Display for GaveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GaveUp::Deadline => "stopped by the timeout",
            GaveUp::Stop => "stopped",
        })
    }
}

impl std::error::Error for GaveUp {}

/// A read that gave up waiting as the run's end (the deadline: a failure while running,
/// exit 1; a stop: an interruption), any other read error as it is.
fn waiting_error(e: Error, path: &Path) -> Error {
    let name = if is_stdin(path) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    if let Error::Read { source, .. } = &e {
        match source
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<GaveUp>())
        {
            Some(GaveUp::Deadline) => {
                return Error::Failed(format!(
                    "stopped by the timeout while waiting for {name} to be written"
                ))
            }
            Some(GaveUp::Stop) => return Error::Interrupted(format!("while waiting for {name}")),
            None => {}
        }
    }
    e
}

/// A FIFO read without blocking, so that the wait for its writer and for its data heeds
/// the reader's [`Stop`] (its flag and deadline). A plain `open` of a FIFO blocks until a
/// writer opens the other end, and a plain `read` until data comes, both deaf to a
/// timeout.
///
/// Linux tells "no writer yet" from "the writer left": a read of an empty FIFO that no
/// writer has opened returns 0 as an end of file would, so a 0 counts as the end only
/// once a writer was seen (data read, `EAGAIN`, or `poll` reporting data or a hang-up,
/// which it reports only for a writer that came after this open).
#[cfg(target_os = "linux")]
struct Waiting {
    file: std::fs::File,
    writer_seen: bool,
    stop: Stop,
}

#[cfg(target_os = "linux")]
impl Waiting {
    fn open(path: &Path, stop: &Stop) -> io::Result<Waiting> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        Ok(Waiting {
            file,
            writer_seen: false,
            stop: stop.clone(),
        })
    }
}

#[cfg(target_os = "linux")]
impl Read for Waiting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::unix::io::AsRawFd;
        loop {
            match (&self.file).read(buf) {
                Ok(0) if self.writer_seen => return Ok(0),
                Ok(0) => {}
                Ok(n) => {
                    self.writer_seen = true;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.writer_seen = true,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            if self.stop.raised() {
                return Err(io::Error::other(GaveUp::Stop));
            }
            if self.stop.timed_out() {
                return Err(io::Error::other(GaveUp::Deadline));
            }
            let mut fd = libc::pollfd {
                fd: self.file.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // Safety: one valid pollfd, for 20 ms: the latency of a stop or deadline.
            let n = unsafe { libc::poll(&mut fd, 1, 20) };
            if n > 0 && fd.revents & (libc::POLLIN | libc::POLLHUP) != 0 {
                self.writer_seen = true;
            }
        }
    }
}

/// Standard input read as it comes, so that the wait for it heeds the reader's [`Stop`]
/// (`sleep 10 | polycover count - --timeout 2` ends at 2 s): it is polled, and read only
/// once `poll` says a read will not block. Read straight from descriptor 0, past the
/// standard library's buffer, which nothing else here reads.
#[cfg(target_os = "linux")]
struct PolledStdin {
    stop: Stop,
}

#[cfg(target_os = "linux")]
impl Read for PolledStdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.stop.raised() {
                return Err(io::Error::other(GaveUp::Stop));
            }
            if self.stop.timed_out() {
                return Err(io::Error::other(GaveUp::Deadline));
            }
            let mut fd = libc::pollfd {
                fd: 0,
                events: libc::POLLIN,
                revents: 0,
            };
            // Safety: one valid pollfd, for 20 ms: the latency of a stop or deadline.
            let n = unsafe { libc::poll(&mut fd, 1, 20) };
            if n < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            if n == 0 {
                continue;
            }
            // Safety: a valid buffer and its length; poll said the read will not block.
            let got = unsafe { libc::read(0, buf.as_mut_ptr().cast(), buf.len()) };
            if got < 0 {
                let e = io::Error::last_os_error();
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) {
                    continue;
                }
                return Err(e);
            }
            return Ok(got as usize);
        }
    }
}

/// Everything `r` holds, refused past [`MAX_PUZZLE_BYTES`]; `path` names it in messages.
fn read_capped(r: impl Read, path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    r.take(MAX_PUZZLE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::Read {
            path: path.to_path_buf(),
            source: e,
        })?;
    if bytes.len() as u64 > MAX_PUZZLE_BYTES {
        return Err(Error::Read {
            path: path.to_path_buf(),
            source: io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!(
                    "more than {}, polycover's limit for a puzzle file",
                    size_name(MAX_PUZZLE_BYTES)
                ),
            ),
        });
    }
    Ok(bytes)
}

/// What the gzip data `bytes` inflate to, at most `limit` bytes (the limit for `what`):
/// past it, the error of [`inflated_too_large`].
pub(crate) fn inflate(bytes: &[u8], limit: u64, what: &'static str) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    Capped::new(flate2::read::MultiGzDecoder::new(bytes), limit, what).read_to_end(&mut out)?;
    Ok(out)
}

/// The bytes of a puzzle input as its parser reads them: gzip data inflated (to at most
/// [`MAX_PUZZLE_BYTES`]), anything else as it is. `source` names it in messages.
pub(crate) fn gunzipped(source: &str, bytes: Vec<u8>) -> Result<Vec<u8>> {
    if !is_gzip(&bytes) {
        return Ok(bytes);
    }
    inflate(&bytes, MAX_PUZZLE_BYTES, "a puzzle file").map_err(|e| {
        if e.kind() == io::ErrorKind::FileTooLarge {
            Error::puzzle(source, e.to_string())
        } else if e.kind() == io::ErrorKind::UnexpectedEof {
            Error::puzzle(
                source,
                format!("the gzip data ends before it is complete: the file is cut short ({e})"),
            )
        } else {
            Error::puzzle(source, format!("not a readable gzip file: {e}"))
        }
    })
}

/// The first (up to) `n` bytes of what an input holds: gzip data's inflated start
/// (empty if it is not readable gzip), other bytes as they are. For telling what a
/// file is without inflating all of it.
pub(crate) fn head(bytes: &[u8], n: usize) -> Vec<u8> {
    if !is_gzip(bytes) {
        return bytes[..bytes.len().min(n)].to_vec();
    }
    let mut out = Vec::new();
    let inflating = flate2::read::MultiGzDecoder::new(bytes).take(n as u64);
    match io::BufReader::new(inflating).read_to_end(&mut out) {
        Ok(_) => out,
        Err(_) => Vec::new(),
    }
}

/// Opens a file (`-`: standard input) for reading, decompressing gzip when its first two
/// bytes are the gzip magic number, with `limit` bytes for what a gzip stream inflates
/// to, the limit for `what` (named in the message): how the library reads its own
/// inputs, for a program on it that reads inputs of its own (the command line's
/// `merge`). A gzip stream that inflates past `limit` fails, while it is read, with
/// [`io::ErrorKind::FileTooLarge`] (the message names the limit, [`Error::size_name`]).
///
/// # Errors
///
/// [`Error::Read`] when the file cannot be opened or its first bytes read.
pub fn open_capped(path: &Path, limit: u64, what: &'static str) -> Result<Box<dyn BufRead>> {
    let rerr = |e: io::Error| Error::Read {
        path: path.to_path_buf(),
        source: e,
    };
    let mut file: Box<dyn BufRead> = if is_stdin(path) {
        Box::new(io::BufReader::new(io::stdin()))
    } else {
        Box::new(io::BufReader::new(std::fs::File::open(path).map_err(rerr)?))
    };
    let magic = file.fill_buf().map_err(rerr)?;
    if is_gzip(magic) {
        Ok(Box::new(io::BufReader::new(Capped::new(
            flate2::read::MultiGzDecoder::new(file),
            limit,
            what,
        ))))
    } else {
        Ok(file)
    }
}

/// The error of a gzip stream that inflates past `limit` bytes, the limit for `what`.
pub(crate) fn inflated_too_large(limit: u64, what: &str) -> io::Error {
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
pub(crate) fn size_name(bytes: u64) -> String {
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

/// The library's words for a size, for a program on it that names limits of its own (the
/// command line's `merge`, the lab's cap on a solver's output) as the library does.
impl Error {
    /// `256 MiB`, `1 GiB`: a limit in bytes as people read it, for a message that names
    /// it.
    ///
    /// ```
    /// use polycover::Error;
    /// assert_eq!(Error::size_name(1 << 30), "1 GiB");
    /// assert_eq!(Error::size_name(64 << 20), "64 MiB");
    /// assert_eq!(Error::size_name(1000), "1000 bytes");
    /// ```
    pub fn size_name(bytes: u64) -> String {
        size_name(bytes)
    }
}

/// A reader that fails once more than `limit` bytes have come out of `inner`.
struct Capped<R> {
    inner: R,
    left: u64,
    limit: u64,
    what: &'static str,
}

impl<R> Capped<R> {
    fn new(inner: R, limit: u64, what: &'static str) -> Capped<R> {
        Capped {
            inner,
            left: limit,
            limit,
            what,
        }
    }
}

impl<R: Read> Read for Capped<R> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(size_name(MAX_PUZZLE_BYTES), "256 MiB");
        assert_eq!(size_name(1 << 30), "1 GiB");
        assert_eq!(size_name(1000), "1000 bytes");
    }

    #[test]
    fn inflating_stops_at_the_limit() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&[0u8; 1000]).unwrap();
        let bytes = gz.finish().unwrap();
        assert!(is_gzip(&bytes));
        assert_eq!(inflate(&bytes, 1000, "a test").unwrap().len(), 1000);
        let e = inflate(&bytes, 999, "a test").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert!(e.to_string().contains("limit for a test"), "{e}");
    }
}
