//! `export --format stl|3mf`: the pieces for 3-D printing, read back by trimesh (PyPI,
//! installed by `.ci/run`; tests/mesh_check.py), an independent mesh library. Each piece
//! must be watertight and consistently wound, one body, with the volume of its cubes less
//! the clearance and the bounding box its cubes give; the expectations are computed here
//! from the puzzle's cells, not from the mesher.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

type Cell = [i32; 3];
use polycover::Puzzle;

use crate::common::{file_names, needs, polycover, python, stderr, Need};

/// What tests/mesh_check.py imports: trimesh, and what its 3MF reader needs.
const TRIMESH: Need = Need::Python(&["trimesh", "lxml", "networkx"]);

/// One solid as trimesh saw it.
#[derive(Debug)]
struct Seen {
    name: String,
    watertight: bool,
    winding_consistent: bool,
    volume: f64,
    lo: [f64; 3],
    hi: [f64; 3],
    euler: i64,
}

/// trimesh's reading of `files`, one entry per solid.
fn trimesh(files: &[&Path]) -> Vec<Seen> {
    let out = Command::new(python())
        .arg(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
            "/tests/mesh_check.py"
        ))
        .args(files)
        .output()
        .expect("the virtualenv's python runs (bash .ci/run makes target/venv)");
    assert!(out.status.success(), "mesh_check.py: {}", stderr(&out));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let corner =
                |i: usize| -> [f64; 3] { [0, 1, 2].map(|a| v["bounds"][i][a].as_f64().unwrap()) };
            Seen {
                name: v["name"].as_str().unwrap().to_string(),
                watertight: v["watertight"].as_bool().unwrap(),
                winding_consistent: v["winding_consistent"].as_bool().unwrap(),
                volume: v["volume"].as_f64().unwrap(),
                lo: corner(0),
                hi: corner(1),
                euler: v["euler"].as_i64().unwrap(),
            }
        })
        .collect()
}

/// Bedlam's pieces, each as its cells.
fn bedlam() -> Vec<Vec<Cell>> {
    Puzzle::load("bedlam").unwrap().piece_cells().unwrap()
}

/// The piece shrunk by `r`, to first order: its cubes less a slab `r` thick under each
/// face that no other cube of the piece covers.
fn first_order_volume(cells: &[Cell], unit: f64, r: f64) -> f64 {
    let set: HashSet<Cell> = cells.iter().copied().collect();
    let mut exposed = 0;
    for c in cells {
        for a in 0..3 {
            for d in [-1, 1] {
                let mut n = *c;
                n[a] += d;
                exposed += !set.contains(&n) as usize;
            }
        }
    }
    cells.len() as f64 * unit.powi(3) - exposed as f64 * unit * unit * r
}

/// The piece shrunk by `r` exactly, counted in voxels of side `r` (`unit / r` whole): a
/// voxel is kept when the 3x3x3 voxels around it all lie in the piece's cubes.
fn voxel_volume(cells: &[Cell], unit: f64, r: f64) -> f64 {
    let per = (unit / r).round() as i32;
    assert!((per as f64 * r - unit).abs() < 1e-9);
    let set: HashSet<Cell> = cells.iter().copied().collect();
    let solid = |v: [i32; 3]| set.contains(&v.map(|x| x.div_euclid(per)));
    let mut kept = 0u64;
    for c in cells {
        for x in 0..per {
            for y in 0..per {
                for z in 0..per {
                    let v = [c[0] * per + x, c[1] * per + y, c[2] * per + z];
                    let all = (-1..=1).all(|dx| {
                        (-1..=1)
                            .all(|dy| (-1..=1).all(|dz| solid([v[0] + dx, v[1] + dy, v[2] + dz])))
                    });
                    kept += all as u64;
                }
            }
        }
    }
    kept as f64 * r.powi(3)
}

/// Each piece's cells and the sizes of its bounding box, in cells, sorted.
fn extents(cells: &[Cell]) -> [i32; 3] {
    let mut e = [0, 1, 2].map(|a| {
        cells.iter().map(|c| c[a]).max().unwrap() - cells.iter().map(|c| c[a]).min().unwrap() + 1
    });
    e.sort_unstable();
    e
}

/// Checks `seen` (one solid per Bedlam piece, in piece order) against the pieces laid
/// out with cubes of `unit` and clearance `gap`: closed, one body each, the volume
/// `volume(cells)` within `tolerance` (relative), the box its cubes give less the gap
/// (turned any way), resting on z = 0, and no two pieces over the same spot of the plate.
fn check_laid_out(
    seen: &[Seen],
    unit: f64,
    gap: f64,
    volume: &dyn Fn(&[Cell]) -> f64,
    tolerance: f64,
) {
    let pieces = bedlam();
    assert_eq!(seen.len(), 13, "{seen:?}");
    for (s, cells) in seen.iter().zip(&pieces) {
        assert!(s.watertight && s.winding_consistent, "{s:?}");
        assert_eq!(s.euler, 2, "one closed body without holes: {s:?}");
        let want = volume(cells);
        assert!(
            (s.volume - want).abs() <= tolerance * want,
            "{}: volume {} against {want}",
            s.name,
            s.volume
        );
        let mut size = [0, 1, 2].map(|a| s.hi[a] - s.lo[a]);
        size.sort_by(f64::total_cmp);
        let want = extents(cells).map(|n| n as f64 * unit - gap);
        for a in 0..3 {
            assert!(
                (size[a] - want[a]).abs() < 1e-4,
                "{}: {size:?} against {want:?}",
                s.name
            );
        }
        assert!(
            s.lo[2].abs() < 1e-6,
            "{} does not rest on z = 0: {s:?}",
            s.name
        );
    }
    for (i, a) in seen.iter().enumerate() {
        for b in &seen[i + 1..] {
            let apart = (0..2).any(|k| a.hi[k] <= b.lo[k] || b.hi[k] <= a.lo[k]);
            assert!(apart, "{} and {} overlap on the plate", a.name, b.name);
        }
    }
}

#[test]
fn bedlam_stl_pieces_are_watertight_with_the_clearance_taken_off() {
    if !needs(&[TRIMESH]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pieces = dir.path().join("pieces");
    let out = polycover(&[
        "export",
        "bedlam",
        "--format",
        "stl",
        "-o",
        pieces.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let names = file_names(&pieces);
    let files: Vec<_> = names.iter().map(|n| pieces.join(n)).collect();
    let want: Vec<String> = ('A'..='M').map(|c| format!("bedlam-{c}.stl")).collect();
    assert_eq!(names, want);
    let paths: Vec<&Path> = files.iter().map(|f| f.as_path()).collect();
    // Default: 10 mm cubes, 0.2 mm gap (r = 0.1): the first-order volume within 1%
    // (the corners' r² terms are about 0.1%; no clearance at all would be 4% off).
    let first_order = |c: &[Cell]| first_order_volume(c, 10.0, 0.1);
    check_laid_out(&trimesh(&paths), 10.0, 0.2, &first_order, 0.01);
}

#[test]
fn bedlam_3mf_objects_match_an_exact_voxel_count() {
    if !needs(&[TRIMESH]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bedlam.3mf");
    let args = [
        "export", "bedlam", "--format", "3mf", "--unit", "10", "--gap", "2",
    ];
    let out = polycover(&[&args[..], &["-o", file.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let mut seen = trimesh(&[&file]);
    // trimesh keys objects by name; the names are the pieces' display names.
    seen.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(
        seen[0].name.starts_with("A (Little Corner)"),
        "{:?}",
        seen[0].name
    );
    // r = 1 mm: voxels of 1 mm count the shrunk pieces exactly.
    let exact = |c: &[Cell]| voxel_volume(c, 10.0, 1.0);
    check_laid_out(&seen, 10.0, 2.0, &exact, 1e-9);
}

#[test]
fn an_assembled_solution_fills_the_box_less_the_gaps() {
    if !needs(&[TRIMESH]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("soma.stl");
    let out = polycover(&[
        "export",
        "soma",
        "--format",
        "stl",
        "--solution",
        "1",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let seen = trimesh(&[&file]);
    assert_eq!(seen.len(), 1);
    let s = &seen[0];
    assert!(s.watertight && s.winding_consistent, "{s:?}");
    // Seven separate bodies (each a sphere: Euler number 2).
    assert_eq!(s.euler, 14, "{s:?}");
    // The 3x3x3 cube, each outer face 0.1 mm in, from the origin.
    for a in 0..3 {
        assert!(
            s.lo[a].abs() < 1e-6 && (s.hi[a] - 29.8).abs() < 1e-4,
            "{s:?}"
        );
    }
    let soma = Puzzle::load("soma").unwrap().piece_cells().unwrap();
    let want: f64 = soma
        .iter()
        .map(|cells| first_order_volume(cells, 10.0, 0.1))
        .sum();
    assert!(
        (s.volume - want).abs() < 0.01 * want,
        "{} against {want}",
        s.volume
    );
}

fn refused(args: &[&str], code: i32, says: &str) {
    let out = polycover(args);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
    assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
}

#[test]
fn bad_pieces_requests_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap().to_string();
    let out = format!("{d}/pieces");
    let stl = ["export", "bedlam", "--format", "stl", "-o", &out];
    refused(
        &[
            "export",
            "hesselink-5",
            "--format",
            "3mf",
            "-o",
            &format!("{d}/h.3mf"),
        ],
        2,
        "only polycube puzzles",
    );
    for (flag, value, says) in [
        ("--unit", "0", "--unit 0: the cube size"),
        ("--unit", "-1", "--unit -1: the cube size"),
        ("--unit", "nan", "--unit NaN: the cube size"),
        ("--gap", "-0.1", "--gap -0.1: the clearance"),
        ("--gap", "NaN", "--gap NaN: the clearance"),
        ("--gap", "10", "less than the cube size"),
        ("--gap", "25", "less than the cube size"),
    ] {
        refused(&[&stl[..], &[flag, value]].concat(), 2, says);
    }
    assert!(
        !Path::new(&out).exists(),
        "nothing is made for a refused request"
    );
    refused(
        &["export", "hesselink-5", "--format", "stl", "-o", &out],
        2,
        "only polycube",
    );
    refused(
        &[&stl[..], &["--solution", "0"]].concat(),
        2,
        "counts from 1",
    );
    assert!(
        !Path::new(&out).exists(),
        "nothing is made for a refused request"
    );
    refused(
        &[
            "export",
            "soma",
            "--format",
            "stl",
            "--solution",
            "481",
            "-o",
            &format!("{d}/s.stl"),
        ],
        2,
        "only 480 solutions",
    );
    refused(&["export", "bedlam", "--format", "stl"], 2, "give -o DIR");
    refused(
        &["export", "bedlam", "--format", "dlx", "--gap", "1"],
        2,
        "--gap is for the pieces",
    );
    // Unwritable: a directory under a regular file.
    std::fs::write(format!("{d}/file"), "x").unwrap();
    refused(
        &[
            "export",
            "bedlam",
            "--format",
            "stl",
            "-o",
            &format!("{d}/file/pieces"),
        ],
        1,
        "file/pieces",
    );
    refused(
        &[
            "export",
            "bedlam",
            "--format",
            "3mf",
            "-o",
            &format!("{d}/no/such/dir/b.3mf"),
        ],
        2,
        "does not exist",
    );
    // A directory that holds something: refused unless --force.
    std::fs::create_dir(&out).unwrap();
    std::fs::write(format!("{out}/keep.txt"), "x").unwrap();
    refused(&stl, 2, "not empty");
    let forced = polycover(&[&stl[..], &["--force"]].concat());
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 14);
}

/// (0,0,0) and (1,1,0) meet only along an edge: fine with a gap, refused without.
const EDGE_ONLY: &str = r#"
    name = "edge"
    target = [[0,0,0], [0,0,1], [1,0,1], [1,1,1], [1,1,0], [2,1,0]]
    [[piece]]
    name = "S"
    cells = [[0,0,0], [0,0,1], [1,0,1], [1,1,1], [1,1,0]]
    [[piece]]
    name = "T"
    cells = [[0,0,0]]
"#;

#[test]
fn an_edge_only_contact_needs_a_gap() {
    if !needs(&[TRIMESH]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("edge.toml");
    std::fs::write(&puzzle, EDGE_ONLY).unwrap();
    let file = dir.path().join("edge.stl");
    let (p, f) = (puzzle.to_str().unwrap(), file.to_str().unwrap());
    refused(
        &["export", p, "--format", "stl", "--gap", "0", "-o", f],
        2,
        "piece S: its cubes touch only along an edge",
    );
    let out = polycover(&["export", p, "--format", "stl", "--gap", "2", "-o", f]);
    assert!(out.status.success(), "{}", stderr(&out));
    let seen = trimesh(&[&file]);
    assert!(seen[0].watertight && seen[0].winding_consistent, "{seen:?}");
    assert_eq!(seen[0].euler, 4, "two bodies: {seen:?}");
    // S shrunk (exactly, by voxels) and T, a cube 2 mm smaller each way.
    let s_cells = [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [1, 1, 0]];
    let want = voxel_volume(&s_cells, 10.0, 1.0) + 8f64.powi(3);
    assert!(
        (seen[0].volume - want).abs() < 1e-3 * want,
        "{} against {want}",
        seen[0].volume
    );
}

/// A one-sided set names pieces `F` and `f`: file names that differ only in case would
/// overwrite each other on macOS and Windows, so such pieces are named by their names
/// (`F`, `F2`). Every file is distinct ignoring case, one per piece.
#[test]
fn file_names_stay_apart_where_case_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("flat");
    let out = polycover(&[
        "export",
        "one-sided-pentominoes-3x30",
        "--format",
        "stl",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names = file_names(&out_dir);
    let folded: std::collections::HashSet<String> =
        names.iter().map(|n| n.to_ascii_lowercase()).collect();
    assert_eq!(names.len(), 18);
    assert_eq!(folded.len(), 18, "{names:?}");
    for piece in ["F", "F2", "Z", "Z2", "I"] {
        let file = format!("one-sided-pentominoes-3x30-{piece}.stl");
        assert!(names.contains(&file), "{file} in {names:?}");
    }
}
