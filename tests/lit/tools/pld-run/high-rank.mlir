// Collectives of targets with more than two dimensions move the whole
// target: an InCore broadcast of a [3, 2, 4] target (one pld.tile_get of
// the whole tensor, a 3-D pto.comm_tget) copied only its first [2, 4]
// slab, and the other ranks kept their own rows 1 and 2 with exit 0
// (--check: 16 wrong elements). Checked against pld-run's golden and
// against the root's input, written independently with npy.py.
// RUN: rm -rf %t && split-file %s %t
// RUN: pld-run %t/broadcast3.mlir --ranks 2 --input data=ramp --check | FileCheck %s --check-prefix=THREE
// THREE: pld.tensor_broadcast 2 96 24 f32 none 1 {{.*}} 0{{$}}
// RUN: pld-run %t/broadcast4.mlir --ranks 3 --input data=rank --check | FileCheck %s --check-prefix=FOUR
// FOUR: pld.tensor_broadcast 3 840 420 f16 none 2 {{.*}} 0{{$}}
// RUN: python3 %S/Inputs/npy.py write %t/in.rank0.npy f4 3,2,4 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
// RUN: python3 %S/Inputs/npy.py write %t/in.rank1.npy f4 3,2,4 3f800000,40000000,40400000,40800000,40a00000,40c00000,40e00000,41000000,41100000,41200000,41300000,41400000,41500000,41600000,41700000,41800000,41880000,41900000,41980000,41a00000,41a80000,41b00000,41b80000,41c00000
// RUN: pld-run %t/broadcast3.mlir --ranks 2 --input data=%t/in.rank{rank}.npy --output-dir %t/out
// RUN: python3 %S/Inputs/npy.py show %t/out/data.rank0.npy | FileCheck %s --check-prefix=ROOT
// ROOT: <f4 (3, 2, 4): 3f800000 x 1, 40000000 x 1, 40400000 x 1, 40800000 x 1, 40a00000 x 1, 40c00000 x 1, 40e00000 x 1, 41000000 x 1, 41100000 x 1, 41200000 x 1, 41300000 x 1, 41400000 x 1, 41500000 x 1, 41600000 x 1, 41700000 x 1, 41800000 x 1, 41880000 x 1, 41900000 x 1, 41980000 x 1, 41a00000 x 1, 41a80000 x 1, 41b00000 x 1, 41b80000 x 1, 41c00000 x 1

//--- broadcast3.mlir
func.func @broadcast3(%data: tensor<3x2x4xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%data, %sig) {root = 1 : i64} : (tensor<3x2x4xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<3x2x4xf32, #pld.dist>
  return
}

//--- broadcast4.mlir
func.func @broadcast4(%data: tensor<2x3x5x14xf16, #pld.dist>, %sig: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%data, %sig) {root = 2 : i64} : (tensor<2x3x5x14xf16, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<2x3x5x14xf16, #pld.dist>
  return
}
