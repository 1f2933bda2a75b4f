// Diagnostics of pld-materialize-dist-tensor-ctx.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-materialize-dist-tensor-ctx)'

!data = tensor<1x16xf32, #pld.dist>
func.func private @make() -> !data
func.func @kernel(%d: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip() attributes {pld.kind = #pld.func_kind<"chip">} {
  %w = func.call @make() : () -> !data
  // expected-error@+1 {{cannot find the CommContext of argument #0 of the call to @kernel: it does not derive from one distributed parameter of this function}}
  func.call @kernel(%w) : (!data) -> ()
  return
}

// -----

!data = tensor<1x16xf32, #pld.dist>
func.func private @make() -> !data
func.func @kernel() attributes {pld.kind = #pld.func_kind<"incore">} {
  %w = func.call @make() : () -> !data
  // expected-error@+1 {{cannot resolve the CommContext: the tensor does not derive from a distributed parameter of this function}}
  %ctx = "pld.system_get_comm_ctx"(%w) : (!data) -> !pld.ctx
  %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  return
}

// -----

// A loop that carries one window and yields another: the carried value's
// context would depend on the iteration (spec 7.6), so it is diagnosed
// once, on the loop, however many uses flow through it.
!data = tensor<1x16xf32, #pld.dist>
func.func @kernel(%d: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%a: !data, %b: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error@+1 {{this loop rebinds a carried distributed tensor to a different tensor, so the CommContext of the carried value is ambiguous; carry one window per iter_arg}}
  %out = scf.for %i = %c0 to %c3 step %c1 iter_args(%d = %a) -> (!data) {
    func.call @kernel(%d) : (!data) -> ()
    scf.yield %b : !data
  }
  func.call @kernel(%out) : (!data) -> ()
  return
}

// -----

// The rebinding may hide in an inner loop: the outer carry is checked
// through it.
!data = tensor<1x16xf32, #pld.dist>
func.func @kernel(%d: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%a: !data, %b: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %out = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a) -> (!data) {
    // expected-error@+1 {{this loop rebinds a carried distributed tensor to a different tensor}}
    %in = scf.for %j = %c0 to %c3 step %c1 iter_args(%y = %x) -> (!data) {
      scf.yield %b : !data
    }
    scf.yield %in : !data
  }
  func.call @kernel(%out) : (!data) -> ()
  return
}

// -----

// A yielded window that cannot be traced at all is not called a rebinding.
!data = tensor<1x16xf32, #pld.dist>
func.func private @fresh() -> !data
func.func @kernel(%d: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%a: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error@+1 {{cannot tell which window this loop carries: the value it yields for a carried distributed tensor does not derive from a parameter; yield the carried tensor (or a view or collective result of it)}}
  %out = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a) -> (!data) {
    func.call @kernel(%x) : (!data) -> ()
    %w = func.call @fresh() : () -> !data
    scf.yield %w : !data
  }
  return
}
