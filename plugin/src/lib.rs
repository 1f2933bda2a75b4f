//! `libPldPlugin.so`: pld's passes and named pipelines in stock `mlir-opt`.
//!
//! ```sh
//! mlir-opt --load-pass-plugin=libPldPlugin.so \
//!   --irdl-file=pld-and-pto.irdl.mlir \
//!   --pass-pipeline='builtin.module(pld-to-pto)' in.mlir
//! ```
//!
//! When `mlir-opt` loads the library it calls [`ffi::mlirGetPassPluginInfo`],
//! whose registration callback puts every pass and named pipeline of
//! `pld_sim::registry()` (the registry `pld-opt` uses) into MLIR's global
//! pass registry through [`pld_ir::global::register`], the registration
//! `libpld.so` uses: one pipeline entry each, filled with pld's option
//! parser and anchoring, so a pipeline means in `mlir-opt` what it means in
//! `pld-opt`. The passes are the same objects `pld-opt` runs; their
//! diagnostics go to `mlir-opt`'s handler.
//!
//! The plugin links MLIR shared (`libMLIR.so` and the `libMLIR-C.so` that
//! `pld-ir` builds), so it shares the host's context and registry; the
//! dialects come from `--irdl-file` (docs/embedding.md says why not from
//! `--load-dialect-plugin`).

// Cargo names the library after the crate: `PldPlugin` gives the file name
// `libPldPlugin.so` that the docs, `make install` and MLIR's own plugin
// examples use.
#![allow(non_snake_case)]

mod ffi;

/// Registers every pass and named pipeline `pld-opt` knows in MLIR's
/// global pass registry (names registered already are left as they are);
/// returns the names registered.
pub fn register_all() -> Vec<&'static str> {
    pld_ir::global::register(&pld_sim::registry())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_pass_and_pipeline_of_pld_opt_is_registered() {
        super::register_all();
        let registry = pld_sim::registry();
        let names = registry.passes().iter().map(|p| p.argument);
        let pipelines = registry.pipelines().iter().map(|p| p.argument);
        for name in names.chain(pipelines) {
            assert!(pld_ir::global::is_registered(name), "{name}");
        }
        assert!(super::register_all().is_empty(), "registered twice");
    }
}
