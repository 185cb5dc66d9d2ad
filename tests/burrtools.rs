//! BurrTools files (`tests/fixtures/burrtools/`, from the BurrTools examples): counts
//! against BurrTools' own, recognition by content, import, and clear refusals.

use std::path::PathBuf;

use polycover::Puzzle;

use crate::common::*;

fn burrtools(name: &str) -> PathBuf {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tests/fixtures/burrtools")
        .join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

#[test]
fn al_packino_counts_what_burrtools_recorded() {
    let path = burrtools("AlPackino.xmpuzzle");
    let out = polycover(&["count", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().last(), Some("s mc 1"));
    assert!(text.contains("c expected 1 (matches)"), "{text}");
    for solver in ["dlx", "sat"] {
        let out = polycover(&["count", path.to_str().unwrap(), "--solver", solver]);
        assert_eq!(stdout(&out).lines().last(), Some("s mc 1"), "{solver}");
    }
}

/// Known by content: a gzipped file under any name, and the plain XML.
#[test]
fn burrtools_files_are_known_by_their_content() {
    let dir = tempfile::tempdir().unwrap();
    let gz = std::fs::read(burrtools("AlPackino.xmpuzzle")).unwrap();
    let renamed = dir.path().join("puzzle.data");
    std::fs::write(&renamed, &gz).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut xml).unwrap();
    let plain = dir.path().join("al.xml");
    std::fs::write(&plain, &xml).unwrap();
    for path in [&renamed, &plain] {
        let out = polycover(&["count", path.to_str().unwrap()]);
        assert_eq!(
            stdout(&out).lines().last(),
            Some("s mc 1"),
            "{}",
            stderr(&out)
        );
    }
    for command in ["solve", "info"] {
        let out = polycover(&[command, renamed.to_str().unwrap()]);
        assert!(
            out.status.success() || out.status.code() == Some(10),
            "{command}: {}",
            stderr(&out)
        );
    }
}

/// `import` writes a puzzle file that reads back to the same count, keeping the shape
/// names and the designer's comment.
#[test]
fn import_writes_an_equivalent_puzzle_file() {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("al.toml");
    let out = polycover(&[
        "import",
        burrtools("AlPackino.xmpuzzle").to_str().unwrap(),
        "-o",
        toml.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(text.contains("name = \"Box\""), "{text}");
    assert!(text.contains("rotations = 1"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("# ") && l.contains("Packino")),
        "{text}"
    );
    let out = polycover(&["count", toml.to_str().unwrap()]);
    assert_eq!(stdout(&out).lines().last(), Some("s mc 1"));
}

#[test]
fn other_grids_and_unsupported_features_are_refused_by_name() {
    let out = polycover(&["count", burrtools("Bermuda.xmpuzzle").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("grid type 1 is not supported"),
        "{}",
        stderr(&out)
    );

    let demo = burrtools("DemoMirrorParadox.xmpuzzle");
    let demo = demo.to_str().unwrap();
    // Two problems: info lists them, and a count must pick one.
    let out = polycover(&["info", demo]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains("problem     1 \"Example From Text\"")
            && text.contains("problem     2 \"Another Example\""),
        "{text}"
    );
    let out = polycover(&["count", demo]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds 2 problems"),
        "{}",
        stderr(&out)
    );
    let out = polycover(&["count", demo, "--problem", "Nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no problem \"Nope\""),
        "{}",
        stderr(&out)
    );
    // --problem means nothing for a TOML file.
    let out = polycover(&["count", "soma", "--problem", "1"]);
    assert_eq!(out.status.code(), Some(2));

    // Broken XML: the line and column.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.xmpuzzle");
    std::fs::write(
        &bad,
        "<?xml version=\"1.0\"?>\n<puzzle>\n<shapes>\n</puzzle>\n",
    )
    .unwrap();
    let out = polycover(&["count", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.xmpuzzle:4:"), "{}", stderr(&out));
}

/// BurrTools' mirror-paradox demo: pieces in count ranges, and mirror-image piece sets.
/// Up to rotations (BurrTools with "Keep Mirror Solutions" checked) each problem has two
/// assemblies, one the mirror image of the other, using mirror-image pieces; with
/// `--symmetry reflections` (the box unchecked: BurrTools drops an assembly whose mirror
/// image, with the mirrored pieces, is already listed) one. docs/guide/formats.md explains it.
#[test]
fn the_mirror_paradox_demo_counts_in_both_conventions() {
    let demo = burrtools("DemoMirrorParadox.xmpuzzle");
    let demo = demo.to_str().unwrap();
    for (problem, counts) in [
        ("1", [("none", 2), ("rotations", 2), ("reflections", 1)]),
        (
            "Another Example",
            [("none", 48), ("rotations", 2), ("reflections", 1)],
        ),
    ] {
        for (mode, want) in counts {
            for solver in ["dlx", "bits", "sat"] {
                let out = polycover(&[
                    "count",
                    demo,
                    "--problem",
                    problem,
                    "--symmetry",
                    mode,
                    "--solver",
                    solver,
                ]);
                assert_eq!(
                    stdout(&out).lines().last(),
                    Some(format!("s mc {want}").as_str()),
                    "problem {problem}, {mode}, {solver}: {}",
                    stderr(&out)
                );
            }
        }
    }
    // The two assemblies of problem 1 use two copies of one piece each: mirror images.
    let out = polycover(&["enumerate", demo, "--problem", "1", "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pieces: Vec<String> = stdout(&out)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut names: Vec<String> = v["placements"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["piece"].as_str().unwrap().to_string())
                .collect();
            names.sort();
            names.join(" ")
        })
        .collect();
    assert_eq!(pieces, ["S2 S2", "S3 S3"]);
}

/// Optional cells, count ranges and colours survive export to BurrTools and import back;
/// colour rules polycover would read differently are refused by name.
#[test]
fn optional_cells_ranges_and_colours_round_trip_through_burrtools() {
    let dir = tempfile::tempdir().unwrap();
    for (fixture, want) in [("coloured-bars", 11), ("optional-corner", 7)] {
        let source = format!("tests/fixtures/ranges/{fixture}.toml");
        let file = dir.path().join(format!("{fixture}.xmpuzzle"));
        let out = polycover(&[
            "export",
            &source,
            "--format",
            "burrtools",
            "-o",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let toml = dir.path().join(format!("{fixture}.toml"));
        let out = polycover(&[
            "import",
            file.to_str().unwrap(),
            "-o",
            toml.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = std::fs::read_to_string(&toml).unwrap();
        assert!(text.contains("optional = [[2,1,0]]"), "{text}");
        assert!(text.contains("count = [1, 3]"), "{text}");
        for path in [&source, file.to_str().unwrap(), toml.to_str().unwrap()] {
            let out = polycover(&["count", path, "--symmetry", "none"]);
            assert_eq!(
                stdout(&out).lines().last(),
                Some(format!("s mc {want}").as_str()),
                "{path}: {}",
                stderr(&out)
            );
        }
    }
    // A pair allowing piece colour 1 onto result colour 2.
    let xml = "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"0\"/>\n\
        <colors><color red=\"1\" green=\"2\" blue=\"3\"/><color red=\"3\" green=\"2\" blue=\"1\"/></colors>\n\
        <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#1#</voxel>\n\
        <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#2#2</voxel></shapes>\n\
        <problems><problem name=\"p\" state=\"0\"><shapes><shape id=\"0\" count=\"1\"/></shapes>\n\
        <result id=\"1\"/><bitmap><pair piece=\"0\" result=\"1\"/></bitmap></problem></problems>\n\
        </puzzle>\n";
    let bad = dir.path().join("pairs.xmpuzzle");
    std::fs::write(&bad, xml).unwrap();
    let out = polycover(&["count", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("piece colour 1 on result colour 2 is not supported"),
        "{}",
        stderr(&out)
    );
}

/// `export --format burrtools` writes a file that reads back to the same counts in every
/// mode (import(export(p)) = p up to translation); what it cannot say is refused.
#[test]
fn exported_burrtools_files_read_back_to_the_same_counts() {
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, counts) in [
        (
            "soma",
            &[("rotations", 480), ("reflections", 240), ("none", 11520)][..],
        ),
        ("slothouber-graatsma", &[("rotations", 1), ("none", 8)][..]),
        ("pentomino-8x8-hole", &[("rotations", 65)][..]),
    ] {
        let file = dir.path().join(format!("{puzzle}.xmpuzzle"));
        let out = polycover(&[
            "export",
            puzzle,
            "--format",
            "burrtools",
            "-o",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            &std::fs::read(&file).unwrap()[..2],
            &[0x1f, 0x8b],
            "gzipped, as BurrTools writes"
        );
        for (mode, want) in counts {
            let out = polycover(&["count", file.to_str().unwrap(), "--symmetry", mode]);
            assert_eq!(
                stdout(&out).lines().last(),
                Some(format!("s mc {want}").as_str()),
                "{puzzle} {mode}: {}",
                stderr(&out)
            );
        }
        // And through `import`: the pieces keep their names.
        let toml = dir.path().join(format!("{puzzle}.toml"));
        let out = polycover(&[
            "import",
            file.to_str().unwrap(),
            "-o",
            toml.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let out = polycover(&["count", toml.to_str().unwrap()]);
        assert_eq!(
            stdout(&out).lines().last(),
            Some(format!("s mc {}", counts[0].1).as_str())
        );
    }
    let out = polycover(&["export", "hesselink-5", "--format", "burrtools"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("only polycube puzzles"),
        "{}",
        stderr(&out)
    );
}

/// Runs the binary with `input` as standard input.
fn polycover_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = crate::common::bin()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The program may stop reading early (a refused bomb): a closed pipe is no failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// `-` reads a BurrTools file from standard input in `info` and `import` too, as in every
/// other command: once, known by its content.
#[test]
fn info_and_import_read_a_burrtools_file_from_standard_input() {
    let demo = std::fs::read(burrtools("DemoMirrorParadox.xmpuzzle")).unwrap();
    let from_file = polycover(&[
        "info",
        burrtools("DemoMirrorParadox.xmpuzzle").to_str().unwrap(),
    ]);
    let out = polycover_stdin(&["info", "-"], &demo);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("problem     2"), "{}", stdout(&out));
    assert_eq!(stdout(&out), stdout(&from_file));
    let out = polycover_stdin(&["info", "-", "--problem", "1"], &demo);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("problem     1"), "{}", stdout(&out));

    let al = burrtools("AlPackino.xmpuzzle");
    let from_file = polycover(&["import", al.to_str().unwrap()]);
    assert_eq!(from_file.status.code(), Some(0), "{}", stderr(&from_file));
    let out = polycover_stdin(&["import", "-"], &std::fs::read(&al).unwrap());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The same puzzle file, but for the source it names in its comments.
    let toml = stdout(&out);
    assert!(toml.contains("name = \"Box\""), "{toml}");
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(strip(&toml), strip(&stdout(&from_file)));
    let out = polycover(&["import", "no-such.xmpuzzle"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot read no-such.xmpuzzle"),
        "{}",
        stderr(&out)
    );
}

/// A gzip file of 300 kB that inflates to 300 MiB of spaces: refused at the documented
/// limit (256 MiB), with exit 2 and a message naming it, from a file and from standard
/// input, before it is parsed as XML.
fn gzip_bomb() -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"<?xml version=\"1.0\"?>\n<puzzle>").unwrap();
    let spaces = vec![b' '; 1 << 20];
    for _ in 0..300 {
        gz.write_all(&spaces).unwrap();
    }
    gz.finish().unwrap()
}

#[test]
fn a_gzip_bomb_is_refused_at_the_puzzle_limit() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = dir.path().join("bomb.xmpuzzle");
    std::fs::write(&bomb, gzip_bomb()).unwrap();
    let path = bomb.to_str().unwrap();
    for args in [
        vec!["info", path],
        vec!["count", path],
        vec!["import", path],
    ] {
        let out = polycover(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("bomb.xmpuzzle") && err.contains("more than 256 MiB"),
            "{args:?}: {err}"
        );
    }
    for command in ["info", "import"] {
        let out = polycover_stdin(&[command, "-"], &std::fs::read(&bomb).unwrap());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command} -: {err}");
        assert!(err.contains("more than 256 MiB"), "{command} -: {err}");
    }
}

/// Out of memory, the message's advice fits the command: `info` has no `--solver` or
/// `--threads` to suggest; a search does.
#[test]
#[cfg(target_os = "linux")]
fn out_of_memory_advice_fits_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let bomb = dir.path().join("bomb.xmpuzzle");
    std::fs::write(&bomb, gzip_bomb()).unwrap();
    let limited = |command: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 100000 && exec \"$0\" {command} \"$1\""))
            .arg(env!("CARGO_BIN_EXE_polycover"))
            .arg(&bomb)
            .output()
            .unwrap()
    };
    let out = limited("info");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("out of memory"), "{err}");
    assert!(
        !err.contains("--solver") && !err.contains("--threads"),
        "{err}"
    );
    let out = limited("count");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("try --solver dlx, fewer --threads"), "{err}");
}

/// A BurrTools file of one problem: shapes given as `(x, y, z, voxel text)`, the result
/// the last shape, every other shape a piece once, and a colour rule allowing each of
/// `colours` onto itself.
fn burrtools_xml(shapes: &[(usize, usize, usize, &str)], colours: u32) -> String {
    let voxels: String = shapes
        .iter()
        .map(|(x, y, z, text)| {
            format!("<voxel x=\"{x}\" y=\"{y}\" z=\"{z}\" type=\"0\">{text}</voxel>\n")
        })
        .collect();
    let pieces: String = (0..shapes.len() - 1)
        .map(|id| format!("<shape id=\"{id}\" count=\"1\"/>"))
        .collect();
    let pairs: String = (0..colours)
        .map(|k| format!("<pair piece=\"{k}\" result=\"{k}\"/>"))
        .collect();
    format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n<gridType type=\"0\"/>\n\
         <shapes>\n{voxels}</shapes>\n<problems><problem name=\"p\" state=\"0\">\
         <shapes>{pieces}</shapes>\n<result id=\"{}\"/><bitmap>{pairs}</bitmap></problem>\
         </problems>\n</puzzle>\n",
        shapes.len() - 1
    )
}

/// Two polycube puzzles alike in every field: their debug forms (every field of the
/// kind: name, source, target, optional cells, colours, mirror, pieces, orientations,
/// placements), their expected counts (where in a file each was written aside: the
/// imported text has lines, the typed route none), their matrices and their `info`.
fn assert_same_polycube(what: &str, typed: &Puzzle, text: &Puzzle) {
    assert!(typed.piece_cells().is_some(), "{what}: a polycube puzzle");
    let fields = |p: &Puzzle| {
        let shown = format!("{p:#?}");
        let (from, to) = (shown.find("expect: Expect {"), shown.find("pieces: ["));
        let (from, to) = (from.expect("an expect field"), to.expect("a pieces field"));
        format!("{}{}", &shown[..from], &shown[to..])
    };
    assert_eq!(fields(typed), fields(text), "{what}");
    use polycover::SymmetryMode as M;
    for mode in [M::Rotations, M::Reflections, M::None, M::Stack] {
        assert_eq!(
            typed.expected(mode),
            text.expected(mode),
            "{what}: expect {mode:?}"
        );
    }
    assert_eq!(typed.matrix(), text.matrix(), "{what}: matrix");
    let info = |p: &Puzzle| {
        let mut out = Vec::new();
        p.info(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    assert_eq!(info(typed), info(text), "{what}: info");
}

/// The two routes from a BurrTools problem to a puzzle agree: the typed one every command
/// takes (`Puzzle::from_burrtools`) and `import`'s text read back by `Puzzle::parse`; for
/// every BurrTools file these tests read (the fixtures, the exports, eleven colours whose
/// names sort as text: c1, c10, c11, c2) and every problem in them.
#[test]
fn the_typed_route_and_the_imported_text_make_the_same_puzzle() {
    use polycover::kinds::BurrTools;
    let dir = tempfile::tempdir().unwrap();
    let mut files = vec![
        burrtools("AlPackino.xmpuzzle"),
        burrtools("DemoMirrorParadox.xmpuzzle"),
    ];
    for puzzle in [
        "tests/fixtures/ranges/coloured-bars.toml",
        "tests/fixtures/ranges/optional-corner.toml",
        "soma",
        "slothouber-graatsma",
        "pentomino-8x8-hole",
    ] {
        let name = puzzle.rsplit('/').next().unwrap().trim_end_matches(".toml");
        let file = dir.path().join(format!("{name}.xmpuzzle"));
        let out = polycover(&[
            "export",
            puzzle,
            "--format",
            "burrtools",
            "-o",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        files.push(file);
    }
    // Eleven colours on a bar; the piece's voxels start at x = 1, so its colours are
    // moved with its cells to its least corner.
    let colours: String = (1..=11).map(|k| format!("#{k}")).collect();
    let eleven = dir.path().join("eleven.xmpuzzle");
    let xml = burrtools_xml(
        &[(12, 1, 1, &format!("_{colours}")), (11, 1, 1, &colours)],
        11,
    );
    std::fs::write(&eleven, xml).unwrap();
    files.push(eleven.clone());

    let mut problems = 0;
    for file in &files {
        let source = file.display().to_string();
        let bytes = std::fs::read(file).unwrap();
        let listed = BurrTools::list(&source, &bytes).unwrap();
        assert!(!listed.is_empty(), "{source}");
        for p in listed {
            let what = format!("{source} problem {}", p.number);
            let number = p.number.to_string();
            let problem = BurrTools::read(&source, &bytes, Some(&number))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let typed = Puzzle::from_burrtools(&problem, &polycover::Stop::new())
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let text =
                Puzzle::parse(&source, &problem.toml()).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_same_polycube(&what, &typed, &text);
            problems += 1;
        }
    }
    assert_eq!(
        problems,
        files.len() + 1,
        "DemoMirrorParadox holds two problems"
    );
    // The eleven colours in the order the file route numbers them.
    let bytes = std::fs::read(&eleven).unwrap();
    let problem = BurrTools::read("eleven", &bytes, None).unwrap();
    let puzzle = Puzzle::from_burrtools(&problem, &polycover::Stop::new()).unwrap();
    let shown = format!("{puzzle:?}");
    assert!(
        shown.contains(r#"colors: ["c1", "c10", "c11", "c2", "#),
        "{shown}"
    );
}

/// What polycover's own checks refuse in a BurrTools problem is located by problem and
/// shape, the numbers BurrTools shows, and said once per run of `count` and `info`.
#[test]
fn a_burrtools_piece_that_fits_nowhere_is_named_by_problem_and_shape() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.xmpuzzle");
    // A straight four in a 2x2 square: the volumes agree, the piece fits nowhere.
    std::fs::write(
        &file,
        burrtools_xml(&[(4, 1, 1, "####"), (2, 2, 1, "####")], 0),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    for command in ["count", "info"] {
        let out = polycover(&[command, path]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains(&format!("{path} problem 1, shape 1: piece S1"))
                && err.contains("it fits nowhere in the target"),
            "{command}: {err}"
        );
    }
}

/// Issue 46, defect 15b: a BurrTools file cut short is placed where it ends (the line and
/// column where the XML parser stopped), not at 1:1, and said to be cut short; plain XML
/// cut anywhere (between tags, inside a tag, inside a name), and gzip cut in its middle.
#[test]
fn a_burrtools_file_cut_short_is_placed_where_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let xml = String::from_utf8(gunzip(&burrtools("AlPackino.xmpuzzle"))).unwrap();
    for cut in [xml.len() / 2, xml.len() / 3, xml.len() - 3, 60] {
        let text = &xml[..cut];
        let path = dir.path().join(format!("cut-{cut}.xmpuzzle"));
        std::fs::write(&path, text).unwrap();
        let line = text.matches('\n').count() + 1;
        let column = text.rsplit('\n').next().unwrap().chars().count() + 1;
        let out = polycover(&["count", path.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("cut-{cut}.xmpuzzle:{line}:{column}: ")),
            "cut at {cut}: not placed at {line}:{column}: {err}"
        );
        assert!(err.contains("cut short") && err.contains("XML"), "{err}");
    }
    let gz = std::fs::read(burrtools("AlPackino.xmpuzzle")).unwrap();
    let path = dir.path().join("cut.xmpuzzle");
    std::fs::write(&path, &gz[..gz.len() / 2]).unwrap();
    let out = polycover(&["count", path.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cut.xmpuzzle: ") && err.contains("gzip") && err.contains("cut short"),
        "{err}"
    );
}
