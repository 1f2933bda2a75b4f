//! What `make install FROM=DIR` takes from this test run's build: the
//! tools and libraries in one directory. Tests cannot run `make install`
//! plainly, which builds in release mode: cargo may not run inside
//! `cargo test`. Shared by tests/install.rs and tests/doc_commands.rs.

use std::path::{Path, PathBuf};

/// The directory of the tools this `cargo test` built.
pub fn bin_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pld-opt"))
        .parent()
        .expect("the tools' directory")
        .to_path_buf()
}

/// Links the tools, `libpld.so`, `libMLIR-C.so` (and `libPldPlugin.so`
/// when it was built) into `dir/build`; returns that directory.
/// `libpld.so` is the build of pld-tools' dev-dependency (`deps/`), fresh
/// whether or not the whole workspace was built.
pub fn stage(dir: &Path) -> PathBuf {
    let bin = bin_dir();
    let from = dir.join("build");
    std::fs::create_dir_all(&from).expect("a scratch directory");
    let pld = [bin.join("deps/libpld.so"), bin.join("libpld.so")]
        .into_iter()
        .find(|p| p.exists())
        .expect("libpld.so is built (pld-capi is a dev-dependency of pld-tools)");
    let mut files = vec![(pld, "libpld.so")];
    for name in [
        "pld-opt",
        "pld-translate",
        "pld-run",
        "libMLIR-C.so",
        "libPldPlugin.so",
    ] {
        if bin.join(name).exists() {
            files.push((bin.join(name), name));
        }
    }
    for (file, name) in files {
        let link = from.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(file, link).expect("a link in the scratch directory");
    }
    from
}
