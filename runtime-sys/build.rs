//! Generates the Rust side of the C headers in `include/pld`, so that the
//! compiler and the simulator share one definition of the runtime ABI.
//! clang also compiles the headers' static asserts here: a layout drift
//! fails the build.

use std::path::PathBuf;

fn main() {
    let include = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("include");
    println!("cargo:rerun-if-changed=wrapper.h");
    println!("cargo:rerun-if-changed={}", include.display());
    // Dependents that compile C against these headers find them here.
    println!("cargo:include={}", include.display());
    let bindings = bindgen::Builder::default()
        .header("wrapper.h")
        .clang_arg(format!("-I{}", include.display()))
        .allowlist_type("Pld.*")
        .allowlist_var("PLD_.*")
        .allowlist_function("pld_sim_.*")
        .derive_default(true)
        .generate()
        .expect("bindgen runs on include/pld (is libclang installed? see .cargo/config.toml)");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("bindings.rs");
    bindings.write_to_file(out).expect("write bindings");
}
