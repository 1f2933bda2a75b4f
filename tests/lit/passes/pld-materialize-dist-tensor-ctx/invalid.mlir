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
  // expected-error@+1 {{cannot find the CommContext of argument #0 of the call to @kernel: it does not derive from a distributed parameter of this function}}
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
