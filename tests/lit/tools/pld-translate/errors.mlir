// pld-translate refuses what PTOAS could not read, with the location of the
// cause and a non-zero exit.
//
// RUN: not pld-translate --emit=pto --split-input-file %s 2>&1 | FileCheck %s
// RUN: not pld-translate %s 2>&1 | FileCheck %s --check-prefix=NO-EMIT
// RUN: not pld-translate --emit=cpp %s 2>&1 | FileCheck %s --check-prefix=BAD-EMIT
// RUN: not pld-translate --emit=pto %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// NO-EMIT: --emit
// BAD-EMIT: invalid value 'cpp' for '--emit <EMIT>'
// MISSING: pld-translate: error: cannot read '{{.*}}.missing'

// An InCore kernel that never went through convert-pld-to-pto.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op @raw is an InCore kernel without pto.kernel_kind; run convert-pld-to-pto (or the pld-to-pto pipeline) first
func.func @raw(%t: tensor<1x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// A kernel that still holds an op of another dialect.
func.func @mixed(%p: memref<4xf32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: 'memref.load' op has no PTO form: a converted kernel holds func, arith, scf and pto ops only
  %x = memref.load %p[%c0] : memref<4xf32>
  return
}

// -----

// A type PTOAS has no spelling for.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op type !pld.ctx has no PTOAS spelling
func.func @context(%c: !pld.ctx) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return
}

// -----

// A plain function with neither kind.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op @helper has no pto.kernel_kind: only kernels converted by convert-pld-to-pto have a PTO form
func.func @helper() {
  return
}

// -----

// Parse errors are reported as pld-opt reports them.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: custom op 'bogus' is unknown
bogus

// -----

// Only functions at module level.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'memref.global' op has no PTO form at module level; PTOAS reads functions only
memref.global "private" @g : memref<4xf32>
