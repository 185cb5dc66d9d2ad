//! Parts run by real schedulers: GNU parallel on this machine, and a one-node Slurm
//! cluster that this test starts itself (munge, slurmctld and slurmd on private ports,
//! state in a temporary directory), running `examples/slurm-parts.sh`.
//!
//! A separate test binary (libtest-mimic) so that the Slurm test can be reported as
//! *ignored*, with the reason printed, when the daemons cannot start here: the standard
//! harness can only pass or fail at run time. `.ci/run` installs `parallel`, `munge` and
//! `slurm-wlm`; where a program is missing its trial is skipped with the line of
//! `tests/needs.rs` (a failure under `POLYCOVER_TEST_REQUIRE_ALL=1`). Release builds count
//! Bedlam up to rotation (19,186) in 16 parts; a debug build counts Soma.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

// This harness uses the gate's lines and its switch, not its `needs` (which names the
// test after the standard harness's thread).
#[allow(dead_code)]
#[path = "needs.rs"]
mod needs;

const POLYCOVER: &str = env!("CARGO_BIN_EXE_polycover");

fn main() {
    let args = Arguments::from_args();
    let slurm_missing = missing(&["munged", "slurmctld", "slurmd", "sbatch", "sinfo"]);
    let cluster = slurm_missing.is_none().then(Cluster::start);
    // Installed but not started here (munged needs root): ignored, with the reason.
    let slurm_skip = match &cluster {
        Some(Err(why)) => {
            eprintln!("slurm_counts_soma_in_8_parts: SKIPPED, the cluster did not start: {why}");
            true
        }
        _ => false,
    };
    let cluster = std::sync::Arc::new(cluster.and_then(Result::ok));
    let trials = vec![
        gated(
            "gnu_parallel_counts_in_16_parts",
            missing(&["parallel"]),
            gnu_parallel,
        ),
        gated("slurm_counts_soma_in_8_parts", slurm_missing, {
            let cluster = std::sync::Arc::clone(&cluster);
            move || slurm((*cluster).as_ref().expect("started"))
        })
        .with_ignored_flag(slurm_skip),
    ];
    let conclusion = libtest_mimic::run(&args, trials);
    drop(cluster);
    conclusion.exit();
}

/// The trial `name`, run when nothing is `missing`; otherwise skipped with the gate's
/// line, or failed with it under `POLYCOVER_TEST_REQUIRE_ALL=1`.
fn gated(
    name: &'static str,
    missing: Option<String>,
    run: impl FnOnce() -> Result<(), Failed> + Send + 'static,
) -> Trial {
    Trial::ignorable_test(name, move || match missing {
        None => run().map(|()| Completion::Completed),
        Some(what) if needs::require_all() => Err(needs::failure_line(name, &what).into()),
        Some(what) => {
            needs::skip_or_fail(false, name, &what);
            Ok(Completion::ignored_with(format!("needs {what}")))
        }
    })
}

/// The programs of `programs` that are not installed, in words, or `None`.
fn missing(programs: &[&str]) -> Option<String> {
    let absent: Vec<String> = programs
        .iter()
        .filter(|p| !which(p))
        .map(|p| format!("`{p}`"))
        .collect();
    (!absent.is_empty()).then(|| format!("{} on PATH", absent.join(", ")))
}

fn run(cmd: &mut Command) -> Result<String, Failed> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

/// `parallel -j2` runs the 16 parts; `merge` adds them up; the same count on two
/// threads in one process is timed in the same run for the ratio in docs/guide/performance.md.
/// Bedlam up to rotation (a few seconds), not `--symmetry none` (70 s, twice): the parts
/// are the same machinery, and the CI budget is better spent elsewhere.
fn gnu_parallel() -> Result<(), Failed> {
    let (puzzle, want) = if cfg!(debug_assertions) {
        ("soma", "s mc 480")
    } else {
        ("bedlam", "s mc 19186")
    };
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let t = Instant::now();
    let parts = run(Command::new("parallel")
        .args(["--will-cite", "-j2", "--halt", "now,fail=1"])
        .arg(format!(
            "{POLYCOVER} count {puzzle} --threads 1 --part {{}}/16"
        ))
        .arg(":::")
        .args((1..=16).map(|k| k.to_string())))?;
    let split_seconds = t.elapsed().as_secs_f64();
    let results = dir.path().join("parts.txt");
    std::fs::write(&results, &parts).map_err(|e| e.to_string())?;
    let merged = run(Command::new(POLYCOVER).arg("merge").arg(&results))?;
    if last_line(&merged) != want {
        return Err(format!("merge says {merged}, want {want}").into());
    }
    let t = Instant::now();
    let whole = run(Command::new(POLYCOVER).args(["count", puzzle, "--threads", "2"]))?;
    let whole_seconds = t.elapsed().as_secs_f64();
    if last_line(&whole) != want {
        return Err(format!("the whole count says {whole}").into());
    }
    // Reported, not asserted: timings on a shared machine are noise for a test.
    eprintln!(
        "gnu parallel: 16 parts on -j2 {split_seconds:.1} s, one process on 2 threads \
         {whole_seconds:.1} s, ratio {:.3}",
        split_seconds / whole_seconds
    );
    Ok(())
}

fn slurm(cluster: &Cluster) -> Result<(), Failed> {
    let out = cluster.dir.join("out");
    let script =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/slurm-parts.sh");
    run(Command::new(&script)
        .args(["soma", "8", "--symmetry", "none"])
        .env("SLURM_CONF", &cluster.conf)
        .env("POLYCOVER", POLYCOVER)
        .env("PARTS_DIR", &out)
        .env("SBATCH_WAIT", "1"))?;
    let total = std::fs::read_to_string(out.join("total.txt")).map_err(|e| e.to_string())?;
    if last_line(&total) != "s mc 11520" {
        return Err(format!("the merge job wrote:\n{total}").into());
    }
    for k in 1..=8 {
        let part = std::fs::read_to_string(out.join(format!("part-{k}.txt")))
            .map_err(|e| e.to_string())?;
        if !part.contains(&format!("c part {k}/8 fingerprint ")) {
            return Err(format!("part {k} wrote:\n{part}").into());
        }
    }
    Ok(())
}

/// A one-node Slurm cluster of this machine, stopped when dropped.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<Child>,
    _tmp: tempfile::TempDir,
}

impl Cluster {
    /// Starts the cluster; `main` checked that its programs are installed.
    fn start() -> Result<Cluster, String> {
        // munge authenticates every Slurm message; start it unless it runs.
        if Command::new("munge")
            .arg("-n")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| !s.success())
            .unwrap_or(true)
        {
            let _ = std::fs::create_dir_all("/run/munge");
            let started = Command::new("munged")
                .arg("--force")
                .status()
                .map_err(|e| format!("munged: {e}"))?;
            if !started.success() {
                return Err(format!(
                    "munged exited with {started} (root is needed to start it)"
                ));
            }
        }
        let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
        let dir = tmp.path().to_path_buf();
        for d in ["state", "spool", "out"] {
            std::fs::create_dir_all(dir.join(d)).map_err(|e| e.to_string())?;
        }
        let host = String::from_utf8_lossy(
            &Command::new("hostname")
                .arg("-s")
                .output()
                .map_err(|e| e.to_string())?
                .stdout,
        )
        .trim()
        .to_string();
        // Private ports, so that a cluster the machine already runs is left alone.
        let port = 20000 + (std::process::id() % 20000) as u16;
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=polycovertest\nSlurmctldHost={host}\nSlurmctldPort={port}\n\
                 SlurmdPort={}\nSlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n\
                 StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
                 SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
                 ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
                 SchedulerType=sched/builtin\nSelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_Core\nReturnToService=2\nMpiDefault=none\n\
                 JobCompType=jobcomp/none\nAccountingStorageType=accounting_storage/none\n\
                 NodeName={host} CPUs={cpus} State=UNKNOWN\n\
                 PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
                port + 1
            ),
        )
        .map_err(|e| e.to_string())?;
        let mut cluster = Cluster {
            dir,
            conf,
            daemons: Vec::new(),
            _tmp: tmp,
        };
        for daemon in ["slurmctld", "slurmd"] {
            // -D: in the foreground, so that the child is the daemon and drop stops it.
            let child = Command::new(daemon)
                .args(["-D", "-f"])
                .arg(&cluster.conf)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("{daemon}: {e}"))?;
            cluster.daemons.push(child);
        }
        // Ready when the node is idle.
        let t = Instant::now();
        loop {
            for child in &mut cluster.daemons {
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(format!(
                        "a daemon exited with {status}; see {}",
                        cluster.dir.display()
                    ));
                }
            }
            let info = Command::new("sinfo")
                .args(["-h", "-o", "%T"])
                .env("SLURM_CONF", &cluster.conf)
                .output();
            if let Ok(o) = info {
                if String::from_utf8_lossy(&o.stdout).trim() == "idle" {
                    return Ok(cluster);
                }
            }
            if t.elapsed() > Duration::from_secs(30) {
                let log =
                    std::fs::read_to_string(cluster.dir.join("slurmd.log")).unwrap_or_default();
                return Err(format!(
                    "the node is not idle after 30 s; slurmd.log:\n{log}"
                ));
            }
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for child in &mut self.daemons {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn which(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| d.join(program).is_file())
            || ["/usr/sbin", "/sbin"]
                .iter()
                .any(|d| Path::new(d).join(program).is_file())
    })
}
