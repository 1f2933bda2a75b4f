//===- diagnostics.cpp - remarks and warnings, the program's name ---------===//
//
// The MLIR C API emits errors only (mlirEmitError); a remark or a warning,
// which pld-opt prints as `file:line:col: remark: ...` (`warning: ...`) and
// --verify-diagnostics matches with `expected-remark` (`expected-warning`),
// needs MLIR's C++ API. Used by pld_ir::diag::emit_remark and emit_warning
// (ir/src/diag.rs).
//
// LLVM's option parser prefixes its errors with the program's name, which
// only llvm::cl::ParseCommandLineOptions sets; an upstream pass option
// that does not parse (`canonicalize{max-iterations=1e30}`) printed
// `: for the --max-iterations option: ...`. Used by
// pld_ir::diag::name_program.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

extern "C" void pld_ir_emit_remark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location)) << message;
}

extern "C" void pld_ir_emit_warning(MlirLocation location, const char *message) {
  mlir::emitWarning(unwrap(location)) << message;
}

extern "C" void pld_ir_name_program(const char *name) {
  // No arguments but the name: no option changes, nothing to report.
  const char *argv[] = {name};
  llvm::cl::ParseCommandLineOptions(1, argv, "", &llvm::nulls());
}
