// pld-lower-l2-tensor-collectives (spec 7.2): the rewrite shape, the shared
// variant, the canonical signature and directions, the template attributes.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)' | pld-opt | FileCheck %s
// No collective is left anywhere but in the HOST and InCore functions:
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)' | FileCheck %s --check-prefix=GONE

!in = tensor<8x64xf32>
!out = tensor<8x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
!sc = tensor<2xi32>
!rc = tensor<2x1xi32, #pld.dist>

// The stage kernel fills %stage and returns it (a call result is traced to
// the argument the callee returns).
func.func @stage_step(%src: !in, %stage: !in) -> !in attributes {pld.kind = #pld.func_kind<"incore">} {
  return %stage : !in
}
func.func private @consume_step(!out, !rc) attributes {pld.kind = #pld.func_kind<"incore">}

// The spec's program: stage, exchange, consume. The collective in the
// assignment position becomes a call whose result replaces its uses.
// CHECK-LABEL: func.func @chip_pipeline(
// CHECK-SAME: %[[IN:[a-z0-9]+]]: tensor<8x64xf32>, %[[BUF:[a-z0-9]+]]: tensor<8x64xf32>, %[[OUT:[a-z0-9]+]]: tensor<8x64xf32, #pld.dist>, %[[SIG:[a-z0-9]+]]: tensor<2x1xi32, #pld.dist>, %[[SC:[a-z0-9]+]]: tensor<2xi32>, %[[RC:[a-z0-9]+]]: tensor<2x1xi32, #pld.dist>
// CHECK: %[[STAGE:.*]] = call @stage_step(%[[IN]], %[[BUF]])
// A one-block launch carries no launch attributes (none between the
// arguments and the type):
// CHECK-NEXT: %[[DATA:.*]] = call @__builtin_all_to_all_v__fp32(%[[STAGE]], %[[OUT]], %[[SIG]], %[[SC]], %[[RC]]) : (tensor<8x64xf32>, tensor<8x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<8x64xf32, #pld.dist>
// CHECK-NEXT: call @consume_step(%[[DATA]], %[[RC]])
// CHECK-NEXT: return
func.func @chip_pipeline(%in: !in, %buf: !in, %out: !out, %sig: !sig, %sc: !sc, %rc: !rc)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %stage = func.call @stage_step(%in, %buf) : (!in, !in) -> !in
  %data = "pld.tensor_all_to_all_v"(%stage, %out, %sig, %sc, %rc) : (!in, !out, !sig, !sc, !rc) -> !out
  func.call @consume_step(%data, %rc) : (!out, !rc) -> ()
  return
}

// The statement position (result unused) and the returned position, in a
// second function: both share the one fp32 function. A distributed input
// and distributed send counts reach the plain parameters through a cast.
// CHECK-LABEL: func.func @positions(
// CHECK-SAME: %[[DIN:[a-z0-9]+]]: tensor<8x64xf32, #pld.dist>, %[[OUT2:[a-z0-9]+]]: tensor<8x64xf32, #pld.dist>, %[[SIG2:[a-z0-9]+]]: tensor<2x1xi32, #pld.dist>, %[[DSC:[a-z0-9]+]]: tensor<2xi32, #pld.dist>, %[[RC2:[a-z0-9]+]]: tensor<2x1xi32, #pld.dist>
// CHECK: %[[CIN:.*]] = builtin.unrealized_conversion_cast %[[DIN]] : tensor<8x64xf32, #pld.dist> to tensor<8x64xf32>
// CHECK-NEXT: %[[CSC:.*]] = builtin.unrealized_conversion_cast %[[DSC]] : tensor<2xi32, #pld.dist> to tensor<2xi32>
// CHECK-NEXT: call @__builtin_all_to_all_v__fp32(%[[CIN]], %[[OUT2]], %[[SIG2]], %[[CSC]], %[[RC2]])
// CHECK: %[[R:.*]] = call @__builtin_all_to_all_v__fp32(
// CHECK-NEXT: return %[[R]] : tensor<8x64xf32, #pld.dist>
func.func @positions(%in: !out, %out: !out, %sig: !sig, %sc: tensor<2xi32, #pld.dist>, %rc: !rc) -> !out
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %unused = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (!out, !out, !sig, tensor<2xi32, #pld.dist>, !rc) -> !out
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (!out, !out, !sig, tensor<2xi32, #pld.dist>, !rc) -> !out
  return %r : !out
}

// An int8 exchange gets its own variant; one inside a loop, carrying the
// target, is lowered in place.
// CHECK-LABEL: func.func @bytes(
// CHECK: scf.for
// CHECK: call @__builtin_all_to_all_v__int8(
// CHECK: scf.yield
func.func @bytes(%in: tensor<4x32xi8>, %out: tensor<4x32xi8, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>,
                 %sc: tensor<4x1xi32>, %rc: tensor<4x1xi32, #pld.dist>) -> tensor<4x32xi8, #pld.dist>
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %last = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %out) -> (tensor<4x32xi8, #pld.dist>) {
    %n = "pld.tensor_all_to_all_v"(%in, %t, %sig, %sc, %rc) : (tensor<4x32xi8>, tensor<4x32xi8, #pld.dist>, tensor<4x1xi32, #pld.dist>, tensor<4x1xi32>, tensor<4x1xi32, #pld.dist>) -> tensor<4x32xi8, #pld.dist>
    scf.yield %n : tensor<4x32xi8, #pld.dist>
  }
  return %last : tensor<4x32xi8, #pld.dist>
}

// HOST and InCore collectives are another rail's: untouched, no error.
// CHECK-LABEL: func.func @kernel(
// CHECK: "pld.tensor_all_to_all_v"
func.func @kernel(%in: !out, %out: !out, %sig: !sig, %sc: !sc, %rc: !rc)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (!out, !out, !sig, !sc, !rc) -> !out
  return
}

// The synthesized functions, one per dtype, at the end of the module: AIV,
// canonical parameter kinds (input and send_counts plain; target, signal,
// recv_counts distributed, as the first call site passed them), directions
// In, InOut, InOut, In, InOut, the template attributes, and a body that
// returns the target.
// CHECK-LABEL: func.func @__builtin_all_to_all_v__fp32(
// CHECK-SAME: %[[I:[a-z0-9]+]]: tensor<8x64xf32>, %[[T:[a-z0-9]+]]: tensor<8x64xf32, #pld.dist>, %{{[a-z0-9]+}}: tensor<2x1xi32, #pld.dist>, %{{[a-z0-9]+}}: tensor<2xi32>, %{{[a-z0-9]+}}: tensor<2x1xi32, #pld.dist>) -> tensor<8x64xf32, #pld.dist>
// CHECK-SAME: builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v"
// CHECK-SAME: builtin_template_vars = "dtype_cpp=float"
// CHECK-SAME: pld.arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]
// CHECK-SAME: pld.kind = #pld.func_kind<"aiv">
// CHECK-SAME: require_contiguous_operands = true
// CHECK-NEXT: return %[[T]] : tensor<8x64xf32, #pld.dist>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @__builtin_all_to_all_v__int8(
// CHECK-SAME: tensor<4x32xi8>, %{{[a-z0-9]+}}: tensor<4x32xi8, #pld.dist>, %{{[a-z0-9]+}}: tensor<4x1xi32, #pld.dist>, %{{[a-z0-9]+}}: tensor<4x1xi32>, %{{[a-z0-9]+}}: tensor<4x1xi32, #pld.dist>) -> tensor<4x32xi8, #pld.dist>
// CHECK-SAME: builtin_template_vars = "dtype_cpp=int8_t"
// CHECK-NOT: func.func @__builtin

// GONE-NOT: "pld.tensor_all_to_all_v"
// GONE: func.func @kernel
// GONE-NEXT: "pld.tensor_all_to_all_v"
// GONE-NOT: "pld.tensor_all_to_all_v"
