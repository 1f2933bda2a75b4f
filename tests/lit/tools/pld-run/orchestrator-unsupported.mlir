// An op the orchestration does not interpret is refused at the op, with
// what it does interpret and, where one of those does the same, what to
// write instead (scf.index_switch said no workaround).
//
// RUN: split-file %s %t
// RUN: not pld-run %t/switch.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SWITCH
// RUN: not pld-run %t/region.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=REGION
// RUN: not pld-run %t/branch.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BRANCH
// RUN: not pld-run %t/affine.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=AFFINE
// SWITCH: switch.mlir:6:3: error: 'scf.index_switch' is not run by the simulator's orchestration (it interprets arith, scf.for, scf.while, scf.if, func.call, pld.comm_domain, window allocation, tensor.extract_slice of windows, pld.dispatch and the pld.builtin_* dispatches); write its cases as nested scf.if
// REGION: region.mlir:6:3: error: 'scf.execute_region' is not run by the simulator's orchestration {{.*}}; write its body in place
// BRANCH: branch.mlir:6:3: error: 'cf.br' is not run by the simulator's orchestration {{.*}}; write the branches as scf.if or scf.for
// AFFINE: affine.mlir:6:3: error: 'affine.for' is not run by the simulator's orchestration {{.*}}; write it as scf.for or scf.if

//--- switch.mlir
!sig = tensor<8x1xi32, #pld.dist>
func.func @k(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%s: !sig, %which: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  scf.index_switch %which
  case 0 {
    func.call @k(%s) : (!sig) -> ()
    scf.yield
  }
  default {
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %sb = arith.constant 32 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  "pld.dispatch"(%c0) ({
    func.call @chip(%s, %c0) : (!sig, index) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

//--- region.mlir
!sig = tensor<8x1xi32, #pld.dist>
func.func @k(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%s: !sig, %which: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  scf.execute_region {
    func.call @k(%s) : (!sig) -> ()
    scf.yield
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %sb = arith.constant 32 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  "pld.dispatch"(%c0) ({
    func.call @chip(%s, %c0) : (!sig, index) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

//--- branch.mlir
!sig = tensor<8x1xi32, #pld.dist>
func.func @k(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%s: !sig, %which: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  cf.br ^bb1
^bb1:
  func.call @k(%s) : (!sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %sb = arith.constant 32 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  "pld.dispatch"(%c0) ({
    func.call @chip(%s, %c0) : (!sig, index) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

//--- affine.mlir
!sig = tensor<8x1xi32, #pld.dist>
func.func @k(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%s: !sig, %which: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  affine.for %i = 0 to 2 {
    func.call @k(%s) : (!sig) -> ()
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %sb = arith.constant 32 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  "pld.dispatch"(%c0) ({
    func.call @chip(%s, %c0) : (!sig, index) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}
