//===- shim.cpp - the plugin's description for mlir-opt ----------------------===//
//
// The one thing of libPldPlugin.so that needs MLIR's C++ headers: the
// `PassPluginLibraryInfo` that `mlir-opt --load-pass-plugin` asks for, with
// MLIR's plugin API version. Its registration callback is Rust
// (`pld_plugin_register_all`, src/ffi.rs), which registers pld's passes and
// pipelines through pld-ir's registration (ir/src/global.rs), the same one
// `libpld.so` uses.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/PassPlugin.h"

extern "C" {

/// Registers every pld pass and pipeline (Rust, src/ffi.rs).
void pld_plugin_register_all(void);

mlir::PassPluginLibraryInfo pld_plugin_info(void);

} // extern "C"

// The Rust mirror of the struct (src/ffi.rs) has this layout.
static_assert(sizeof(mlir::PassPluginLibraryInfo) == 32,
              "PassPluginLibraryInfo changed: update src/ffi.rs");

mlir::PassPluginLibraryInfo pld_plugin_info(void) {
  return {MLIR_PLUGIN_API_VERSION, "pld", PLD_PLUGIN_VERSION,
          pld_plugin_register_all};
}
