//! Memory: the peak resident memory, read from `/proc` (Linux; elsewhere every reading is
//! `None`), for `bench` rows and the `c ... peak memory` lines of the commands; the
//! default budget of a table of counts (from the machine's memory and `ulimit -v`); and
//! the allocator the binary installs, which turns an allocation failure into exit code 1
//! with a message instead of Rust's default abort (SIGABRT, exit 134).
//!
//! Invariants: [`reset_peak`] is called before a measurement, so that [`peak_mib`] of
//! this process covers that measurement only. The reset can only go down to what is
//! resident at that moment, heap the allocator kept from earlier work included, so
//! `bench` measures each run in a fresh process and resets there too. The
//! allocator's failure path allocates nothing and runs no destructors or exit handlers:
//! it writes a fixed message with `write(2)` and leaves with `_exit`.

use std::alloc::{GlobalAlloc, Layout, System};

/// Resets the process's peak-memory mark (`/proc/self/clear_refs`) to what is resident
/// now. The allocator first hands back what it can of freed memory, or the mark would
/// start higher still at what earlier work left; where `/proc` is missing, nothing happens.
pub fn reset_peak() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // Safety: malloc_trim only releases free heap pages; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The default budget for a table of subproblem counts: a quarter of the machine's
/// memory (`MemTotal` where `/proc` tells), at most 4 GiB; 1 GiB where nothing tells; and
/// never more than a quarter of the process's address-space limit (`ulimit -v`,
/// `RLIMIT_AS`) when one is set. A quarter, not all: the limit counts every mapping (the
/// binary, thread stacks, the allocator's arenas, the matrix and the search), and the
/// table is allocated, not merely touched, so a budget of the whole limit ends in an
/// allocation failure instead of evictions.
pub fn default_table_budget() -> usize {
    const GIB: usize = 1 << 30;
    let machine = machine_memory().map_or(GIB, |t| (t / 4).min(4 * GIB));
    address_space_limit().map_or(machine, |limit| machine.min(limit / 4))
}

/// The machine's memory in bytes (`MemTotal` where `/proc` tells): the most any
/// `--memory` can give a table here.
pub fn machine_memory() -> Option<usize> {
    std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib.saturating_mul(1024))
    })
}

/// The process's address-space limit in bytes (`ulimit -v`), when one is set.
fn address_space_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // Safety: getrlimit only writes the struct it is given.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        if ok && limit.rlim_cur != libc::RLIM_INFINITY {
            return Some(usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX));
        }
    }
    None
}

/// The peak resident memory of process `pid` (or this one) since the last reset, in MiB.
pub fn peak_mib(pid: Option<u32>) -> Option<f64> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/status"),
        None => "/proc/self/status".into(),
    };
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// The system allocator, except that a failed allocation ends the process with exit
/// code 1 ("a failure while running") and a message on standard error, instead of an
/// abort. The binary installs it; a library user keeps the allocator of their choice.
///
/// Why: under `ulimit -v` or a container limit a large puzzle can exhaust memory, and an
/// abort looks like a crash (exit 134, maybe a core dump) to a shell script or scheduler.
/// Outputs are still all or nothing: the temporary `.partial` file is left behind, never
/// the target.
pub struct ExitOnOutOfMemory;

/// What the failure path prints. Fixed text: formatting the size could allocate. The
/// searches (`count`, `solve`, `enumerate`) have `--solver` and `--threads` to suggest,
/// and `count` and `sample` a `--memory` budget for the memo's table of counts: they
/// call [`advise`].
const OUT_OF_MEMORY: &[u8] = b"polycover: error: out of memory (an allocation failed); \
try a machine with more memory, or a higher memory limit\n";
const OUT_OF_MEMORY_SEARCH: &[u8] = b"polycover: error: out of memory (an allocation failed); \
try --solver dlx, fewer --threads, or a machine with more memory\n";
const OUT_OF_MEMORY_COUNT: &[u8] = b"polycover: error: out of memory (an allocation failed); \
try --solver dlx, fewer --threads, a smaller --memory (the memo's table of counts), or a \
machine with more memory\n";
const OUT_OF_MEMORY_SAMPLE: &[u8] = b"polycover: error: out of memory (an allocation failed); \
try a smaller --memory (the table of counts), or a machine with more memory\n";

/// Which options an allocation failure suggests: those the command has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Advice {
    /// None: the machine's memory only.
    Machine = 0,
    /// `solve`, `enumerate`: `--solver dlx`, fewer `--threads`.
    Search = 1,
    /// `count`: those and a smaller `--memory`.
    Count = 2,
    /// `sample`: a smaller `--memory`.
    Sample = 3,
}

static ADVICE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Makes an allocation failure suggest what `advice` names.
pub fn advise(advice: Advice) {
    ADVICE.store(advice as u8, std::sync::atomic::Ordering::Relaxed);
}

fn out_of_memory() -> ! {
    let message = match ADVICE.load(std::sync::atomic::Ordering::Relaxed) {
        1 => OUT_OF_MEMORY_SEARCH,
        2 => OUT_OF_MEMORY_COUNT,
        3 => OUT_OF_MEMORY_SAMPLE,
        _ => OUT_OF_MEMORY,
    };
    #[cfg(unix)]
    // Safety: write(2) and _exit(2) are async-signal-safe and take plain buffers; nothing
    // here allocates, and _exit never returns.
    unsafe {
        libc::write(2, message.as_ptr().cast(), message.len());
        libc::_exit(1)
    }
    #[cfg(not(unix))]
    {
        use std::io::Write;
        let _ = std::io::stderr().write_all(message);
        std::process::exit(1)
    }
}

// Safety: every call is forwarded to `System` unchanged; only a null result, which
// `GlobalAlloc` callers would pass to `handle_alloc_error`, is replaced by an exit.
unsafe impl GlobalAlloc for ExitOnOutOfMemory {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if p.is_null() {
            out_of_memory()
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            out_of_memory()
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            out_of_memory()
        }
        p
    }
}
