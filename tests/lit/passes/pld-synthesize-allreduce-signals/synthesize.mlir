// pld-synthesize-allreduce-signals: HOST allreduces without a signal get a
// fresh [world_size, lanes] INT32 window; everything else is left alone.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)' --mlir-use-nameloc-as-prefix | FileCheck %s
// Print -> parse -> print is exact, with and without locations:
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)' -o %t.1
// RUN: pld-opt %t.1 --split-input-file -o %t.2
// RUN: diff %t.1 %t.2
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)' --mlir-print-debuginfo -o %t.3
// RUN: pld-opt %t.3 --split-input-file --mlir-print-debuginfo --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=REPARSED
// The names come from one module-wide counter, so the pass runs on the
// module and refuses to be nested under func.func:
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(pld-synthesize-allreduce-signals))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: pass 'pld-synthesize-allreduce-signals' runs on builtin.module and cannot be nested under 'func.func'

!data = tensor<64xf32, #pld.dist>

// The synthesized chain, as the seed shows it (core_num = 1: [ws, 1], ws * 4 bytes).
// CHECK-LABEL: func.func @implicit
// CHECK:      %[[DATA:.*]] = "pld.tensor_window"
// CHECK-NEXT: %__allreduce_signal_world_size_0 = "pld.system_world_size"() : () -> i64
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %__allreduce_signal_world_size_0, %[[C4]] : i64
// CHECK-NEXT: %__allreduce_signal_buf_0 = "pld.tensor_alloc_window_buffer"(%[[BYTES]]) {name = "__allreduce_signal_buf_0"} : (i64) -> !pld.ptr
// CHECK-NEXT: %[[ROWS:.*]] = arith.index_cast %__allreduce_signal_world_size_0 : i64 to index
// CHECK-NEXT: %__allreduce_signal_0 = "pld.tensor_window"(%__allreduce_signal_buf_0, %[[ROWS]]) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>
// CHECK-NEXT: "pld.tensor_allreduce"(%[[DATA]], %__allreduce_signal_0) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
// REPARSED-LABEL: func.func @implicit
// REPARSED: %__allreduce_signal_buf_0 = "pld.tensor_alloc_window_buffer"
// REPARSED: %__allreduce_signal_0 = "pld.tensor_window"(%__allreduce_signal_buf_0
// REPARSED: "pld.tensor_allreduce"(%{{.*}}, %__allreduce_signal_0)
func.func @implicit() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>

// core_num = 4 asks for four lanes: [ws, 4] and ws * 4 * 4 bytes; the other
// attributes are kept.
// CHECK-LABEL: func.func @lanes
// CHECK:      %__allreduce_signal_world_size_0 = "pld.system_world_size"
// CHECK-NEXT: %[[C4A:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[T:.*]] = arith.muli %__allreduce_signal_world_size_0, %[[C4A]] : i64
// CHECK-NEXT: %[[C4B:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %[[T]], %[[C4B]] : i64
// CHECK-NEXT: "pld.tensor_alloc_window_buffer"(%[[BYTES]])
// CHECK:      -> tensor<?x4xi32, #pld.dist>
// CHECK-NEXT: "pld.tensor_allreduce"({{.*}}) {core_num = 4 : i64, op = #pld.reduce_op<"max">} : (tensor<64xf32, #pld.dist>, tensor<?x4xi32, #pld.dist>)
func.func @lanes() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"max">, core_num = 4 : i64} : (!data) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>

// An explicit signal is kept, in a loop too; InCore allreduces are the
// composite rail's and are not touched.
// CHECK-LABEL: func.func @explicit
// CHECK-NOT: pld.system_world_size
// CHECK: scf.for
// CHECK: "pld.tensor_allreduce"(%{{.*}}, %arg1)
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: pld.system_world_size
// CHECK: "pld.tensor_allreduce"(%arg0, %arg1)
func.func @explicit(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  }
  return
}
func.func @kernel(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>

// Inside scf.if an implicit allreduce gets its signal in place.
// CHECK-LABEL: func.func @conditional
// CHECK: scf.if
// CHECK-NEXT: %__allreduce_signal_world_size_0 = "pld.system_world_size"
// CHECK: "pld.tensor_allreduce"(%arg0, %__allreduce_signal_0)
func.func @conditional(%data: !data, %flag: i1) attributes {pld.kind = #pld.func_kind<"host">} {
  scf.if %flag {
    %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>

// Spec 7.3 worked naming example: the counter is module-wide and skips
// names already in use (here __allreduce_signal_0, named by a location).
// CHECK-LABEL: func.func @first
// CHECK-NOT: __allreduce_signal_buf_0
// CHECK: %__allreduce_signal_buf_1 = "pld.tensor_alloc_window_buffer"({{.*}}) {name = "__allreduce_signal_buf_1"}
// CHECK: "pld.tensor_allreduce"(%{{.*}}, %__allreduce_signal_1)
// CHECK-LABEL: func.func @second
// CHECK: %__allreduce_signal_buf_2 = "pld.tensor_alloc_window_buffer"({{.*}}) {name = "__allreduce_signal_buf_2"}
// CHECK: "pld.tensor_allreduce"(%{{.*}}, %__allreduce_signal_2)
func.func @first(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  %taken = arith.constant 0 : i64 loc("__allreduce_signal_0")
  %result = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data loc("__allreduce_result_0")
  return
}
func.func @second(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>

// Two consecutive implicit allreduces get two signals.
// CHECK-LABEL: func.func @two
// CHECK: "pld.tensor_allreduce"(%{{.*}}, %__allreduce_signal_0)
// CHECK: "pld.tensor_allreduce"(%{{.*}}, %__allreduce_signal_1)
func.func @two(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  %a = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  %b = "pld.tensor_allreduce"(%a) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>

// Inside an existing comm domain an allreduce is a direct statement too.
// CHECK-LABEL: func.func @scoped
// CHECK: "pld.comm_domain"
// CHECK: "pld.tensor_allreduce"(%arg0, %__allreduce_signal_0)
func.func @scoped(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  "pld.comm_domain"() ({
    %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = []} : () -> ()
  return
}
