//===- diagnostics.cpp - remarks at a location ----------------------------===//
//
// The MLIR C API emits errors only (mlirEmitError); a remark, which
// pld-opt prints as `file:line:col: remark: ...` and --verify-diagnostics
// matches with `expected-remark`, needs MLIR's C++ API. Used by
// pld_ir::diag::emit_remark (ir/src/diag.rs).
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"

extern "C" void pld_ir_emit_remark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location)) << message;
}
