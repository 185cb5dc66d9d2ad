//! Helpers shared by the integration tests.

use std::collections::HashSet;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

pub use crate::needs::{needs, python, Need};
use polycover::sat::Amo;
pub use polycover::Setting;
use polycover::SymmetryMode;
use polycover::{Engine, Problem, Puzzle, Report, RunOptions};

/// Six indistinguishable dominoes in a 2x2x3 box: only symmetric pieces, all copies of
/// one piece, so nothing can be pinned (32 tilings).
pub const DOMINOES: &str = r#"
    name = "dominoes"
    box = [2, 2, 3]
    [[piece]]
    name = "d"
    cells = [[0,0,0], [1,0,0]]
    count = 6
"#;

/// A 10x10 board with two opposite corners cut off, for 49 dominoes: no tiling (each
/// domino covers one black and one white cell; the cut corners are both white), and the
/// native search takes far longer than any test to learn it, so a run of it is stopped
/// before it finds anything.
pub const MUTILATED: &str = r#"
name = "mutilated 10x10"
layers = ['''
.#########
##########
##########
##########
##########
##########
##########
##########
##########
#########.
''']
[[piece]]
name = "D"
cells = [[0,0,0], [1,0,0]]
count = 49
"#;

pub fn compile(name: &str, mode: SymmetryMode) -> Problem {
    Puzzle::load(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .compile(mode)
        .unwrap()
}

pub fn compile_text(text: &str, mode: SymmetryMode) -> Problem {
    Puzzle::parse("test.toml", text)
        .unwrap()
        .compile(mode)
        .unwrap()
}

/// Distinct solutions through the symmetry reduction, counted by `engine`.
pub fn count(c: &Problem, engine: Engine, threads: usize) -> u64 {
    // Every count these tests make fits a u64.
    let report = c
        .count(
            &engine,
            &RunOptions {
                threads,
                ..RunOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", c.puzzle().name()));
    assert!(report.complete);
    report.solutions.to_u64().expect("a count that fits a u64")
}

/// A SAT engine (the registry's `sat`, set through the settings it declares), and how
/// it runs.
#[derive(Clone, Debug)]
pub struct SatRun {
    pub engine: Engine,
    pub threads: usize,
    pub deadline: Option<Instant>,
}

impl Default for SatRun {
    fn default() -> SatRun {
        SatRun {
            engine: sat_engine(&[]),
            threads: 0,
            deadline: None,
        }
    }
}

/// The registry's SAT engine with `settings` ([`Engine::configure`]), its defaults
/// otherwise.
pub fn sat_engine(settings: &[(Setting, &str)]) -> Engine {
    Engine::from_name("sat")
        .unwrap()
        .configure(settings.iter().copied())
        .unwrap_or_else(|e| panic!("{settings:?}: {e}"))
}

/// The SAT engine's backend when none is given: CaDiCaL, varisat in builds without it.
pub fn default_backend() -> &'static str {
    Engine::from_name("sat")
        .unwrap()
        .settings()
        .into_iter()
        .find(|d| d.setting == Setting::Backend)
        .and_then(|d| d.default)
        .unwrap()
}

/// A SAT run on `backend`, with `decide` (given only when not the default `mrv`: who
/// decides is a setting of CaDiCaL's alone) and `strategy`, on `threads` threads.
pub fn sat_run(backend: &str, decide: &str, strategy: &str, threads: usize) -> SatRun {
    let mut settings = vec![(Setting::Backend, backend), (Setting::Strategy, strategy)];
    if decide != "mrv" {
        settings.push((Setting::Decide, decide));
    }
    SatRun {
        engine: sat_engine(&settings),
        threads,
        deadline: None,
    }
}

/// Every model the SAT path reports, checked for duplicates, with the run's report.
pub fn sat_solutions(c: &Problem, amo: Amo, run: &SatRun) -> (Vec<Vec<u32>>, Report) {
    let engine = run
        .engine
        .configure([(Setting::Amo, amo.name())])
        .unwrap_or_else(|e| panic!("{amo:?}: {e}"));
    let mut seen = HashSet::new();
    let mut all = Vec::new();
    let report = c
        .for_each_solution(
            &engine,
            &RunOptions {
                threads: run.threads.max(1),
                stop: polycover::Stop::new().until(run.deadline),
                ..RunOptions::default()
            },
            &mut |s| {
                assert!(
                    seen.insert(s.options().to_vec()),
                    "a model was reported twice: {s:?}"
                );
                all.push(s.options().to_vec());
                ControlFlow::Continue(())
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", c.puzzle().name()));
    assert_eq!(report.solutions, all.len() as u64);
    (all, report)
}

/// Distinct solutions through SAT (no model reported twice, the run complete).
pub fn sat_count(c: &Problem, amo: Amo, run: &SatRun) -> u64 {
    let (all, report) = sat_solutions(c, amo, run);
    assert!(report.complete, "{report:?}");
    all.len() as u64
}

/// Distinct solutions the slow, independent way: enumerate every solution with no
/// symmetry reduction, map each to the least image under the whole group, and count
/// the distinct least images.
pub fn count_orbits_by_brute_force(c: &Problem) -> u64 {
    let mut seen = HashSet::new();
    c.matrix()
        .for_each_cover(&polycover::Stop::new(), &mut |s| {
            let least = c.images(s).into_iter().min().expect("the identity's image");
            seen.insert(least);
            ControlFlow::Continue(())
        });
    seen.len() as u64
}

/// The repository's root: the tests belong to the command line's package (`cli/`, the
/// directory cargo runs them in), their files and the puzzles they name to the root.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The binary under test, run in the repository's root (so that `tests/fixtures/...` and
/// `encodings/...` name the repository's files); `POLYCOVER_TEST_BIN` runs the tests
/// against another build (an older one, to see a test fail).
pub fn bin() -> Command {
    let mut command = Command::new(bin_path());
    command.current_dir(ROOT);
    command
}

/// The path of the binary under test (see [`bin`]).
pub fn bin_path() -> String {
    std::env::var("POLYCOVER_TEST_BIN").unwrap_or(env!("CARGO_BIN_EXE_polycover").into())
}

pub fn polycover(args: &[&str]) -> Output {
    bin()
        .args(args)
        .output()
        .expect("the polycover binary runs")
}

/// `polycover merge` of the parts' result files, joining their solution files into
/// `output` where given.
pub fn merge<P: AsRef<Path>>(parts: &[P], output: Option<&Path>) -> Output {
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(parts.iter().map(|p| p.as_ref().to_str().unwrap()));
    if let Some(o) = output {
        args.extend(["-o", o.to_str().unwrap()]);
    }
    polycover(&args)
}

/// Starts the binary with its standard output and error piped.
pub fn spawn(args: &[&str]) -> Child {
    bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the polycover binary starts")
}

/// Sends signal `name` (`INT`, `TERM`, `HUP`, `KILL`) to `child`.
pub fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{name} failed");
}

/// Waits for `child` at most `limit`, then kills it and returns `None`: a guard against
/// hangs, never a timing check.
pub fn wait_at_most(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Makes a FIFO (a named pipe) at `path`.
pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Reads `child`'s standard output in the background.
pub fn collect(child: &mut Child) -> std::thread::JoinHandle<String> {
    let mut pipe = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = pipe.read_to_string(&mut s);
        s
    })
}

/// What is left of `child`'s standard error, read to its end (call after the child ended,
/// or it waits for that).
pub fn rest_of_stderr(child: &mut Child) -> String {
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

/// A solution as the literals of a solver's `v` line: every primary variable, positive
/// for the chosen options (variable `o + 1` is option `o`).
pub fn model_literals(num_options: usize, solution: &[u32]) -> String {
    (0..num_options as u32)
        .map(|o| {
            if solution.contains(&o) {
                format!("{}", o + 1)
            } else {
                format!("-{}", o + 1)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the binary with extra environment variables.
pub fn polycover_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    bin()
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("the polycover binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The names of the entries in `dir`, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The bytes of a gzip file, inflated.
pub fn gunzip(path: &std::path::Path) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
}

/// The CSV file at `path` as maps from column name to cell, one per row.
pub fn csv_rows(path: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader =
        csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            assert_eq!(
                r.len(),
                header.len(),
                "a row with a cell too many or too few"
            );
            header
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Every command of the `polycover` binary: what its completions and manual page name
/// (`cli::completions_and_the_manual_page_name_every_command`), and what no library
/// message may name in code marks (`architecture::the_library_names_no_command_in_a_message`:
/// a command is the command line's word, which the Python module and an embedding
/// program do not share).
pub const COMMANDS: &[&str] = &[
    "count",
    "solve",
    "enumerate",
    "sample",
    "info",
    "list",
    "dimacs",
    "decode",
    "check",
    "bench",
    "verify",
    "generate",
    "design",
    "suite",
    "merge",
    "import",
    "export",
    "completions",
    "man",
];

/// A shape as sorted cells moved to touch the origin's planes.
pub fn normal(mut cells: Vec<[i32; 3]>) -> Vec<[i32; 3]> {
    let lo = [0, 1, 2].map(|a| cells.iter().map(|c| c[a]).min().unwrap());
    for c in &mut cells {
        *c = [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]];
    }
    cells.sort_unstable();
    cells
}

/// The 24 rotations of the cube as matrices, the closure of quarter turns about x and z
/// (written here, apart from the library's own table).
pub fn rotations() -> Vec<[[i32; 3]; 3]> {
    let times = |a: &[[i32; 3]; 3], b: &[[i32; 3]; 3]| {
        [0, 1, 2].map(|r| [0, 1, 2].map(|c| (0..3).map(|k| a[r][k] * b[k][c]).sum()))
    };
    let about_x = [[1, 0, 0], [0, 0, -1], [0, 1, 0]];
    let about_z = [[0, -1, 0], [1, 0, 0], [0, 0, 1]];
    let mut all = vec![[[1, 0, 0], [0, 1, 0], [0, 0, 1]]];
    let mut k = 0;
    while k < all.len() {
        for g in [about_x, about_z] {
            let m = times(&g, &all[k]);
            if !all.contains(&m) {
                all.push(m);
            }
        }
        k += 1;
    }
    assert_eq!(all.len(), 24);
    all
}

/// The least of a shape's rotations: one word for a shape up to rotation.
pub fn canonical(cells: &[[i32; 3]], rotations: &[[[i32; 3]; 3]]) -> Vec<[i32; 3]> {
    rotations
        .iter()
        .map(|m| normal(cells.iter().map(|&c| turn(m, c)).collect()))
        .min()
        .unwrap()
}

/// [i32; 3] `c` turned by the rotation matrix `m`.
pub fn turn(m: &[[i32; 3]; 3], c: [i32; 3]) -> [i32; 3] {
    [0, 1, 2].map(|r| (0..3).map(|k| m[r][k] * c[k]).sum())
}
