//! The README's commands: every `polycover ...` command in its `sh` blocks parses (its
//! subcommand, flags and values are accepted), and the ones whose comment promises a
//! count (`s mc N`) print that count when run, except the few that take minutes.

use std::process::Command;

use crate::common::{stderr, stdout};

/// `polycover` command lines of the README's `sh` blocks, each with its comment.
fn commands() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let mut found = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = t == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let (code, comment) = match t.find(" #") {
            Some(i) => (&t[..i], t[i + 2..].trim()),
            None => (t, ""),
        };
        // Each command of a shell line (`a; b`, `a | b`, `a && b`), without redirections.
        for part in code.split(&[';', '|'][..]).flat_map(|p| p.split("&&")) {
            let part = part.split('>').next().unwrap_or("").trim();
            if let Some(args) = part.strip_prefix("polycover ") {
                // Placeholders and shell variables are not real arguments.
                if args.contains("...") || args.contains('$') || args.contains('<') {
                    continue;
                }
                found.push((args.to_string(), comment.to_string()));
            }
        }
    }
    found
}

fn words(args: &str) -> Vec<&str> {
    args.split_whitespace().collect()
}

#[test]
fn every_readme_command_parses() {
    let found = commands();
    assert!(found.len() > 40, "only {} commands found", found.len());
    for (args, _) in &found {
        // `--help` at the end: clap checks every argument before it, then prints help
        // instead of running.
        let out = Command::new(env!("CARGO_BIN_EXE_polycover"))
            .args(words(args))
            .arg("--help")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README: `polycover {args}` does not parse: {}",
            stderr(&out)
        );
    }
}

/// Commands that take minutes (full SAT counts of Bedlam, the unreduced Bedlam count,
/// benchmarks): their figures are measured, not promised by a test.
fn slow(args: &str) -> bool {
    let w = words(args);
    let bedlam = w.contains(&"bedlam");
    (bedlam && (w.contains(&"sat") || w.contains(&"none") || w.contains(&"--part")))
        || w[0] == "bench"
        || args.contains("pentomino")
        || args.contains("--checkpoint")
}

#[test]
fn the_readme_counts_are_what_the_commands_print() {
    let mut checked = 0;
    for (args, comment) in commands() {
        let Some(i) = comment.find("s mc ") else {
            continue;
        };
        let w = words(&args);
        // Only commands on catalog names or the repository's files; not those on files the
        // README's reader makes first (parts, BurrTools downloads).
        let local = w[1..].iter().all(|a| {
            a.starts_with('-')
                || !a.contains('.')
                || std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(a)
                    .exists()
        });
        if !matches!(w[0], "count" | "check") || slow(&args) || w.contains(&"-") || !local {
            continue;
        }
        let digits: String = comment[i + 5..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(char::is_ascii_digit)
            .collect();
        let want = format!("s mc {digits}");
        let out = Command::new(env!("CARGO_BIN_EXE_polycover"))
            .args(&w)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let text = stdout(&out);
        assert!(
            text.lines().any(|l| l == want),
            "README: `polycover {args}` promises `{want}`, but printed:\n{text}{}",
            stderr(&out)
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} README counts were checked");
}

/// The README's library example, built and run as a crate of its own that depends on
/// polycover without default features (no clap, no CaDiCaL): the core alone counts Soma.
#[test]
fn the_readme_library_example_runs_in_a_crate_of_its_own() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let start = readme
        .find("```rust\n")
        .expect("a rust block in the README")
        + 8;
    let code = &readme[start..start + readme[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), code).unwrap();
    // The release profile of polycover's own manifest, so that the dependencies built by
    // `.ci/run`'s `cargo build --release --lib --no-default-features` are reused below.
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"soma-count\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\npolycover = {{ path = {root:?}, default-features = false }}\n\n\
             [profile.release]\ncodegen-units = 4\n\n[workspace]\n"
        ),
    )
    .unwrap();
    // The same dependency versions as polycover's own build.
    std::fs::copy(format!("{root}/Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    // A target directory of its own, kept between runs: a second cargo must not wait for the
    // lock that `cargo test` holds on the main one. On a fresh clone it is seeded with hard
    // links to the main build's compiled dependencies, which cargo finds fresh (their
    // features and profile match); only polycover itself is compiled again (about 20 s
    // instead of 4 minutes). Cargo writes new files for what it rebuilds, under other hashes,
    // so the main build's files are never written through the links.
    let target = std::path::PathBuf::from(format!("{root}/target/readme-crate"));
    if !target.join("release").exists() {
        for sub in ["deps", "build", ".fingerprint"] {
            let from = std::path::PathBuf::from(format!("{root}/target/release/{sub}"));
            if from.is_dir() {
                link_tree(&from, &target.join("release").join(sub));
            }
        }
    }
    let out = Command::new(env!("CARGO"))
        .args(["run", "--release", "--quiet", "--manifest-path"])
        .arg(dir.path().join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "480 solutions\n");
}

/// Mirrors the directory `from` at `to` with hard links (copies where linking fails).
fn link_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            link_tree(&entry.path(), &dest);
        } else if kind.is_file() && std::fs::hard_link(entry.path(), &dest).is_err() {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}
