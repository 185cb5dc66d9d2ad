//! Rows as text: one line per row for the terminal, and CSV (one header, one record per
//! row, quoted by the `csv` crate where a field needs it, as `suite`'s `instances.csv`).
//!
//! The CSV's columns keep their meaning from version to version: new ones go at the end
//! (`cpu_s` and `cpu_use` on every in-process row; `speedup` and `efficiency` only with
//! several thread counts), so a reader that picks columns by position still reads the
//! old ones right. A text line gets the scaling fields only in a scaling run, so a run on
//! one thread count prints what it always printed.
//!
//! A time to UNSAT has its own column (`unsat_s`) and its own words in the table
//! (`first none, UNSAT 0.012 s`), never the first solution's.

use std::io::{self, Write};

use super::{Row, Spread};

/// The CSV header; [`write_csv`] writes the fields in this order.
pub const CSV_HEADER: &str = "puzzle,engine,amo,threads,status,vars,clauses,literals,dimacs_bytes,\
compile_s,first_s,first_min_s,first_max_s,unsat_s,count_s,count_min_s,count_max_s,solutions,\
complete,solutions_per_s,peak_mib,first_vs_dlx,count_vs_dlx,cpu_s,cpu_use,speedup,efficiency";

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or(String::new(), |v| v.to_string())
}

fn secs(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| format!("{v:.6}"))
}

/// A row's CSV fields, in the order of [`CSV_HEADER`].
fn csv_fields(r: &Row) -> [String; 27] {
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
        secs(r.cpu.map(|s| s.median)),
        r.cpu_use().map_or(String::new(), |x| format!("{x:.2}")),
        r.speedup.map_or(String::new(), |x| format!("{x:.2}")),
        r.efficiency().map_or(String::new(), |x| format!("{x:.2}")),
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

/// The header and one record per row.
pub fn write_csv(w: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(w);
    w.write_record(CSV_HEADER.split(','))?;
    for r in rows {
        w.write_record(csv_fields(r))?;
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
        write_csv(&mut out, &[row.clone(), row]).unwrap();
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
        assert_eq!(line, "bedlam,dlx,,1,ok,,,,,,,,,,,,,,false,,,,,,,,");
    }
}
