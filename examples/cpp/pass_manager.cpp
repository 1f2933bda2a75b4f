// A C++ host of libpld.so (docs/embedding.md, "The C API"): an
// mlir::PassManager of the host's own MLIR holding pld's passes next to
// upstream ones.
//
//   pass_manager FILE [PASSES]
//
// Parses FILE in an mlir::MLIRContext that pldContextLoadDialects filled,
// builds one pass manager on builtin.module from PASSES (default
// "pld-to-pto,canonicalize,cse": pld's names resolve
// because pldRegisterPasses put them in MLIR's global registry, next to
// the upstream passes the host registered), appends
// pld-verify as a pass object from the C API, runs it and prints the
// module, as `pld-opt --pass-pipeline='builtin.module(...,pld-verify)'`
// does.

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "pld-c/Pld.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: " << argv[0] << " FILE [PASSES]\n";
    return 2;
  }
  llvm::StringRef passes = argc > 2 ? argv[2] : "pld-to-pto,canonicalize,cse";

  // One MLIR in the process: this context is the one pld's passes run in.
  mlir::MLIRContext context;
  if (mlirLogicalResultIsFailure(pldContextLoadDialects(wrap(&context))))
    return 1;
  // Pipeline strings name registered passes: MLIR's own transforms
  // (canonicalize, cse, ...) as the host chooses, and pld's.
  mlir::registerTransformsPasses();
  pldRegisterPasses();

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1; // MLIR printed why.

  mlir::PassManager manager(&context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline(passes, manager, llvm::errs())))
    return 1;
  // A pld pass made by the C API is an mlir::Pass the manager takes over.
  manager.addPass(std::unique_ptr<mlir::Pass>(unwrap(pldCreateVerifyPass())));
  if (mlir::failed(manager.run(*module)))
    return 1; // The diagnostics went to MLIR's default handler (stderr).

  module->print(llvm::outs());
  return 0;
}
