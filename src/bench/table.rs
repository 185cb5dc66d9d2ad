//! Rows as text: one line per row for the terminal, and CSV (one header, one line per
//! row, fields quoted where they need it).
//!
//! A time to UNSAT has its own column (`unsat_s`) and its own words in the table
//! (`first none, UNSAT 0.012 s`), never the first solution's.

use std::io::{self, Write};

use super::{Row, Spread};

/// The CSV header; [`csv_line`] writes the fields in this order.
pub const CSV_HEADER: &str = "puzzle,engine,amo,threads,status,vars,clauses,literals,dimacs_bytes,\
compile_s,first_s,first_min_s,first_max_s,unsat_s,count_s,count_min_s,count_max_s,solutions,\
complete,solutions_per_s,peak_mib,first_vs_dlx,count_vs_dlx";

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or(String::new(), |v| v.to_string())
}

fn secs(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| format!("{v:.6}"))
}

/// Quotes a CSV field when it needs it.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn csv_line(r: &Row) -> String {
    let cnf = r.cnf;
    let rate = match (&r.solutions, r.count) {
        (Some(n), Some(c)) if c.median > 0.0 => Some(format!("{:.3}", n.to_f64() / c.median)),
        _ => None,
    };
    [
        field(&r.puzzle),
        r.engine.clone(),
        r.amo.map_or(String::new(), |a| a.name().into()),
        r.threads.to_string(),
        field(&r.status),
        opt(cnf.map(|c| c.vars)),
        opt(cnf.map(|c| c.clauses)),
        opt(cnf.map(|c| c.literals)),
        opt(cnf.map(|c| c.dimacs_bytes)),
        secs(r.compile.map(|s| s.median)),
        secs(r.first.map(|s| s.median)),
        secs(r.first.map(|s| s.min)),
        secs(r.first.map(|s| s.max)),
        secs(r.unsat.map(|s| s.median)),
        secs(r.count.map(|s| s.median)),
        secs(r.count.map(|s| s.min)),
        secs(r.count.map(|s| s.max)),
        opt(r.solutions.as_ref()),
        r.complete.to_string(),
        opt(rate),
        r.peak_mib.map_or(String::new(), |m| format!("{m:.1}")),
        r.first_vs_dlx.map_or(String::new(), |x| format!("{x:.2}")),
        r.count_vs_dlx.map_or(String::new(), |x| format!("{x:.2}")),
    ]
    .join(",")
}

pub fn write_csv(w: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    writeln!(w, "{CSV_HEADER}")?;
    for r in rows {
        writeln!(w, "{}", csv_line(r))?;
    }
    Ok(())
}

/// A human-readable line for a row.
pub fn table_line(r: &Row) -> String {
    let t = |s: Option<Spread>| match s {
        Some(s) if s.min != s.max => format!("{:.3} s ({:.3}..{:.3})", s.median, s.min, s.max),
        Some(s) => format!("{:.3} s", s.median),
        None => "-".into(),
    };
    let ratio = |x: Option<f64>| x.map_or("-".into(), |x| format!("{x:.1}x"));
    let size = r.cnf.map_or("-".into(), |c| {
        format!(
            "{} vars, {} clauses, {} lits, {} bytes",
            c.vars, c.clauses, c.literals, c.dimacs_bytes
        )
    });
    // A search that found no solution shows its time to UNSAT instead.
    let first = match (r.first, r.unsat) {
        (None, Some(u)) => format!("none, UNSAT {}", t(Some(u))),
        (f, _) => t(f),
    };
    format!(
        "{:<18} {:<28} {}t first {:<24} {} count {:<24} {} solutions {:<8} {:<9} peak {:>7} MiB  compile {}  {}",
        r.puzzle,
        r.label(),
        r.threads,
        first,
        ratio(r.first_vs_dlx),
        t(r.count),
        ratio(r.count_vs_dlx),
        opt(r.solutions.as_ref()),
        r.status,
        r.peak_mib.map_or("-".into(), |m| format!("{m:.1}")),
        t(r.compile),
        size,
    )
}
