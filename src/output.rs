//! Output files: all or nothing where that is possible, and never replacing what is not
//! the output's own.
//!
//! Where an output goes depends on what its path names, found by [`destination`]:
//!
//! | the path names | written |
//! |---|---|
//! | `-` | to standard output, as it comes |
//! | a regular file, or nothing yet | atomically: a temporary file beside it, renamed over it when complete; an existing file keeps its mode (and owner, where allowed) |
//! | a symlink | as what it points to (followed to its end) |
//! | a character device (`/dev/null`, `/dev/stdout`'s terminal) or a FIFO | straight through, streaming, with no temporary file |
//! | a directory or anything else | refused (exit 2) before any work |
//!
//! Invariants:
//! - A regular file the user names appears only complete. On an error or a stop the
//!   temporary file is removed and the target is left as it was; a streamed record
//!   output ([`write_records`]) instead keeps the whole records written before the stop.
//!   An immediate exit (a second Ctrl-C) removes the temporary file too
//!   ([`interrupt::register`]).
//! - A device, FIFO or symlink is never replaced by a file.
//! - An output is never one of the inputs: the same file (by identity, not by name: a
//!   link or a `./` prefix is caught too) is refused before anything is written.
//! - [`check_writable`] refuses, before the work starts, every path that [`write()`] would
//!   refuse at the end; [`check_directory`] does the same for a directory of outputs.
//!
//! A name ending in `.gz` is compressed.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::interrupt;

/// Where an output path leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// `-`.
    Stdout,
    /// A regular file (its mode, to keep) or a new one, written atomically.
    File { target: PathBuf, mode: Option<u32> },
    /// A character device or FIFO, written straight through.
    Stream(PathBuf),
}

/// Symlinks followed before giving up (as the kernel's own limit).
const MAX_LINKS: usize = 40;

/// What writing to `path` would do, refusing paths that cannot be outputs.
pub fn destination(path: &Path) -> Result<Destination> {
    if path.as_os_str() == "-" {
        return Ok(Destination::Stdout);
    }
    let usage = |why: &str| Error::Usage(format!("{}: {why}", path.display()));
    if path.as_os_str().to_string_lossy().ends_with('/') {
        return Err(usage(
            "names a directory; an output must be a file (give a file name)",
        ));
    }
    // The kernel follows the links (`/dev/stdout` leads through `/proc/self/fd/1` to a
    // pipe or terminal that has no path of its own).
    match fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(Destination::File {
            // The rename must replace the file a link points to, not the link.
            target: fs::canonicalize(path).map_err(|source| Error::Write {
                path: path.to_path_buf(),
                source,
            })?,
            mode: mode_of(&m),
        }),
        Ok(m) if m.is_dir() => Err(usage(
            "is a directory; an output must be a file (give a file name inside it)",
        )),
        Ok(m) if is_stream(&m) => Ok(Destination::Stream(path.to_path_buf())),
        Ok(_) => Err(usage(
            "is neither a regular file, a character device nor a FIFO; refusing to write to it",
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // Nothing there, or a dangling link: the file it would name is created.
            let target = follow_links(path)?;
            let dir = directory_of(&target);
            if !dir.is_dir() {
                return Err(Error::Write {
                    path: path.to_path_buf(),
                    source: io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("its directory {} does not exist", dir.display()),
                    ),
                });
            }
            Ok(Destination::File { target, mode: None })
        }
        Err(e) => Err(Error::Write {
            path: path.to_path_buf(),
            source: e,
        }),
    }
}

/// `path` with every symlink on its last component followed (a dangling link leads to the
/// file it would create).
fn follow_links(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p).map_err(|source| Error::Write {
                    path: path.to_path_buf(),
                    source,
                })?;
                p = directory_of(&p).join(to);
            }
            _ => return Ok(p),
        }
    }
    Err(Error::Usage(format!(
        "{}: more than {MAX_LINKS} symlinks in a row",
        path.display()
    )))
}

#[cfg(unix)]
fn is_stream(m: &fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    m.file_type().is_char_device() || m.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_stream(_: &fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
fn mode_of(m: &fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(m.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_of(_: &fs::Metadata) -> Option<u32> {
    None
}

/// Refuses an output that is the same file as one of `inputs` (inputs that are not
/// files, such as catalog names, are skipped).
pub fn check_distinct(output: &Path, inputs: &[&Path]) -> Result<()> {
    if output.as_os_str() == "-" {
        return Ok(());
    }
    for input in inputs {
        if input.is_file() && is_same_file(output, input) {
            return Err(Error::Usage(format!(
                "{}: the output is the input file {}; refusing to overwrite it",
                output.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Refuses two outputs (`what_a` at `a`, `what_b` at `b`) that are the same file, whether
/// or not it exists yet.
pub fn check_not_same(a: &Path, b: &Path, what_a: &str, what_b: &str) -> Result<()> {
    let same = match (fs::metadata(a), fs::metadata(b)) {
        (Ok(_), Ok(_)) => is_same_file(a, b),
        _ => resolved(a).is_some_and(|x| Some(x) == resolved(b)),
    };
    if same {
        return Err(Error::Usage(format!(
            "{what_a} {} and {what_b} {} are the same file; give them different names",
            a.display(),
            b.display()
        )));
    }
    Ok(())
}

/// Whether two existing paths are one file, by identity. On Unix the files are not opened:
/// opening a FIFO would wait for its other end.
fn is_same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// `path` made absolute through its directory's real path (the file itself may not exist).
fn resolved(path: &Path) -> Option<PathBuf> {
    let target = follow_links(path).ok()?;
    let dir = fs::canonicalize(directory_of(&target)).ok()?;
    Some(dir.join(target.file_name()?))
}

/// Checks, before any work, that `path` can be written later: not an input, a kind of
/// file that can be an output, and (for a file) a directory that takes a new file.
pub fn check_writable(path: &Path, inputs: &[&Path]) -> Result<()> {
    check_distinct(path, inputs)?;
    match destination(path)? {
        Destination::File { target, .. } => {
            let dir = directory_of(&target);
            tempfile::Builder::new()
                .prefix(".polycover-probe.")
                .tempfile_in(&dir)
                .map(drop)
                .map_err(|e| unwritable(path, &dir, e))
        }
        // Opening a FIFO would wait for its reader; it is opened when the work is done.
        Destination::Stdout | Destination::Stream(_) => Ok(()),
    }
}

/// A directory a command writes its files into, made before the work if missing. A file
/// of that name is refused, and, unless `force`, so is a directory that holds anything
/// (what is there may be the user's). `writes` says what the command puts there, for
/// the messages.
pub fn check_directory(dir: &Path, force: bool, writes: &str) -> Result<()> {
    let failed = |source| Error::Write {
        path: dir.to_path_buf(),
        source,
    };
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{}: not a directory ({writes})",
            dir.display()
        )));
    }
    if dir.is_dir() && !force {
        let held = fs::read_dir(dir).map_err(failed)?.count();
        if held > 0 {
            return Err(Error::Usage(format!(
                "{}: the directory is not empty, it holds {held} entries ({writes}; give \
                 --force to write over what is there)",
                dir.display()
            )));
        }
    }
    fs::create_dir_all(dir).map_err(failed)
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `body` to `path` (`-`: `stdout`) all or nothing, after checking it against
/// `inputs`. A stop (Ctrl-C, SIGTERM) fails the next write, so the output is abandoned.
/// I/O errors inside `body` become write errors on `path`.
pub fn write(
    path: &Path,
    stdout: &mut dyn Write,
    inputs: &[&Path],
    body: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    write_with(path, stdout, inputs, Keep::Complete, body)
}

/// Writes records (solutions) to `path`: as [`write()`], except that a stop does not fail
/// the writes, and whatever `body` wrote before it returned, even after a stop, is kept:
/// `body` writes whole records and ends its search when a stop is requested. An error
/// still keeps nothing. Each record should be flushed by `body`, so that a reader of a
/// pipe or FIFO gets it at once.
pub fn write_records(
    path: &Path,
    stdout: &mut dyn Write,
    inputs: &[&Path],
    body: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    write_with(path, stdout, inputs, Keep::Records, body)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Only a complete output; a stop fails the writes.
    Complete,
    /// Whole records up to a stop.
    Records,
}

fn write_with(
    path: &Path,
    stdout: &mut dyn Write,
    inputs: &[&Path],
    keep: Keep,
    body: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    check_distinct(path, inputs)?;
    let destination = destination(path)?;
    let _listening = interrupt::Listening::start();
    let werr = |e: io::Error| write_error(path, e);
    let gz = path.extension().is_some_and(|e| e == "gz");
    let (target, mode) = match destination {
        Destination::Stdout => return stream(stdout, gz, keep, body).map_err(|e| relabel(e, path)),
        Destination::Stream(target) => {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(werr)?;
            let mut w = io::BufWriter::new(file);
            return stream(&mut w, gz, keep, body).map_err(|e| relabel(e, path));
        }
        Destination::File { target, mode } => (target, mode),
    };
    let dir = directory_of(&target);
    let name = target
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".partial");
    // A new output gets the usual mode (0666 less the umask), not a temporary file's
    // private 0600; a replaced file keeps its own.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(
        mode.unwrap_or(0o666),
    ));
    let tmp = builder
        .tempfile_in(&dir)
        .map_err(|e| unwritable(path, &dir, e))?;
    let _registered = interrupt::register(tmp.path());
    #[cfg(unix)]
    if let Some(mode) = mode {
        keep_owner_and_mode(tmp.as_file(), &target, mode);
    }
    let mut buffered = io::BufWriter::new(tmp);
    stream(&mut buffered, gz, keep, body).map_err(|e| relabel(e, path))?;
    let tmp = buffered.into_inner().map_err(|e| werr(e.into_error()))?;
    tmp.as_file().sync_all().map_err(werr)?;
    tmp.persist(&target).map_err(|e| werr(e.error))?;
    Ok(())
}

/// Runs `body` on `w` (compressed when `gz`), then flushes.
fn stream(
    w: &mut dyn Write,
    gz: bool,
    keep: Keep,
    body: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let stoppable = keep == Keep::Complete;
    if gz {
        let mut gz = flate2::write::GzEncoder::new(w, flate2::Compression::default());
        body(&mut Stoppable(&mut gz, stoppable))?;
        gz.finish()?.flush()?;
    } else {
        body(&mut Stoppable(&mut *w, stoppable))?;
        w.flush()?;
    }
    Ok(())
}

/// The replaced file's mode exactly (the umask left aside) and, where the process may,
/// its owner and group: replacing a file should not change who can read it.
#[cfg(unix)]
fn keep_owner_and_mode(tmp: &fs::File, target: &Path, mode: u32) {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let _ = tmp.set_permissions(fs::Permissions::from_mode(mode));
    if let Ok(m) = fs::metadata(target) {
        let _ = std::os::unix::fs::fchown(tmp, Some(m.uid()), Some(m.gid()));
    }
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

/// The error a [`Stoppable`] writer fails with once a stop was requested.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped by {}", interrupt::cause())
    }
}

impl std::error::Error for Stopped {}

/// A writer that fails once a stop was requested (when its flag says so). Its error is not
/// `ErrorKind::Interrupted`, which `write_all` would retry.
struct Stoppable<W>(W, bool);

impl<W: Write> Write for Stoppable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.1 && interrupt::requested() {
            return Err(io::Error::other(Stopped));
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
