// pld-run --check judges each rank by what its own schedule computes: the
// golden of a rank is folded in the order that rank's schedule folds
// (docs/tools/pld-run.md, "Goldens and tolerance"), so an f16 sum that
// overflows in one order and not in another is right on every rank. Rank
// r's data is all x_r: 30000, 40000, -40000, 0 (f16 0x7753, 0x78e2,
// 0xf8e2, 0; 30000 + 40000 = 70000 is past f16's largest 65504: inf,
// 0x7c00). The goldens below are worked out by hand from the schedules:
//
// - mesh (rank r: x_r, then the others in rank order): rank 0
//   30000 + 40000 = inf; rank 1 the same; rank 2 -40000 + 30000 + 40000
//   + 0 = 30000; rank 3 0 + 30000 + 40000 = inf.
// - two_shot (segment s of 64 elements on 4 ranks is [16s, 16s + 16),
//   folded by rank s in the mesh's order for s, then copied): segments
//   0, 1, 3 inf, segment 2 30000, on every rank.
// - ring (segment k folded x_(k+1), x_(k+2), ..., x_k, then copied):
//   segment 0 40000 - 40000 + 0 + 30000 = 30000; segment 1 -40000 + 0 +
//   30000 + 40000 = 30000; segments 2 and 3 inf, on every rank.
// - HOST ring (f32 only): x_r = 2^127, 1.5 * 2^127, -1.5 * 2^127, 0
//   (0x7f000000, 0x7f400000, 0xff400000, 0); segments 0 and 1 are 2^127,
//   segments 2 and 3 overflow (2.5 * 2^127 > f32's largest): inf.
// - two_shot in f32 on 20 elements with the HOST ring's x_r: the
//   composite cuts segments at floor(20 i / 4) = 0, 5, 10, 15, 20, and
//   segment 2 (rank 2: -1.5 * 2^127 + 2^127 + 1.5 * 2^127) is 2^127; the
//   builtin cuts at 32-byte boundaries, min(ceil(20 i / 32) * 8, 20) = 0, 8,
//   16, 16, 20, so segment 2 is empty and every element overflows.
//
// A golden in rank order (inf everywhere) would call these results wrong.
//
// RUN: split-file %s %t
// RUN: python3 %S/Inputs/npy.py write %t/x0.npy f2 1,64 7753
// RUN: python3 %S/Inputs/npy.py write %t/x1.npy f2 1,64 78e2
// RUN: python3 %S/Inputs/npy.py write %t/x2.npy f2 1,64 f8e2
// RUN: python3 %S/Inputs/npy.py write %t/x3.npy f2 1,64 0000
// RUN: python3 %S/Inputs/npy.py write %t/y0.npy f4 1,64 7f000000
// RUN: python3 %S/Inputs/npy.py write %t/y1.npy f4 1,64 7f400000
// RUN: python3 %S/Inputs/npy.py write %t/y2.npy f4 1,64 ff400000
// RUN: python3 %S/Inputs/npy.py write %t/y3.npy f4 1,64 00000000
// RUN: python3 %S/Inputs/npy.py write %t/z0.npy f4 1,20 7f000000
// RUN: python3 %S/Inputs/npy.py write %t/z1.npy f4 1,20 7f400000
// RUN: python3 %S/Inputs/npy.py write %t/z2.npy f4 1,20 ff400000
// RUN: python3 %S/Inputs/npy.py write %t/z3.npy f4 1,20 00000000
//
// The composite rail (an InCore kernel):
// RUN: rm -rf %t.mesh && pld-run %t/mesh.mlir --ranks 4 --input 'd=%t/x{rank}.npy' --check --output-dir %t.mesh | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.mesh/d.rank0.golden.npy | FileCheck %s --check-prefix=INF
// RUN: python3 %S/Inputs/npy.py show %t.mesh/d.rank2.golden.npy | FileCheck %s --check-prefix=FINITE
// RUN: python3 %S/Inputs/npy.py show %t.mesh/d.rank3.golden.npy | FileCheck %s --check-prefix=INF
// RUN: cmp %t.mesh/d.rank2.npy %t.mesh/d.rank2.golden.npy
// RUN: rm -rf %t.two && pld-run %t/two_shot.mlir --ranks 4 --input 'd=%t/x{rank}.npy' --check --output-dir %t.two | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.two/d.rank1.golden.npy | FileCheck %s --check-prefix=TWO
// RUN: cmp %t.two/d.rank1.npy %t.two/d.rank1.golden.npy
// RUN: rm -rf %t.ring && pld-run %t/ring.mlir --ranks 4 --input 'd=%t/x{rank}.npy' --check --output-dir %t.ring | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.ring/d.rank3.golden.npy | FileCheck %s --check-prefix=RING
// RUN: cmp %t.ring/d.rank3.npy %t.ring/d.rank3.golden.npy
// RUN: rm -rf %t.two32 && pld-run %t/two_shot_f32.mlir --ranks 4 --input 'd=%t/z{rank}.npy' --check --output-dir %t.two32 | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.two32/d.rank3.golden.npy | FileCheck %s --check-prefix=TWO32
// RUN: cmp %t.two32/d.rank3.npy %t.two32/d.rank3.golden.npy
// TWO32: <f4 (1, 20): 7f800000 x 10, 7f000000 x 5, 7f800000 x 5
// INF: <f2 (1, 64): 7c00 x 64
// FINITE: <f2 (1, 64): 7753 x 64
// TWO: <f2 (1, 64): 7c00 x 32, 7753 x 16, 7c00 x 16
// RING: <f2 (1, 64): 7753 x 32, 7c00 x 32
// OK: rank 0: ok (worst error 0.000e0 at element 0)
// OK-NEXT: rank 1: ok (worst error 0.000e0 at element 0)
// OK-NEXT: rank 2: ok (worst error 0.000e0 at element 0)
// OK-NEXT: rank 3: ok (worst error 0.000e0 at element 0)
//
// The HOST rail (builtin kernels; the same schedules):
// RUN: rm -rf %t.hmesh && pld-run %t/host.mlir --ranks 4 --input 'd=%t/x{rank}.npy' --check --output-dir %t.hmesh | FileCheck %s --check-prefix=HOST
// RUN: python3 %S/Inputs/npy.py show %t.hmesh/d.rank2.golden.npy | FileCheck %s --check-prefix=FINITE
// RUN: python3 %S/Inputs/npy.py show %t.hmesh/d.rank1.golden.npy | FileCheck %s --check-prefix=INF
// RUN: rm -rf %t.htwo && pld-run %t/host_two_shot.mlir --ranks 4 --input 'd=%t/x{rank}.npy' --check --output-dir %t.htwo | FileCheck %s --check-prefix=HOST
// RUN: python3 %S/Inputs/npy.py show %t.htwo/d.rank0.golden.npy | FileCheck %s --check-prefix=TWO
// RUN: rm -rf %t.hring && pld-run %t/host_ring.mlir --ranks 4 --input 'd=%t/y{rank}.npy' --check --output-dir %t.hring | FileCheck %s --check-prefix=HOST
// RUN: python3 %S/Inputs/npy.py show %t.hring/d.rank2.golden.npy | FileCheck %s --check-prefix=HRING
// RUN: cmp %t.hring/d.rank2.npy %t.hring/d.rank2.golden.npy
// RUN: rm -rf %t.htwo32 && pld-run %t/host_two_shot_f32.mlir --ranks 4 --input 'd=%t/z{rank}.npy' --check --output-dir %t.htwo32 | FileCheck %s --check-prefix=HOST
// RUN: python3 %S/Inputs/npy.py show %t.htwo32/d.rank3.golden.npy | FileCheck %s --check-prefix=HTWO32
// RUN: cmp %t.htwo32/d.rank3.npy %t.htwo32/d.rank3.golden.npy
// HTWO32: <f4 (1, 20): 7f800000 x 20
// HOST: pld.tensor_allreduce at {{.*}}: ok on 4 ranks (worst error 0.000e0)
// HRING: <f4 (1, 64): 7f000000 x 32, 7f800000 x 32
//
// A kernel wrong on one rank is still caught: the same allreduces, then
// one rank stores zeros over its first 16 elements (rank 2 after the mesh,
// where 30000 is due; rank 0 after the ring, where 30000 is due too).
// RUN: not pld-run %t/mesh_bad.mlir --ranks 4 --input 'd=%t/x{rank}.npy' --check | FileCheck %s --check-prefix=BAD-MESH
// RUN: sh -c 'pld-run %t/mesh_bad.mlir --ranks 4 --input "d=%t/x{rank}.npy" --check > /dev/null 2>&1; test $? -eq 1'
// BAD-MESH: rank 0: ok
// BAD-MESH-NEXT: rank 1: ok
// BAD-MESH-NEXT: rank 2: WRONG (worst error 3.000e4 at element 0)
// BAD-MESH-NEXT: 16 wrong elements; first: [0, 0] expected 30000 ± 4.3e2, got 0;
// BAD-MESH-NEXT: rank 3: ok
// RUN: not pld-run %t/ring_bad.mlir --ranks 4 --input 'd=%t/x{rank}.npy' --check | FileCheck %s --check-prefix=BAD-RING
// BAD-RING: rank 0: WRONG (worst error 3.000e4 at element 0)
// BAD-RING-NEXT: 16 wrong elements; first: [0, 0] expected 30000 ± 4.3e2, got 0;
// BAD-RING-NEXT: rank 1: ok
// BAD-RING-NEXT: rank 2: ok
// BAD-RING-NEXT: rank 3: ok

//--- mesh.mlir
func.func @k(%d: tensor<1x64xf16, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (tensor<1x64xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf16, #pld.dist>
  return
}

//--- two_shot.mlir
func.func @k(%d: tensor<1x64xf16, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (tensor<1x64xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf16, #pld.dist>
  return
}

//--- ring.mlir
func.func @k(%d: tensor<1x64xf16, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x64xf16, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x64xf16, #pld.dist>
  return
}

//--- mesh_bad.mlir
func.func @k(%d: tensor<1x64xf16, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (tensor<1x64xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf16, #pld.dist>
  %ctx = "pld.system_get_comm_ctx"(%r) : (tensor<1x64xf16, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c2 = arith.constant 2 : i32
  %is2 = arith.cmpi eq, %me, %c2 : i32
  scf.if %is2 {
    %c0 = arith.constant 0 : index
    %z = "pld.tile_create"() : () -> tensor<1x16xf16, #pld.tile>
    "pld.tile_store"(%z, %r, %c0, %c0) : (tensor<1x16xf16, #pld.tile>, tensor<1x64xf16, #pld.dist>, index, index) -> ()
  }
  return
}

//--- ring_bad.mlir
func.func @k(%d: tensor<1x64xf16, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x64xf16, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x64xf16, #pld.dist>
  %ctx = "pld.system_get_comm_ctx"(%r) : (tensor<1x64xf16, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0i = arith.constant 0 : i32
  %is0 = arith.cmpi eq, %me, %c0i : i32
  scf.if %is0 {
    %c0 = arith.constant 0 : index
    %z = "pld.tile_create"() : () -> tensor<1x16xf16, #pld.tile>
    "pld.tile_store"(%z, %r, %c0, %c0) : (tensor<1x16xf16, #pld.tile>, tensor<1x64xf16, #pld.dist>, index, index) -> ()
  }
  return
}

//--- host.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 128 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x64xf16, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (tensor<1x64xf16, #pld.dist>) -> tensor<1x64xf16, #pld.dist>
  return
}

//--- host_two_shot.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 128 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x64xf16, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (tensor<1x64xf16, #pld.dist>) -> tensor<1x64xf16, #pld.dist>
  return
}

//--- host_ring.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x64xf32, #pld.dist>
  %sbytes = arith.constant 112 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "s"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> tensor<7x4xi32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x64xf32, #pld.dist>, tensor<7x4xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}

//--- two_shot_f32.mlir
func.func @k(%d: tensor<1x20xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (tensor<1x20xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x20xf32, #pld.dist>
  return
}

//--- host_two_shot_f32.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 80 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x20xf32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (tensor<1x20xf32, #pld.dist>) -> tensor<1x20xf32, #pld.dist>
  return
}
