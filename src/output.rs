//! Output files written all or nothing.
//!
//! Invariants:
//! - A file the user names appears only complete. Everything goes to a temporary file in
//!   the same directory (so the final rename stays on one file system), which is renamed
//!   over the target when the writing succeeded. On an error or Ctrl-C the temporary
//!   file is removed and the target is left as it was.
//! - An output is never one of the inputs: the same file (by identity, not by name: a
//!   link or a `./` prefix is caught too) is refused before anything is written.
//! - While an output is being written, Ctrl-C sets the stop flag instead of ending the
//!   process: the writer then fails with [`Error::Interrupted`] at its next write, so
//!   the temporary file is removed on the way out.
//!
//! `-` is standard output, written as it comes. A name ending in `.gz` is compressed.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::interrupt;

/// Refuses an output that is the same file as one of `inputs` (inputs that are not
/// files, such as catalog names, are skipped).
pub fn check_distinct(output: &Path, inputs: &[&Path]) -> Result<()> {
    if output.as_os_str() == "-" {
        return Ok(());
    }
    for input in inputs {
        if input.is_file() && same_file::is_same_file(output, input).unwrap_or(false) {
            return Err(Error::Usage(format!(
                "{}: the output is the input file {}; refusing to overwrite it",
                output.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Checks, before any work, that `path` can be written later: not an input, and its
/// directory takes a new file.
pub fn check_writable(path: &Path, inputs: &[&Path]) -> Result<()> {
    check_distinct(path, inputs)?;
    if path.as_os_str() == "-" {
        return Ok(());
    }
    let dir = directory_of(path);
    tempfile::Builder::new()
        .prefix(".polycover-probe.")
        .tempfile_in(&dir)
        .map(drop)
        .map_err(|e| unwritable(path, &dir, e))
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `body` to `path` (`-`: `stdout`) all or nothing, after checking it against
/// `inputs`. I/O errors inside `body` become write errors on `path`.
pub fn write(
    path: &Path,
    stdout: &mut dyn Write,
    inputs: &[&Path],
    body: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    check_distinct(path, inputs)?;
    let _listening = interrupt::Listening::start();
    let werr = |e: io::Error| write_error(path, e);
    if path.as_os_str() == "-" {
        let mut w = Stoppable(stdout);
        body(&mut w).map_err(|e| relabel(e, path))?;
        return w.flush().map_err(werr);
    }
    let dir = directory_of(path);
    let name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".partial");
    // A finished output gets the usual mode (0666 less the umask), not a temporary file's
    // private 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let tmp = builder
        .tempfile_in(&dir)
        .map_err(|e| unwritable(path, &dir, e))?;
    let mut buffered = io::BufWriter::new(tmp);
    if path.extension().is_some_and(|e| e == "gz") {
        let mut gz = flate2::write::GzEncoder::new(&mut buffered, flate2::Compression::default());
        body(&mut Stoppable(&mut gz)).map_err(|e| relabel(e, path))?;
        gz.finish().map_err(werr)?;
    } else {
        body(&mut Stoppable(&mut buffered)).map_err(|e| relabel(e, path))?;
    }
    let tmp = buffered.into_inner().map_err(|e| werr(e.into_error()))?;
    tmp.as_file().sync_all().map_err(werr)?;
    tmp.persist(path).map_err(|e| werr(e.error))?;
    Ok(())
}

/// The directory of `path` does not take a new file: say so about `path`, not about the
/// temporary file's name.
fn unwritable(path: &Path, dir: &Path, e: io::Error) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source: io::Error::new(
            e.kind(),
            format!("cannot create a file in {} ({})", dir.display(), e.kind()),
        ),
    }
}

fn write_error(path: &Path, e: io::Error) -> Error {
    if e.get_ref().is_some_and(|inner| inner.is::<Stopped>()) {
        return Error::Interrupted(format!("{} not written", path.display()));
    }
    Error::Write {
        path: path.to_path_buf(),
        source: e,
    }
}

fn relabel(e: Error, path: &Path) -> Error {
    match e {
        Error::Io(e) => write_error(path, e),
        other => other,
    }
}

/// The error a [`Stoppable`] writer fails with once Ctrl-C was pressed.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped by Ctrl-C")
    }
}

impl std::error::Error for Stopped {}

/// A writer that fails once Ctrl-C was pressed. Its error is not `ErrorKind::Interrupted`,
/// which `write_all` would retry.
struct Stoppable<W>(W);

impl<W: Write> Write for Stoppable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if interrupt::requested() {
            return Err(io::Error::other(Stopped));
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
