//! Where the mlir-opt pass plugin this `cargo test` built is.
//!
//! `cargo build` puts `libPldPlugin.so` next to the tools; `cargo test`
//! builds it as the library of the `pld-plugin` crate into `deps/` only,
//! and leaves a copy an earlier `cargo build` put next to the tools as it
//! was. The newer of the two is the one to test.

use std::path::{Path, PathBuf};

/// The newest `libPldPlugin.so` in `bin_dir` or `bin_dir/deps`.
pub fn plugin(bin_dir: &Path) -> PathBuf {
    let candidates = [
        bin_dir.join("libPldPlugin.so"),
        bin_dir.join("deps").join("libPldPlugin.so"),
    ];
    candidates
        .iter()
        .filter_map(|path| Some((std::fs::metadata(path).ok()?.modified().ok()?, path)))
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, path)| path.clone())
        .unwrap_or_else(|| {
            panic!(
                "libPldPlugin.so is not built in {} (run `cargo test --workspace`, \
                 which builds the pld-plugin crate, or `cargo build --workspace`)",
                bin_dir.display()
            )
        })
}
