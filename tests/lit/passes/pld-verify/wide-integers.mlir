// Integer attributes are read as written: by their type's signedness
// (unsigned for ui*, signed for si* and signless, as MLIR prints them) and
// at any width. An unsigned value is shown unsigned and refused as too
// large, never wrapped to a negative number.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @broadcast_root_ui64_max(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root = 18446744073709551615 is not a rank: the signal has 4 rows, one per rank}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = 18446744073709551615 : ui64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @broadcast_root_ui64_above_i64(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root = 9223372036854775808 is not a rank: the signal has 4 rows, one per rank}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = 9223372036854775808 : ui64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @reduce_root_ui32_max(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root = 4294967295 is not a rank: the signal has 4 rows, one per rank}}
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.reduce_op<"sum">, root = 4294967295 : ui32} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @broadcast_root_unsigned_in_range(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%t, %s) {root = 3 : ui8} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

// A signless i64 written past its top is read by MLIR's parser as a
// negative number; the message says that it may have been (the value alone
// does not tell: 18446744073709551615 : i64 is -1).
func.func @broadcast_root_i64_wrapped(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root must be non-negative, got -9223372036854775808 (MLIR reads a signless i64 written above 9223372036854775807 as a negative number: write it ui64 to be told it is no rank)}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = 9223372036854775808 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @broadcast_root_i64_all_ones(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root must be non-negative, got -1 (MLIR reads a signless i64 written above 9223372036854775807 as a negative number}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = 18446744073709551615 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @broadcast_root_wide_negative(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root must be non-negative, got -36893488147419103232}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = -36893488147419103232 : si128} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @allreduce_core_num_ui64_max(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{core_num must be at most 32767 (the launch width a builtin entry takes), got 18446744073709551615}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">, core_num = 18446744073709551615 : ui64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @host_builtin_broadcast_root_ui64_max(%x: tensor<64xf32, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{root = 18446744073709551615 is not a rank: a pld comm domain holds at most 64 ranks}}
  "pld.builtin_broadcast"(%x, %s, %r) {root = 18446744073709551615 : ui64, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<64xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @tensor_put_chunk_rows_ui64_max(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{chunk_rows = 18446744073709551615 is too large}}
  "pld.tensor_put"(%d, %p, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, chunk_rows = 18446744073709551615 : ui64} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>) -> ()
  return
}

// -----

// A root past the 64 ranks a comm domain holds, with the signal's rows
// dynamic: before, a root of 2^32 + 1 was truncated to i32 (rank 1) and
// one of 2^63 - 1 became peer -1.
func.func @broadcast_root_past_any_domain(%t: tensor<4x16xf32, #pld.dist>, %s: tensor<?x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root = 4294967297 is not a rank: a pld comm domain holds at most 64 ranks}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = 4294967297 : i64} : (tensor<4x16xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @broadcast_root_64(%t: tensor<4x16xf32, #pld.dist>, %s: tensor<?x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root = 64 is not a rank: a pld comm domain holds at most 64 ranks}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = 64 : i64} : (tensor<4x16xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// A core_num inside i64 but past 32767 went through pld-to-pto and
// --emit=kernels before, and failed only when the entry ran.
func.func @allreduce_core_num_40000(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{core_num must be at most 32767 (the launch width a builtin entry takes), got 40000}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">, core_num = 40000 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}
