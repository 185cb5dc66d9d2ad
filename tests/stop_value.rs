//! Stopping as a value (issue 48): two runs in one process, each with its own
//! [`Stop`], stop one at a time. Raising one run's stop ends that run, incomplete and
//! marked interrupted, while the other, running at the same time, counts to the end.
//! The library keeps no stop of its own, so a run after a stopped one runs too.

use std::time::Duration;

use polycover::{Engine, Problem, Report, RunOptions, Stop, SymmetryMode};

/// Far above the time any of these runs takes once stopped: a guard against a hang.
const ENDS_WITHIN: Duration = Duration::from_secs(60);

/// Counts `name` (in `mode`, its default when `None`) with `engine` on `threads` threads
/// and the given stop.
fn count(
    name: &str,
    mode: Option<SymmetryMode>,
    engine: &Engine,
    threads: usize,
    stop: &Stop,
) -> Report {
    let problem = Problem::load(name, mode).unwrap();
    let opts = RunOptions {
        threads,
        stop: stop.clone(),
        ..RunOptions::default()
    };
    problem.count(engine, &opts).unwrap()
}

/// For each engine family: Bedlam (minutes with any engine) runs beside a count of
/// pentominoes that takes the engine about a second (0.5-4 s); Bedlam's stop is raised
/// while both run. Bedlam's count ends interrupted; the pentominoes' ends complete, with
/// the known count. A third count after Bedlam's stop runs to the end too.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn raising_one_runs_stop_leaves_the_other_running() {
    use SymmetryMode::{None as Plain, Rotations};
    for (name, other_name, mode, expected) in [
        ("dlx", "pentomino-6x10", Rotations, 2339u64),
        ("bits", "pentomino-6x10", Plain, 9356),
        ("memo", "pentomino-6x10", Rotations, 2339),
        ("sat", "pentomino-4x15", Rotations, 368),
    ] {
        let engine = Engine::from_name(name).unwrap();
        let bedlam_stop = Stop::new();
        let other_stop = Stop::new();
        std::thread::scope(|s| {
            let bedlam = s.spawn(|| count("bedlam", None, &engine, 1, &bedlam_stop));
            let other = s.spawn(|| count(other_name, Some(mode), &engine, 1, &other_stop));
            std::thread::sleep(Duration::from_millis(150));
            assert!(
                !bedlam.is_finished() && !other.is_finished(),
                "{name}: a count ended before the stop"
            );
            let raised = std::time::Instant::now();
            assert!(!bedlam_stop.raise(), "a new stop is not raised");
            let bedlam = bedlam.join().unwrap();
            assert!(raised.elapsed() < ENDS_WITHIN, "{name}");
            assert!(
                !bedlam.complete && bedlam.interrupted && !bedlam.timed_out,
                "{name}: {bedlam:?}"
            );
            let other = other.join().unwrap();
            assert!(
                other.complete && !other.interrupted,
                "{name}: the other run was stopped too: {other:?}"
            );
            assert_eq!(other.solutions, expected, "{name}");
            assert!(!other_stop.raised(), "{name}");
        });
        let after = count("soma", None, &engine, 2, &Stop::new());
        assert!(
            after.complete,
            "{name}: a run after a stopped one: {after:?}"
        );
        assert_eq!(after.solutions, 480u64, "{name}");
    }
}

/// A stop's deadline ends its own run alone: Bedlam with a deadline 300 ms away stops,
/// timed out and not interrupted, while a count beside it with no deadline (the 6x10
/// pentominoes: about a second) finishes.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn a_deadline_is_the_runs_own() {
    let engine = Engine::dlx();
    let soon = Stop::after(Duration::from_millis(300));
    let never = Stop::new();
    std::thread::scope(|s| {
        let bedlam = s.spawn(|| count("bedlam", None, &engine, 1, &soon));
        let other = s.spawn(|| count("pentomino-6x10", None, &engine, 1, &never));
        let bedlam = bedlam.join().unwrap();
        assert!(
            !bedlam.complete && bedlam.timed_out && !bedlam.interrupted,
            "{bedlam:?}"
        );
        let other = other.join().unwrap();
        assert!(other.complete, "{other:?}");
        assert_eq!(other.solutions, 2339u64);
    });
}

/// Reading a puzzle polls its stop too: a raised stop ends the option table of a box
/// with many placements before it is made.
#[test]
fn puzzle_reading_heeds_its_stop() {
    let stop = Stop::new();
    stop.raise();
    let e = polycover::Puzzle::load_with("bedlam", None, &stop).unwrap_err();
    assert!(matches!(e, polycover::Error::Interrupted(_)), "{e}");
    // The same puzzle with a stop of its own loads.
    polycover::Puzzle::load_with("bedlam", None, &Stop::new()).unwrap();
}
