//! Behaviour pinned byte for byte: a fixed list of commands over the catalog, a BurrTools
//! file and a coloured-cube file, whose exit code, standard output and error are recorded in
//! `tests/golden/*.out`. A refactoring must leave every one unchanged (issue 23).
//!
//! What varies from run to run is masked before the comparison, and only that: decimal
//! numbers on `c ` lines (times, rates, memory), the count of CaDiCaL's MRV decisions, and
//! every decimal number in `bench`'s output. Outputs over 64 KiB are recorded as their length, an FNV-1a hash and their
//! first lines.
//!
//! To record the outputs anew after an intended change:
//! `POLYCOVER_BLESS=1 cargo test --release --test lib golden::` — then read the diff.

use std::path::Path;

use crate::common::bin;

/// The commands, run side by side in one scratch directory that holds `AlPackino.xmpuzzle`,
/// `soma.model` (CaDiCaL's answer to `dimacs soma`) and `cubes.toml` (five coloured cubes).
/// `> FILE` keeps the standard output in the scratch directory for a later command
/// (`merge`, which runs after all the others).
const COMMANDS: &[&str] = &[
    "list",
    "count soma --threads 2",
    "count soma --solver dlx --threads 1",
    "count soma --symmetry none --threads 2",
    "count soma --solver sat --threads 1",
    "count soma --solver sat --backend varisat --threads 1",
    "count pentomino-6x10 --threads 2",
    "count pentomino-3x20 --solver dlx --threads 1",
    "count pentomino-8x8-hole --threads 2",
    "count slothouber-graatsma --threads 2",
    "count hesselink-5 --threads 2",
    "count hesselink-5 --solver sat --threads 1",
    "count AlPackino.xmpuzzle --threads 2",
    "count cubes.toml --threads 1",
    "count soma --part 1/2 --threads 1 > part1.txt",
    "count soma --part 2/2 --threads 1 > part2.txt",
    "merge part1.txt part2.txt",
    "solve soma",
    "solve soma --solver sat",
    "solve bedlam",
    "solve hesselink-5",
    "solve cubes.toml",
    "solve AlPackino.xmpuzzle",
    "solve pentomino-4x15 --solver dlx",
    "enumerate soma --limit 3",
    "enumerate soma --limit 2 --format jsonl",
    "enumerate pentomino-5x12 --limit 2 --solver sat",
    "enumerate hesselink-5 --limit 2",
    "info soma",
    "info bedlam",
    "info hesselink-5",
    "info AlPackino.xmpuzzle",
    "info cubes.toml",
    "dimacs soma",
    "dimacs soma --amo pairwise",
    "dimacs soma --symmetry none",
    "dimacs bedlam",
    "dimacs hesselink-5",
    "dimacs soma --part 2/3",
    "export soma --format dlx",
    "export soma --format burrtools -o -",
    "export soma --format mzn",
    "export soma --format opb",
    "export hesselink-5 --format mzn",
    "export hesselink-5 --format opb",
    "export pentomino-6x10 --format dlx --symmetry none",
    "export AlPackino.xmpuzzle --format dlx",
    "import AlPackino.xmpuzzle",
    "decode soma --model soma.model",
    "decode bedlam --model soma.model",
    "check soma",
    "check hesselink-5",
    "bench soma --solvers dlx,bits --csv -",
    "count nosuchpuzzle",
    "count soma --solver nosuch",
];

/// Recorded outputs longer than this are kept as a hash and their first lines.
const FULL_LIMIT: usize = 64 * 1024;

#[test]
fn outputs_are_unchanged() {
    let golden = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("tests/golden");
    let bless = std::env::var_os("POLYCOVER_BLESS").is_some();
    let scratch = tempfile::tempdir().unwrap();
    let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("tests/fixtures");
    std::fs::copy(
        fixtures.join("burrtools/AlPackino.xmpuzzle"),
        scratch.path().join("AlPackino.xmpuzzle"),
    )
    .unwrap();
    std::fs::copy(golden.join("soma.model"), scratch.path().join("soma.model")).unwrap();
    std::fs::copy(golden.join("cubes.toml"), scratch.path().join("cubes.toml")).unwrap();

    // Every command but `merge` runs on as many threads as there are cores (each writes
    // only its own `> FILE`); `merge` reads those files, so it runs after them.
    let run = |command: &str| {
        let (args, keep) = match command.split_once(" > ") {
            Some((args, file)) => (args, Some(file)),
            None => (command, None),
        };
        let out = bin()
            .args(args.split_whitespace())
            // The same `c solver` line on every CPU.
            .env("POLYCOVER_SIMD", "portable")
            .current_dir(scratch.path())
            .output()
            .unwrap();
        if let Some(file) = keep {
            std::fs::write(scratch.path().join(file), &out.stdout).unwrap();
        }
        out
    };
    let reads_kept = |command: &str| command.starts_with("merge ");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let outputs: Vec<std::sync::Mutex<Option<std::process::Output>>> = COMMANDS
        .iter()
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(command) = COMMANDS.get(n) else {
                    break;
                };
                if !reads_kept(command) {
                    *outputs[n].lock().unwrap() = Some(run(command));
                }
            });
        }
    });
    let mut differ = Vec::new();
    for (n, command) in COMMANDS.iter().enumerate() {
        let out = match outputs[n].lock().unwrap().take() {
            Some(out) => out,
            None => run(command),
        };
        let record = record(command, &out);
        let path = golden.join(format!("{:02}-{}.out", n + 1, slug(command)));
        if bless {
            std::fs::write(&path, &record).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != record {
            differ.push(format!(
                "`polycover {command}` ({}):\n{}",
                path.display(),
                first_difference(&want, &record)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} commands changed their output:\n\n{}",
        differ.len(),
        COMMANDS.len(),
        differ.join("\n\n")
    );
}

/// The recorded form of one run: the command, its exit code and its masked outputs.
fn record(command: &str, out: &std::process::Output) -> String {
    let code = out
        .status
        .code()
        .map_or("signal".to_string(), |c| c.to_string());
    let everywhere = command.starts_with("bench");
    format!(
        "$ polycover {command}\nexit {code}\n{}--- standard error\n{}",
        shown(&out.stdout, everywhere),
        shown(&out.stderr, everywhere)
    )
}

/// One output stream as recorded: masked text, or the length and hash of binary data or
/// of a long text.
fn shown(bytes: &[u8], everywhere: bool) -> String {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return format!(
            "[{} bytes of binary, fnv1a-64 {:016x}]\n",
            bytes.len(),
            fnv1a(bytes)
        );
    };
    let masked: String = text
        .split_inclusive('\n')
        .map(|line| {
            if everywhere || line.starts_with("c ") {
                mask_decimals(line)
            } else {
                line.to_string()
            }
        })
        .collect();
    if masked.len() <= FULL_LIMIT {
        masked
    } else {
        let head: String = masked.split_inclusive('\n').take(40).collect();
        format!(
            "[{} bytes, fnv1a-64 {:016x}; the first 40 lines:]\n{head}",
            masked.len(),
            fnv1a(masked.as_bytes())
        )
    }
}

/// `1.25` becomes `#` (the spaces before it one): digits with a decimal point are times,
/// rates and sizes. So does the
/// count after `mrv decisions`: CaDiCaL with the propagator does not take the same number
/// of decisions from run to run (the models it finds are the same).
fn mask_decimals(line: &str) -> String {
    let line = match line.split_once("mrv decisions ") {
        Some((before, after)) => {
            let rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
            format!("{before}mrv decisions #{rest}")
        }
        None => line.to_string(),
    };
    let line = line.as_str();
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if starts {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            if j + 1 < chars.len() && chars[j] == '.' && chars[j + 1].is_ascii_digit() {
                j += 1;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                // Right-aligned columns pad a number by its width: one space is kept,
                // so that a size of 123.4 and one of 12.3 read alike (a debug build's
                // peak memory has a digit more than a release build's).
                while out.ends_with("  ") {
                    out.pop();
                }
                out.push('#');
                i = j;
                continue;
            }
            out.extend(&chars[i..j]);
            i = j;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A file name for a command: its words joined by `-`, without characters a file name
/// should not hold.
fn slug(command: &str) -> String {
    let s: String = command
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let mut out = String::new();
    for part in s.split('-').filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(part);
    }
    out.chars().take(60).collect()
}

/// The first line where two records differ, with its number.
fn first_difference(want: &str, got: &str) -> String {
    if want.is_empty() {
        return "no recorded output (run with POLYCOVER_BLESS=1 to record it)".into();
    }
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    for k in 0..w.len().max(g.len()) {
        if w.get(k) != g.get(k) {
            return format!(
                "line {}:\n  recorded: {:?}\n  now:      {:?}",
                k + 1,
                w.get(k).unwrap_or(&"<end>"),
                g.get(k).unwrap_or(&"<end>")
            );
        }
    }
    "they differ in line endings only".into()
}
