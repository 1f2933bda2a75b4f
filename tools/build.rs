//! Build script of pld-tools: compiles the tools' malloc
//! (`csrc/malloc.c`) and links it into the binaries only, so that the
//! library (which the Python package links) leaves its host's malloc be.

fn main() {
    println!("cargo:rerun-if-changed=csrc/malloc.c");
    let objects = cc::Build::new()
        .file("csrc/malloc.c")
        .warnings_into_errors(true)
        .compile_intermediates();
    for object in objects {
        println!("cargo:rustc-link-arg-bins={}", object.display());
    }
}
