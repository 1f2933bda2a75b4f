//! Builds `libMLIR-C.so`, MLIR's C API as a shared library over Debian's
//! `libMLIR.so`, when pld links MLIR shared (`MLIR_SYS_LINK_SHARED=1`,
//! the default in `.cargo/config.toml`; docs/embedding.md says why).
//!
//! Debian's `libMLIR.so` exports none of the C API and Debian ships no
//! `libMLIR-C.so`, while `mlir-sys` links `-lMLIR -lMLIR-C` in shared mode.
//! The C API's objects are in Debian's `libMLIRCAPI*.a`: linked whole into
//! one shared library against `libMLIR.so` and `libLLVM-22.so`, they call
//! into the one MLIR of the process, so a host (stock `mlir-opt`, a
//! Python interpreter) and pld share a context, its type uniquer and the
//! pass registry.
//!
//! The library goes next to the binaries of the profile (`target/debug/`),
//! where their run path (`$ORIGIN`, `$ORIGIN/..` for tests and examples,
//! `.cargo/config.toml`) finds it; `make install` copies it to
//! `$(PREFIX)/lib`, and the Python package's build script puts a copy in
//! the package (`python/build.rs`).
//!
//! It also compiles `cpp/registration.cpp`, the C++ that puts pld's passes
//! into MLIR's global pass registry (`src/global.rs`), which the C API
//! cannot do.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = PathBuf::from(
        std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()),
    );
    compile_registration(&prefix);
    if std::env::var("MLIR_SYS_LINK_SHARED").as_deref() != Ok("1") {
        return;
    }
    let libdir = prefix.join("lib");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // OUT_DIR is <target>/<profile>/build/pld-ir-<hash>/out.
    let profile_dir = out_dir
        .ancestors()
        .nth(3)
        .expect("OUT_DIR lies three levels below the profile's directory");
    let library = profile_dir.join("libMLIR-C.so");
    let archives = c_api_archives(&libdir);
    for archive in &archives {
        println!("cargo:rerun-if-changed={}", archive.display());
    }
    if !up_to_date(&library, &archives) {
        link(&prefix, &libdir, &archives, &library);
    }
    println!("cargo:rustc-link-search=native={}", profile_dir.display());
    // For the build scripts of the crates that depend on pld-ir directly
    // (`links` in Cargo.toml): DEP_PLD_MLIR_C_LIBRARY, the library's path
    // (the Python package carries a copy of it).
    println!("cargo:library={}", library.display());
}

/// Compiles the registration shim (and the remark of `cpp/diagnostics.cpp`,
/// the JIT of `cpp/engine.cpp`, the measure of `cpp/depth.cpp`) against MLIR's C++ headers (the symbols
/// it uses are in `libMLIR.so`, or the static libraries `mlir-sys` links).
fn compile_registration(prefix: &Path) {
    let sources = [
        "cpp/registration.cpp",
        "cpp/diagnostics.cpp",
        "cpp/engine.cpp",
        "cpp/depth.cpp",
    ];
    for source in sources {
        println!("cargo:rerun-if-changed={source}");
    }
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .files(sources)
        .include(prefix.join("include"))
        .warnings(true)
        .flag_if_supported("-Wno-unused-parameter")
        .flag("-fno-exceptions")
        .debug(false);
    if std::env::var_os("CXX").is_none() {
        let bundled = prefix.join("bin/clang++");
        if bundled.exists() {
            build.compiler(bundled);
        }
    }
    build.compile("pld_ir_registration");
}

/// Debian's `libMLIRCAPI*.a`, in a fixed order.
fn c_api_archives(libdir: &Path) -> Vec<PathBuf> {
    let mut archives: Vec<PathBuf> = std::fs::read_dir(libdir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", libdir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libMLIRCAPI") && n.ends_with(".a"))
        })
        .collect();
    archives.sort();
    assert!(
        !archives.is_empty(),
        "no libMLIRCAPI*.a in {} (apt-get install libmlir-22-dev)",
        libdir.display()
    );
    archives
}

/// Whether `library` exists and is newer than every archive.
fn up_to_date(library: &Path, archives: &[PathBuf]) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let Some(built) = modified(library) else {
        return false;
    };
    archives
        .iter()
        .all(|a| modified(a).is_some_and(|time| time <= built))
}

/// Links the archives whole into `library`, with nothing left undefined.
fn link(prefix: &Path, libdir: &Path, archives: &[PathBuf], library: &Path) {
    let compiler = std::env::var("CXX").map(PathBuf::from).unwrap_or_else(|_| {
        let bundled = prefix.join("bin/clang++");
        if bundled.exists() {
            bundled
        } else {
            PathBuf::from("c++")
        }
    });
    let temporary = library.with_extension("so.tmp");
    let status = Command::new(&compiler)
        .arg("-shared")
        .arg("-o")
        .arg(&temporary)
        .arg("-Wl,-soname,libMLIR-C.so")
        .arg("-Wl,--whole-archive")
        .args(archives)
        .arg("-Wl,--no-whole-archive")
        .arg(format!("-L{}", libdir.display()))
        .args(["-lMLIR", "-lLLVM-22", "-Wl,-z,defs"])
        .arg(format!("-Wl,-rpath,{}", libdir.display()))
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", compiler.display()));
    assert!(
        status.success(),
        "linking {} with {} failed: {status}",
        library.display(),
        compiler.display()
    );
    std::fs::rename(&temporary, library)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", library.display()));
}
