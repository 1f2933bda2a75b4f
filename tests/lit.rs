//! Runs the lit suite in tests/lit with LLVM 22's `lit` and `FileCheck`
//! against the pld tools built by this `cargo test`.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/plugin.rs"]
mod plugin;

const LLVM_BIN: &str = "/usr/lib/llvm-22/bin";

fn llvm_bin() -> PathBuf {
    std::env::var_os("LLVM_BIN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(LLVM_BIN))
}

#[test]
fn lit_suite() {
    let llvm = llvm_bin();
    for tool in ["lit", "FileCheck", "not", "mlir-opt"] {
        assert!(
            llvm.join(tool).exists(),
            "{tool} not found in {}: install the Debian packages llvm-22-tools and \
             mlir-22-tools (`make deps` does it), or set LLVM_BIN_DIR",
            llvm.display()
        );
    }
    let pld_opt = PathBuf::from(env!("CARGO_BIN_EXE_pld-opt"));
    let bin_dir = pld_opt.parent().expect("binary directory");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lit");
    let output = std::env::temp_dir().join(format!("pld-lit-{}", std::process::id()));
    let status = Command::new(llvm.join("lit"))
        .arg("-sv")
        .arg(&suite)
        .env("PLD_BIN_DIR", bin_dir)
        .env("PLD_PLUGIN", plugin::plugin(bin_dir))
        .env("LLVM_BIN_DIR", &llvm)
        .env("PLD_LIT_OUTPUT", &output)
        .status()
        .expect("run lit");
    let _ = std::fs::remove_dir_all(&output);
    assert!(
        status.success(),
        "lit reported failures (see the output above)"
    );
}
