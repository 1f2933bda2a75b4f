// A program of HOST builtins only has no kernel to compile: the first run
// stores an entry without code, and the next reads it back instead of
// building an empty JIT module again; the results are the same.
//
// RUN: rm -rf %t.cache %t.cold %t.warm && mkdir -p %t.cache
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t.cache --output-dir %t.cold | FileCheck %s --check-prefix=COLD
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t.cache --output-dir %t.warm | FileCheck %s --check-prefix=WARM
// RUN: cmp %t.cold/data.rank1.npy %t.warm/data.rank1.npy
// COLD: pld.tensor_allreduce at {{.*}}cache-no-kernel.mlir:18:8: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks
// COLD: compile cache: lowered module made and cached, code made and cached
// WARM: pld.tensor_allreduce at {{.*}}cache-no-kernel.mlir:18:8: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks
// WARM: compile cache: lowered module read from the cache, code read from the cache

func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %p = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<1x64xf32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
