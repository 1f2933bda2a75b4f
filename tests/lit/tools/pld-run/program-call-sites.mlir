// A call's tasks are matched by their source location: the even devices
// calling @sum_a and the odd ones @max_b from two places of the CHIP
// orchestrator make two calls, neither run by every member, which --check
// says it cannot compare. Before, they were matched as one call by order
// (the fallback of a module converted without locations), the golden was
// @sum_a's, and every rank was WRONG without a word on why (prog24 MED-1).
//
// RUN: not pld-run %s --ranks 4 --check 2>&1 | FileCheck %s
// On 2 devices, each place is one device's: they were still matched by
// order there (recheck24b H1), which only a converted module's calls are.
// RUN: not pld-run %s --ranks 2 --check 2>&1 | FileCheck %s
// CHECK: pld-run: error: {{.*}}program-call-sites.mlir:[[# @LINE + 20]]:5: --check cannot compare pld.tensor_allreduce: not every member of the comm domain ran this call
// CHECK: pld.tensor_allreduce in @sum_a (called at {{.*}}program-call-sites.mlir:[[# @LINE + 19]]:5): f32 x 64 (sum), {{.*}}: not every member of the comm domain ran this call
// CHECK: pld.tensor_allreduce in @max_b (called at {{.*}}program-call-sites.mlir:[[# @LINE + 20]]:5): f32 x 64 (max), {{.*}}: not every member of the comm domain ran this call
// CHECK-NOT: WRONG
!v = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @sum_a(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @max_b(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"max">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @step(%x: !v, %s: !s, %dev: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %dev, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  scf.if %even {
    func.call @sum_a(%x, %s) : (!v, !s) -> ()
  } else {
    func.call @max_b(%x, %s) : (!v, !s) -> ()
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b256 = arith.constant 256 : i64
  %b16 = arith.constant 16 : i64
  %vb = "pld.tensor_alloc_window_buffer"(%b256) {name = "v"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig"} : (i64) -> !pld.ptr
  %v = "pld.tensor_window"(%vb) : (!pld.ptr) -> !v
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !s
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%v, %s, %r) : (!v, !s, index) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
