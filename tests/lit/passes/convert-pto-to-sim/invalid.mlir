// What convert-pto-to-sim refuses, each at the op's location.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-pto-to-sim)'

!tile = !pto.tile_buf<"vec", tensor<1x64xf32>, {valid = array<i64: 1, 64>}>
!part = !pto.partition_tensor_view<tensor<1x64xf32>>
// A load with a pad value has no simulated form.
func.func @padded(%p: !pto.ptr<f32>, %pad: f32) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = "pto.make_tensor_view"(%p, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %pv = "pto.partition_view"(%v, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !part
  %t = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !tile
  // expected-error@+1 {{'pto.tload' op is not simulated with these operands}}
  "pto.tload"(%pv, %t, %pad) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (!part, !tile, f32) -> ()
  return
}

// -----

!sigpart = !pto.partition_tensor_view<tensor<1x1xi32>>
// The simulator waits with eq or ge only.
func.func @wait_gt(%s: !pto.ptr<i32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %sv = "pto.make_tensor_view"(%s, %c1, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
  %sp = "pto.partition_view"(%sv, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !sigpart
  // expected-error@+1 {{'pto.comm_twait' op compares with gt; the simulator waits with eq or ge only}}
  "pto.comm_twait"(%sp, %one) {cmp = #pto.wait_cmp<"gt">} : (!sigpart, i32) -> ()
  return
}

// -----

// A device kernel convert-pld-to-pto has not converted (no
// pto.kernel_kind) is refused, not removed with the orchestrators.
// expected-error@+1 {{'func.func' op @unconverted is a device kernel without pto.kernel_kind: convert-pto-to-sim lowers converted kernels; place it after convert-pld-to-pto (or the pld-to-pto pipeline)}}
func.func @unconverted(%d: tensor<1x8xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// A division on vectors: the simulator checks a scalar's divisor only
// (undefined.mlir), so a kernel's helper dividing lanes is refused.
func.func @lanes(%v: vector<4xi32>) -> vector<4xi32> {
  // expected-error@+1 {{'arith.divsi' op on vector<4xi32> is not simulated: the simulator checks a scalar's divisor or shift amount, which MLIR leaves undefined when it is out of range (use scalars)}}
  %q = arith.divsi %v, %v : vector<4xi32>
  return %q : vector<4xi32>
}

func.func @vk(%v: vector<4xi32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %q = func.call @lanes(%v) : (vector<4xi32>) -> vector<4xi32>
  return
}

// -----

// A function named as a device function collides with the declarations the
// pass adds: said at the function (MLIR said "redefinition of symbol" at a
// line of the declarations' text, past the end of the file).
// expected-error@+1 {{'func.func' op @pld_sim_fence has the name of one of the simulator's device functions (runtime-sys/include/pld/pld_sim.h), which convert-pto-to-sim declares: rename it}}
func.func @pld_sim_fence() attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return
}

// -----

// A kernel holds PTO ops and scalar code only: a stack array of
// megabytes crashed pld-run (status 139), and a load of a null pointer
// faulted in a loop until --time-limit (trust23 H2, H3).
func.func @stack(%p: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.alloca' op in kernel @stack has no PTO form: the simulator compiles a converted kernel's PTO ops and scalar code (func, arith, math, scf, cf, index, affine ops) only}}
  %m = memref.alloca() : memref<3000000xf32>
  %v = memref.load %m[%c0] : memref<3000000xf32>
  return
}

// -----

func.func @null(%p: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // expected-error@+1 {{'llvm.mlir.zero' op in kernel @null has no PTO form}}
  %z = llvm.mlir.zero : !llvm.ptr
  %v = llvm.load %z : !llvm.ptr -> i32
  return
}

// -----

// A tensor constant is arith's, but no scalar code: it failed "to convert
// to LLVM IR", without a place (recheck24 M2).
func.func @constant(%p: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // expected-error@+1 {{'arith.constant' op in kernel @constant makes a tensor<4xf32>, which has no PTO form}}
  %t = arith.constant dense<1.0> : tensor<4xf32>
  return
}

// -----

func.func @helper() -> f32 {
  // expected-error@+1 {{'arith.constant' op (a tensor<4xf32>) is in @helper, which a kernel calls}}
  %t = arith.constant dense<1.0> : tensor<4xf32>
  %f = arith.constant 1.0 : f32
  return %f : f32
}
func.func @calls(%p: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %f = func.call @helper() : () -> f32
  return
}
