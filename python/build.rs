//! Puts a copy of `libMLIR-C.so` into the package directory
//! (`python/pld/`), next to where the extension module `pld/_pld*.so`
//! lands, so that a wheel (and an installed package) carries the library
//! the module needs: the module's run path starts with `$ORIGIN`
//! (.cargo/config.toml), and `libMLIR.so`, which the copy links, is
//! found in `/usr/lib/llvm-22/lib` (docs/embedding.md, "Python").
//!
//! pld-ir's build script links the library and names it
//! (`DEP_PLD_MLIR_C_LIBRARY`, through its `links` key), so it has run
//! before this one.

use std::path::{Path, PathBuf};

fn main() {
    let Some(library) = std::env::var_os("DEP_PLD_MLIR_C_LIBRARY").map(PathBuf::from) else {
        panic!(
            "pld-ir named no libMLIR-C.so: the Python package needs MLIR linked shared \
             (MLIR_SYS_LINK_SHARED=1, as .cargo/config.toml sets it; build from the repository)"
        );
    };
    let package = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let copy = package.join("pld").join("libMLIR-C.so");
    println!("cargo:rerun-if-changed={}", library.display());
    println!("cargo:rerun-if-changed={}", copy.display());
    println!("cargo:rerun-if-changed=build.rs");
    if !same_file_contents(&library, &copy) {
        let temporary = copy.with_extension("so.tmp");
        std::fs::copy(&library, &temporary)
            .and_then(|_| std::fs::rename(&temporary, &copy))
            .unwrap_or_else(|e| {
                panic!(
                    "cannot copy {} to {}: {e}",
                    library.display(),
                    copy.display()
                )
            });
    }
}

/// Whether `b` exists with the size and contents of `a`.
fn same_file_contents(a: &Path, b: &Path) -> bool {
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).ok();
    size(a).is_some() && size(a) == size(b) && std::fs::read(a).ok() == std::fs::read(b).ok()
}
