//! Build script of pld-sim: compiles the tools' out-of-memory handler
//! (`csrc/oom.cpp`, wrapped by `src/runtime/oom.rs`) and the MPI shim
//! (`csrc/mpi_shim.c`, the simulator's only MPI calls, wrapped by
//! `src/runtime/mpi.rs`) against
//! Open MPI's headers and links `libmpi`, both found through pkg-config
//! (`ompi-c`, from Debian's `libopenmpi-dev`). Linking costs a process that
//! never uses `--transport mpi` nothing: MPI is initialised only for it.

use std::process::Command;

fn pkg_config(flag: &str) -> Vec<String> {
    let output = Command::new("pkg-config")
        .args([flag, "ompi-c"])
        .output()
        .unwrap_or_else(|e| {
            panic!("pkg-config: {e} (install pkgconf and libopenmpi-dev: make deps)")
        });
    if !output.status.success() {
        panic!(
            "pkg-config {flag} ompi-c failed: {} (install libopenmpi-dev: make deps)",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn main() {
    println!("cargo:rerun-if-changed=csrc/oom.cpp");
    cc::Build::new()
        .cpp(true)
        .file("csrc/oom.cpp")
        .warnings_into_errors(true)
        .compile("pld_oom");
    println!("cargo:rerun-if-changed=csrc/mpi_shim.c");
    let mut build = cc::Build::new();
    build.file("csrc/mpi_shim.c").warnings_into_errors(true);
    for flag in pkg_config("--cflags") {
        if let Some(dir) = flag.strip_prefix("-I") {
            build.include(dir);
        }
    }
    build.compile("pld_mpi_shim");
    for flag in pkg_config("--libs") {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        }
    }
}
