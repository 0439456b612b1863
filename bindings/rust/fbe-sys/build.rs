//! Compiles libfbe's C core into a static library with the `cc` crate.
//!
//! The sources are the ones `core/sources.txt` lists (the one list every build reads).
//! A packaged crate carries its own copy in `core/` (made by `core/vendor.py`); in the
//! repository the crate reads the repository's `core/` in place.
use std::fs;
use std::path::{Path, PathBuf};

fn core_dir() -> PathBuf {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let vendored = manifest.join("core");
    if vendored.join("sources.txt").is_file() {
        return vendored;
    }
    let in_tree = manifest.join("../../../core");
    if in_tree.join("sources.txt").is_file() {
        return in_tree.canonicalize().unwrap();
    }
    panic!("fbe-sys: no core/ next to the crate (run core/vendor.py) nor at ../../../core");
}

fn sources(core: &Path) -> Vec<PathBuf> {
    let list = fs::read_to_string(core.join("sources.txt")).expect("core/sources.txt");
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| core.join("src").join(l))
        .collect()
}

fn main() {
    let core = core_dir();
    let files = sources(&core);
    let mut build = cc::Build::new();
    build
        .files(&files)
        .include(core.join("include"))
        .include(core.join("src"))
        .define("FBE_STATIC", None)
        .flag_if_supported("-std=c11")
        .flag_if_supported("-fvisibility=hidden")
        .warnings(false);
    if std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu")
        && std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows")
    {
        build.define("__USE_MINGW_ANSI_STDIO", "1");
    }
    build.compile("fbe");
    if std::env::var("CARGO_CFG_TARGET_FAMILY").as_deref() == Ok("unix") {
        println!("cargo:rustc-link-lib=m");
    }
    println!("cargo:include={}", core.join("include").display());
    for part in ["sources.txt", "src", "include"] {
        println!("cargo:rerun-if-changed={}", core.join(part).display());
    }
}
