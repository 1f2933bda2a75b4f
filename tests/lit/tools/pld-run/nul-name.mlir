// A kernel whose name holds a NUL byte is refused before it is compiled:
// LLVM's JIT names symbols by C strings, and the run failed with a raw
// "JIT session error" or crashed (status 134 or 139) now and then
// (recheck27b H1). The explorer pass compiles the same way.
//
// pld-verify refuses it at the function, so every tool that lowers says
// so there (recheck27c M2: pld-run named no line):
// RUN: not pld-run %s --ranks 2 --no-cache 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not pld-run %s --ranks 2 --no-cache --explore 2 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: nul-name.mlir:[[#@LINE+15]]:1: error: function @"k\00x" has a NUL byte in its name, which no compiled function can carry; rename it
// VERIFY-NOT: JIT session error
// A module converted already (here: one converted under another name and
// renamed) is refused by the explorer before its JIT, and by pld-translate
// at the function (it printed `@"k\0x"`, another name: recheck27c H1):
// RUN: sed 's/@"k\\00x"/@k/' %s | pld-opt --pass-pipeline='builtin.module(pld-to-pto)' | sed 's/@k(/@"k\\00x"(/' > %t.pto.mlir
// RUN: not pld-opt %t.pto.mlir --pass-pipeline='builtin.module(pld-explore-protocol{schedules=1 ranks=2})' 2>&1 | FileCheck %s
// RUN: not pld-translate --emit=pto %t.pto.mlir 2>&1 | FileCheck %s
// CHECK: error: {{.*}}@"k\00x" has a NUL byte in its name, which no compiled function can carry; rename it
// CHECK-NOT: JIT session error
// An empty name, the same (it was an error at a line of pld-run's own
// text, `<kernel>:5:14`: recheck27c M1):
// RUN: sed 's/@"k\\00x"/@""/' %s > %t.empty.mlir
// RUN: not pld-run %t.empty.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.mlir:[[#]]:1: error: function @"" has an empty name; the functions pld makes of it are named after it: give it one
func.func @"k\00x"(%s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%s) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}
