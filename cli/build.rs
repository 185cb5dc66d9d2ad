//! On GNU/Linux with CaDiCaL, links the `polycover` binary against the C++ runtime
//! statically (see [`static_cxx_runtime`]). The library's own build script embeds the
//! puzzle files.

use std::path::Path;

fn main() {
    static_cxx_runtime();
}

/// CaDiCaL is C++, so the binary needs libstdc++. Linked dynamically, the loader binds
/// about 1,600 of its symbols at every start (Rust links with `-z now`): measured with
/// callgrind, 1.6 M of the 2.5 M instructions of `polycover --version`, more than
/// counting the 8x8 domino box takes. Many runs are that short (scripts, the tests, a
/// benchmark's small rows), so the binaries take the static archive instead, as
/// `g++ -static-libstdc++` would: a directory of our own that holds only
/// `libstdc++.a` comes first on the linker's search path, so `-lstdc++` finds the
/// archive. Only the binaries: the library stays as cc links it (a Python extension or
/// an embedder links its own runtime). Where the compiler has no archive (or is not
/// GCC's), nothing changes. `POLYCOVER_DYNAMIC_CXX=1` turns it off.
fn static_cxx_runtime() {
    println!("cargo:rerun-if-env-changed=CXX");
    println!("cargo:rerun-if-env-changed=POLYCOVER_DYNAMIC_CXX");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_FEATURE_CADICAL").is_empty()
        || var("CARGO_CFG_TARGET_OS") != "linux"
        || var("CARGO_CFG_TARGET_ENV") != "gnu"
        || !var("POLYCOVER_DYNAMIC_CXX").is_empty()
    {
        return;
    }
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let Ok(out) = std::process::Command::new(&cxx)
        .arg("-print-file-name=libstdc++.a")
        .output()
    else {
        return;
    };
    let archive = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    // A compiler without the archive prints the bare name back.
    if !out.status.success() || !archive.is_absolute() || !archive.is_file() {
        return;
    }
    let dir = Path::new(&std::env::var("OUT_DIR").unwrap()).join("static-cxx");
    let link = dir.join("libstdc++.a");
    std::fs::create_dir_all(&dir).unwrap();
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(&archive, &link);
    #[cfg(not(unix))]
    let made = std::fs::copy(&archive, &link).map(|_| ());
    if made.is_err() {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
}
