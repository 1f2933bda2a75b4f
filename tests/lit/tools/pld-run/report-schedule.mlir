// A program's report says each allreduce's schedule, and whether
// mode = "auto" chose it (progs26 LOW 1: no line said it); a call on a comm
// domain other than the first devices in order names its devices (progs26
// LOW 2: "ok on 2 ranks" alone).
//
// RUN: rm -rf %t && split-file %s %t
// (Inputs/four-modes.mlir is the C API's and the Python package's test
// program too.)
// RUN: cd %S/Inputs && pld-run four-modes.mlir --ranks 4 --check | FileCheck %s --check-prefix=MODES
// MODES: pld.tensor_allreduce at four-modes.mlir:5:8: f32 x 1024 (sum, two_shot), {{.*}}: ok on 4 ranks (worst error
// Without a signal the rank count is known only at run time: auto keeps the
// default without pricing the schedules (it was said to have chosen it:
// recheck27 M1); with a [4, 1] signal it prices them and chooses:
// MODES-NEXT: pld.tensor_allreduce at four-modes.mlir:6:8: f32 x 1024 (max, mesh, kept by mode = "auto": sizes known only at run time), {{.*}}: ok on 4 ranks (worst error
// MODES-NEXT: pld.tensor_allreduce at four-modes.mlir:7:8: f32 x 1024 (min, mesh), {{.*}}: ok on 4 ranks (worst error
// MODES-NEXT: pld.tensor_allreduce at four-modes.mlir:11:8: f32 x 1024 (prod, {{mesh|two_shot}}, chosen by mode = "auto"), {{.*}}: ok on 4 ranks (worst error
// RUN: pld-run %t/odd.mlir --ranks 4 --check | FileCheck %s --check-prefix=ODD
// ODD: pld.tensor_allreduce at {{.*}}odd.mlir:6:10: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks (devices 1, 3; worst error 0.000e0)
// RUN: sed 's/array<i64: 1, 3>/array<i64: 2>/' %t/odd.mlir > %t/one.mlir
// RUN: pld-run %t/one.mlir --ranks 4 --check | FileCheck %s --check-prefix=ONE
// ONE: pld.tensor_allreduce at {{.*}}one.mlir:6:10: f32 x 64 (sum, mesh), {{.*}}: ok on 1 rank (device 2; worst error 0.000e0)

//--- odd.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %small = arith.constant 256 : i64
  "pld.comm_domain"() ({
    %pbuf = "pld.tensor_alloc_window_buffer"(%small) {name = "pair_buf"} : (i64) -> !pld.ptr
    %p = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<1x64xf32, #pld.dist>
    %c = "pld.tensor_allreduce"(%p) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
    gpu.yield
  }) {name = "odd", devices = array<i64: 1, 3>, slots = ["pair_buf"]} : () -> ()
  return
}
