//! Rows as text: one line per row for the terminal, and CSV (one header, one record per
//! row, quoted by the `csv` crate where a field needs it, as `suite`'s `instances.csv`).
//!
//! The CSV's columns keep their meaning from version to version. A scaling run (several
//! thread counts) adds its own at the end ([`SCALING_HEADER`]: CPU time, cores busy,
//! speed-up, efficiency), so a reader that picks columns by position still reads the
//! others right; a run on one thread count writes the columns, and the text lines, it
//! always wrote.
//!
//! A time to UNSAT has its own column (`unsat_s`) and its own words in the table
//! (`first none, UNSAT 0.012 s`), never the first solution's.

use std::io::{self, Write};

use super::{Row, Spread};

/// The CSV header; [`write_csv`] writes the fields in this order.
pub const CSV_HEADER: &str = "puzzle,engine,amo,threads,status,vars,clauses,literals,dimacs_bytes,\
compile_s,first_s,first_min_s,first_max_s,unsat_s,count_s,count_min_s,count_max_s,solutions,\
complete,solutions_per_s,peak_mib,first_vs_dlx,count_vs_dlx";

/// The columns a scaling run adds after [`CSV_HEADER`]'s.
pub const SCALING_HEADER: &str = "cpu_s,cpu_use,speedup,efficiency";

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or(String::new(), |v| v.to_string())
}

fn secs(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| format!("{v:.6}"))
}

/// A row's CSV fields, in the order of [`CSV_HEADER`].
fn csv_fields(r: &Row) -> [String; 23] {
    let cnf = r.cnf;
    let rate = match (&r.solutions, r.count) {
        (Some(n), Some(c)) if c.median > 0.0 => Some(format!("{:.3}", n.to_f64() / c.median)),
        _ => None,
    };
    [
        r.puzzle.clone(),
        r.engine.clone(),
        r.amo.map_or(String::new(), |a| a.name().into()),
        r.threads.to_string(),
        r.status.clone(),
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
}

/// A row's scaling fields, in the order of [`SCALING_HEADER`].
fn scaling_csv_fields(r: &Row) -> [String; 4] {
    let two = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.2}"));
    [
        secs(r.cpu.map(|s| s.median)),
        two(r.cpu_use()),
        two(r.speedup),
        two(r.efficiency()),
    ]
}

/// One row as a CSV line, without its line end (the tests' view of one record).
#[cfg(test)]
fn csv_line(r: &Row) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing to memory fails on no record.
    w.write_record(csv_fields(r))
        .expect("a CSV record in memory");
    let mut line = w.into_inner().expect("a CSV writer to memory");
    line.pop();
    String::from_utf8(line).expect("CSV of strings is UTF-8")
}

/// The header and one record per row; `scaling`: with a scaling run's columns.
pub fn write_csv(w: &mut dyn Write, rows: &[Row], scaling: bool) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    let extra = if scaling { SCALING_HEADER } else { "" };
    w.write_record(
        CSV_HEADER
            .split(',')
            .chain(extra.split(',').filter(|c| !c.is_empty())),
    )?;
    for r in rows {
        if scaling {
            w.write_record(csv_fields(r).iter().chain(&scaling_csv_fields(r)))?;
        } else {
            w.write_record(csv_fields(r))?;
        }
    }
    w.flush()
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
    let line = format!(
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
    );
    match r.base_threads {
        Some(_) => format!("{line}  | {}", scaling_fields(r)),
        None => line,
    }
}

/// A scaling row's own fields: its CPU time, the cores it kept busy, its speed-up and
/// its efficiency.
fn scaling_fields(r: &Row) -> String {
    let num = |x: Option<f64>, unit: &str| x.map_or("-".into(), |x| format!("{x:.2}{unit}"));
    format!(
        "cpu {}  busy {}  speed-up {} vs {}t  efficiency {}",
        num(r.cpu.map(|s| s.median), " s"),
        num(r.cpu_use(), ""),
        num(r.speedup, "x"),
        opt(r.base_threads),
        num(r.efficiency(), ""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_with_quotes_commas_and_line_ends_round_trips() {
        let awkward = "a,\"b\"\r\nc\rd\ne";
        let mut row = Row::new(awkward, "dlx", None);
        // A lone `\r` needs quoting too (the hand-written CSV did not quote it).
        row.status = "skipped: a\rb".into();
        let mut out = Vec::new();
        write_csv(&mut out, &[row.clone(), row], false).unwrap();
        let mut reader = csv::Reader::from_reader(out.as_slice());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(header, CSV_HEADER.split(',').collect::<Vec<_>>());
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        for record in &records {
            assert_eq!(record.len(), header.len());
            assert_eq!(&record[0], awkward);
            assert_eq!(&record[1], "dlx");
            assert_eq!(&record[4], "skipped: a\rb");
        }
    }

    #[test]
    fn a_plain_row_is_one_unquoted_line() {
        let line = csv_line(&Row::new("bedlam", "dlx", None));
        assert_eq!(line, "bedlam,dlx,,1,ok,,,,,,,,,,,,,,false,,,,");
    }

    /// A scaling run's CSV is the plain one with its columns after the others.
    #[test]
    fn a_scaling_csv_adds_its_columns_at_the_end() {
        let mut row = Row::new("soma", "bits", None);
        row.threads = 2;
        row.base_threads = Some(1);
        row.speedup = Some(1.5);
        row.count = Spread::of(vec![2.0]);
        row.cpu = Spread::of(vec![3.0]);
        let (mut plain, mut scaling) = (Vec::new(), Vec::new());
        write_csv(&mut plain, &[row.clone()], false).unwrap();
        write_csv(&mut scaling, &[row], true).unwrap();
        let (plain, scaling) = (
            String::from_utf8(plain).unwrap(),
            String::from_utf8(scaling).unwrap(),
        );
        for (p, s) in plain.lines().zip(scaling.lines()) {
            assert!(s.starts_with(p), "{p} / {s}");
        }
        let last = scaling.lines().nth(1).unwrap();
        assert!(last.ends_with(",3.000000,1.50,1.50,0.75"), "{last}");
        assert!(scaling.lines().next().unwrap().ends_with(SCALING_HEADER));
    }
}
