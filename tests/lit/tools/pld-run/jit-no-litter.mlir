// Compiling a kernel leaves nothing behind outside the compile cache:
// MLIR's JIT, as the C API makes it, turns on LLVM's perf listener, which
// creates `$JITDUMPDIR/.debug/jit/llvm-IR-jit-*/jit-<pid>.dump` (or under
// the temporary or home directory) on every compile and never removes it.
// pld-run makes its JIT without that listener (ir/cpp/engine.cpp), so the
// directory the listener would use stays empty, compiled or read from the
// cache, and the kernel still computes the right sum.
//
// RUN: rm -rf %t.dump %t.cache && mkdir -p %t.dump %t.cache
// RUN: env JITDUMPDIR=%t.dump pld-run %s --ranks 3 --check --no-cache | FileCheck %s
// RUN: env JITDUMPDIR=%t.dump pld-run %s --ranks 3 --check --cache-dir %t.cache | FileCheck %s
// RUN: env JITDUMPDIR=%t.dump pld-run %s --ranks 3 --check --cache-dir %t.cache | FileCheck %s
// RUN: find %t.dump -mindepth 1 | count 0
// CHECK: rank 2: ok
// CHECK: pld.tensor_allreduce 3 160 40 f32 sum - {{.*}} 0{{$}}

func.func @k(%d: tensor<1x40xf32, #pld.dist>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<1x40xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<1x40xf32, #pld.dist>
  return
}
