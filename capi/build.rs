//! Gives `libpld.so` its soname, so that a program linked against it by
//! path (CMake's imported `PLD::pld`) records `libpld.so`, which its run
//! path finds, rather than the path it was linked with.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libpld.so");
}
