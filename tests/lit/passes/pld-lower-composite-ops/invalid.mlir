// Diagnostics of pld-lower-composite-ops.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-composite-ops)'

!data = tensor<1x64xf32, #pld.dist>
func.func @k(%data: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  // The InCore rail never synthesizes signals.
  // expected-error@+1 {{needs a signal operand outside HOST orchestrators}}
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}

// -----

!data = tensor<4x16xf32, #pld.dist_with<{layout = "dn"}>>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target view only supports ND layout}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<4x16xf32, #pld.dist_with<{strides = array<i64: 32, 1>}>>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target shape reinterpret requires a packed source}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x4xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{core_num > 1 is supported only in a HOST orchestrator}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, core_num = 4 : i64} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{mode must be "mesh", "ring", "two_shot" or "auto", got "star"}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "star"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!ring = tensor<6x4xi32, #pld.dist>
func.func @k(%data: !data, %sig: !ring) attributes {pld.kind = #pld.func_kind<"incore">} {
  // Mesh and ring conventions must not share a buffer.
  // expected-error@+1 {{signal dim 1 must be 1 (one cell per rank); a signal shaped for mode = "ring" cannot be shared with a mesh collective}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !ring) -> !data
  return
}

// -----

// A [4, 2] signal is no ring's shape ([2NR - 2, NR]): the message does not
// say it is.
!data = tensor<1x64xf32, #pld.dist>
!wide = tensor<4x2xi32, #pld.dist>
func.func @k(%data: !data, %sig: !wide) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal dim 1 must be 1 (one cell per rank), got 2}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !wide) -> !data
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<4xi32, #pld.dist>
func.func @k(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal must be rank 2, [NR, 1] with NR the number of ranks, for a mesh collective, got rank 1}}
  %r = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<5x4xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal dim 0 (5) must be 2*(NR-1) = 6 for NR = 4 ranks (signal dim 1)}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<4xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{mode = "ring" needs a rank-2 signal [2*(NR-1), NR], NR the number of ranks, got rank 1}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<2x4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 2, 8>}>>
!sig = tensor<2x2xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target valid_shape must be a contiguous row-major prefix}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<4x8x16xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4, 16>}>>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // Rows 0..4 and 8..12 of the collapsed view: not one box.
  // expected-error@+1 {{valid_shape cannot be represented by a single 2D view}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<?x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{needs a static target shape in an InCore kernel}}
  %r = "pld.tensor_broadcast"(%data, %sig) {root = 0 : i64} : (!data, !sig) -> !data
  return
}

// -----

!rows = tensor<2x?xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%t: !rows, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{needs a static target dim 1 (the row width) in an InCore kernel}}
  %r = "pld.tensor_reduce_scatter"(%t, %sig) {op = #pld.reduce_op<"sum">} : (!rows, !sig) -> !rows
  return
}

// -----

!rows = tensor<2x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%i: tensor<1x16xf32, #pld.dist>, %t: !rows, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input must be a plain tensor of one row (no #pld.dist) in an InCore kernel}}
  %r = "pld.tensor_allgather"(%i, %t, %sig) : (tensor<1x16xf32, #pld.dist>, !rows, !sig) -> !rows
  return
}

// -----

!big = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @k(%i: tensor<8x16xf32>, %t: !big, %s: !sig, %c: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>, %n: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{in an InCore kernel needs core_num = 1 (a constant); call it from a CHIP orchestrator to use several AIV cores}}
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc, %n) : (tensor<8x16xf32>, !big, !sig, tensor<4xi32>, tensor<4x1xi32, #pld.dist>, index) -> !big
  return
}

// -----

!data = tensor<128x128xf32, #pld.dist_with<{valid_shape = array<i64: 64, 128>}>>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{partial valid_shape must fit within one 16384-byte mesh chunk using a statically bounded tile (the valid box is 64 x 128)}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!rows = tensor<2x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%i: tensor<1x?xf32>, %t: !rows, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{needs a static input dim 1 (the row width) in an InCore kernel}}
  %r = "pld.tensor_allgather"(%i, %t, %sig) : (tensor<1x?xf32>, !rows, !sig) -> !rows
  return
}

// -----

!rows = tensor<2x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%i: tensor<2x?xf32>, %t: !rows, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{needs a static input dim 1 (the row width) in an InCore kernel}}
  %r = "pld.tensor_all_to_all"(%i, %t, %sig) : (tensor<2x?xf32>, !rows, !sig) -> !rows
  return
}

// -----

!big = tensor<8x?xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @k(%i: tensor<8x16xf32>, %t: !big, %s: !sig, %c: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{needs a static target dim 1 (the row width) in an InCore kernel}}
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<8x16xf32>, !big, !sig, tensor<4xi32>, tensor<4x1xi32, #pld.dist>) -> !big
  return
}

// -----

!big = tensor<6x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @k(%i: tensor<6x16xf32>, %t: !big, %s: !sig, %c: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal dim 0 (4, the number of ranks) must divide target dim 0 (6)}}
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<6x16xf32>, !big, !sig, tensor<4xi32>, tensor<4x1xi32, #pld.dist>) -> !big
  return
}

// -----

!big = tensor<?x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @k(%i: tensor<8x16xf32>, %t: !big, %s: !sig, %c: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // pld-verify already insists on static rows (the pass repeats the check).
  // expected-error@+1 {{target dim 0 and signal dim 0 (the number of ranks) must be static}}
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<8x16xf32>, !big, !sig, tensor<4xi32>, tensor<4x1xi32, #pld.dist>) -> !big
  return
}

// -----

!data = tensor<?x64xf32, #pld.dist_with<{valid_shape = array<i64: 1, 32>}>>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{a partial valid_shape needs a static physical shape on the composite rail (dynamic dimensions are not supported yet)}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

// A reduce takes a fully valid target (the mesh's partial-valid path is not
// offered to it).
!data = tensor<2x8xf32, #pld.dist_with<{valid_shape = array<i64: 1, 8>}>>
!sig = tensor<2x1xi32, #pld.dist>
func.func @reduce_partial(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{a target with a valid_shape is not supported by pld.tensor_reduce yet}}
  %r = "pld.tensor_reduce"(%d, %s) {op = #pld.reduce_op<"sum">, root = 0 : i64} : (!data, !sig) -> !data
  return
}

// -----

// 2^31 chunks of 16 KiB: the credits of one call do not fit an i32 cell
// (the epilogue was emitted as +2147483647 before, the counts wrapped).
func.func @credits_past_i32(%d: tensor<2048x4294967296xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{has 8796093022208 elements, 2147483648 chunks of 4096: a call would give a signal cell more credits (a barrier per chunk) than an i32 counts (2147483647)}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<2048x4294967296xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<2048x4294967296xf32, #pld.dist>
  return
}

// -----

// A reduce_scatter takes a fully valid target too: with a valid_shape it
// failed on a pld.tile_remote_load it made ("result tile valid extent of
// dimension 1 is 7, but the load yields 5").
!data = tensor<2x7xf32, #pld.dist_with<{valid_shape = array<i64: 2, 5>}>>
!sig = tensor<2x1xi32, #pld.dist>
func.func @reduce_scatter_partial(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{a target with a valid_shape is not supported by pld.tensor_reduce_scatter yet}}
  %r = "pld.tensor_reduce_scatter"(%d, %s) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

// A reduce_scatter holds its own row and a peer's in UB at once: a row past
// half the UB is refused at the op (it ran into a UB overflow on every rank,
// or an error at a pld.tile_load the user never wrote). 24576 f32 fit.
!big = tensor<2x24577xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @reduce_scatter_wide(%d: !big, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_reduce_scatter' op reduces a whole row of its target in UB on the InCore rail: two tiles of 24577 x f32 take 196616 bytes, more than the 196608 bytes of UB; rows of at most 24576 elements fit (the HOST rail takes any row)}}
  %r = "pld.tensor_reduce_scatter"(%d, %s) {op = #pld.reduce_op<"sum">} : (!big, !sig) -> !big
  return
}

// -----

// A5's UB is 256 KiB: the same row fits there.
module attributes {pld.target = "a5"} {
  func.func @reduce_scatter_a5(%d: tensor<2x24577xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
    %r = "pld.tensor_reduce_scatter"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<2x24577xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<2x24577xf32, #pld.dist>
    return
  }
}

// -----

// A CommContext holds 64 windows: a ring signal shaped for 65 ranks (its
// columns are the rank count) makes a kernel that could never run (pto25
// L1). A mesh signal's rows only bound the ranks from above (a [65, 1]
// signal serves 64 ranks, as on the HOST rail): it lowers.
!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<65x1xi32, #pld.dist>
func.func @mesh_65_rows(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<1x65xf32, #pld.dist>
!sig = tensor<128x65xi32, #pld.dist>
func.func @ring_65(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_allreduce' op signal dim 1 (65) is the number of ranks, past the 64 a pld comm domain holds (the CommContext's windows)}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

// 64 ranks is the most a kernel's signal may be shaped for.
!sig = tensor<64x1xi32, #pld.dist>
func.func @barrier_64(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %b = "pld.tensor_barrier"(%s) : (!sig) -> !sig
  return
}
