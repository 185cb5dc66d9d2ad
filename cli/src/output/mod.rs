//! Output files: all or nothing where that is possible, and never replacing what is not
//! the output's own.
//!
//! Where an output goes depends on what its path names, found by [`destination`]:
//!
//! | the path names | written |
//! |---|---|
//! | `-` | to standard output, as it comes |
//! | a regular file, or nothing yet | atomically: a temporary file beside it, renamed over it when complete; an existing file keeps its mode (and owner, where allowed) |
//! | a name in a directory that does not exist | refused (exit 2) before any work |
//! | a symlink | as what it points to (followed to its end) |
//! | a character device (`/dev/null`, `/dev/stdout`'s terminal) or a FIFO | straight through, streaming, with no temporary file; a FIFO is opened only once it has a reader, and a stop ends the wait |
//! | a directory or anything else | refused (exit 2) before any work |
//!
//! Invariants:
//! - A regular file the user names appears only complete. On an error or a stop the
//!   temporary file is removed and the target is left as it was; a streamed record
//!   output ([`write_records`]) instead keeps the whole records written before the stop,
//!   unless there are none: a stop before the first record leaves the target as it was
//!   (an existing file is not emptied, a new one not made). An immediate exit (a second
//!   Ctrl-C) removes the temporary file too ([`signals::register`]).
//! - A replaced file keeps its permission bits, set after the last write (a write by a
//!   process without `CAP_FSETID`, and a change of owner, clear setuid and setgid). The
//!   setuid bit is kept only when the new file has the old one's owner, and setgid only
//!   when it has its group: a file of someone else's that this process cannot give back
//!   to them loses them, so that replacing it never makes a setuid file of a new owner.
//! - Opening a FIFO waits for its reader; the wait polls the stop flag, so that a first
//!   Ctrl-C or SIGTERM ends it (exit 130, 143) instead of hanging in `open`.
//! - A device, FIFO or symlink is never replaced by a file.
//! - An output is never one of the inputs: the same file (by identity, not by name: a
//!   link or a `./` prefix is caught too) is refused before anything is written.
//! - [`check_writable`] refuses, before the work starts, every path that [`write()`] would
//!   refuse at the end; [`check_directory`] does the same for a directory of outputs.
//! - A directory a command fills ([`check_directory`]: `suite`, `export --format stl`,
//!   `--svg`/`--html` DIR) that holds anything is refused unless `--force`; with it, the
//!   files of the kinds the command writes there (its [`Owns`] rule: names alone), and
//!   the temporary files of earlier writes of them, are removed before the work, so that
//!   no stale file of an earlier run survives beside the new ones. Only regular files
//!   and symlinks are removed (a link, never what it points to); directories and
//!   everything else named otherwise stay, and nothing outside the directory is touched.
//!
//! A name ending in `.gz` is compressed.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::signals;
use polycover::{Error, Result, Stop};

mod stream;
pub use stream::Deadlined;
use stream::{open_stream, stream, NoReader, Stopped, TimedOut};

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
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            // Nothing there, or a dangling link: the file it would name is created. A
            // directory that is missing (or a file) is the user's to fix, found before
            // the work: a usage error, as a directory named as the output is.
            let target = follow_links(path)?;
            let dir = directory_of(&target);
            if !dir.is_dir() {
                let why = if dir.exists() {
                    "is not a directory"
                } else {
                    "does not exist"
                };
                return Err(Error::Usage(format!(
                    "cannot write {}: its directory {} {why}",
                    path.display(),
                    dir.display()
                )));
            }
            // Under /dev a name that is not there is a mistyped device (`/dev/stdot`),
            // never a file to make.
            if fs::canonicalize(&dir).is_ok_and(|d| d.starts_with("/dev")) {
                return Err(usage(
                    "no such device; polycover makes no new file under /dev (give an \
                     existing device, or a file elsewhere)",
                ));
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
        // `-` read from a file (`< FILE`) is that file.
        if input.as_os_str() == "-" && is_standard_input(output) {
            return Err(Error::Usage(format!(
                "{}: the output is the input file (standard input is read from it); \
                 refusing to overwrite it",
                output.display()
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

/// Which entries of a directory a command owns there, by name: the kinds of files it
/// writes (`solution-000001.svg`, `*.stl`, a suite's files).
pub type Owns<'a> = &'a dyn Fn(&str) -> bool;

/// A directory a command writes its files into, made before the work if missing. A file
/// of that name is refused, and, unless `force`, so is a directory that holds anything
/// (what is there may be the user's). With `force`, the entries `owns` names and the
/// temporary files of their writes are removed (see the module doc), so that none of an
/// earlier run's files survive beside this run's; the number removed is returned.
/// `writes` says what the command puts there, for the messages.
pub fn check_directory(dir: &Path, force: bool, writes: &str, owns: Owns) -> Result<usize> {
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
    if !dir.is_dir() {
        fs::create_dir_all(dir).map_err(failed)?;
        return Ok(0);
    }
    let entries = fs::read_dir(dir)
        .map_err(failed)?
        .collect::<io::Result<Vec<_>>>()
        .map_err(failed)?;
    if entries.is_empty() {
        return Ok(0);
    }
    if !force {
        return Err(Error::Usage(format!(
            "{}: the directory is not empty, it holds {} ({writes}); give --force \
             to write there anyway, removing the files of that kind it holds first",
            dir.display(),
            polycover::Count::plural(entries.len(), "entry", "entries")
        )));
    }
    let mut removed = 0;
    for entry in entries {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !(owns(name) || temporary_of(name).is_some_and(owns)) {
            continue;
        }
        // The entry itself, not what a link names: a link is removed, its target stays.
        let kind = entry.file_type().map_err(failed)?;
        if kind.is_file() || kind.is_symlink() {
            fs::remove_file(entry.path()).map_err(|source| Error::Write {
                path: entry.path(),
                source,
            })?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// The output a temporary file of [`write()`] was for: `NAME` of `.NAME.XXXXXX.partial`.
fn temporary_of(name: &str) -> Option<&str> {
    let inner = name.strip_prefix('.')?.strip_suffix(".partial")?;
    let (output, random) = inner.rsplit_once('.')?;
    (!output.is_empty() && !random.is_empty()).then_some(output)
}

pub(crate) fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `body` to `path` (`-`: `stdout`) all or nothing, after checking it against
/// `inputs`. A stop (Ctrl-C, SIGTERM) fails the next write, so the output is abandoned.
/// I/O errors inside `body` become write errors on `path`.
pub fn write(
    stop: &Stop,
    path: &Path,
    stdout: &mut dyn Write,
    inputs: &[&Path],
    body: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    write_with(stop, path, stdout, inputs, Keep::Complete, &mut |w| {
        body(w).map(|()| Ended::Finished)
    })
    .map(drop)
}

/// How the run behind a records output ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It went to its end (every solution, or its limit): the records are the output.
    Finished,
    /// A stop (a signal, a timeout) ended it: the records so far are kept if there are
    /// any, and a target with none is left as it was.
    Stopped,
}

/// Writes records (solutions) to `path`: as [`write()`], except that a stop does not fail
/// the writes, and whatever `body` wrote before it returned, even after a stop, is kept:
/// `body` writes whole records, ends its search when a stop is requested and says how it
/// ended. A stopped run that wrote nothing leaves a file target as it was (an existing
/// one is not emptied); the result says whether the target was written (`false`: left as
/// it was). An error still keeps nothing. Each record should be flushed by `body`, so
/// that a reader of a pipe or FIFO gets it at once.
pub fn write_records(
    stop: &Stop,
    path: &Path,
    stdout: &mut dyn Write,
    inputs: &[&Path],
    body: &mut dyn FnMut(&mut dyn Write) -> Result<Ended>,
) -> Result<bool> {
    write_with(stop, path, stdout, inputs, Keep::Records, body)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Only a complete output; a stop fails the writes.
    Complete,
    /// Whole records up to a stop.
    Records,
}

fn write_with(
    stop: &Stop,
    path: &Path,
    stdout: &mut dyn Write,
    inputs: &[&Path],
    keep: Keep,
    body: &mut dyn FnMut(&mut dyn Write) -> Result<Ended>,
) -> Result<bool> {
    check_distinct(path, inputs)?;
    let destination = destination(path)?;
    let _listening = stop.listen();
    let werr = |e: io::Error| write_error(path, e, false);
    let gz = path.extension().is_some_and(|e| e == "gz");
    let (target, mode) = match destination {
        Destination::Stdout => {
            // Standard output is line buffered (its `c` lines reach a reader at once): a
            // CNF of millions of lines goes through a buffer of its own, which each
            // record's flush and the end empty.
            let mut w = io::BufWriter::with_capacity(1 << 16, stdout);
            stream(stop, &mut w, gz, keep, body).map_err(|e| relabel(e, path, true))?;
            return Ok(true);
        }
        Destination::Stream(target) => {
            let file = open_stream(stop, &target).map_err(werr)?;
            let mut w = io::BufWriter::new(file);
            stream(stop, &mut w, gz, keep, body).map_err(|e| relabel(e, path, true))?;
            return Ok(true);
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
    // private 0600; a replaced file's own is set once the content is written.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(
        mode.map_or(0o666, |m| m & 0o777),
    ));
    let tmp = builder
        .tempfile_in(&dir)
        .map_err(|e| unwritable(path, &dir, e))?;
    let _registered = signals::register(tmp.path());
    let mut buffered = io::BufWriter::new(tmp);
    let (ended, bytes) =
        stream(stop, &mut buffered, gz, keep, body).map_err(|e| relabel(e, path, false))?;
    let tmp = buffered.into_inner().map_err(|e| werr(e.into_error()))?;
    if ended == Ended::Stopped && bytes == 0 {
        // Nothing to keep: the target stays as it was (the temporary file goes).
        return Ok(false);
    }
    #[cfg(unix)]
    if let Some(mode) = mode {
        keep_owner_and_mode(tmp.as_file(), &target, mode);
    }
    tmp.as_file().sync_all().map_err(werr)?;
    tmp.persist(&target).map_err(|e| werr(e.error))?;
    Ok(true)
}

/// The replaced file's owner and group where the process may give them, then its mode
/// exactly (the umask left aside): replacing a file should not change who can read or
/// run it. Called after the last write, as both a write and `fchown` clear setuid and
/// setgid; those are kept only where the owner (setuid) or group (setgid) was (module
/// doc).
#[cfg(unix)]
fn keep_owner_and_mode(tmp: &fs::File, target: &Path, mode: u32) {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let Ok(old) = fs::metadata(target) else {
        return;
    };
    let _ = std::os::unix::fs::fchown(tmp, Some(old.uid()), Some(old.gid()));
    let mut mode = mode;
    if let Ok(new) = tmp.metadata() {
        if new.uid() != old.uid() {
            mode &= !0o4000;
        }
        if new.gid() != old.gid() {
            mode &= !0o2000;
        }
    }
    let _ = tmp.set_permissions(fs::Permissions::from_mode(mode));
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

/// The error of a failed write to `path`; `streamed`: written straight through (standard
/// output, a FIFO, a device), so that what came before the failure was received.
fn write_error(path: &Path, e: io::Error, streamed: bool) -> Error {
    if e.get_ref().is_some_and(|inner| inner.is::<Stopped>()) {
        return Error::Interrupted(format!("{} not written", shown(path).display()));
    }
    if e.get_ref().is_some_and(|inner| inner.is::<TimedOut>()) {
        let what = match streamed {
            true => "cut short: what it received is incomplete",
            false => "not written",
        };
        return Error::Failed(format!(
            "stopped by the timeout: {} {what}",
            shown(path).display()
        ));
    }
    if e.get_ref().is_some_and(|inner| inner.is::<NoReader>()) {
        return Error::Failed(format!(
            "stopped by the timeout: {} had no reader, nothing written",
            path.display()
        ));
    }
    Error::Write {
        path: shown(path).to_path_buf(),
        source: e,
    }
}

/// An output's name in messages: `-` is `standard output`, as every command names it.
fn shown(path: &Path) -> &Path {
    match path.to_str() {
        Some("-") => Path::new("standard output"),
        _ => path,
    }
}

fn relabel(e: Error, path: &Path, streamed: bool) -> Error {
    match e {
        Error::Io(e) => write_error(path, e, streamed),
        other => other,
    }
}

/// Whether `path` is the regular file standard input reads (`< FILE`), by identity.
fn is_standard_input(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        match (std::fs::File::from(fd).metadata(), std::fs::metadata(path)) {
            (Ok(x), Ok(y)) => x.is_file() && x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
