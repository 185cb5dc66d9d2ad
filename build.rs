//! Embeds every puzzle file in `encodings/` into the library, so that `polycover count
//! bedlam` works from any directory. (The command line's own build script, `cli/build.rs`,
//! links its binary against the C++ runtime statically.)

use std::fmt::Write;
use std::path::Path;

fn main() {
    embed_catalog();
}

fn embed_catalog() {
    // Read when the script runs, not when it was compiled: a target directory shared by
    // two checkouts must not embed the other's puzzles.
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("encodings");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("encodings/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    let mut out = String::from("pub(crate) static ENTRIES: &[CatalogEntry] = &[\n");
    for n in names {
        let path = dir.join(&n);
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    CatalogEntry {{ name: {:?}, text: include_str!({:?}) }},",
            n.trim_end_matches(".toml"),
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalog.rs");
    std::fs::write(dest, out).unwrap();
}
