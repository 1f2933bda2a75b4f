// A program written from docs/dialect.md (sections 2.4, 2.6, 4.1 to 4.6):
// a module that names its target; an InCore kernel with the signal
// primitives, a remote tile load and the composite collectives; a CHIP
// orchestrator that calls it; a HOST orchestrator that allocates the
// windows, dispatches the CHIP function on every device and allreduces on
// the HOST rail. Every pipeline through stock mlir-opt with the plugin
// prints what pld-opt prints (compare.sh), and the lowered kernel is PTO.
//
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '' %s
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--mlir-print-debuginfo --mlir-use-nameloc-as-prefix' %s
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-host-pipeline, pld-chip-pipeline, pld-incore-pipeline, convert-pld-to-pto' '' %s
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto, convert-pto-to-sim' '' %s
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %s --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s
//
// CHECK: module attributes {pld.target = "a2a3"}
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME: !pto.ptr<f32>
// CHECK-SAME: pto.kernel_kind = #pto.kernel_kind<"vector">
// CHECK: "pto.comm_tnotify"
// CHECK: "pto.comm_twait"
// CHECK-LABEL: func.func @main(
// CHECK: "pld.comm_domain"
// CHECK: "pld.builtin_allreduce"
// CHECK-NOT: "pld.tensor_allreduce"

module attributes {pld.target = "a2a3"} {
  func.func @kernel(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x64xf32, #pld.dist>) -> !pld.ctx
    %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
    %nr = "pld.system_nranks"(%ctx) : (!pld.ctx) -> i32
    %next = arith.addi %me, %one : i32
    %peer = arith.remsi %next, %nr : i32
    %me_idx = arith.index_cast %me : i32 to index
    %peer_idx = arith.index_cast %peer : i32 to index
    "pld.system_notify"(%sig, %peer, %me_idx, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<4x1xi32, #pld.dist>, i32, index, index, i32) -> ()
    "pld.system_wait"(%sig, %peer_idx, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<4x1xi32, #pld.dist>, index, index, i32) -> ()
    %t = "pld.tile_remote_load"(%data, %peer, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
    %b = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
    %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"max">} : (tensor<1x64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
    %bc = "pld.tensor_broadcast"(%data, %sig) {root = 0 : i64} : (tensor<1x64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
    return
  }
  func.func @step(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
    func.call @kernel(%data, %sig) : (tensor<1x64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> ()
    return
  }
  func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 256 : i64
    %signal_bytes = arith.constant 16 : i64
    %ws = "pld.system_world_size"() : () -> i64
    %devices = arith.index_cast %ws : i64 to index
    %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
    %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x64xf32, #pld.dist>
    %sbuf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "signal_buf"} : (i64) -> !pld.ptr
    %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
    scf.for %d = %c0 to %devices step %c1 {
      "pld.dispatch"(%d) ({
        func.call @step(%data, %sig) : (tensor<1x64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> ()
        gpu.yield
      }) : (index) -> ()
    }
    %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
    return
  }
}
