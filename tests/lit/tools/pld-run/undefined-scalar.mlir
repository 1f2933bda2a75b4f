// A kernel's scalar op whose result MLIR leaves undefined is an error of
// the run at the op, on each rank that makes it, status 1; the kernel goes
// on dividing by 1 or shifting by 0. A remainder by zero used as a tile's
// row crashed pld-run (status 139: LLVM dropped the bounds check after
// it), a division by zero in a helper killed it with SIGFPE (136), and a
// quotient of the minimum by -1 or a shift by 40 went unsaid (status 0).
// The IR: tests/lit/passes/convert-pto-to-sim/undefined.mlir.
//
// RUN: split-file %s %t
// RUN: not pld-run %t/zero.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not pld-run %t/ops.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not pld-run %t/helper.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=HELPER
// In i1 the minimum is -1 (true): -1 / -1 overflows too (it went unsaid):
// RUN: not pld-run %t/bool.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BOOL
// index.ceildivs and index.floordivs are computed as arith's ops: MLIR's
// own lowering overflowed inside for defined results (MAX / -1 faulted,
// 136; ceil(MIN / 2) came out positive, exit 0). Each result is asserted
// (a failing cf.assert is an error of the run, naming its message: it
// aborted the process, 134, saying nothing):
// RUN: pld-run %t/index.mlir --ranks 2 | FileCheck %s --check-prefix=INDEX
// INDEX: @k on 2 ranks: finished
// RUN: not pld-run %t/assert.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ASSERT
// ASSERT: pld-run: error: rank 1: {{.*}}assert.mlir:6:3: cf.assert "rank 0 only": fails
// ASSERT-NOT: rank 0
// A semi-affine mod by a zero symbol is guarded too (lower-affine runs
// first; it faulted, 136):
// RUN: not pld-run %t/affine.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=AFFINE
// AFFINE: pld-run: error: rank 0: {{.*}}affine.mlir:7:8: arith.remsi: divides by zero
// math ops the JIT lowers through calls of their own (math.ipowi, whose
// divisions are guarded too) or of libm (math.erf, math.cbrt) run: they
// failed as "compiling to machine code failed: could not convert to LLVM
// IR", with no op named. 0 to the power -1 divides by zero:
// RUN: pld-run %t/math.mlir --ranks 1 | FileCheck %s --check-prefix=MATH
// MATH: @k on 1 rank: finished
// RUN: sed 's/^  %%b = arith.constant 5 : i32$/  %%b = arith.constant -1 : i32/; s/^  %%two = arith.constant 2 : i32$/  %%two = arith.constant 0 : i32/' %t/math.mlir > %t/math0.mlir
// RUN: not pld-run %t/math0.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=MATH0
// MATH0: pld-run: error: rank 0: {{.*}}: arith.divsi: divides by zero
// An error that comes again is said once, with its count (a remainder by
// zero in a loop of 5 million made 10 million lines and 1.4 GB):
// RUN: not pld-run %t/loop.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: pld-run: error: rank 0: {{.*}}loop.mlir:7:10: arith.remui: divides by zero (100000 times)
// LOOP-NOT: divides by zero
// The explorer reports it per schedule:
// RUN: not pld-run %t/zero.mlir --ranks 2 --explore 1 | FileCheck %s --check-prefix=EXPLORE

//--- zero.mlir
func.func @k(%sig: tensor<2x1xi32, #pld.dist>, %src: tensor<4x64xf32>, %out: tensor<4x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %z = arith.constant 0 : i32
  %q = arith.remsi %me, %z : i32
  %i = arith.index_cast %q : i32 to index
  %t = "pld.tile_load"(%src, %i, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<4x64xf32>, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %out, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<4x64xf32>, index, index) -> ()
  return
}
// ZERO: pld-run: error: rank 0: {{.*}}zero.mlir:6:8: arith.remsi: divides by zero
// ZERO-NEXT: pld-run: error: rank 1: {{.*}}zero.mlir:6:8: arith.remsi: divides by zero
// ZERO-NOT: error
// EXPLORE: schedule 0 (--replay 0): error: rank 0: {{.*}}zero.mlir:6:8: arith.remsi: divides by zero

//--- ops.mlir
// On rank 0 %minme is the minimum of i32: the quotients by -1 overflow,
// the remainder is 0 (no error: it reads row 0); the shift by 40 is too
// far on both ranks.
func.func @k(%sig: tensor<2x1xi32, #pld.dist>, %src: tensor<4x64xf32>, %out: tensor<4x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %c40 = arith.constant 40 : i32
  %minme = arith.addi %min, %me : i32
  %a = arith.divsi %minme, %m1 : i32
  %b = arith.remsi %minme, %m1 : i32
  %c = arith.shli %me, %c40 : i32
  %d = arith.floordivsi %minme, %m1 : i32
  %i = arith.index_cast %b : i32 to index
  %t = "pld.tile_load"(%src, %i, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<4x64xf32>, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %out, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<4x64xf32>, index, index) -> ()
  return
}
// OPS: pld-run: error: rank 0: {{.*}}ops.mlir:12:8: arith.divsi: overflows: the minimum of its signed type divided by -1
// OPS-NEXT: pld-run: error: rank 0: {{.*}}ops.mlir:14:8: arith.shli: shifts by the width of its type or more (or by a negative amount)
// OPS-NEXT: pld-run: error: rank 0: {{.*}}ops.mlir:15:8: arith.floordivsi: overflows: the minimum of its signed type divided by -1
// OPS-NEXT: pld-run: error: rank 1: {{.*}}ops.mlir:14:8: arith.shli: shifts by the width of its type or more (or by a negative amount)
// OPS-NOT: error

//--- helper.mlir
func.func @half(%x: index, %y: index) -> index {
  %q = arith.divui %x, %y : index
  return %q : index
}
func.func @k(%sig: tensor<2x1xi32, #pld.dist>, %src: tensor<4x64xf32>, %out: tensor<4x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %mi = arith.index_cast %me : i32 to index
  %i = func.call @half(%c2, %mi) : (index, index) -> index
  %j = arith.remui %i, %c2 : index
  %t = "pld.tile_load"(%src, %j, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<4x64xf32>, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %out, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<4x64xf32>, index, index) -> ()
  return
}
// Rank 0 divides by its rank, 0; rank 1 by 1.
// HELPER: pld-run: error: rank 0: {{.*}}helper.mlir:2:8: arith.divui: divides by zero
// HELPER-NOT: error

//--- bool.mlir
// Rank 1's %b is true, -1 in i1: its quotient by -1 overflows, its
// remainder is 0 (no error); rank 0's are 0.
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %b = arith.trunci %me : i32 to i1
  %m1 = arith.constant true
  %q = arith.divsi %b, %m1 : i1
  %r = arith.remsi %b, %m1 : i1
  return
}
// BOOL: pld-run: error: rank 1: {{.*}}bool.mlir:8:8: arith.divsi: overflows: the minimum of its signed type divided by -1
// BOOL-NOT: error

//--- index.mlir
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %min = arith.constant -9223372036854775808 : index
  %max = arith.constant 9223372036854775807 : index
  %half = arith.constant -4611686018427387904 : index
  %two = arith.constant 2 : index
  %m1 = arith.constant -1 : index
  %one = arith.constant 1 : index
  // ceil((MIN + me) / 2) = MIN / 2 + me for me = 0, 1.
  %a = arith.addi %min, %me : index
  %qa = index.ceildivs %a, %two
  %ea = arith.addi %half, %me : index
  %oka = arith.cmpi eq, %qa, %ea : index
  cf.assert %oka, "ceildivs of the minimum by 2"
  // floor((MIN + 1 + me) / -1) = MAX - me.
  %b0 = arith.addi %min, %one : index
  %b = arith.addi %b0, %me : index
  %qb = index.floordivs %b, %m1
  %eb = arith.subi %max, %me : index
  %okb = arith.cmpi eq, %qb, %eb : index
  cf.assert %okb, "floordivs by -1"
  // ceil((MAX - me) / -1) = me - MAX.
  %c = arith.subi %max, %me : index
  %qc = index.ceildivs %c, %m1
  %ec = arith.subi %me, %max : index
  %okc = arith.cmpi eq, %qc, %ec : index
  cf.assert %okc, "ceildivs of the maximum by -1"
  return
}

//--- assert.mlir
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %zero = arith.cmpi eq, %me, %c0 : i32
  cf.assert %zero, "rank 0 only"
  return
}

//--- affine.mlir
func.func @k(%sig: tensor<1x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<1x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c7 = arith.constant 7 : index
  // s1 is the rank, 0 on one rank.
  %r = affine.apply affine_map<()[s0, s1] -> (s0 mod s1)>()[%c7, %me]
  return
}

//--- math.mlir
func.func @k(%sig: tensor<1x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<1x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %two = arith.constant 2 : i32
  %b = arith.constant 5 : i32
  %a = arith.addi %two, %me : i32
  %p = math.ipowi %a, %b : i32
  %c32 = arith.constant 32 : i32
  %okp = arith.cmpi eq, %p, %c32 : i32
  cf.assert %okp, "2 to the 5th is 32"
  %c27 = arith.constant 27 : i32
  %i27 = arith.addi %c27, %me : i32
  %f27 = arith.sitofp %i27 : i32 to f32
  %root = math.cbrt %f27 : f32
  %three = arith.constant 3.0 : f32
  %okr = arith.cmpf oeq, %root, %three : f32
  cf.assert %okr, "the cube root of 27 is 3"
  %fme = arith.sitofp %me : i32 to f32
  %e = math.erf %fme : f32
  %zero = arith.constant 0.0 : f32
  %oke = arith.cmpf oeq, %e, %zero : f32
  cf.assert %oke, "erf(0) is 0"
  return
}

//--- loop.mlir
func.func @k(%sig: tensor<1x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000 : index
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<1x1xi32, #pld.dist>) -> !pld.ctx
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.remui %i, %c0 : index
  }
  return
}
