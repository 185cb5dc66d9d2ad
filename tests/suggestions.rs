//! Unknown names get suggestions (issue 34): a misspelled catalog name, `bench --solvers`
//! or `--amo` name, BurrTools problem, `--sat-option` name or puzzle kind is refused with
//! exit 2 and "did you mean `NAME`?" for the closest known name, and a name like none
//! gets no guess. Subcommands, flags and the values clap parses get clap's own "a similar
//! ... exists" tip; the last test pins that down, so that a change of clap's features
//! cannot silently lose them.

use crate::common::{polycover, stderr};

/// Runs `args`, expects a usage error (exit 2), and returns its standard error.
fn refused(args: &[&str]) -> String {
    let out = polycover(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "polycover {args:?} was not refused as a usage error: {}",
        stderr(&out)
    );
    stderr(&out)
}

#[test]
fn a_misspelled_catalog_name_is_told_the_closest_entry() {
    let err = refused(&["count", "domino-8x8"]);
    assert!(err.contains("did you mean `dominoes-8x8`?"), "{err}");
    assert!(err.contains("polycover list"), "{err}");
    // Every command that takes a puzzle resolves it the same way.
    for command in ["solve", "info", "enumerate", "dimacs"] {
        let err = refused(&[command, "Bedlamm"]);
        assert!(err.contains("did you mean `bedlam`?"), "{command}: {err}");
    }
    // With `.toml` and no such file: the file is missing, and the catalog has a near name.
    let err = refused(&["count", "pentomino-6x11.toml"]);
    assert!(err.contains("no such file"), "{err}");
    assert!(err.contains("did you mean `pentomino-6x10`?"), "{err}");
    // The library offers the same suggestion.
    assert_eq!(
        polycover::CatalogEntry::suggest("domino-8x8"),
        Some("dominoes-8x8")
    );
}

#[test]
fn a_name_like_none_gets_no_guess() {
    let err = refused(&["count", "tetris-cube"]);
    assert!(
        err.contains("no puzzle file or catalog entry named"),
        "{err}"
    );
    assert!(!err.contains("did you mean"), "{err}");
    assert_eq!(polycover::CatalogEntry::suggest("zzz"), None);
}

#[test]
fn misspelled_bench_solvers_and_encodings_are_told_the_closest_name() {
    let err = refused(&["bench", "soma", "--solvers", "dlx,bitz"]);
    assert!(err.contains("unknown solver `bitz`"), "{err}");
    assert!(err.contains("did you mean `bits`?"), "{err}");
    let err = refused(&["bench", "soma", "--amo", "product,bimandr"]);
    assert!(err.contains("did you mean `bimander`?"), "{err}");
}

#[test]
fn a_misspelled_burrtools_problem_is_told_the_closest_problem() {
    let file = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/tests/fixtures/burrtools/DemoMirrorParadox.xmpuzzle"
    );
    let err = refused(&["count", file, "--problem", "Another Exampel"]);
    assert!(err.contains("did you mean `Another Example`?"), "{err}");
}

#[cfg(feature = "cadical")]
#[test]
fn a_misspelled_cadical_option_is_told_the_closest_option() {
    let err = refused(&[
        "count",
        "soma",
        "--solver",
        "sat",
        "--sat-option",
        "restrat=0",
    ]);
    assert!(err.contains("is not a CaDiCaL option"), "{err}");
    assert!(err.contains("did you mean `restart`?"), "{err}");
}

#[test]
fn a_misspelled_puzzle_kind_is_told_the_closest_kind() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cubes.toml");
    std::fs::write(
        &file,
        "name = \"x\"\nkind = \"colored-cube\"\ncubes = [\"AABBCC\"]\n",
    )
    .unwrap();
    let err = refused(&["count", file.to_str().unwrap()]);
    assert!(err.contains("unknown puzzle kind"), "{err}");
    assert!(err.contains("did you mean `colored-cubes`?"), "{err}");
}

/// What clap itself suggests: subcommands, flags and the values of its own value lists.
#[test]
fn clap_suggests_subcommands_flags_and_values() {
    for (args, tip) in [
        (
            &["cout", "soma"][..],
            "a similar subcommand exists: 'count'",
        ),
        (
            &["count", "soma", "--symetry", "none"],
            "a similar argument exists: '--symmetry'",
        ),
        (
            &["count", "soma", "--symmetry", "rotation"],
            "a similar value exists: 'rotations'",
        ),
        (
            &["count", "soma", "--solver", "bit"],
            "a similar value exists: 'bits'",
        ),
        (
            &["export", "soma", "--format", "stll"],
            "a similar value exists: 'stl'",
        ),
        (
            &["count", "soma", "--solver", "sat", "--amo", "ladr"],
            "a similar value exists: 'ladder'",
        ),
    ] {
        let err = refused(args);
        assert!(err.contains(tip), "polycover {args:?}: {err}");
    }
}
