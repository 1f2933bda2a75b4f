// Diagnostics of pld-synthesize-allreduce-signals.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)'

!data = tensor<64xf32, #pld.dist>
func.func @loop(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error@+1 {{without a signal operand cannot be inside an scf.for or scf.while on the HOST rail}}
    %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @while_loop(%data: !data, %go: i1) attributes {pld.kind = #pld.func_kind<"host">} {
  scf.while : () -> () {
    scf.condition(%go)
  } do {
    // expected-error@+1 {{without a signal operand cannot be inside an scf.for or scf.while}}
    %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
    scf.yield
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @nested(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"host">} {
  // A collective in any other region (MLIR's form of the seed's nested
  // expression) is rejected, with or without a signal.
  scf.execute_region {
    // expected-error@+1 {{must be directly in the body of the HOST orchestrator, or of an scf.if, scf.for or scf.while in it, for pld-synthesize-allreduce-signals; it is inside 'scf.execute_region'}}
    %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
    scf.yield
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @count(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  // The operand count (target or target + signal) is enforced by IRDL when
  // the text is parsed; the pass repeats the check for IR built in memory.
  // expected-error@+1 {{expects at most 2 operands, but got 3}}
  %r = "pld.tensor_allreduce"(%data, %data, %data) {op = #pld.reduce_op<"sum">} : (!data, !data, !data) -> !data
  return
}
