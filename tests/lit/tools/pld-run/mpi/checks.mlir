// REQUIRES: mpirun
// Under MPI each process fills its own rank's inputs (the same bytes as a
// thread run: the fill is a function of the rank) and checks its own
// rank's result, the golden computed from every rank's inputs, which the
// processes exchange; process 0 prints the gathered verdicts as a thread
// run does. A kernel that breaks its result on rank 2 only (a zero tile
// over columns 40..55 after the allreduce) is reported with rank 2's
// elements, word for word as on threads, in kernel mode and as the
// InCore kernel of a whole program.
//
// RUN: split-file %s %t
// RUN: not pld-run %t/broken.mlir --ranks 3 --check > %t/threads.out
// RUN: not %mpirun -np 3 pld-run %t/broken.mlir --ranks 3 --check --transport mpi > %t/mpi.out
// RUN: not %mpirun -np 3 pld-run %t/broken.mlir --ranks 3 --check --transport mpi-rma > %t/rma.out
// RUN: FileCheck %s --input-file=%t/mpi.out
// RUN: grep '^  rank\|^    ' %t/threads.out > %t/threads.verdicts
// RUN: grep '^  rank\|^    ' %t/mpi.out | diff %t/threads.verdicts -
// RUN: grep '^  rank\|^    ' %t/rma.out | diff %t/threads.verdicts -
// CHECK: @broken on 3 ranks (3 MPI processes under --transport mpi): finished in
// CHECK: rank 0: ok
// CHECK-NEXT: rank 1: ok
// CHECK-NEXT: rank 2: WRONG
// CHECK-NEXT: 16 wrong elements; first: [0, 40] expected {{[-0-9.e]+}} ± {{[-0-9.e]+}}, got 0; [0, 41] expected
// CHECK: {{^#  0 pld.tensor_allreduce +3 +256 +64 +f32 +sum +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +16$}}
//
// The same kernel called by a CHIP orchestrator of a whole program.
// RUN: not pld-run %t/program.mlir --ranks 3 --check > %t/p-threads.out
// RUN: not %mpirun -np 3 pld-run %t/program.mlir --ranks 3 --check --transport mpi > %t/p-mpi.out
// RUN: not %mpirun -np 3 pld-run %t/program.mlir --ranks 3 --check --transport mpi-rma > %t/p-rma.out
// RUN: FileCheck %s --check-prefix=PROGRAM --input-file=%t/p-rma.out
// RUN: grep '^    rank' %t/p-threads.out > %t/p-threads.verdicts
// RUN: grep '^    rank' %t/p-mpi.out | diff %t/p-threads.verdicts -
// RUN: grep '^    rank' %t/p-rma.out | diff %t/p-threads.verdicts -
// PROGRAM: @main on 3 devices (3 MPI processes under --transport mpi-rma): 1 collective call
// PROGRAM-NEXT: pld.tensor_allreduce in @broken (called at {{.*}}program.mlir:{{[0-9]+}}:{{[0-9]+}}): f32 x 64 (sum, mesh), {{.*}}: WRONG on ranks [2]
// PROGRAM-NEXT: rank 2: 16 wrong elements; first: [0, 40] expected {{[-0-9.e]+}} ± {{[-0-9.e]+}}, got 0;

//--- broken.mlir
func.func @broken(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x64xf32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %two = arith.constant 2 : i32
  %is2 = arith.cmpi eq, %me, %two : i32
  scf.if %is2 {
    %c0 = arith.constant 0 : index
    %c40 = arith.constant 40 : index
    %t = "pld.tile_create"() : () -> tensor<1x16xf32, #pld.tile>
    "pld.tile_store"(%t, %r, %c0, %c40) : (tensor<1x16xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  }
  return
}

//--- program.mlir
!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<3x1xi32, #pld.dist>
func.func @broken(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  %ctx = "pld.system_get_comm_ctx"(%data) : (!data) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %two = arith.constant 2 : i32
  %is2 = arith.cmpi eq, %me, %two : i32
  scf.if %is2 {
    %c0 = arith.constant 0 : index
    %c40 = arith.constant 40 : index
    %t = "pld.tile_create"() : () -> tensor<1x16xf32, #pld.tile>
    "pld.tile_store"(%t, %r, %c0, %c40) : (tensor<1x16xf32, #pld.tile>, !data, index, index) -> ()
  }
  return
}
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @broken(%data, %sig) : (!data, !sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b256 = arith.constant 256 : i64
  %b12 = arith.constant 12 : i64
  %dbuf = "pld.tensor_alloc_window_buffer"(%b256) {name = "data"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%b12) {name = "sig"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> !data
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%d, %s) : (!data, !sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
