// Every op of the pld dialect, in valid IR. Checks that pld-opt prints it,
// that the printed form parses back to exactly the same text, and that
// stock mlir-opt accepts the file with only the IRDL definition.
//
// RUN: pld-opt %s -o %t.1.mlir
// RUN: pld-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s --input-file=%t.1.mlir
// RUN: mlir-opt --irdl-file=%pld_irdl %s -o /dev/null
// One file loads both dialects:
// RUN: mlir-opt --irdl-file=%both_irdl %s -o /dev/null

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>

// CHECK-LABEL: func.func @chip_step
// CHECK-SAME: pld.kind = #pld.func_kind<"chip">
func.func @chip_step(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// CHECK-LABEL: func.func @host_orchestrator
func.func @host_orchestrator() attributes {pld.kind = #pld.func_kind<"host">} {
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 256 : i64
  // CHECK: %[[WS:.*]] = "pld.system_world_size"() : () -> i64
  %ws = "pld.system_world_size"() : () -> i64
  // CHECK: "pld.tensor_alloc_window_buffer"(%{{.*}}) {name = "data_buf"} : (i64) -> !pld.ptr
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  // CHECK: "pld.tensor_window"(%{{.*}}) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %sbuf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  // CHECK: "pld.tensor_window"(%{{.*}}, %{{.*}}) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>
  %dsig = "pld.tensor_window"(%sbuf, %c4) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  %rbuf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "ring_buf"} : (i64) -> !pld.ptr
  %ring = "pld.tensor_window"(%rbuf) : (!pld.ptr) -> tensor<6x4xi32, #pld.dist>
  // CHECK: "pld.system_get_comm_ctx"(%{{.*}}) : (tensor<64xf32, #pld.dist>) -> !pld.ctx
  %ctx = "pld.system_get_comm_ctx"(%data) : (!data) -> !pld.ctx
  // CHECK: "pld.dispatch"(%{{.*}}) ({
  // CHECK-NEXT: func.call @chip_step(%{{.*}}) : (tensor<64xf32, #pld.dist>) -> ()
  // CHECK-NEXT: gpu.yield
  // CHECK-NEXT: }) : (index) -> ()
  "pld.dispatch"(%c0) ({
    func.call @chip_step(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  // CHECK: "pld.tensor_allreduce"(%{{.*}}) {op = #pld.reduce_op<"sum">}
  %r0 = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  // A ring allreduce over 4 ranks uses a [2*(4-1), 4] signal.
  // CHECK: "pld.tensor_allreduce"(%{{.*}}, %{{.*}}) {core_num = 1 : i64, mode = "ring", op = #pld.reduce_op<"max">}
  %r1 = "pld.tensor_allreduce"(%data, %ring) {op = #pld.reduce_op<"max">, mode = "ring", core_num = 1 : i64} : (!data, tensor<6x4xi32, #pld.dist>) -> !data
  // CHECK: "pld.tensor_barrier"
  %r2 = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  // CHECK: "pld.tensor_broadcast"{{.*}}{root = 0 : i64}
  %r3 = "pld.tensor_broadcast"(%data, %sig) {root = 0 : i64} : (!data, !sig) -> !data
  // CHECK: "pld.builtin_allreduce"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], core_num = 1 : i64, dtype = f32, op = #pld.reduce_op<"sum">}
  "pld.builtin_allreduce"(%data, %sig, %c0) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!data, !sig, index) -> ()
  return
}

// A comm domain wraps the allocations of its slots.
// CHECK-LABEL: func.func @host_domain
func.func @host_domain() attributes {pld.kind = #pld.func_kind<"host">} {
  // CHECK: "pld.comm_domain"() ({
  // CHECK: gpu.yield
  // CHECK: }) {devices = array<i64: 0, 1>, name = "comm_d0", slots = ["data_buf", "sig_buf"]} : () -> ()
  "pld.comm_domain"() ({
    %bytes = arith.constant 256 : i64
    %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
    %sbuf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
    %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
    %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
    gpu.yield
  }) {name = "comm_d0", devices = array<i64: 0, 1>, slots = ["data_buf", "sig_buf"]} : () -> ()
  return
}

// CHECK-LABEL: func.func @host_exchanges
func.func @host_exchanges(%rows: tensor<4x16xf32, #pld.dist>, %row: tensor<1x16xf32, #pld.dist>,
                          %out: tensor<4x16xf32, #pld.dist>, %sig1: tensor<4xi32, #pld.dist>,
                          %counts: tensor<4xi32, #pld.dist>, %recv: tensor<4x1xi32, #pld.dist>,
                          %sig: !sig, %ring: tensor<7x4xi32, #pld.dist>, %c0: index,
                          %lsig: tensor<4x8xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"host">} {
  // CHECK: "pld.tensor_reduce_scatter"{{.*}}{op = #pld.reduce_op<"sum">}
  %a = "pld.tensor_reduce_scatter"(%rows, %sig) {op = #pld.reduce_op<"sum">} : (tensor<4x16xf32, #pld.dist>, !sig) -> tensor<4x16xf32, #pld.dist>
  // CHECK: "pld.tensor_allgather"
  %b = "pld.tensor_allgather"(%row, %out, %sig) : (tensor<1x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, !sig) -> tensor<4x16xf32, #pld.dist>
  // CHECK: "pld.tensor_all_to_all"
  %c = "pld.tensor_all_to_all"(%rows, %out, %sig) : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, !sig) -> tensor<4x16xf32, #pld.dist>
  // CHECK: "pld.tensor_all_to_all_v"
  %d = "pld.tensor_all_to_all_v"(%rows, %out, %sig, %counts, %recv) : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, !sig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  // CHECK: "pld.tensor_all_to_all_v"({{.*}}, %{{.*}}) : ({{.*}}, index) ->
  %e = "pld.tensor_all_to_all_v"(%rows, %out, %sig, %counts, %recv, %c0) : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, !sig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> tensor<4x16xf32, #pld.dist>
  // The managed HOST rail may give each block a lane: [NR, S] signals.
  // CHECK: "pld.tensor_all_to_all_v"({{.*}}) : ({{.*}}tensor<4x8xi32, #pld.dist>
  %lanes = "pld.tensor_all_to_all_v"(%rows, %out, %lsig, %counts, %recv, %c0) : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, tensor<4x8xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> tensor<4x16xf32, #pld.dist>
  // CHECK: "pld.builtin_allreduce_ring"
  "pld.builtin_allreduce_ring"(%rows, %ring, %c0) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4x16xf32, #pld.dist>, tensor<7x4xi32, #pld.dist>, index) -> ()
  // CHECK: "pld.builtin_barrier"
  "pld.builtin_barrier"(%sig1, %c0) {arg_directions = [#pld.direction<"inout">]} : (tensor<4xi32, #pld.dist>, index) -> ()
  // CHECK: "pld.builtin_broadcast"
  "pld.builtin_broadcast"(%rows, %sig1, %c0) {root = 1 : i64, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4x16xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  // CHECK: "pld.builtin_reduce_scatter"
  "pld.builtin_reduce_scatter"(%rows, %sig1, %c0) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4x16xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  // CHECK: "pld.builtin_allgather"
  "pld.builtin_allgather"(%row, %out, %sig, %c0) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<1x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, !sig, index) -> ()
  // CHECK: "pld.builtin_all_to_all"
  "pld.builtin_all_to_all"(%rows, %out, %sig, %c0) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, !sig, index) -> ()
  // CHECK: "pld.builtin_all_to_all_v"
  "pld.builtin_all_to_all_v"(%rows, %out, %sig, %counts, %recv, %c0) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, !sig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> ()
  // With a requested block count (multi-block launch, one lane per block).
  // CHECK: "pld.builtin_all_to_all_v"({{.*}}, %{{.*}}, %{{.*}}) {{.*}} : ({{.*}}tensor<4x8xi32, #pld.dist>{{.*}}, index, index) -> ()
  "pld.builtin_all_to_all_v"(%rows, %out, %lsig, %counts, %recv, %c0, %c0) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, tensor<4x8xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index, index) -> ()
  return
}

// indexed_all_to_all_v exists on the A5 target only (docs/dialect.md 2.6).
// CHECK-LABEL: module attributes {pld.target = "a5"}
// CHECK: func.func @chip_exchange
module attributes {pld.target = "a5"} {
func.func @chip_exchange(%in: tensor<8x16xf32>, %out: tensor<8x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>,
                         %counts: tensor<2xi32, #pld.dist>, %recv: tensor<2x1xi32>, %index: tensor<8xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // The indexed variant takes plain input, index and receive counts.
  // CHECK: "pld.tensor_indexed_all_to_all_v"
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %counts, %recv, %index) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32>, tensor<8xi32>) -> tensor<8x16xf32, #pld.dist>
  return
}
}

// CHECK-LABEL: func.func @kernel
func.func @kernel(%data: tensor<1x64xf32, #pld.dist>, %half: tensor<1x17xf16, #pld.dist>,
                  %sig: !sig, %local: tensor<1x64xf32>, %ctx: !pld.ctx, %peer: i32, %n: index)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c17 = arith.constant 17 : index
  %one = arith.constant 1 : i32
  // CHECK: "pld.system_rank"(%{{.*}}) : (!pld.ctx) -> i32
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  // CHECK: "pld.system_nranks"(%{{.*}}) : (!pld.ctx) -> i32
  %nr = "pld.system_nranks"(%ctx) : (!pld.ctx) -> i32
  // CHECK: "pld.system_notify"({{.*}}) {op = #pld.notify_op<"atomic_add">}
  "pld.system_notify"(%sig, %peer, %n, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, i32, index, index, i32) -> ()
  // CHECK: "pld.system_wait"({{.*}}) {cmp = #pld.wait_cmp<"ge">}
  "pld.system_wait"(%sig, %n, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  // CHECK: "pld.system_defer_wait"
  "pld.system_defer_wait"(%sig, %n, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  // CHECK: "pld.tile_remote_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  %t = "pld.tile_remote_load"(%data, %peer, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  // CHECK: "pld.tile_remote_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 2, 2>}
  %tv = "pld.tile_remote_load"(%data, %peer, %c0, %c0, %c1, %c8) {operandSegmentSizes = array<i32: 1, 1, 2, 2>} : (tensor<1x64xf32, #pld.dist>, i32, index, index, index, index) -> tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, 8>}>>
  // CHECK: "pld.tile_remote_load_with_physical_tail_padding"
  %th = "pld.tile_remote_load_with_physical_tail_padding"(%half, %peer, %c0, %c0, %c1, %c17) {operandSegmentSizes = array<i32: 1, 1, 2, 2>} : (tensor<1x17xf16, #pld.dist>, i32, index, index, index, index) -> tensor<1x32xf16, #pld.tile_with<{valid_shape = array<i64: 1, 17>}>>
  // CHECK: "pld.tile_remote_store"({{.*}}) {atomic = #pld.atomic_type<"add">}
  "pld.tile_remote_store"(%t, %data, %peer, %c0, %c0) {atomic = #pld.atomic_type<"add">} : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  // CHECK: "pld.tensor_remote_store"
  "pld.tensor_remote_store"(%local, %data, %peer, %c0, %c0) : (tensor<1x64xf32>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  // CHECK: "pld.tensor_put"({{.*}}) {chunk_cols = 16 : i64, chunk_rows = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, pipeline = true}
  "pld.tensor_put"(%data, %peer, %local) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, chunk_rows = 1 : i64, chunk_cols = 16 : i64, pipeline = true} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>) -> ()
  // CHECK: "pld.tensor_get"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 2, 2, 2>}
  "pld.tensor_get"(%local, %peer, %data, %c0, %c0, %c0, %c8, %c1, %c8) {operandSegmentSizes = array<i32: 1, 1, 1, 2, 2, 2>} : (tensor<1x64xf32>, i32, tensor<1x64xf32, #pld.dist>, index, index, index, index, index, index) -> ()
  // CHECK: "pld.tile_put"({{.*}}) {atomic = #pld.atomic_type<"none">, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}
  "pld.tile_put"(%data, %peer, %local, %t, %t) {atomic = #pld.atomic_type<"none">, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>, tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.tile>) -> ()
  // CHECK: "pld.tile_get"
  "pld.tile_get"(%local, %peer, %data, %t, %c0, %c0, %c0, %c0, %c1, %c8) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 2, 2, 2>} : (tensor<1x64xf32>, i32, tensor<1x64xf32, #pld.dist>, tensor<1x64xf32, #pld.tile>, index, index, index, index, index, index) -> ()
  // CHECK: "pld.system_cacheinvalid"({{.*}}) {operandSegmentSizes = array<i32: 1, 2, 2>}
  "pld.system_cacheinvalid"(%data, %c1, %c8, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2>} : (tensor<1x64xf32, #pld.dist>, index, index, index, index) -> ()
  // CHECK: "pld.system_cacheinvalid"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> ()
  "pld.system_cacheinvalid"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> ()
  // CHECK: "pld.system_fence"() : () -> ()
  "pld.system_fence"() : () -> ()
  // CHECK: "pld.tensor_allreduce"
  %ar = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"prod">} : (tensor<1x64xf32, #pld.dist>, !sig) -> tensor<1x64xf32, #pld.dist>
  return
}

// Local tile ops of the composite rail.
// CHECK-LABEL: func.func @local_tiles
func.func @local_tiles(%data: tensor<4x16xf32, #pld.dist>, %n: index, %c: index, %sym: tensor<?xf32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: "pld.tensor_view"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16xf32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  %flat = "pld.tensor_view"(%data) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16xf32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  // CHECK: "pld.tensor_read"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x16xf32, #pld.dist>, index, index) -> f32
  %e = "pld.tensor_read"(%data, %c0, %c1) : (tensor<4x16xf32, #pld.dist>, index, index) -> f32
  // CHECK: "pld.tile_create"() : () -> tensor<1x64xf32, #pld.tile>
  %stage = "pld.tile_create"() : () -> tensor<1x64xf32, #pld.tile>
  // CHECK: "pld.tile_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 2, 2>}
  %a = "pld.tile_load"(%flat, %c0, %c0, %c1, %n) {operandSegmentSizes = array<i32: 1, 2, 2>} : (tensor<1x64xf32, #pld.dist>, index, index, index, index) -> tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
  // CHECK: "pld.tile_fillpad"
  %f = "pld.tile_fillpad"(%a) : (tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>) -> tensor<1x64xf32, #pld.tile>
  // CHECK: "pld.tile_add"
  %s = "pld.tile_add"(%f, %f) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.tile>) -> tensor<1x64xf32, #pld.tile>
  // CHECK: "pld.tile_maximum"
  %mx = "pld.tile_maximum"(%s, %f) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.tile>) -> tensor<1x64xf32, #pld.tile>
  // CHECK: "pld.tile_minimum"
  %mn = "pld.tile_minimum"(%mx, %f) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.tile>) -> tensor<1x64xf32, #pld.tile>
  // CHECK: "pld.tile_mul"
  %p = "pld.tile_mul"(%mn, %f) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.tile>) -> tensor<1x64xf32, #pld.tile>
  // CHECK: "pld.tile_set_validshape"
  %v = "pld.tile_set_validshape"(%p, %c1, %n) : (tensor<1x64xf32, #pld.tile>, index, index) -> tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
  // CHECK: "pld.tile_store"
  "pld.tile_store"(%v, %flat, %c0, %c0) : (tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  // A symbolic length: the flat view has a dynamic extent.
  // CHECK: "pld.tensor_view"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?xf32, #pld.dist>, index) -> tensor<1x?xf32, #pld.dist>
  %symflat = "pld.tensor_view"(%sym, %c) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?xf32, #pld.dist>, index) -> tensor<1x?xf32, #pld.dist>
  return
}

// Tensor encodings with properties.
// CHECK-LABEL: func.func @encodings
// CHECK-SAME: #pld.dist_with<{layout = "dn", strides = array<i64: 1, 4>, valid_shape = array<i64: 4, 2>, window = "data_buf"}>
// CHECK-SAME: #pld.view<{layout = "nd"}>
// CHECK-SAME: #pld.tile_with<{blayout = "col_major", valid_shape = array<i64: 8, -1>}>
func.func @encodings(%a: tensor<4x4xf32, #pld.dist_with<{layout = "dn", strides = array<i64: 1, 4>, valid_shape = array<i64: 4, 2>, window = "data_buf"}>>,
                     %b: tensor<4x4xf32, #pld.view<{layout = "nd"}>>,
                     %c: tensor<8x1xf16, #pld.tile_with<{blayout = "col_major", valid_shape = array<i64: 8, -1>}>>)
    attributes {pld.kind = #pld.func_kind<"aiv">} {
  return
}
