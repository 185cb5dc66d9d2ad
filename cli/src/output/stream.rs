//! The streams an output is written through: a character device or FIFO opened within
//! the run's stop and deadline, and a writer that fails once a stop is asked for.
//!
//! Invariants:
//! - Opening a FIFO never blocks: it waits for a reader only while no stop was asked for
//!   and the command's deadline (its [`Stop`]) has not passed, and says which
//!   ended the wait ([`Stopped`], [`NoReader`]).
//! - A [`Stoppable`] writer's error is never `ErrorKind::Interrupted`, which `write_all`
//!   would retry for ever.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use super::{Ended, Keep};
use crate::signals;
use polycover::Result;
use polycover::Stop;

/// Opens a character device or FIFO for writing. A FIFO's `open` would block until a
/// reader opens it, deaf to a stop: it is opened without blocking, again every few
/// milliseconds while it has no reader (`ENXIO`), until it has one, a stop is requested
/// (the [`Stopped`] error) or the command's deadline passes (the [`NoReader`] error); the
/// file is then made blocking again.
pub(super) fn open_stream(stop: &Stop, target: &Path) -> io::Result<fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        use std::os::unix::io::AsRawFd;
        if fs::metadata(target).is_ok_and(|m| m.file_type().is_fifo()) {
            loop {
                let opened = fs::OpenOptions::new()
                    .write(true)
                    .custom_flags(libc::O_NONBLOCK)
                    .open(target);
                match opened {
                    Ok(file) => {
                        let fd = file.as_raw_fd();
                        // Safety: fcntl on a descriptor this function owns, with the
                        // flags it read from it.
                        let made_blocking = unsafe {
                            let flags = libc::fcntl(fd, libc::F_GETFL);
                            flags >= 0
                                && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) >= 0
                        };
                        if !made_blocking {
                            return Err(io::Error::last_os_error());
                        }
                        return Ok(file);
                    }
                    Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                        if stop.raised() {
                            return Err(io::Error::other(Stopped));
                        }
                        if stop.timed_out() {
                            return Err(io::Error::other(NoReader));
                        }
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                    Err(e) => return Err(e),
                }
            }
        }
    }
    fs::OpenOptions::new().write(true).open(target)
}

/// Runs `body` on `w` (compressed when `gz`), then flushes: how the body ended, and the
/// bytes it wrote (before compression).
pub(super) fn stream(
    stop: &Stop,
    w: &mut dyn Write,
    gz: bool,
    keep: Keep,
    body: &mut dyn FnMut(&mut dyn Write) -> Result<Ended>,
) -> Result<(Ended, u64)> {
    let stoppable = keep == Keep::Complete;
    if gz {
        let mut gz = flate2::write::GzEncoder::new(w, flate2::Compression::default());
        let mut s = Stoppable::new(&mut gz, stoppable.then(|| stop.clone()));
        let ended = body(&mut s)?;
        let bytes = s.written;
        gz.finish()?.flush()?;
        Ok((ended, bytes))
    } else {
        let mut s = Stoppable::new(&mut *w, stoppable.then(|| stop.clone()));
        let ended = body(&mut s)?;
        let bytes = s.written;
        w.flush()?;
        Ok((ended, bytes))
    }
}

/// The error of a FIFO still without a reader when the command's deadline passed
/// (its [`Stop`]): the wait for it counts in the command's `--timeout`.
#[derive(Debug)]
pub(super) struct NoReader;

impl std::fmt::Display for NoReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped by the timeout while waiting for a reader")
    }
}

impl std::error::Error for NoReader {}

/// The error of a [`Deadlined`] writer once the command's deadline has passed.
#[derive(Debug)]
pub(super) struct TimedOut;

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped by the timeout")
    }
}

impl std::error::Error for TimedOut {}

/// A writer that fails with [`TimedOut`] once the command's deadline has passed: the
/// body of a file whose writing is the command's whole work (`dimacs`, `export`), so
/// that `--timeout` stops a long write and nothing half-written is kept. Other outputs
/// are not cut by the deadline: a picture of a solution found in time is written whole.
pub struct Deadlined<'w> {
    inner: &'w mut dyn Write,
    stop: Stop,
}

impl<'w> Deadlined<'w> {
    pub fn new(inner: &'w mut dyn Write, stop: &Stop) -> Deadlined<'w> {
        Deadlined {
            inner,
            stop: stop.clone(),
        }
    }
}

impl Write for Deadlined<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.stop.timed_out() {
            return Err(io::Error::other(TimedOut));
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The error a [`Stoppable`] writer fails with once a stop was requested.
#[derive(Debug)]
pub(super) struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped by {}", signals::cause())
    }
}

impl std::error::Error for Stopped {}

/// A writer that fails once a stop was requested (when `stoppable`), counting the bytes
/// written through it. Its error is not `ErrorKind::Interrupted`, which `write_all` would
/// retry.
pub(super) struct Stoppable<W> {
    inner: W,
    /// The command's stop, when the writer fails once it is raised.
    stop: Option<Stop>,
    written: u64,
}

impl<W> Stoppable<W> {
    fn new(inner: W, stop: Option<Stop>) -> Stoppable<W> {
        Stoppable {
            inner,
            stop,
            written: 0,
        }
    }
}

impl<W: Write> Write for Stoppable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.stop.as_ref().is_some_and(Stop::raised) {
            return Err(io::Error::other(Stopped));
        }
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
