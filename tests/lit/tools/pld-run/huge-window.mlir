// A window buffer of i64::MAX bytes: its 32-byte aligned size no longer
// fits a 64-bit size. The error says which comm domain slot and why (it
// used to say only "overflow").
//
// RUN: not pld-run %s --ranks 2 2>&1 | FileCheck %s
// CHECK: huge-window.mlir:[[@LINE+13]]:11: error: 'pld.comm_domain' cannot size slot 'data' on 2 devices (affine_map<{{.*}}9223372036854775807{{.*}}>): the size overflows a 64-bit integer
// CHECK-NEXT: %dbuf = "pld.tensor_alloc_window_buffer"(%huge)
// CHECK-NEXT: ^

!rows = tensor<4x8xf32, #pld.dist>
func.func @chip(%a: !rows) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2 : index
  %huge = arith.constant 9223372036854775807 : i64
  %dbuf = "pld.tensor_alloc_window_buffer"(%huge) {name = "data"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> !rows
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%d) : (!rows) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
