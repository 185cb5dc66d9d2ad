//! Peak memory: the peak resident memory of a process, read from `/proc` (Linux;
//! elsewhere every reading is `None`), for `bench` rows and the `c ... peak memory` lines
//! of the command line.
//!
//! Invariant: [`reset_peak`] is called before a measurement, so that [`peak_mib`] of this
//! process covers that measurement only. The reset can only go down to what is resident
//! at that moment, heap the allocator kept from earlier work included, so `bench`
//! measures each run in a fresh process and resets there too.

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

/// The peak resident memory of process `pid` (or this one) since the last reset, in MiB.
pub fn peak_mib(pid: Option<u32>) -> Option<f64> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/status"),
        None => "/proc/self/status".into(),
    };
    // Read at once into room for the whole file: `/proc` gives no size, so a plain
    // `read_to_string` probes with reads of 32 bytes and up (nine calls, not two), and a
    // count of milliseconds prints this line.
    let mut status = String::with_capacity(4096);
    std::io::Read::read_to_string(&mut std::fs::File::open(path).ok()?, &mut status).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
