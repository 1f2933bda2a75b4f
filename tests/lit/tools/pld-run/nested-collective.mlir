// A kernel that calls another kernel holding a collective: pld-run runs
// the collectives of the kernels it is given (it zeroes their signals and
// checks them), so it refuses such a call at the task (a program) or at the
// kernel (one kernel). It deadlocked on a signal filled as data, or with
// zeroed signals ran "0 collective calls" and checked nothing.
//
// RUN: split-file %s %t
// RUN: not pld-run %t/program.mlir --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=PROGRAM
// PROGRAM: program.mlir:12:3: error: the task @kern calls @inner's pld.tensor_allreduce at {{.*}}program.mlir:4:8: pld-run runs the collectives of the kernels a CHIP orchestrator calls; call the kernel that holds it from the CHIP orchestrator, or write the collective in @kern itself
// RUN: not pld-run %t/program.mlir --ranks 2 --kernel kern 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: program.mlir:7:1: error: @kern calls @inner's pld.tensor_allreduce at {{.*}}program.mlir:4:8: pld-run runs the collectives of the kernel it is given (it zeroes their signals and checks their results); give that kernel with --kernel, or write the collective in @kern itself
// The kernel that holds it runs as ever:
// RUN: pld-run %t/program.mlir --ranks 2 --kernel inner --check | FileCheck %s --check-prefix=INNER
// INNER: rank 1: ok

// A loop --check cannot count: scf.parallel (it ran and was WRONG).
// RUN: not pld-run %t/parallel.mlir --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=PARALLEL
// PARALLEL: error: --check cannot compare pld.tensor_allreduce: the pld.tensor_allreduce of @k is inside an scf.parallel, so it may run more than once

// A loop of cf branches too (it ran, and was WRONG without a note); a
// collective in a branch of cf.cond_br that does not loop is checked.
// RUN: not pld-run %t/cfloop.mlir --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=CFLOOP
// CFLOOP: cfloop.mlir:12:8: error: --check cannot compare pld.tensor_allreduce: the pld.tensor_allreduce of @k is inside an unstructured loop (a branch back to its block), so it may run more than once
// RUN: pld-run %t/cfbranch.mlir --ranks 2 --check | FileCheck %s --check-prefix=CFBRANCH
// CFBRANCH: rank 1: ok
// Not taken, it gets the note an scf.if gets (it was a plain WRONG):
// RUN: sed 's/arith.constant true/arith.constant false/' %t/cfbranch.mlir > %t/cfskip.mlir
// RUN: not pld-run %t/cfskip.mlir --ranks 2 --check | FileCheck %s --check-prefix=CFSKIP
// CFSKIP: rank 0: WRONG
// CFSKIP: note: the pld.tensor_allreduce of @k is inside a block cf branches can skip: where the branch was not taken it did not run, and its target kept what it held

//--- program.mlir
!s = tensor<4x1xi32, #pld.dist>
!d = tensor<1x64xf32, #pld.dist>
func.func @inner(%d: !d, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (!d, !s) -> !d
  return
}
func.func @kern(%d: !d, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  func.call @inner(%d, %s) : (!d, !s) -> ()
  return
}
func.func @chip(%d: !d, %s: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @kern(%d, %s) : (!d, !s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.constant 32 : i64
  %db = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "sig"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%p) : (!pld.ptr) -> !s
  %pd = "pld.tensor_alloc_window_buffer"(%db) {name = "data"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%pd) : (!pld.ptr) -> !d
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%d, %s) : (!d, !s) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
//--- parallel.mlir
!t = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %a = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!t, !s) -> !t
    scf.reduce
  }
  return
}
//--- cfloop.mlir
!t = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  cf.br ^head(%c0 : index)
^head(%i: index):
  %more = arith.cmpi slt, %i, %c2 : index
  cf.cond_br %more, ^body, ^done
^body:
  %a = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!t, !s) -> !t
  %n = arith.addi %i, %c1 : index
  cf.br ^head(%n : index)
^done:
  return
}
//--- cfbranch.mlir
!t = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %yes = arith.constant true
  cf.cond_br %yes, ^run, ^done
^run:
  %a = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!t, !s) -> !t
  cf.br ^done
^done:
  return
}
