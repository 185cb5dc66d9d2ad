//! The `polycover` command line (the crate `polycover-cli`): the binary's own modules
//! over the library, and the lab's `bench` and `suite`.
//!
//! Invariants:
//! - The command line, checkpoints, the output files, the signal handlers, the stdout
//!   watcher, the allocator and the exit codes live here, not in the library: the library
//!   installs no handler and chooses no exit code (`cli/outcome.rs` maps the classes of
//!   its typed errors to codes).
//! - The library's modules that the command line uses are named at this crate's root
//!   (the `use polycover::{...}` below), so `crate::engine` in the binary's files is the
//!   library's `engine`: the binary reaches the library only through what it exports.

/// Exit 1 with a message, not an abort, when memory runs out (see `memory.rs`).
#[global_allocator]
static ALLOCATOR: memory::ExitOnOutOfMemory = memory::ExitOnOutOfMemory;

// The library's modules, at the binary's root (see the module doc), and the lab's.
use polycover::{design, engine, export, sat, Stop};
use polycover_lab::{bench, gbd, suite};

mod checkpoint;
mod cli;
mod memory;
mod output;
mod part_result;
mod signals;

fn main() {
    std::process::exit(cli::main());
}

/// The toy engines (`src/engine/toy.rs`, registered with the feature `toy`) through the
/// command line: a new engine in the library's registry reaches `--solver`, `bench` and
/// `check` with no line of the binary naming it.
#[cfg(test)]
mod tests {
    /// `--solver toy` and `--solver toy-lister` run from the command line, `bench
    /// --solvers` measures them (the counter with no first-solution time), and `check`
    /// cross-checks them.
    #[test]
    #[cfg_attr(
        not(feature = "toy"),
        ignore = "the toy engines are registered only with `--features toy`"
    )]
    fn they_appear_in_solver_bench_and_check() {
        let run = crate::cli::run_in_process;
        for (name, says) in [
            ("toy", "c solver toy: counts with the dlx"),
            ("toy-lister", "c solver toy-lister: lists with the dlx"),
        ] {
            let (code, out) = run(&[
                "polycover",
                "count",
                "soma",
                "--solver",
                name,
                "--threads",
                "1",
            ]);
            assert_eq!(code, 0, "{out}");
            assert!(out.contains(says), "{out}");
            assert!(out.ends_with("s mc 480\n"), "{out}");
        }

        let (code, _) = run(&["polycover", "enumerate", "soma", "--solver", "toy"]);
        assert_eq!(code, 2);
        let (code, out) = run(&["polycover", "solve", "soma", "--solver", "toy-lister"]);
        assert_eq!(code, 10, "{out}");

        let entrants = ["toy", "toy-lister"]
            .map(|n| crate::bench::Entrant::parse(n).unwrap())
            .to_vec();
        let plan = crate::bench::Plan {
            puzzles: vec!["soma".into()],
            amos: vec![polycover::sat::Amo::Product],
            entrants,
            symmetry: None,
            repeat: 1,
            timeout: std::time::Duration::from_secs(60),
            threads: 1,
            isolate: None,
            stop: polycover::Stop::new(),
            words: crate::cli::flag,
        };
        let rows = crate::bench::run(&plan, &mut |_| {}).unwrap();
        let toy = rows.iter().find(|r| r.engine == "toy").expect("a toy row");
        assert_eq!(toy.solutions, Some(480u64.into()));
        assert!(toy.first.is_none());
        let lister = rows
            .iter()
            .find(|r| r.engine == "toy-lister")
            .expect("a lister row");
        assert_eq!(lister.solutions, Some(480u64.into()));
        assert!(lister.first.is_some());

        let (code, out) = run(&["polycover", "check", "soma"]);
        assert_eq!(code, 0, "{out}");
        for name in ["toy", "toy-lister"] {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("c {name} ")) && l.contains(" 480 ")),
                "{out}"
            );
        }
    }
}
