//===- shim.cpp - the C++ side of libPldPlugin.so --------------------------===//
//
// What the MLIR C API cannot do for the plugin: fill in the plugin's
// `PassPluginLibraryInfo` and put named entries into MLIR's global pass
// registry. What an entry adds to a pass manager (its passes, where they
// nest, what its options mean) is decided on the Rust side (src/lib.rs),
// which this file calls back through a function pointer.
//
// Each pld pass and each named pld pipeline is registered as a pipeline
// entry (`mlir::registerPassPipeline`): its builder receives the option
// text as written between the braces and the pass manager it is added to,
// so pld's own option parser and anchoring apply, as in pld-opt.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include <string>

extern "C" {

/// Adds what `element` stands for to `manager`, whose op is `anchor`,
/// configured by `options` (`braces`: the options were written, maybe
/// empty). On failure, calls `onError` with the message and returns false.
typedef bool (*PldPluginAddFn)(const void *element, MlirOpPassManager manager,
                               MlirStringRef anchor, MlirStringRef options,
                               bool braces, MlirStringCallback onError,
                               void *errorData);

/// Registers every entry (Rust: `register_all`).
void pld_plugin_register_all(void);

mlir::PassPluginLibraryInfo pld_plugin_info(void);

void pld_plugin_register(MlirStringRef argument, MlirStringRef summary,
                         const void *element, PldPluginAddFn add);

} // extern "C"

// The Rust mirror of the struct (src/ffi.rs) has this layout.
static_assert(sizeof(mlir::PassPluginLibraryInfo) == 32,
              "PassPluginLibraryInfo changed: update src/ffi.rs");

mlir::PassPluginLibraryInfo pld_plugin_info(void) {
  return {MLIR_PLUGIN_API_VERSION, "pld", PLD_PLUGIN_VERSION,
          pld_plugin_register_all};
}

static void appendTo(MlirStringRef text, void *data) {
  static_cast<std::string *>(data)->append(text.data, text.length);
}

void pld_plugin_register(MlirStringRef argument, MlirStringRef summary,
                         const void *element, PldPluginAddFn add) {
  auto build =
      [element, add](mlir::OpPassManager &manager, llvm::StringRef options,
                     llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
                         errorHandler) -> llvm::LogicalResult {
    std::string message;
    // An element written without braces has no option text at all (a null
    // string), one written `name{}` an empty one.
    bool braces = options.data() != nullptr;
    if (add(element, wrap(&manager), wrap(manager.getOpAnchorName()),
            wrap(options), braces, appendTo, &message))
      return llvm::success();
    return errorHandler(message);
  };
  // pld options are parsed by pld; there is no MLIR option object to list.
  auto noOptions =
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {};
  mlir::registerPassPipeline(unwrap(argument), unwrap(summary), build,
                             noOptions);
}
