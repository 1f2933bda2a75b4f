// pld-run ends a kernel's run with the nccl-tests summary of its collective,
// in the same columns as a program's table: the collective, its ranks, size
// in bytes and count in elements of the target, element type, redop, root
// (- without one), time, algbw and busbw, and #wrong (N/A without --check).
// A barrier moves nothing: 0 bytes, no type, in both modes (the kernel
// table said root -1 and the program table counted the barrier's 16-byte
// signal; the program table had no ranks column). The
// sizes are the kernel's own: a [1, 64] f32 allreduce is 256 bytes, 64
// elements. On a wrong result, the count of wrong elements and the first
// ones with their [row, col] index, expected and actual values.
//
// RUN: split-file %s %t
// RUN: pld-run %t/sum.mlir --ranks 2 --check | FileCheck %s
// RUN: pld-run %t/sum.mlir --ranks 2 | FileCheck %s --check-prefix=NOCHECK
// RUN: not pld-run %t/corrupt.mlir --ranks 2 --check | FileCheck %s --check-prefix=WRONG
// --output-dir with --check writes the golden next to the result: the
// golden of the corrupted run is what the correct kernel computes.
// RUN: rm -rf %t.good %t.bad
// RUN: pld-run %t/sum.mlir --ranks 2 --output-dir %t.good > /dev/null
// RUN: not pld-run %t/corrupt.mlir --ranks 2 --check --output-dir %t.bad > /dev/null
// RUN: cmp %t.good/data.rank0.npy %t.bad/data.rank0.golden.npy
// RUN: cmp %t.good/data.rank1.npy %t.bad/data.rank1.golden.npy
// RUN: not cmp -s %t.bad/data.rank0.npy %t.bad/data.rank0.golden.npy
// RUN: pld-run %t/barrier.mlir --ranks 2 | FileCheck %s --check-prefix=BARRIER
// RUN: pld-run %t/host-barrier.mlir --ranks 2 | FileCheck %s --check-prefix=BARRIER
// The program's call line says so too (it named the signal, `i32 x 8`):
// RUN: pld-run %t/host-barrier.mlir --ranks 2 --check | FileCheck %s --check-prefix=BARRIERLINE
// BARRIERLINE: {{^  pld.tensor_barrier at .*host-barrier.mlir:[0-9]+:[0-9]+: no data, }}
// CHECK: #    collective                 ranks         size      count  type  redop  root       time    algbw    busbw  #wrong
// CHECK-NEXT: #                                              (B) (elements)                          (us)   (GB/s)   (GB/s)
// CHECK-NEXT: {{^#  0 pld.tensor_allreduce +2 +256 +64 +f32 +sum +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +0$}}
// NOCHECK: {{^#  0 pld.tensor_allreduce +2 +256 +64 +f32 +sum +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +N/A$}}
// BARRIER: {{^ *#  0 pld.tensor_barrier +2 +0 +0 +- +none +- +[0-9.]+ +0.000 +0.000 +N/A$}}
// The corrupting store zeroes columns 40..55 of row 0 on each rank: 16
// wrong elements per rank, 32 in all.
// WRONG: rank 0: WRONG
// WRONG-NEXT: 16 wrong elements; first: [0, 40] expected {{.*}}, got 0; [0, 41] expected
// WRONG: rank 1: WRONG
// WRONG-NEXT: 16 wrong elements; first: [0, 40]
// WRONG: {{^#  0 pld.tensor_allreduce +2 +256 +64 +f32 +sum +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +32$}}

//--- sum.mlir
func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}

//--- corrupt.mlir
// An allreduce, then a store of an all-zero tile over 16 of its columns.
func.func @corrupt(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  %c0 = arith.constant 0 : index
  %c40 = arith.constant 40 : index
  %t = "pld.tile_create"() : () -> tensor<1x16xf32, #pld.tile>
  "pld.tile_store"(%t, %r, %c0, %c40) : (tensor<1x16xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  return
}

//--- barrier.mlir
func.func @barrier(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %b = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}

//--- host-barrier.mlir
!sig = tensor<4xi32, #pld.dist>
func.func @chip(%s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %c16 = arith.constant 16 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%c16) {name = "sig"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%s) : (!sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %x = "pld.tensor_barrier"(%s) : (!sig) -> !sig
  return
}
