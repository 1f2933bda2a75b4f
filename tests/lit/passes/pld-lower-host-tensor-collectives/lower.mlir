// pld-lower-host-tensor-collectives: one builtin dispatch per device of the
// collective's comm domain; later uses read the alias source.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-host-pipeline)' | FileCheck %s
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-host-pipeline)' -o %t
// RUN: pld-opt %t --split-input-file | diff %t -

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// All devices: a loop over world_size; an implicit signal lowers the same
// way; the result's later use reads the data window.
// CHECK-LABEL: func.func @mesh_all
// CHECK:      %[[DATA:.*]] = "pld.tensor_window"(%{{.*}}) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
// CHECK:      %[[SIG:.*]] = "pld.tensor_window"(%{{.*}}, %{{.*}}) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>
// CHECK-NEXT: %[[WS:.*]] = "pld.system_world_size"() : () -> i64
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %[[WS]] : i64 to index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %[[R:.*]] = %[[ZERO]] to %[[N]] step %[[ONE]] {
// CHECK-NEXT:   "pld.builtin_allreduce"(%[[DATA]], %[[SIG]], %[[R]]) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], core_num = 1 : i64, dtype = f32, op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>, index) -> ()
// CHECK-NEXT: }
// CHECK-NOT:  pld.tensor_allreduce
// CHECK:      func.call @chip(%[[DATA]])
func.func @mesh_all() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 256 : i64
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
  "pld.dispatch"(%c0) ({
    func.call @chip(%sum) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!data = tensor<64xf16, #pld.dist>
!sig = tensor<2x8xi32, #pld.dist>
func.func @chip(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// Explicit devices: one builtin per device, with a constant device index.
// core_num 4 with an 8-lane signal is accepted and passed on.
// CHECK-LABEL: func.func @mesh_devices
// CHECK:      "pld.dispatch"(%c1)
// CHECK:      }) : (index) -> ()
// CHECK-NEXT: %[[D0:.*]] = arith.constant 0 : index
// CHECK-NEXT: "pld.builtin_allreduce"(%[[DATA:.*]], %[[SIG:.*]], %[[D0]]) {{{.*}}core_num = 4 : i64, dtype = f16, op = #pld.reduce_op<"max">}
// CHECK-NEXT: %[[D1:.*]] = arith.constant 1 : index
// CHECK-NEXT: "pld.builtin_allreduce"(%[[DATA]], %[[SIG]], %[[D1]])
// CHECK-NEXT: gpu.yield
func.func @mesh_devices() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.constant 128 : i64
  %s = arith.constant 64 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%b) {name = "data_buf"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%s) {name = "sig_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  "pld.dispatch"(%c0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %m = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"max">, core_num = 4 : i64} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!ring = tensor<7x4xi32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// mode = "ring" selects the ring builtin (op and dtype, no core_num); the
// [7, 4] signal fits four devices; the ring signal inherits the data's
// devices 0..3 from the constant-range dispatch loop.
// CHECK-LABEL: func.func @ring
// CHECK: "pld.builtin_allreduce_ring"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], dtype = f32, op = #pld.reduce_op<"sum">}
// CHECK-COUNT-3: "pld.builtin_allreduce_ring"
// CHECK-NOT: "pld.builtin_allreduce_ring"
// CHECK: devices = array<i64: 0, 1, 2, 3>
func.func @ring() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = arith.constant 256 : i64
  %s = arith.constant 112 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%b) {name = "data_buf"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%s) {name = "ring_sig"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !ring
  scf.for %r = %c0 to %c4 step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %sum = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !ring) -> !data
  return
}

// -----

!rows = tensor<4x16xf32, #pld.dist>
!row = tensor<1x16xf32, #pld.dist>
!sig = tensor<4xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
!big = tensor<8x16xf32, #pld.dist>
!sig2 = tensor<4x1xi32, #pld.dist>
func.func @chip(%a: !rows, %b: !row, %c: !sig, %d: !big, %e: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// The other collectives map to their namesake builtins with the spec's
// directions; barrier, broadcast, reduce_scatter and reduce take rank-1 signals.
// CHECK-LABEL: func.func @others
// CHECK: "pld.builtin_barrier"(%{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"inout">]}
// CHECK: "pld.builtin_broadcast"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], dtype = f32, root = 1 : i64}
// CHECK: "pld.builtin_reduce_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], dtype = f32, op = #pld.reduce_op<"sum">}
// CHECK: "pld.builtin_reduce"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], dtype = f32, op = #pld.reduce_op<"prod">, root = 2 : i64}
// CHECK: "pld.builtin_allgather"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">], dtype = f32}
// CHECK: "pld.builtin_all_to_all"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">], dtype = f32}
// CHECK: "pld.builtin_all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">], dtype = f32}
// CHECK-NOT: pld.tensor_
func.func @others() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b256 = arith.constant 256 : i64
  %b64 = arith.constant 64 : i64
  %b16 = arith.constant 16 : i64
  %b512 = arith.constant 512 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %p_rows = "pld.tensor_alloc_window_buffer"(%b256) {name = "rows"} : (i64) -> !pld.ptr
  %p_out = "pld.tensor_alloc_window_buffer"(%b256) {name = "out"} : (i64) -> !pld.ptr
  %p_row = "pld.tensor_alloc_window_buffer"(%b64) {name = "row"} : (i64) -> !pld.ptr
  %p_sig = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig"} : (i64) -> !pld.ptr
  %p_sig2 = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig2"} : (i64) -> !pld.ptr
  %p_in = "pld.tensor_alloc_window_buffer"(%b512) {name = "vin"} : (i64) -> !pld.ptr
  %p_vout = "pld.tensor_alloc_window_buffer"(%b512) {name = "vout"} : (i64) -> !pld.ptr
  %p_cnt = "pld.tensor_alloc_window_buffer"(%b16) {name = "cnt"} : (i64) -> !pld.ptr
  %p_rcv = "pld.tensor_alloc_window_buffer"(%b16) {name = "rcv"} : (i64) -> !pld.ptr
  %p_vsig = "pld.tensor_alloc_window_buffer"(%b16) {name = "vsig"} : (i64) -> !pld.ptr
  %rows = "pld.tensor_window"(%p_rows) : (!pld.ptr) -> !rows
  %out = "pld.tensor_window"(%p_out) : (!pld.ptr) -> !rows
  %row = "pld.tensor_window"(%p_row) : (!pld.ptr) -> !row
  %sig = "pld.tensor_window"(%p_sig) : (!pld.ptr) -> !sig
  %sig2 = "pld.tensor_window"(%p_sig2) : (!pld.ptr) -> !sig2
  %vin = "pld.tensor_window"(%p_in) : (!pld.ptr) -> !big
  %vout = "pld.tensor_window"(%p_vout) : (!pld.ptr) -> !big
  %cnt = "pld.tensor_window"(%p_cnt) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%p_rcv) : (!pld.ptr) -> !rcv
  %vsig = "pld.tensor_window"(%p_vsig) : (!pld.ptr) -> !sig2
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%rows, %row, %sig, %vin, %cnt) : (!rows, !row, !sig, !big, !cnt) -> ()
      gpu.yield
    }) : (index) -> ()
    "pld.dispatch"(%r) ({
      func.call @chip(%out, %row, %sig, %vout, %cnt) : (!rows, !row, !sig, !big, !cnt) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %1 = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  %2 = "pld.tensor_broadcast"(%rows, %sig) {root = 1 : i64} : (!rows, !sig) -> !rows
  %3 = "pld.tensor_reduce_scatter"(%rows, %sig) {op = #pld.reduce_op<"sum">} : (!rows, !sig) -> !rows
  %7 = "pld.tensor_reduce"(%rows, %sig) {op = #pld.reduce_op<"prod">, root = 2 : i64} : (!rows, !sig) -> !rows
  %4 = "pld.tensor_allgather"(%row, %out, %sig2) : (!row, !rows, !sig2) -> !rows
  %5 = "pld.tensor_all_to_all"(%rows, %out, %sig2) : (!rows, !rows, !sig2) -> !rows
  %6 = "pld.tensor_all_to_all_v"(%vin, %vout, %vsig, %cnt, %rcv) : (!big, !big, !sig2, !cnt, !rcv) -> !big
  return
}

// -----

!a = tensor<64xf32, #pld.dist>
func.func @chip(%d: !a) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// A collective whose windows live in an outer domain finds that scope.
// CHECK-LABEL: func.func @outer_scope
// CHECK: "pld.comm_domain"() ({
// CHECK:   "pld.comm_domain"() ({
// CHECK:     "pld.builtin_allreduce"
// CHECK:   }) {{{.*}}name = "comm_d1", slots = ["only_zero"]
// CHECK: }) {{{.*}}name = "comm_d0", slots = ["everywhere", "__allreduce_signal_buf_0"]
func.func @outer_scope() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %p0 = "pld.tensor_alloc_window_buffer"(%b) {name = "everywhere"} : (i64) -> !pld.ptr
  %p1 = "pld.tensor_alloc_window_buffer"(%b) {name = "only_zero"} : (i64) -> !pld.ptr
  %all = "pld.tensor_window"(%p0) : (!pld.ptr) -> !a
  %zero = "pld.tensor_window"(%p1) : (!pld.ptr) -> !a
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%all) : (!a) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  "pld.dispatch"(%c0) ({
    func.call @chip(%zero) : (!a) -> ()
    gpu.yield
  }) : (index) -> ()
  %sum = "pld.tensor_allreduce"(%all) {op = #pld.reduce_op<"sum">} : (!a) -> !a
  return
}

// -----

// all_to_all_v with several blocks (spec 7.5, 8): core_num, a constant or
// a run-time index, is passed on to the builtin, whose entry launches
// B = CalAllToAllVBlocks(P, core_num) blocks. On two devices core_num 5
// launches 4 blocks, which the 4 signal lanes fit; the run-time core_num
// is checked by the entry.
!big = tensor<8x16xf32, #pld.dist>
!sig = tensor<2x4xi32, #pld.dist>
!cnt = tensor<2xi32, #pld.dist>
!rcv = tensor<2x1xi32, #pld.dist>
func.func @chip(%i: !big, %o: !big, %c: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
// CHECK-LABEL: func.func @lanes
// CHECK-SAME: (%[[L:.*]]: index)
// CHECK:      %[[C5:.*]] = arith.constant 5 : index
// CHECK:      %[[D0:.*]] = arith.constant 0 : index
// CHECK-NEXT: "pld.builtin_all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[D0]], %[[C5]]) {arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">], dtype = f32} : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x4xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>, index, index) -> ()
// CHECK-NEXT: %[[D1:.*]] = arith.constant 1 : index
// CHECK-NEXT: "pld.builtin_all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[D1]], %[[C5]])
// CHECK:      "pld.builtin_all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[L]])
// CHECK:      "pld.builtin_all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[L]])
// CHECK-NOT:  pld.tensor_all_to_all_v
func.func @lanes(%l: index) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %b = arith.constant 512 : i64
  %s = arith.constant 32 : i64
  %pi = "pld.tensor_alloc_window_buffer"(%b) {name = "in"} : (i64) -> !pld.ptr
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %pc = "pld.tensor_alloc_window_buffer"(%s) {name = "cnt"} : (i64) -> !pld.ptr
  %pr = "pld.tensor_alloc_window_buffer"(%s) {name = "rcv"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%pi) : (!pld.ptr) -> !big
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !big
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !sig
  %cnt = "pld.tensor_window"(%pc) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%pr) : (!pld.ptr) -> !rcv
  "pld.dispatch"(%c0) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv, %c5) : (!big, !big, !sig, !cnt, !rcv, index) -> !big
  %y = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv, %l) : (!big, !big, !sig, !cnt, !rcv, index) -> !big
  return
}
