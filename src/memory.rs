//! The memory a run may take: the default budget of a table of counts, from the
//! machine's memory and the process's address-space limit (`ulimit -v`).
//!
//! Invariant: the budget is a quarter of the least of the two, so that what the table
//! allocates leaves room for every other mapping under the limit.

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

/// The machine's memory in bytes (`MemTotal`, as `sysinfo(2)` tells it on Linux): the
/// most any `--memory` can give a table here. One system call, where reading
/// `/proc/meminfo` took eight, and a short count is mostly such fixed costs.
pub fn machine_memory() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // Safety: sysinfo only writes the struct it is given; all-zero is a valid one.
        let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
        if unsafe { libc::sysinfo(&mut info) } == 0 {
            let unit = u64::from(info.mem_unit.max(1));
            // `c_ulong`: 32 bits on 32-bit targets, where the conversion is not idle.
            #[allow(clippy::useless_conversion)]
            let total = u64::from(info.totalram).saturating_mul(unit);
            return Some(usize::try_from(total).unwrap_or(usize::MAX));
        }
    }
    None
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
