// What pld-run reads and writes at the edges:
// - a standard output that cannot be written (a full disk) is an error
//   with status 1 (it was a panic, status 101);
// - an --input file that never ends (/dev/zero) is refused once it holds
//   more than a .npy file of the parameter can (it was read until the
//   memory ran out);
// - a HOST orchestrator that takes long to interpret says so after two
//   seconds, as the other long phases do, and is named as such when
//   --time-limit stops it (it said "reading and compiling").
//
// RUN: rm -rf %t && split-file %s %t
// RUN: sh -c 'pld-run %t/k.mlir --ranks 2 > /dev/full 2> %t/full.err; echo "status $?" >> %t/full.err'
// RUN: FileCheck %s --check-prefix=FULL < %t/full.err
// FULL-NOT: panicked
// FULL: pld-run: error: cannot write the standard output: No space left on device
// FULL-NEXT: status 1
//
// RUN: not pld-run %t/k.mlir --ranks 2 --input data=/dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: pld-run: error: cannot read '/dev/zero' (for '{{[a-z]+}}' on rank 0): it holds more than the 65792 bytes a .npy file of the parameter's 256 bytes can take
//
// RUN: not pld-run %t/plan.mlir --ranks 2 --time-limit 3 2>&1 | FileCheck %s --check-prefix=PLAN
// PLAN: pld-run: planning the HOST orchestrator for 2 devices...
// PLAN-NEXT: pld-run: error: --time-limit (3.0s) reached while planning the HOST orchestrator for 2 devices
// --output-dir '' is a malformed command line (it wrote every buffer into
// the file system's root), and a buffer whose name would leave the
// directory (name = "../up": two levels above it) is refused before the run.
// RUN: not pld-run %t/k.mlir --ranks 2 --output-dir '' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: sh -c 'pld-run %t/k.mlir --ranks 2 --output-dir "" > /dev/null 2>&1; test $? -eq 2'
// EMPTY: error: a value is required for '--output-dir <DIR>' but none was supplied
// So are an empty --schedule-log and --trace (status 1, "cannot write the
// schedule log : No such file or directory", before).
// RUN: sh -c 'pld-run %t/k.mlir --ranks 2 --explore 2 --schedule-log "" > /dev/null 2>&1; test $? -eq 2'
// RUN: sh -c 'pld-run %t/k.mlir --ranks 2 --trace "" > /dev/null 2>&1; test $? -eq 2'
// RUN: sed 's|name = "data_buf"|name = "../up"|' %S/../../../../examples/allreduce.mlir > %t/escape.mlir
// RUN: mkdir -p %t/out/deep && not pld-run %t/escape.mlir --ranks 2 --output-dir %t/out/deep 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: not ls %t/up.rank0.npy
// RUN: not ls %t/out/up.rank0.npy
// ESCAPE: pld-run: error: {{.*}}escape.mlir: --output-dir writes the buffer "../up" to DIR/../up.rank<r>.npy, which is no file inside the directory (a name without '/' or control characters); rename it, or leave out --output-dir

//--- k.mlir
func.func @k(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}

//--- plan.mlir
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  return
}
func.func @chip(%sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @k(%sig) : (!sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000000 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %sb = arith.constant 8 : i64
  %s = "pld.tensor_alloc_window_buffer"(%sb) {name = "sig"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%s) : (!pld.ptr) -> !sig
  scf.for %j = %c0 to %big step %c1 {
    scf.for %r = %c0 to %n step %c1 {
      "pld.dispatch"(%r) ({
        func.call @chip(%sig) : (!sig) -> ()
        gpu.yield
      }) : (index) -> ()
    }
  }
  return
}

