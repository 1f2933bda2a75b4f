// pld-lower-composite-ops, two-shot allreduce: the shape of the lowering,
// and the numbers on simulated ranks against a golden computed by a Python
// standard-library script (Inputs/allreduce_golden.py), not by pld.
//
// RUN: split-file %s %t
// RUN: pld-opt %t/sum.mlir --pass-pipeline='builtin.module(pld-lower-composite-ops)' | FileCheck %s
// Three barriers (two peer loops each), the epilogue, shot 1 (chunks and
// the peer fold) and shot 2 (owners and chunks): 11 loops whatever the
// length and the rank count.
// RUN: pld-opt %t/sum.mlir --pass-pipeline='builtin.module(pld-lower-composite-ops)' | grep -c 'scf.for' | FileCheck %s --check-prefix=FORS
// FORS: 11
//
// f32 sum, 1001 elements (ragged segments) on 5 ranks; f16 max, 3x37 on 7
// ranks (FP16 segments rounded to 16 elements, the last one padded); f32
// prod, 3 elements on 8 ranks (five empty segments).
// RUN: mkdir -p %t/in5 %t/in7 %t/in8
// RUN: python3 %S/Inputs/allreduce_golden.py write %t/in5 f4 1,1001 5 sum
// RUN: pld-run %t/sum.mlir --ranks 5 --input 'data=%t/in5/x.rank{rank}.npy' --output-dir %t/out5 | FileCheck %s --check-prefix=SIM
// RUN: python3 %S/Inputs/allreduce_golden.py check %t/out5 data f4 1,1001 5 sum | FileCheck %s --check-prefix=SUM
// RUN: python3 %S/Inputs/allreduce_golden.py write %t/in7 f2 3,37 7 max
// RUN: pld-run %t/max16.mlir --ranks 7 --input 'data=%t/in7/x.rank{rank}.npy' --output-dir %t/out7 | FileCheck %s --check-prefix=SIM
// RUN: python3 %S/Inputs/allreduce_golden.py check %t/out7 data f2 3,37 7 max | FileCheck %s --check-prefix=MAX
// RUN: python3 %S/Inputs/allreduce_golden.py write %t/in8 f4 1,3 8 prod
// RUN: pld-run %t/prod.mlir --ranks 8 --input 'data=%t/in8/x.rank{rank}.npy' --output-dir %t/out8 | FileCheck %s --check-prefix=SIM
// RUN: python3 %S/Inputs/allreduce_golden.py check %t/out8 data f4 1,3 8 prod | FileCheck %s --check-prefix=PROD
// The check can fail: the inputs themselves are not the golden.
// RUN: not python3 %S/Inputs/allreduce_golden.py check %t/in8 x f4 1,3 8 prod | FileCheck %s --check-prefix=WRONG
// The protocol explorer finds nothing.
// RUN: pld-run %t/sum.mlir --ranks 4 --explore 20 | FileCheck %s --check-prefix=CLEAN
// RUN: pld-run %t/max16.mlir --ranks 3 --explore 20 | FileCheck %s --check-prefix=CLEAN
// SIM: pld.tensor_allreduce {{.*}}N/A
// SUM: ok: 5 ranks x 1001 elements
// MAX: ok: 7 ranks x 111 elements
// PROD: ok: 8 ranks x 3 elements
// WRONG: rank 0 element 0: got
// CLEAN: 20 schedules explored {{.*}}: no race, missing fence, mixed notify, shared queue, leak or deadlock

// CHECK-LABEL: func.func @sum
// CHECK: %[[NR32:.*]] = "pld.system_nranks"
// CHECK-NEXT: %[[NR:.*]] = arith.index_cast %[[NR32]]
// CHECK-NEXT: %[[ME32:.*]] = "pld.system_rank"
// CHECK-NEXT: %[[ME:.*]] = arith.index_cast %[[ME32]]
// CHECK: %[[SIZE:.*]] = arith.constant 1001 : index
// The chunk width for SIZE 1001 over the signal's 5 ranks: ceil(1001/5) =
// 201, rounded up to 8.
// CHECK: %[[ROW:.*]] = "pld.tensor_view"(%arg0)
// CHECK: %[[C:.*]] = arith.constant 208 : index
// Ready barrier, generation 1.
// CHECK: %[[G1:.*]] = arith.constant 1 : i32
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %[[ME]], %c0, %{{.*}})
// CHECK: "pld.system_wait"(%arg1, %{{.*}}, %c0, %[[G1]])
// Shot 1: my segment [me*SIZE/NR, (me+1)*SIZE/NR).
// CHECK: %[[B0:.*]] = arith.muli %[[ME]], %[[SIZE]]
// CHECK-NEXT: %[[BEGIN:.*]] = arith.divui %[[B0]], %[[NR]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[ME]], %c1
// CHECK-NEXT: %[[B1:.*]] = arith.muli %[[NEXT]], %[[SIZE]]
// CHECK-NEXT: %[[END:.*]] = arith.divui %[[B1]], %[[NR]]
// CHECK-NEXT: scf.for %[[COL:.*]] = %[[BEGIN]] to %[[END]] step %[[C]] {
// CHECK: "pld.tile_load"(%[[ROW]], %c0, %[[COL]]
// CHECK: scf.for %[[PEER:.*]] = %c0 to %[[NR]] step %c1 iter_args
// CHECK: "pld.tile_remote_load"(%[[ROW]], %[[PEER]], %c0, %[[COL]]
// CHECK: "pld.tile_add"
// CHECK: "pld.tile_store"(%{{.*}}, %[[ROW]], %c0, %[[COL]])
// Reduced barrier, generation 2.
// CHECK: %[[G2:.*]] = arith.constant 2 : i32
// CHECK: "pld.system_wait"(%arg1, %{{.*}}, %c0, %[[G2]])
// Shot 2: owner (me + i) mod NR for i in 1..NR; a copy, no reduction.
// CHECK: scf.for %[[I:.*]] = %c1 to %[[NR]] step %c1 {
// CHECK-NEXT: %[[SHIFT:.*]] = arith.addi %[[ME]], %[[I]]
// CHECK-NEXT: %[[OWNER:.*]] = arith.remui %[[SHIFT]], %[[NR]]
// CHECK: scf.for %[[COL2:.*]] = %{{.*}} to %{{.*}} step %[[C]] {
// CHECK: "pld.tile_remote_load"(%[[ROW]], %[[OWNER]], %c0, %[[COL2]]
// CHECK-NEXT: "pld.tile_fillpad"
// CHECK-NEXT: "pld.tile_set_validshape"
// CHECK-NEXT: "pld.tile_store"(%{{.*}}, %[[ROW]], %c0, %[[COL2]])
// Done barrier, generation 3, and the epilogue's -3.
// CHECK: %[[G3:.*]] = arith.constant 3 : i32
// CHECK: "pld.system_wait"(%arg1, %{{.*}}, %c0, %[[G3]])
// CHECK: %[[NEG:.*]] = arith.constant -3 : i32
// CHECK: "pld.system_notify"(%arg1, %[[ME]], %{{.*}}, %c0, %[[NEG]])
// CHECK-NOT: pld.tensor_allreduce
// CHECK: return

//--- sum.mlir
!data = tensor<1x1001xf32, #pld.dist>
!sig = tensor<5x1xi32, #pld.dist>
func.func @sum(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (!data, !sig) -> !data
  return
}

//--- max16.mlir
!data = tensor<3x37xf16, #pld.dist>
!sig = tensor<7x1xi32, #pld.dist>
func.func @max16(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"max">, mode = "two_shot"} : (!data, !sig) -> !data
  return
}

//--- prod.mlir
!data = tensor<1x3xf32, #pld.dist>
!sig = tensor<8x1xi32, #pld.dist>
func.func @prod(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"prod">, mode = "two_shot"} : (!data, !sig) -> !data
  return
}
