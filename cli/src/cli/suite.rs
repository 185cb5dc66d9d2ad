//! `suite`: a benchmark family written into a directory (`crate::suite` does the work).
//!
//! Invariants: nothing is written to standard output; the progress, one `c` line per
//! instance, and the closing `c wrote` line go to standard error. Every output is
//! checked before the first instance is generated.

use std::io::Write;
use std::path::Path;

use super::args::SuiteArgs;
use super::context::Context;
use super::outcome::Outcome;
use crate::suite::Family;
use polycover::Result;

pub(super) fn suite(a: SuiteArgs, ctx: &Context, _out: &mut dyn Write) -> Result<Outcome> {
    let family = Family {
        name: a.family,
        size: a.box_size,
        pieces: a.pieces,
        sizes: a.sizes,
        seeds: a.seeds,
        status: a.status.into(),
        count_timeout: a.count_timeout,
        certify: a.certify,
    };
    let env = crate::suite::Env {
        files: &Outputs(ctx.stop().clone()),
        stop: ctx.stop().clone(),
    };
    let summary = crate::suite::write(&family, &a.dir, a.force, &env, &mut |line| {
        eprintln!("c {line}")
    })?;
    if summary.removed > 0 {
        eprintln!(
            "c {}: removed {} file{} of an earlier suite (--force)",
            a.dir.display(),
            summary.removed,
            if summary.removed == 1 { "" } else { "s" }
        );
    }
    if summary.others > 0 {
        let (entries, them) = if summary.others == 1 {
            ("entry", "it is")
        } else {
            ("entries", "they are")
        };
        eprintln!(
            "c {}: {} other {entries}, not this suite's, left as {them}",
            a.dir.display(),
            summary.others
        );
    }
    if summary.capped > 0 {
        eprintln!(
            "c {} counts stopped by the {} s count timeout: empty cells in instances.csv",
            summary.capped,
            family.count_timeout.as_secs_f64()
        );
    }
    eprintln!(
        "c wrote {}: {} instances ({} SAT, {} UNSAT), {} files in {:.1} s",
        a.dir.display(),
        summary.instances,
        summary.sat,
        summary.unsat,
        summary.files,
        summary.seconds
    );
    Ok(Outcome::Done)
}

/// The suite's files through the command line's writer: each all or nothing.
struct Outputs(polycover::Stop);

impl crate::suite::Files for Outputs {
    fn check_directory(
        &self,
        dir: &Path,
        force: bool,
        writes: &str,
        owns: &dyn Fn(&str) -> bool,
    ) -> Result<usize> {
        crate::output::check_directory(dir, force, writes, owns)
    }

    fn check_writable(&self, path: &Path) -> Result<()> {
        crate::output::check_writable(path, &[])
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        crate::output::write(&self.0, path, &mut std::io::sink(), &[], &mut |w| {
            Ok(w.write_all(bytes)?)
        })
    }
}
