//===- registration.cpp - pld's passes in MLIR's global pass registry ----===//
//
// The MLIR C API can create a pass but not register one by name, so this
// file does it with MLIR's C++ API, for `pld_ir::global` (ir/src/global.rs).
// Once registered, pld's passes and pipelines are known to every pass
// pipeline parser of the process: `mlirParsePassPipeline`,
// `mlirOpPassManagerAddPipeline`, `mlir::parsePassPipeline` and stock
// `mlir-opt` with a pass plugin.
//
// Every pld pass and named pipeline is registered as a pass pipeline entry
// (mlir::registerPassPipeline), whose builder gets the option text as
// written and the pass manager it adds to: what the entry adds (its passes,
// where they nest, what its options mean) is decided in Rust, which this
// file calls back. The callback catches its own panics.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include <string>

namespace {

/// Adds the passes of `entry` to `manager` (anchored on `anchor`), with the
/// option text `options` (`braces`: whether the options were written at
/// all, `name{}` being an empty text); on failure says why through `error`.
using BuildPipeline = MlirLogicalResult (*)(const void *entry,
                                            MlirOpPassManager manager,
                                            MlirStringRef anchor,
                                            MlirStringRef options, bool braces,
                                            MlirStringCallback error,
                                            void *errorData);

void appendTo(MlirStringRef text, void *data) {
  static_cast<std::string *>(data)->append(text.data, text.length);
}

} // namespace

extern "C" {

/// Whether a pass or pipeline called `argument` is registered already (by
/// this library or another one in the process).
bool pld_ir_is_registered(MlirStringRef argument) {
  llvm::StringRef name = unwrap(argument);
  return mlir::PassInfo::lookup(name) != nullptr ||
         mlir::PassPipelineInfo::lookup(name) != nullptr;
}

/// Registers `argument` as a pass pipeline that `build(entry, ...)` fills.
void pld_ir_register_pipeline(const void *entry, MlirStringRef argument,
                              MlirStringRef summary, BuildPipeline build) {
  auto builder =
      [entry, build](mlir::OpPassManager &manager, llvm::StringRef options,
                     llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
                         errorHandler) -> llvm::LogicalResult {
    std::string message;
    // An element written without braces has no option text at all (a null
    // string), one written `name{}` an empty one.
    bool braces = options.data() != nullptr;
    MlirLogicalResult built =
        build(entry, wrap(&manager), wrap(manager.getOpAnchorName()),
              wrap(options), braces, appendTo, &message);
    if (mlirLogicalResultIsFailure(built))
      return errorHandler(message);
    return llvm::success();
  };
  // pld parses its options itself: there is no MLIR option object to list.
  auto noOptions =
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {};
  mlir::registerPassPipeline(unwrap(argument), unwrap(summary), builder,
                             noOptions);
}

} // extern "C"
