// A window buffer of i64::MAX bytes: its 32-byte aligned size no longer
// fits a 64-bit size. pld-materialize-comm-domain-scopes refuses it at the
// allocation (MLIR would fold the record to a negative count). A size
// that fits on one device but not on the devices of the run (world_size
// times 2^62 bytes on 2 devices) is refused by the simulator, which says
// which comm domain slot and why.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not pld-run %t/constant.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=CONSTANT
// RUN: not pld-run %t/per-device.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=DEVICES
// CONSTANT: constant.mlir:10:11: error: 'pld.tensor_alloc_window_buffer' op size of "data": 9223372036854775807 bytes padded to 32 overflow a 64-bit byte count
// CONSTANT-NEXT: %dbuf = "pld.tensor_alloc_window_buffer"(%huge)
// CONSTANT-NEXT: ^
// DEVICES: per-device.mlir:12:11: error: 'pld.comm_domain' cannot size slot 'data' on 2 devices (affine_map<{{.*}}4611686018427387904{{.*}}>): the size overflows a 64-bit integer
// DEVICES-NEXT: %dbuf = "pld.tensor_alloc_window_buffer"(%bytes)
// DEVICES-NEXT: ^

//--- constant.mlir
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

//--- per-device.mlir
!rows = tensor<4x8xf32, #pld.dist>
func.func @chip(%a: !rows) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2 : index
  %quarter = arith.constant 4611686018427387904 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %bytes = arith.muli %ws, %quarter : i64
  %dbuf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> !rows
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%d) : (!rows) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
