// pld-materialize-dist-tensor-ctx: one !pld.ctx parameter per distributed
// parameter; calls pass the caller's contexts; get_comm_ctx resolves to a
// parameter outside HOST orchestrators.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-materialize-dist-tensor-ctx)' | FileCheck %s
// Idempotent, and the output round-trips:
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-materialize-dist-tensor-ctx)' -o %t
// RUN: pld-opt %t --pass-pipeline='builtin.module(pld-materialize-dist-tensor-ctx)' | diff %t -

!data = tensor<1x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>

// CHECK-LABEL: func.func @kernel(%arg0: tensor<1x16xf32, #pld.dist>, %arg1: index, %arg2: tensor<2x1xi32, #pld.dist>, %arg3: !pld.ctx, %arg4: !pld.ctx)
// The signal's context is the second context parameter.
// CHECK-NEXT: "pld.system_nranks"(%arg4)
// CHECK-NOT: pld.system_get_comm_ctx
func.func @kernel(%d: !data, %n: index, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%s) : (!sig) -> !pld.ctx
  %nr = "pld.system_nranks"(%ctx) : (!pld.ctx) -> i32
  return
}

// A view of a parameter keeps the parameter's context.
// CHECK-LABEL: func.func @viewed(%arg0: tensor<4x4xf32, #pld.dist>, %arg1: !pld.ctx)
// CHECK: "pld.system_rank"(%arg1)
func.func @viewed(%d: tensor<4x4xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %v = "pld.tensor_view"(%d) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x4xf32, #pld.dist>) -> tensor<1x16xf32, #pld.dist>
  %ctx = "pld.system_get_comm_ctx"(%v) : (tensor<1x16xf32, #pld.dist>) -> !pld.ctx
  %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  return
}

// A CHIP orchestrator forwards its own contexts.
// CHECK-LABEL: func.func @chip(%arg0: tensor<1x16xf32, #pld.dist>, %arg1: tensor<2x1xi32, #pld.dist>, %arg2: !pld.ctx, %arg3: !pld.ctx)
// CHECK: call @kernel(%arg0, %{{.*}}, %arg1, %arg2, %arg3)
func.func @chip(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  func.call @kernel(%d, %c0, %s) : (!data, index, !sig) -> ()
  return
}

// A HOST orchestrator asks each window for its context, right before the
// call, and keeps the op (the host code generator resolves it).
// CHECK-LABEL: func.func @main()
// CHECK: %[[D:.*]] = "pld.tensor_window"(%{{.*}}) : (!pld.ptr) -> tensor<1x16xf32, #pld.dist>
// CHECK: %[[S:.*]] = "pld.tensor_window"
// CHECK: "pld.dispatch"
// CHECK-NEXT: %[[DC:.*]] = "pld.system_get_comm_ctx"(%[[D]])
// CHECK-NEXT: %[[SC:.*]] = "pld.system_get_comm_ctx"(%[[S]])
// CHECK-NEXT: func.call @chip(%[[D]], %[[S]], %[[DC]], %[[SC]])
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %b = arith.constant 64 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "d"} : (i64) -> !pld.ptr
  %q = "pld.tensor_alloc_window_buffer"(%b) {name = "s"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  %s = "pld.tensor_window"(%q) : (!pld.ptr) -> !sig
  "pld.dispatch"(%c0) ({
    func.call @chip(%d, %s) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// A declaration gets its context parameters too (argument attributes are
// extended).
// CHECK-LABEL: func.func private @external(tensor<1x16xf32, #pld.dist> {pld.direction = #pld.direction<"inout">}, !pld.ctx)
func.func private @external(!data {pld.direction = #pld.direction<"inout">}) attributes {pld.kind = #pld.func_kind<"aiv">}

// A loop that carries a window and yields it back keeps the initial
// value's context, inside the loop and after it. (Through a collective's
// result, as here once, is no longer possible: this pass runs after every
// collective is lowered, and refuses one still there, in unlowered.mlir.)
// CHECK-LABEL: func.func @carried(%arg0: tensor<1x16xf32, #pld.dist>, %arg1: tensor<2x1xi32, #pld.dist>, %arg2: !pld.ctx, %arg3: !pld.ctx)
// CHECK: scf.for
// CHECK: "pld.system_rank"(%arg2)
// CHECK: "pld.system_rank"(%arg2)
func.func @carried(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %out = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %d) -> (!data) {
    %ctx = "pld.system_get_comm_ctx"(%x) : (!data) -> !pld.ctx
    %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
    scf.yield %x : !data
  }
  %ctx = "pld.system_get_comm_ctx"(%out) : (!data) -> !pld.ctx
  %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  return
}

// An scf.while that carries a window and yields it back keeps its context
// in the before region, the do region and after the loop.
// CHECK-LABEL: func.func @carried_while(%arg0: tensor<1x16xf32, #pld.dist>, %arg1: i1, %arg2: !pld.ctx)
// CHECK: scf.while
// CHECK: "pld.system_rank"(%arg2)
// CHECK: "pld.system_rank"(%arg2)
// CHECK: "pld.system_rank"(%arg2)
func.func @carried_while(%d: !data, %c: i1) attributes {pld.kind = #pld.func_kind<"incore">} {
  %out = scf.while (%x = %d) : (!data) -> (!data) {
    %ctx = "pld.system_get_comm_ctx"(%x) : (!data) -> !pld.ctx
    %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
    scf.condition(%c) %x : !data
  } do {
  ^bb0(%y: !data):
    %ctx = "pld.system_get_comm_ctx"(%y) : (!data) -> !pld.ctx
    %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
    scf.yield %y : !data
  }
  %ctx = "pld.system_get_comm_ctx"(%out) : (!data) -> !pld.ctx
  %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  return
}

// An scf.if whose branches yield the same window keeps it.
// CHECK-LABEL: func.func @branches(%arg0: tensor<1x16xf32, #pld.dist>, %arg1: i1, %arg2: !pld.ctx)
// CHECK: "pld.system_rank"(%arg2)
func.func @branches(%d: !data, %c: i1) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %out = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %d) -> (!data) {
    %z = scf.if %c -> (!data) {
      scf.yield %x : !data
    } else {
      scf.yield %x : !data
    }
    scf.yield %z : !data
  }
  %ctx = "pld.system_get_comm_ctx"(%out) : (!data) -> !pld.ctx
  %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  return
}
