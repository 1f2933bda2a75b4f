//===- engine.cpp - an ExecutionEngine without the perf listener ----------===//
//
// MLIR's C API makes an ExecutionEngine with the default options, and those
// turn on LLVM's perf JIT listener: every process that compiles a kernel
// then creates a directory under `$JITDUMPDIR` (or the temporary or home
// directory) with a `jit-<pid>.dump` file, never removed, and prints
// "could not create jit cache directory" where it may not write there.
// pld makes its engines here instead: the same target machine, LLVM
// optimisation and code generation levels as the C API's
// mlirExecutionEngineCreate, with the perf listener off (the GDB listener,
// which writes nothing, stays on). The engine it returns is the C API's
// handle, used and destroyed through the C API (ir/src/engine.rs).
//
//===----------------------------------------------------------------------===//

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir/CAPI/ExecutionEngine.h"
#include "mlir/CAPI/IR.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdio>
#include <string>

namespace {

/// Writes an LLVM error into `message` (at most `capacity` bytes, with
/// its terminating zero) and consumes it.
void describe(llvm::Error error, char *message, size_t capacity) {
  std::string text = llvm::toString(std::move(error));
  if (capacity > 0)
    std::snprintf(message, capacity, "%s", text.c_str());
}

} // namespace

/// A JIT for `module` (in the LLVM dialect) at LLVM optimisation level
/// `optLevel` (0 to 3), keeping its object for dumping when
/// `enableObjectDump`; a null engine with `message` filled when it cannot
/// be made.
extern "C" MlirExecutionEngine pld_ir_engine_create(MlirModule module,
                                                    int optLevel,
                                                    bool enableObjectDump,
                                                    char *message,
                                                    size_t capacity) {
  static bool targets = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmParser();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targets;

  mlir::Operation *op = unwrap(module).getOperation();
  mlir::MLIRContext &context = *op->getContext();
  mlir::registerBuiltinDialectTranslation(context);
  mlir::registerLLVMDialectTranslation(context);

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    describe(builder.takeError(), message, capacity);
    return MlirExecutionEngine{nullptr};
  }
  auto machine = builder->createTargetMachine();
  if (!machine) {
    describe(machine.takeError(), message, capacity);
    return MlirExecutionEngine{nullptr};
  }
  auto transformer = mlir::makeOptimizingTransformer(
      static_cast<unsigned>(optLevel), /*sizeLevel=*/0, machine->get());

  mlir::ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = static_cast<llvm::CodeGenOptLevel>(optLevel);
  options.enableObjectDump = enableObjectDump;
  options.enablePerfNotificationListener = false;
  auto engine = mlir::ExecutionEngine::create(op, options, std::move(*machine));
  if (!engine) {
    describe(engine.takeError(), message, capacity);
    return MlirExecutionEngine{nullptr};
  }
  return wrap(engine->release());
}
