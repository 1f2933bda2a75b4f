// The rules of pld.tensor_reduce and pld.builtin_reduce (docs/dialect.md).
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @reduce_root_non_negative(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root must be non-negative, got -1}}
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.reduce_op<"sum">, root = -1 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @reduce_root_beyond_the_ranks(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{root = 4 is not a rank: the signal has 4 rows, one per rank}}
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.reduce_op<"min">, root = 4 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @reduce_f16_or_f32(%t: tensor<64xi32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target element type must be f16 or f32, got i32}}
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.reduce_op<"sum">, root = 0 : i64} : (tensor<64xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xi32, #pld.dist>
  return
}

// -----

func.func @reduce_op_is_a_member(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{op must be ReduceOp "sum", "max", "min", or "prod", got #pld.reduce_op<"avg">}}
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.reduce_op<"avg">, root = 0 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @reduce_target_distributed(%t: tensor<64xf32>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must be a distributed tensor}}
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.reduce_op<"sum">, root = 0 : i64} : (tensor<64xf32>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32>
  return
}

// -----

func.func @reduce_not_in_an_aiv_kernel(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"aiv">} {
  // expected-error@+1 {{'pld.tensor_reduce' op is only allowed in a HOST orchestrator or a CHIP orchestrator or an InCore kernel}}
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.reduce_op<"sum">, root = 0 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @builtin_reduce_root_non_negative(%x: tensor<64xf32, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %d: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{root must be non-negative, got -3}}
  "pld.builtin_reduce"(%x, %s, %d) {op = #pld.reduce_op<"sum">, root = -3 : i64, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<64xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @builtin_reduce_signal_rank_1(%x: tensor<64xf16, #pld.dist>, %s: tensor<4x2xi32, #pld.dist>, %d: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{signal must be rank 1, one element per rank, got rank 2}}
  "pld.builtin_reduce"(%x, %s, %d) {op = #pld.reduce_op<"max">, root = 0 : i64, dtype = f16, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<64xf16, #pld.dist>, tensor<4x2xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @builtin_reduce_f16_or_f32(%x: tensor<64xi8, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %d: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{supports only f16 or f32, got i8}}
  "pld.builtin_reduce"(%x, %s, %d) {op = #pld.reduce_op<"sum">, root = 0 : i64, dtype = i8, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<64xi8, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

// One row: "1 row", not "1 rows".
func.func @one_row(%v: tensor<8xf32, #pld.dist>, %sig: tensor<1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{root = 2 is not a rank: the signal has 1 row, one per rank}}
  %r = "pld.tensor_reduce"(%v, %sig) {op = #pld.reduce_op<"sum">, root = 2 : i64} : (tensor<8xf32, #pld.dist>, tensor<1xi32, #pld.dist>) -> tensor<8xf32, #pld.dist>
  return
}

// -----

// A boolean root (an integer attribute of type i1) is an error, not root
// 0 (it ran silently as root 0; a string is the IRDL's error).
func.func @root_boolean(%v: tensor<8xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root must be a rank index (an integer such as `1 : i64`), got true}}
  %r = "pld.tensor_reduce"(%v, %sig) {op = #pld.reduce_op<"sum">, root = true} : (tensor<8xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<8xf32, #pld.dist>
  return
}

// -----

func.func @builtin_root_boolean(%x: tensor<64xf32, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %d: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{root must be a rank index (an integer such as `1 : i64`), got true}}
  "pld.builtin_broadcast"(%x, %s, %d) {root = true, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<64xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}
