// pld-translate --emit=kernels refuses what names no kernel, with the
// location, exit status 1 and nothing written.
//
// RUN: rm -rf %t && not pld-translate --emit=kernels %s -o %t 2>&1 | FileCheck %s
// RUN: not ls %t
// RUN: not pld-translate --emit=kernels %s 2>&1 | FileCheck %s --check-prefix=NO-DIR
// An empty -o names no directory either (the package went into the
// current directory).
// RUN: rm -rf %t.cwd && mkdir %t.cwd
// RUN: not sh -c 'cd %t.cwd && pld-translate --emit=kernels %s -o ""' 2>&1 | FileCheck %s --check-prefix=NO-DIR
// RUN: rmdir %t.cwd
// RUN: not pld-translate --emit=kernels --split-input-file %s -o %t 2>&1 | FileCheck %s --check-prefix=SPLIT

// NO-DIR: pld-translate: error: --emit=kernels writes a directory of files; name it with -o DIR
// SPLIT: pld-translate: error: --emit=kernels writes one package directory per module; --split-input-file is not supported with it

!data = tensor<64xf32, #pld.dist>
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  // A collective the HOST rail has not lowered yet.
  // CHECK: kernels-errors.mlir:[[@LINE+1]]:8: error: 'pld.tensor_allreduce' op is a HOST collective that names no builtin kernel yet; lower it first (the pld-host-pipeline or pld-to-pto pipeline)
  %s = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
