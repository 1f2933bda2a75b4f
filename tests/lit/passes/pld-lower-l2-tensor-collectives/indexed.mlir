// pld.tensor_indexed_all_to_all_v on the CHIP rail (spec 4.8): its own
// synthesized function and template package, six tensor parameters
// (input, recv_counts and index plain; target, signal and send_counts
// windows), and core_num the exact launch count (no folding to a multiple
// of P). It exists on the A5 target only.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)' | FileCheck %s
// After pld-materialize-dist-tensor-ctx the kernel has three CommContexts,
// the first at slot 6:
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives, pld-materialize-dist-tensor-ctx)' | FileCheck %s --check-prefix=CTX

module attributes {pld.target = "a5"} {
// CHECK-LABEL: func.func @exchange(
// P = 8, L = 10: all_to_all_v would launch 8 blocks; this op launches 10.
// CHECK: call @__builtin_indexed_all_to_all_v__fp32(%{{.*}}) {core_num = 10 : i64, sync_start = true} : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x10xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
func.func @exchange(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x10xi32, #pld.dist>,
                    %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 10 : index
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x10xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// A distributed recv_counts reaches its plain parameter through a cast.
// CHECK-LABEL: func.func @one_block(
// CHECK: %[[RC:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<8x1xi32, #pld.dist> to tensor<8x1xi32>
// CHECK-NEXT: call @__builtin_indexed_all_to_all_v__fp32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[RC]], %{{.*}}) : (
func.func @one_block(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x10xi32, #pld.dist>,
                     %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32, #pld.dist>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x10xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32, #pld.dist>, tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
  return
}
}

// CHECK-LABEL: func.func @__builtin_indexed_all_to_all_v__fp32(
// CHECK-SAME: tensor<16x16xf32>, %[[T:[a-z0-9]+]]: tensor<16x16xf32, #pld.dist>, %{{[a-z0-9]+}}: tensor<8x10xi32, #pld.dist>, %{{[a-z0-9]+}}: tensor<8xi32, #pld.dist>, %{{[a-z0-9]+}}: tensor<8x1xi32>, %{{[a-z0-9]+}}: tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
// CHECK-SAME: builtin_template_dir = ":pypto.runtime.builtins.collectives.indexed_all_to_all_v"
// CHECK-SAME: builtin_template_vars = "dtype_cpp=float"
// CHECK-SAME: pld.arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"in">]
// CHECK-SAME: pld.kind = #pld.func_kind<"aiv">
// CHECK-SAME: require_contiguous_operands = true
// CHECK-NEXT: return %[[T]]
// CHECK-NOT: func.func @__builtin

// CTX-LABEL: func.func @__builtin_indexed_all_to_all_v__fp32(
// CTX-SAME: %arg0: tensor<16x16xf32>, %arg1: tensor<16x16xf32, #pld.dist>, %arg2: tensor<8x10xi32, #pld.dist>, %arg3: tensor<8xi32, #pld.dist>, %arg4: tensor<8x1xi32>, %arg5: tensor<16xi32>, %arg6: !pld.ctx, %arg7: !pld.ctx, %arg8: !pld.ctx)
