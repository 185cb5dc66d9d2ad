//! The allocator the binary installs, which turns an allocation failure into exit code
//! 1 with a message instead of Rust's default abort (SIGABRT, exit 134).
//!
//! Invariant: the failure path allocates nothing and runs no destructors or exit
//! handlers: it writes a fixed message with `write(2)` and leaves with `_exit`.

use std::alloc::{GlobalAlloc, Layout, System};

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
