// Programs whose devices run unsynchronised tasks side by side.
//
// --check reads a HOST collective's operands on each device when that device
// begins it. A peer still running an earlier task may write them after that
// (here device 1 stores into device 0's x long after device 0 began the
// allreduce, with no barrier between): the result then differs from the
// golden, and the WRONG line names the task that ran alongside (before, a
// bare WRONG that looked like the builtin's fault).
// RUN: split-file %s %t
// RUN: sh -c 'pld-run %t/late.mlir --ranks 2 --check --input y=ones --input x=zeros > %t/late.out 2>&1; echo status $?' | FileCheck %s --check-prefix=STATUS
// STATUS: status 1
// RUN: FileCheck %s --check-prefix=LATE < %t/late.out
// LATE: pld.tensor_allreduce at {{.*}}late.mlir:42:8: f32 x 64 (sum, mesh), {{.*}}: WRONG on ranks [0, 1] (worst error 1.000e0); device 1's @push (at {{.*}}late.mlir:24:3), before the call, was still running when device 0 began it and may have written the operands after --check read them (a pld.tensor_barrier before the call orders them)
//
// Under --explore, a rank blocked in an InCore kernel is named by that
// kernel, not by the builtin of a later HOST collective (once the explorer
// declared the deadlock, the ranks ran on past their waits into the next
// task, whose name the report took).
// RUN: not pld-run %t/stuck.mlir --ranks 2 --replay 1 2>&1 | FileCheck %s --check-prefix=STUCK
// STUCK: deadlock: no thread of any rank can run
// STUCK-NEXT: rank 0 in @stuck (called at {{.*}}stuck.mlir:11:3 in @chip, dispatched at {{.*}}stuck.mlir:22:3): waits for the i32 cell at rank 0's window, byte 0
// STUCK-NEXT: rank 1 block 0 of 2 in builtin.tensor.allreduce__sum__fp32: waits
//
// A race whose earlier access is a HOST collective's builtin kernel names
// the collective even when the rank has left it (it said "rank 1's call in
// @main").
// RUN: not pld-run %t/after.mlir --ranks 2 --explore 20 2>&1 | FileCheck %s --check-prefix=AFTER
// AFTER: race: rank 0's `pld.tile_remote_store` (pto.tstore) at {{.*}}after.mlir:8:3 wrote bytes [0, 256) of rank 1's window (x [0, 0]..[0, 63]), also written by rank 1's builtin kernel of pld.tensor_allreduce at {{.*}}after.mlir:26:8; no signal orders them

//--- late.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
// Device 1 works for a while, then stores its y into device 0's x.
func.func @push(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3000000 : index
  %ctx = "pld.system_get_comm_ctx"(%x) : (!p) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %late = arith.cmpi eq, %me, %one : i32
  scf.if %late {
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (!t) {
      %b = "pld.tile_add"(%a, %t) : (!t, !t) -> !t
      scf.yield %b : !t
    }
    "pld.tile_remote_store"(%t, %x, %zero, %c0, %c0) : (!t, !p, i32, index, index) -> ()
  }
  return
}
func.func @chip(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @push(%x, %y) : (!p, !p) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = arith.constant 256 : i64
  %xb = "pld.tensor_alloc_window_buffer"(%b) {name = "x"} : (i64) -> !pld.ptr
  %yb = "pld.tensor_alloc_window_buffer"(%b) {name = "y"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xb) : (!pld.ptr) -> !p
  %y = "pld.tensor_window"(%yb) : (!pld.ptr) -> !p
  scf.for %r = %c0 to %c2 step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%x, %y) : (!p, !p) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %s = "pld.tensor_allreduce"(%x) {op = #pld.reduce_op<"sum">} : (!p) -> !p
  return
}

//--- stuck.mlir
// Device 0's kernel waits on a cell nobody notifies; device 1 goes on into
// a HOST allreduce.
!s = tensor<1x1xi32, #pld.dist>
func.func @stuck(%s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  "pld.system_wait"(%s, %c0, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!s, index, index, i32) -> ()
  return
}
func.func @chip(%s: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @stuck(%s) : (!s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %b = arith.constant 4 : i64
  %db = arith.constant 1024 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%b) {name = "lonely"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !s
  %dbuf = "pld.tensor_alloc_window_buffer"(%db) {name = "d"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> tensor<256xf32, #pld.dist>
  "pld.dispatch"(%c0) ({
    func.call @chip(%s) : (!s) -> ()
    gpu.yield
  }) : (index) -> ()
  %r = "pld.tensor_allreduce"(%d) {op = #pld.reduce_op<"sum">, core_num = 2 : i64} : (tensor<256xf32, #pld.dist>) -> tensor<256xf32, #pld.dist>
  return
}

//--- after.mlir
!p = tensor<1x64xf32, #pld.dist>
// After the HOST allreduce, device 0 alone pushes a tile into device 1's x:
// nothing orders it after device 1's writes of its allreduce result.
func.func @push(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_remote_store"(%t, %x, %one, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, !p, i32, index, index) -> ()
  return
}
func.func @chip(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @push(%x, %y) : (!p, !p) -> ()
  return
}
func.func @noop(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.constant 256 : i64
  %xb = "pld.tensor_alloc_window_buffer"(%b) {name = "x"} : (i64) -> !pld.ptr
  %yb = "pld.tensor_alloc_window_buffer"(%b) {name = "y"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xb) : (!pld.ptr) -> !p
  %y = "pld.tensor_window"(%yb) : (!pld.ptr) -> !p
  %s = "pld.tensor_allreduce"(%x) {op = #pld.reduce_op<"sum">} : (!p) -> !p
  "pld.dispatch"(%c0) ({
    func.call @chip(%s, %y) : (!p, !p) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @noop(%s, %y) : (!p, !p) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}
