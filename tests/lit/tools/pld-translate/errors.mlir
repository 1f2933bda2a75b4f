// pld-translate refuses what PTOAS could not read, with the location of the
// cause and a non-zero exit.
//
// RUN: not pld-translate --emit=pto --split-input-file %s 2>&1 | FileCheck %s
// Each chunk that failed keeps its place between the separators, as in
// pld-opt and mlir-opt (every chunk here fails: eleven chunks, ten
// separators, nothing else; before, failed chunks were dropped, so outputs
// could not be matched to chunks):
// RUN: not pld-translate --emit=pto --split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=PLACES
// PLACES-COUNT-10: {{^// -----$}}
// PLACES-NOT: {{.}}
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
func.func @mixed(%x: f32) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: 'math.absf' op has no PTO form: a converted kernel holds func, arith, scf and pto ops only
  %y = math.absf %x : f32
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
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op @helper has no pto.kernel_kind: only kernels converted by convert-pld-to-pto have a PTO form; a helper a kernel calls (which the simulator compiles with it) is inlined into its callers first: make @helper private and add inline and symbol-dce after pld-to-pto (--pass-pipeline='builtin.module(pld-to-pto,inline,symbol-dce)')
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

// -----

// A kernel returns nothing (PTOAS kernels are void functions).
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op a PTO kernel returns nothing
func.func private @value(%x: i32) -> i32 attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return %x : i32
}

// -----

// Calls may only reach functions the output defines: PTOAS links nothing.
func.func private @extern(index)
func.func @caller(%n: index) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'func.call' op calls @extern, which has no PTO form here; PTOAS links no helpers, so inline it or make it a converted kernel
  func.call @extern(%n) : (index) -> ()
  return
}

// -----

// A parameter type PTOAS cannot spell.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op type memref<4xf32> has no PTOAS spelling
func.func @memory(%m: memref<4xf32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return
}

// -----

// A cache invalidate whose line kind does not match its operands.
!part = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @line(%p: !part) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'pto.cmo_cacheinvalid' op a cache invalidate needs either line 'all' without an address or 'single_cache_line' with one (and no space)
  "pto.cmo_cacheinvalid"(%p) {line = #pto.cache_line<"all">} : (!part) -> ()
  return
}

// -----

// A one-dimensional tile buffer has no PTOAS type.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op PTO tile buffers have a static 2-D physical shape, not 256xf32
func.func @flat(%t: !pto.tile_buf<"vec", tensor<256xf32>, {valid = array<i64: 256>}>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return
}
