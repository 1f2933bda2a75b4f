// pld-materialize-comm-domain-scopes: allocations grouped into comm domains
// by the devices that use them.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals, pld-materialize-comm-domain-scopes)' | FileCheck %s
// Running it twice changes nothing, and the output round-trips exactly:
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals, pld-materialize-comm-domain-scopes)' -o %t.once
// RUN: pld-opt %t.once --split-input-file --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes)' -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: pld-opt %t.once --split-input-file | diff %t.once -

!data = tensor<1x17xf16, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// Spec 7.4 example: data dispatched over world_size plus an implicit
// allreduce: one scope on every device, slots [data_buf, signal buffer].
// 17 x FP16 = 34 bytes, padded to 64; the signal's world_size * 4 stays
// symbolic.
// CHECK-DAG: #[[SIXTYFOUR:.*]] = affine_map<()[s0] -> (64)>
// CHECK-DAG: #[[SIGPAD:.*]] = affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32)>
// CHECK-DAG: #[[THIRTYFOUR:.*]] = affine_map<()[s0] -> (34)>
// CHECK-DAG: #[[SIG:.*]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32 + 64)>
// CHECK-LABEL: func.func @main
// CHECK-NEXT: "pld.comm_domain"() ({
// CHECK:        "pld.tensor_alloc_window_buffer"{{.*}}name = "data_buf"
// CHECK:        "pld.tensor_allreduce"
// CHECK-NEXT:   gpu.yield
// CHECK-NEXT: }) {aligned_bytes = [#[[SIXTYFOUR]], #[[SIGPAD]]], devices = array<i64>, logical_bytes = [#[[THIRTYFOUR]], #[[SIG]]], name = "comm_d0", slots = ["data_buf", "__allreduce_signal_buf_0"], window_bytes = #[[WINDOW]]} : () -> ()
// CHECK-NEXT: return
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 34 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// Two consecutive implicit allreduces: two signal slots. Dispatches to
// devices 0 and 1: devices [0, 1]. 64 x FP32 = 256 bytes, already aligned.
// CHECK-DAG: #[[C256:.*]] = affine_map<()[s0] -> (256)>
// CHECK-LABEL: func.func @two
// CHECK: devices = array<i64: 0, 1>
// CHECK-SAME: logical_bytes = [#[[C256]],
// CHECK-SAME: slots = ["data_buf", "__allreduce_signal_buf_0", "__allreduce_signal_buf_1"]
func.func @two() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  %a = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  %b = "pld.tensor_allreduce"(%a) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}

// -----

!f = tensor<4xf32, #pld.dist>
!i = tensor<2xi32, #pld.dist>
func.func @chip_f(%d: !f) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @chip_i(%d: !i) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// Four allocations with three device sets give three domains, in source
// order, the first outermost. A loop over a constant range reaches devices
// 0..N-1, also through a cast of the bound. 2 x INT32 = 8 bytes, padded to
// 32.
// CHECK-DAG: #[[EIGHT:.*]] = affine_map<()[s0] -> (8)>
// CHECK-DAG: #[[THIRTYTWO:.*]] = affine_map<()[s0] -> (32)>
// CHECK-LABEL: func.func @three_domains
// CHECK-NEXT: "pld.comm_domain"() ({
// CHECK-NEXT:   "pld.comm_domain"() ({
// CHECK-NEXT:     "pld.comm_domain"() ({
// CHECK:          "pld.dispatch"(%c2) ({
// CHECK-NEXT:       func.call @chip_f
// CHECK-NEXT:       gpu.yield
// CHECK-NEXT:     }) : (index) -> ()
// CHECK-NEXT:     gpu.yield
// CHECK-NEXT:     }) {{{.*}}devices = array<i64: 2>, {{.*}}name = "comm_d2", slots = ["d"]
// CHECK-NEXT:     gpu.yield
// CHECK-NEXT:   }) {aligned_bytes = [#[[THIRTYTWO]]], devices = array<i64: 0, 1, 2, 3>, logical_bytes = [#[[EIGHT]]], name = "comm_d1", slots = ["b"]
// CHECK-NEXT:   gpu.yield
// CHECK-NEXT: }) {{{.*}}devices = array<i64>, {{.*}}name = "comm_d0", slots = ["a", "c"]
func.func @three_domains() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %four = arith.constant 4 : i64
  %n4 = arith.index_cast %four : i64 to index
  %b16 = arith.constant 16 : i64
  %b8 = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %pa = "pld.tensor_alloc_window_buffer"(%b16) {name = "a"} : (i64) -> !pld.ptr
  %pb = "pld.tensor_alloc_window_buffer"(%b8) {name = "b"} : (i64) -> !pld.ptr
  %pc = "pld.tensor_alloc_window_buffer"(%b8) {name = "c"} : (i64) -> !pld.ptr
  %pd = "pld.tensor_alloc_window_buffer"(%b16) {name = "d"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%pa) : (!pld.ptr) -> !f
  %b = "pld.tensor_window"(%pb) : (!pld.ptr) -> !i
  %c = "pld.tensor_window"(%pc) : (!pld.ptr) -> !i
  %d = "pld.tensor_window"(%pd) : (!pld.ptr) -> !f
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip_f(%a) : (!f) -> ()
      gpu.yield
    }) : (index) -> ()
    "pld.dispatch"(%r) ({
      func.call @chip_i(%c) : (!i) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  scf.for %r = %c0 to %n4 step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip_i(%b) : (!i) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  "pld.dispatch"(%c2) ({
    func.call @chip_f(%d) : (!f) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!in = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @chip(%i: !in, %o: !in, %c: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// all_to_all_v: the signal and the receive counts inherit the target's
// devices; input and send counts have their own: five slots, one scope.
// CHECK-LABEL: func.func @exchange
// CHECK: slots = ["input", "target", "signal", "counts", "recv"]
func.func @exchange() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b512 = arith.constant 512 : i64
  %b16 = arith.constant 16 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %p0 = "pld.tensor_alloc_window_buffer"(%b512) {name = "input"} : (i64) -> !pld.ptr
  %p1 = "pld.tensor_alloc_window_buffer"(%b512) {name = "target"} : (i64) -> !pld.ptr
  %p2 = "pld.tensor_alloc_window_buffer"(%b16) {name = "signal"} : (i64) -> !pld.ptr
  %p3 = "pld.tensor_alloc_window_buffer"(%b16) {name = "counts"} : (i64) -> !pld.ptr
  %p4 = "pld.tensor_alloc_window_buffer"(%b16) {name = "recv"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%p0) : (!pld.ptr) -> !in
  %out = "pld.tensor_window"(%p1) : (!pld.ptr) -> !in
  %sig = "pld.tensor_window"(%p2) : (!pld.ptr) -> !sig
  %cnt = "pld.tensor_window"(%p3) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%p4) : (!pld.ptr) -> !rcv
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%in, %out, %cnt) : (!in, !in, !cnt) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv) : (!in, !in, !sig, !cnt, !rcv) -> !in
  return
}

// -----

// A HOST function without allocations is unchanged; values it returns are
// yielded out of the scopes when it has some.
// CHECK-LABEL: func.func @nothing
// CHECK-NEXT: return
func.func @nothing() attributes {pld.kind = #pld.func_kind<"host">} {
  return
}

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
// CHECK-LABEL: func.func @returns
// CHECK: %[[N:.*]] = "pld.comm_domain"() ({
// CHECK: %[[WS:.*]] = "pld.system_world_size"
// CHECK: gpu.yield %[[WS]] : i64
// CHECK-NEXT: }) {{.*}} : () -> i64
// CHECK-NEXT: return %[[N]] : i64
func.func @returns() -> i64 attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return %ws : i64
}
