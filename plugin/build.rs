//! Compiles the plugin's C++ shim (src/shim.cpp) against LLVM/MLIR 22's
//! headers. The plugin links MLIR shared, as every pld library does
//! (`MLIR_SYS_LINK_SHARED=1`), so it registers its passes in the one pass
//! registry of the `mlir-opt` process that loads it (docs/embedding.md).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src/shim.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    assert!(
        std::env::var("MLIR_SYS_LINK_SHARED").as_deref() == Ok("1"),
        "the mlir-opt plugin needs MLIR linked shared (MLIR_SYS_LINK_SHARED=1, \
         set in .cargo/config.toml): a static copy of MLIR has a pass registry \
         of its own that mlir-opt never sees"
    );
    let prefix = PathBuf::from(
        std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()),
    );
    let version = format!("\"{}\"", env!("CARGO_PKG_VERSION"));
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .file("src/shim.cpp")
        .include(prefix.join("include"))
        .define("PLD_PLUGIN_VERSION", version.as_str())
        // As LLVM itself is built: no exceptions; Debian's LLVM has RTTI.
        .flag("-fno-exceptions")
        .flag_if_supported("-Wno-unused-parameter")
        .warnings(true)
        .compile("pld_plugin_shim");
}
