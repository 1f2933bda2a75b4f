// HOST collectives on windows that no pld.dispatch names (issue 20, item 4):
// a HOST collective is a per-device dispatch of its own, so its data
// windows get the devices of the collective's dispatched data windows, or
// every device when no dispatch names any of them; signals and receive
// counts inherit their target's devices as before. Before, such programs
// (what an nccl-tests user writes first) were refused with
// `allocation "..." is not consumed by any CHIP orchestrator dispatch`,
// also for the synthesized `__allreduce_signal_buf_0`.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals, pld-materialize-comm-domain-scopes)' | FileCheck %s
// The whole HOST pipeline lowers them to one builtin per device:
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-host-pipeline)' | FileCheck %s --check-prefix=LOWERED

// An allreduce of a window, no CHIP dispatch at all: one domain over every
// device, holding the window and its synthesized signal.
// CHECK-LABEL: func.func @nccl_tests_allreduce
// CHECK:      "pld.tensor_allreduce"
// CHECK-NEXT: gpu.yield
// CHECK-NEXT: }) {{{.*}}devices = array<i64>, {{.*}}name = "comm_d0", slots = ["data_buf", "__allreduce_signal_buf_0"]
// LOWERED-LABEL: func.func @nccl_tests_allreduce
// LOWERED: scf.for
// LOWERED-NEXT: "pld.builtin_allreduce"
func.func @nccl_tests_allreduce() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4096 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1024xf32, #pld.dist>
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (tensor<1024xf32, #pld.dist>) -> tensor<1024xf32, #pld.dist>
  return
}

// -----

// A barrier whose signal no dispatch names runs on every device (it was
// `signal buffer "barrier_sig" has no inferred comm-domain coverage`), and
// an allgather whose input and target no dispatch names too.
// CHECK-LABEL: func.func @barrier_and_allgather
// CHECK: }) {{{.*}}devices = array<i64>, {{.*}}name = "comm_d0", slots = ["barrier_sig", "row", "rows", "gather_sig"]
// CHECK-NOT: comm_d1
// LOWERED-LABEL: func.func @barrier_and_allgather
// LOWERED: "pld.builtin_barrier"
// LOWERED: "pld.builtin_allgather"
func.func @barrier_and_allgather() attributes {pld.kind = #pld.func_kind<"host">} {
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %c4 = arith.constant 4 : i64
  %c64 = arith.constant 64 : i64
  %sbytes = arith.muli %ws, %c4 : i64
  %rbytes = arith.muli %ws, %c64 : i64
  %bsig_buf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "barrier_sig"} : (i64) -> !pld.ptr
  %row_buf = "pld.tensor_alloc_window_buffer"(%c64) {name = "row"} : (i64) -> !pld.ptr
  %rows_buf = "pld.tensor_alloc_window_buffer"(%rbytes) {name = "rows"} : (i64) -> !pld.ptr
  %gsig_buf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "gather_sig"} : (i64) -> !pld.ptr
  %bsig = "pld.tensor_window"(%bsig_buf, %n) : (!pld.ptr, index) -> tensor<?xi32, #pld.dist>
  %row = "pld.tensor_window"(%row_buf) : (!pld.ptr) -> tensor<1x16xf32, #pld.dist>
  %rows = "pld.tensor_window"(%rows_buf, %n) : (!pld.ptr, index) -> tensor<?x16xf32, #pld.dist>
  %gsig = "pld.tensor_window"(%gsig_buf, %n) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>
  %b = "pld.tensor_barrier"(%bsig) : (tensor<?xi32, #pld.dist>) -> tensor<?xi32, #pld.dist>
  %g = "pld.tensor_allgather"(%row, %rows, %gsig) : (tensor<1x16xf32, #pld.dist>, tensor<?x16xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>) -> tensor<?x16xf32, #pld.dist>
  return
}

// -----

// The target is dispatched to devices 0 and 1, the input nowhere: the
// input runs where the target does, so both land in one domain (over every
// device the two would be in different domains and the lowering would find
// no scope holding both).
// CHECK-LABEL: func.func @input_follows_target
// CHECK: }) {{{.*}}devices = array<i64: 0, 1>, {{.*}}name = "comm_d0", slots = ["row", "rows", "gather_sig"]
// CHECK-NOT: comm_d1
// LOWERED-LABEL: func.func @input_follows_target
// LOWERED-COUNT-2: "pld.builtin_allgather"
!rows = tensor<2x16xf32, #pld.dist>
func.func @chip(%r: !rows) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @input_follows_target() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : i64
  %c64 = arith.constant 64 : i64
  %c128 = arith.constant 128 : i64
  %row_buf = "pld.tensor_alloc_window_buffer"(%c64) {name = "row"} : (i64) -> !pld.ptr
  %rows_buf = "pld.tensor_alloc_window_buffer"(%c128) {name = "rows"} : (i64) -> !pld.ptr
  %gsig_buf = "pld.tensor_alloc_window_buffer"(%c8) {name = "gather_sig"} : (i64) -> !pld.ptr
  %row = "pld.tensor_window"(%row_buf) : (!pld.ptr) -> tensor<1x16xf32, #pld.dist>
  %rows = "pld.tensor_window"(%rows_buf) : (!pld.ptr) -> !rows
  %gsig = "pld.tensor_window"(%gsig_buf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  "pld.dispatch"(%c0) ({
    func.call @chip(%rows) : (!rows) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @chip(%rows) : (!rows) -> ()
    gpu.yield
  }) : (index) -> ()
  %g = "pld.tensor_allgather"(%row, %rows, %gsig) : (tensor<1x16xf32, #pld.dist>, !rows, tensor<2x1xi32, #pld.dist>) -> !rows
  return
}

// -----

// Two domains: a pair allreduce next to a world allreduce, with scopes
// inferred (the pair is dispatched to devices 0 and 1, the world window
// nowhere).
// CHECK-LABEL: func.func @pair_and_world
// CHECK:      }) {{{.*}}devices = array<i64: 0, 1>, {{.*}}name = "comm_d1", slots = ["pair_buf", "__allreduce_signal_buf_0"]
// CHECK:      }) {{{.*}}devices = array<i64>, {{.*}}name = "comm_d0", slots = ["data_buf", "__allreduce_signal_buf_1"]
// LOWERED-LABEL: func.func @pair_and_world
// LOWERED-COUNT-2: "pld.builtin_allreduce"({{.*}}) {{.*}}op = #pld.reduce_op<"max">
// LOWERED: scf.for
// LOWERED-NEXT: "pld.builtin_allreduce"({{.*}}) {{.*}}op = #pld.reduce_op<"sum">
!data = tensor<64xf32, #pld.dist>
func.func @step(%x: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @pair_and_world() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : i64
  %dbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "data_buf"} : (i64) -> !pld.ptr
  %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> !data
  %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %c2 step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%pair) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %p = "pld.tensor_allreduce"(%pair) {op = #pld.reduce_op<"max">} : (!data) -> !data
  %s = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
