// One case (at least) for every rule of the pld semantic verifier, plus
// IRDL's parse-time checks. docs/dialect.md lists the rules.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// ===== IRDL (parse time): arity and base kinds ===========================

func.func @tensor_barrier_expects_exactly_1_operands_but_0(%s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expects exactly 1 operands, but got 0}}
  %r = "pld.tensor_barrier"() : () -> tensor<4x1xi32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_attribute_op_expected_but_not_provided(%s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{attribute "op" is expected but not provided}}
  %r = "pld.tensor_allreduce"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

// -----

// ===== functions and types ===============================================

// expected-error@+1 {{pld.kind must be #pld.func_kind<...> with one of "host", "chip", "incore", "aiv", or "aic", got #pld.func_kind<"device">}}
func.func @bad_kind() attributes {pld.kind = #pld.func_kind<"device">} {
  return
}

// -----

// expected-error@+1 {{pld.kind must be #pld.func_kind<...>}}
func.func @string_kind() attributes {pld.kind = "host"} {
  return
}

// -----

func.func @no_kind(%s: tensor<4x1xi32, #pld.dist>) {
  // expected-error@+1 {{'pld.tensor_barrier' op must be inside a func.func with a pld.kind attribute}}
  %r = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

// -----

// expected-error@+1 {{argument #0: tensor encoding 7 : i64 is not a pld encoding}}
func.func @foreign_encoding(%a: tensor<4xf32, 7 : i64>) attributes {pld.kind = #pld.func_kind<"aiv">} {
  return
}

// -----

// expected-error@+1 {{result #0: unknown layout "zz"}}
func.func private @bad_layout() -> tensor<4xf32, #pld.dist_with<{layout = "zz"}>>

// -----

// expected-error@+1 {{layout must be a string}}
func.func private @layout_kind(tensor<4xf32, #pld.dist_with<{layout = 1 : i64}>>)

// -----

// expected-error@+1 {{strides must be array<i64: ...>}}
func.func private @strides_kind(tensor<4xf32, #pld.dist_with<{strides = [1]}>>)

// -----

// expected-error@+1 {{strides has 1 entries but the tensor has rank 2}}
func.func private @strides_rank(tensor<4x4xf32, #pld.view<{strides = array<i64: 1>}>>)

// -----

// expected-error@+1 {{valid_shape must be array<i64: ...>}}
func.func private @valid_kind(tensor<4xf32, #pld.dist_with<{valid_shape = 3 : i64}>>)

// -----

// expected-error@+1 {{valid_shape has 1 entries but the tensor has rank 2}}
func.func private @valid_rank(tensor<4x4xf32, #pld.dist_with<{valid_shape = array<i64: 2>}>>)

// -----

// expected-error@+1 {{valid_shape[1] = -1 is negative}}
func.func private @valid_negative(tensor<4x4xf32, #pld.dist_with<{valid_shape = array<i64: 2, -1>}>>)

// -----

// expected-error@+1 {{valid_shape[0] = 5 exceeds the dimension (4)}}
func.func private @valid_too_big(tensor<4x4xf32, #pld.view<{valid_shape = array<i64: 5, 4>}>>)

// -----

// expected-error@+1 {{window must be a string}}
func.func private @window_kind(tensor<4xf32, #pld.dist_with<{window = 1 : i64}>>)

// -----

// expected-error@+1 {{window name must not be empty}}
func.func private @window_empty(tensor<4xf32, #pld.dist_with<{window = ""}>>)

// -----

// expected-error@+1 {{blayout must be "row_major" or "col_major"}}
func.func private @blayout(tensor<4x1xf32, #pld.tile_with<{blayout = "zigzag"}>>)

// -----

// expected-error@+1 {{unknown tile property 'layout'}}
func.func private @tile_layout(tensor<4x1xf32, #pld.tile_with<{layout = "nd"}>>)

// -----

func.func @host_tensor_window_op_result_0_unknown(%p: !pld.ptr) attributes {pld.kind = #pld.func_kind<"host">} {
  // Results are checked like arguments.
  // expected-error@+1 {{'pld.tensor_window' op result #0: unknown layout "zz"}}
  %v = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<4xf32, #pld.dist_with<{layout = "zz"}>>
  return
}

// -----

// ===== placement: which function kinds may hold which ops ================

func.func @system_world_size_op_only_allowed() attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.system_world_size' op is only allowed in a HOST orchestrator (pld.kind "host"), not in an InCore kernel @system_world_size_op_only_allowed}}
  %n = "pld.system_world_size"() : () -> i64
  return
}

// -----

func.func @host_system_rank_op_only_allowed_incore(%c: !pld.ctx) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{'pld.system_rank' op is only allowed in an InCore kernel or an AIV kernel or an AIC kernel}}
  %r = "pld.system_rank"(%c) : (!pld.ctx) -> i32
  return
}

// -----

func.func @a(%s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"aiv">} {
  // expected-error@+1 {{'pld.tensor_barrier' op is only allowed in a HOST orchestrator or a CHIP orchestrator or an InCore kernel}}
  %r = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

// -----

func.func @host_tensor_indexed_all_to_all_v_tensor_indexed_all_all_v_op(%i: tensor<8x16xf32, #pld.dist>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>,
             %c: tensor<2xi32, #pld.dist>, %r: tensor<2x1xi32, #pld.dist>, %x: tensor<8xi32>)
    attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{'pld.tensor_indexed_all_to_all_v' op is only allowed in a CHIP orchestrator}}
  %o = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %x) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<8xi32>) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

// ===== 4.1 window allocation and views ===================================

func.func @host_tensor_alloc_window_buffer_requires_non_empty_name() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 64 : i64
  // expected-error@+1 {{requires a non-empty 'name'}}
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = ""} : (i64) -> !pld.ptr
  return
}

// -----

func.func @host_tensor_alloc_window_buffer_window_size_positive_0_bytes() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 0 : i64
  // expected-error@+1 {{window size must be positive, got 0 bytes}}
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "buf"} : (i64) -> !pld.ptr
  return
}

// -----

// W7: pld-run refused a view larger than its buffer; the compiler let it
// through to pld-to-pto and --emit=kernels.
func.func @host_tensor_window_larger_than_its_buffer() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 5 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "A"} : (i64) -> !pld.ptr
  // expected-error@+1 {{views 32 bytes of 'A', which has 5}}
  %v = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<8xf32, #pld.dist>
  return
}

// -----

func.func @host_tensor_window_result_distributed_tensor_dist_encoding_plain(%p: !pld.ptr) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{result must be a distributed tensor (#pld.dist encoding), got a plain tensor}}
  %v = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<4xf32>
  return
}

// -----

func.func @host_tensor_window_window_shape_have_least_one_dimension(%p: !pld.ptr) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{window shape must have at least one dimension}}
  %v = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<f32, #pld.dist>
  return
}

// -----

func.func @host_tensor_window_window_dimension_1_positive_0(%p: !pld.ptr) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{window dimension 1 must be positive, got 0}}
  %v = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<4x0xf32, #pld.dist>
  return
}

// -----

func.func @host_tensor_window_expected_1_dynamic_size_operands_one(%p: !pld.ptr) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{expected 1 dynamic size operands (one per '?' in the result type), got 0}}
  %v = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<?x1xi32, #pld.dist>
  return
}

// -----

func.func @host_tensor_alloc_window_buffer_view_bound_window_other_buf_but() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 64 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "data_buf"} : (i64) -> !pld.ptr
  // expected-error@+1 {{view is bound to window "other_buf" but its buffer is allocation "data_buf"}}
  %v = "pld.tensor_window"(%p) : (!pld.ptr) -> tensor<16xf32, #pld.dist_with<{window = "other_buf"}>>
  return
}

// -----

// ===== 4.2 comm-context queries ==========================================

func.func @system_get_comm_ctx_operand_distributed_tensor_plain_tensor(%t: tensor<4xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{operand must be a distributed tensor, got a plain tensor}}
  %c = "pld.system_get_comm_ctx"(%t) : (tensor<4xf32>) -> !pld.ctx
  return
}

// -----

// ===== 4.3 signal primitives =============================================

func.func @system_notify_target_distributedtensor_window_bound_plain_tensor(%t: tensor<4x1xi32>, %p: i32, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.system_notify"(%t, %p, %i, %i, %v) {op = #pld.notify_op<"atomic_add">} : (tensor<4x1xi32>, i32, index, index, i32) -> ()
  return
}

// -----

func.func @system_notify_target_have_int32_element_type_f32(%t: tensor<4x1xf32, #pld.dist>, %p: i32, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must have element type i32, got f32}}
  "pld.system_notify"(%t, %p, %i, %i, %v) {op = #pld.notify_op<"atomic_add">} : (tensor<4x1xf32, #pld.dist>, i32, index, index, i32) -> ()
  return
}

// -----

func.func @system_notify_expected_2_offsets_one_per_dimension(%t: tensor<4x1xi32, #pld.dist>, %p: i32, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 offsets (one per dimension of target), got 1}}
  "pld.system_notify"(%t, %p, %i, %v) {op = #pld.notify_op<"set">} : (tensor<4x1xi32, #pld.dist>, i32, index, i32) -> ()
  return
}

// -----

func.func @system_notify_op_notifyop_atomic_add_set_notify(%t: tensor<4x1xi32, #pld.dist>, %p: i32, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{op must be NotifyOp "atomic_add", or "set", got #pld.notify_op<"add">}}
  "pld.system_notify"(%t, %p, %i, %i, %v) {op = #pld.notify_op<"add">} : (tensor<4x1xi32, #pld.dist>, i32, index, index, i32) -> ()
  return
}

// -----

func.func @system_notify_offset_1_out_bounds_dimension_1(%t: tensor<4x1xi32, #pld.dist>, %p: i32, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{offset 1 is out of bounds for dimension 1 (size 1)}}
  "pld.system_notify"(%t, %p, %i, %c1, %v) {op = #pld.notify_op<"atomic_add">} : (tensor<4x1xi32, #pld.dist>, i32, index, index, i32) -> ()
  return
}

// -----

func.func @system_wait_cmp_waitcmp_eq_ge_wait_cmp(%t: tensor<4x1xi32, #pld.dist>, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{cmp must be WaitCmp "eq", or "ge", got #pld.wait_cmp<"gt">}}
  "pld.system_wait"(%t, %i, %i, %v) {cmp = #pld.wait_cmp<"gt">} : (tensor<4x1xi32, #pld.dist>, index, index, i32) -> ()
  return
}

// -----

func.func @system_wait_signal_distributedtensor_window_bound_plain_tensor(%t: tensor<4x1xi32>, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.system_wait"(%t, %i, %i, %v) {cmp = #pld.wait_cmp<"ge">} : (tensor<4x1xi32>, index, index, i32) -> ()
  return
}

// -----

func.func @system_wait_expected_2_offsets_one_per_dimension(%t: tensor<4x1xi32, #pld.dist>, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 offsets (one per dimension of signal), got 3}}
  "pld.system_wait"(%t, %i, %i, %i, %v) {cmp = #pld.wait_cmp<"ge">} : (tensor<4x1xi32, #pld.dist>, index, index, index, i32) -> ()
  return
}

// -----

func.func @system_defer_wait_op_supports_only(%t: tensor<4x1xi32, #pld.dist>, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.system_defer_wait' op supports only cmp = "ge"}}
  "pld.system_defer_wait"(%t, %i, %i, %v) {cmp = #pld.wait_cmp<"eq">} : (tensor<4x1xi32, #pld.dist>, index, index, i32) -> ()
  return
}

// -----

func.func @tensor_barrier_signal_parameter_enclosing_function(%t: tensor<4x1xi32, #pld.dist>, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %s = "pld.tensor_barrier"(%t) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  // expected-error@+1 {{signal must be a parameter of the enclosing function}}
  "pld.system_defer_wait"(%s, %i, %i, %v) {cmp = #pld.wait_cmp<"ge">} : (tensor<4x1xi32, #pld.dist>, index, index, i32) -> ()
  return
}

// -----

func.func @system_defer_wait_signal_parameter_enclosing_function(%t: tensor<4x1xi32, #pld.dist>, %i: index, %v: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %c1 step %c1 iter_args(%s = %t) -> (tensor<4x1xi32, #pld.dist>) {
    // A loop-carried value is a block argument, but not a parameter.
    // expected-error@+1 {{signal must be a parameter of the enclosing function}}
    "pld.system_defer_wait"(%s, %i, %i, %v) {cmp = #pld.wait_cmp<"ge">} : (tensor<4x1xi32, #pld.dist>, index, index, i32) -> ()
    scf.yield %s : tensor<4x1xi32, #pld.dist>
  }
  return
}

// -----

// ===== 4.10 memory consistency ===========================================

func.func @system_cacheinvalid_sizes_offsets_need_tensor_whole_gm(%i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{sizes and offsets need a tensor (the whole-GM form has no operands)}}
  "pld.system_cacheinvalid"(%i) {operandSegmentSizes = array<i32: 0, 1, 0>} : (index) -> ()
  return
}

// -----

func.func @system_cacheinvalid_expected_2_sizes_one_per_dimension(%t: tensor<1x64xf32, #pld.dist>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 sizes (one per dimension of tensor), got 1}}
  "pld.system_cacheinvalid"(%t, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2>} : (tensor<1x64xf32, #pld.dist>, index, index, index) -> ()
  return
}

// -----

func.func @system_cacheinvalid_tensor_distributedtensor_window_bound_plain_tensor(%t: tensor<1x64xf32>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{tensor must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.system_cacheinvalid"(%t, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 2, 2>} : (tensor<1x64xf32>, index, index, index, index) -> ()
  return
}

// -----

func.func @system_cacheinvalid_expected_2_offsets_one_per_dimension(%t: tensor<1x64xf32, #pld.dist>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 offsets (one per dimension of tensor), got 3}}
  "pld.system_cacheinvalid"(%t, %i, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 2, 3>} : (tensor<1x64xf32, #pld.dist>, index, index, index, index, index) -> ()
  return
}

// -----

// ===== 4.4 remote data movement: remote_load =============================

func.func @tile_remote_load_does_not_support_mx_layouts(%t: tensor<4x64xf32, #pld.dist_with<{layout = "mx_a_zz"}>>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{does not support MX layouts}}
  %r = "pld.tile_remote_load"(%t, %p, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<4x64xf32, #pld.dist_with<{layout = "mx_a_zz"}>>, i32, index, index) -> tensor<4x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_target_have_rank_0(%t: tensor<f32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must have rank > 0}}
  %r = "pld.tile_remote_load"(%t, %p) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<f32, #pld.dist>, i32) -> tensor<f32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_target_distributedtensor_window_bound_plain_tensor(%t: tensor<1x64xf32>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  %r = "pld.tile_remote_load"(%t, %p, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_result_tile_tile_encoding_plain_tensor(%t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{result must be a tile (#pld.tile encoding), got a plain tensor}}
  %r = "pld.tile_remote_load"(%t, %p, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32>
  return
}

// -----

func.func @tile_remote_load_expected_2_offsets_one_per_dimension(%t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 offsets (one per dimension of target), got 1}}
  %r = "pld.tile_remote_load"(%t, %p, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_tile_rank_1_equal_target_rank(%t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{tile rank 1 must equal the target rank 2}}
  %r = "pld.tile_remote_load"(%t, %p, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_tile_dtype_f16_equal_target_dtype(%t: tensor<1x64xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{tile dtype f16 must equal the target dtype f32}}
  %r = "pld.tile_remote_load"(%t, %p, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf16, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_expected_0_2_valid_shape_extents(%t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 0 or 2 valid_shape extents (one per dimension of target), got 1}}
  %r = "pld.tile_remote_load"(%t, %p, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 1>} : (tensor<1x64xf32, #pld.dist>, i32, index, index, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_valid_shape_extents_not_negative_1(%t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  %m = arith.constant -1 : index
  // expected-error@+1 {{valid_shape extents must not be negative, got -1}}
  %r = "pld.tile_remote_load"(%t, %p, %i, %i, %i, %m) {operandSegmentSizes = array<i32: 1, 1, 2, 2>} : (tensor<1x64xf32, #pld.dist>, i32, index, index, index, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_reads_past_end_dimension_1_offset(%t: tensor<1x17xf16, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c17 = arith.constant 17 : index
  // expected-error@+1 {{reads past the end of dimension 1 (offset 0 + extent 8192 > size 17)}}
  %r = "pld.tile_remote_load"(%t, %p, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x17xf16, #pld.dist>, i32, index, index) -> tensor<1x8192xf16, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_result_tile_valid_extent_dimension_1(%t: tensor<1x16xf32, #pld.dist_with<{valid_shape = array<i64: 1, 8>}>>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  // The source's valid region narrows the tile: [1, 16] window, valid [1, 8].
  // expected-error@+1 {{result tile valid extent of dimension 1 is 16, but the load yields 8}}
  %r = "pld.tile_remote_load"(%t, %p, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x16xf32, #pld.dist_with<{valid_shape = array<i64: 1, 8>}>>, i32, index, index) -> tensor<1x16xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_valid_shape_extent_17_dimension_1(%t: tensor<1x17xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c17 = arith.constant 17 : index
  // expected-error@+1 {{valid_shape extent 17 of dimension 1 exceeds the tile dimension 16}}
  %r = "pld.tile_remote_load"(%t, %p, %c0, %c0, %c1, %c17) {operandSegmentSizes = array<i32: 1, 1, 2, 2>} : (tensor<1x17xf32, #pld.dist>, i32, index, index, index, index) -> tensor<1x16xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_result_tile_blayout_col_major_source(%t: tensor<64x1xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  // A single-column source loads as a column-major tile.
  // expected-error@+1 {{result tile blayout must be col_major for this source, got row_major}}
  %r = "pld.tile_remote_load"(%t, %p, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<64x1xf32, #pld.dist>, i32, index, index) -> tensor<64x1xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_with_physical_tail_padding_requires_fp16_target_f32(%t: tensor<1x17xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c17 = arith.constant 17 : index
  // expected-error@+1 {{requires an f16 target, got f32}}
  %r = "pld.tile_remote_load_with_physical_tail_padding"(%t, %p, %c0, %c0, %c1, %c17) {operandSegmentSizes = array<i32: 1, 1, 2, 2>} : (tensor<1x17xf32, #pld.dist>, i32, index, index, index, index) -> tensor<1x32xf32, #pld.tile_with<{valid_shape = array<i64: 1, 17>}>>
  return
}

// -----

func.func @tile_remote_load_with_physical_tail_padding_requires_rank_2_target_rank_1(%t: tensor<17xf16, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c17 = arith.constant 17 : index
  // expected-error@+1 {{requires a rank-2 target, got rank 1}}
  %r = "pld.tile_remote_load_with_physical_tail_padding"(%t, %p, %c0, %c17) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<17xf16, #pld.dist>, i32, index, index) -> tensor<32xf16, #pld.tile_with<{valid_shape = array<i64: 17>}>>
  return
}

// -----

func.func @tile_remote_load_with_physical_tail_padding_requires_explicit_valid_shape(%t: tensor<1x17xf16, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{requires an explicit valid_shape}}
  %r = "pld.tile_remote_load_with_physical_tail_padding"(%t, %p, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x17xf16, #pld.dist>, i32, index, index) -> tensor<1x32xf16, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_with_physical_tail_padding_reads_past_end_dimension_1_offset(%t: tensor<1x17xf16, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  // The tail variant may read 15 elements past the end, not more.
  // expected-error@+1 {{reads past the end of dimension 1 (offset 0 + extent 48 > size 32, its 17 elements and the 15 of the tail padding)}}
  %r = "pld.tile_remote_load_with_physical_tail_padding"(%t, %p, %c0, %c0, %c1, %c48) {operandSegmentSizes = array<i32: 1, 1, 2, 2>} : (tensor<1x17xf16, #pld.dist>, i32, index, index, index, index) -> tensor<1x48xf16, #pld.tile_with<{valid_shape = array<i64: 1, 48>}>>
  return
}

// -----

// ===== 4.4 remote stores =================================================

func.func @tile_remote_store_src_tile_plain_tensor(%s: tensor<1x64xf32>, %t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{src must be a tile, got a plain tensor}}
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) : (tensor<1x64xf32>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

func.func @tensor_remote_store_src_tensor_tile(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{src must be a tensor, got a tile}}
  "pld.tensor_remote_store"(%s, %t, %p, %i, %i) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

func.func @tile_remote_store_src_dtype_f16_equal_target_dtype(%s: tensor<1x64xf16, #pld.tile>, %t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{src dtype f16 must equal the target dtype f32}}
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) : (tensor<1x64xf16, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

func.func @tile_remote_store_target_have_rank_2_1(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must have rank >= 2, got 1}}
  "pld.tile_remote_store"(%s, %t, %p, %i) : (tensor<1x64xf32, #pld.tile>, tensor<64xf32, #pld.dist>, i32, index) -> ()
  return
}

// -----

func.func @tile_remote_store_src_2_d_n_d_all(%s: tensor<2x1x64xf32, #pld.tile>, %t: tensor<4x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{src must be 2-D, or N-D with all leading dimensions 1}}
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) : (tensor<2x1x64xf32, #pld.tile>, tensor<4x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

func.func @tile_remote_store_expected_2_offsets_one_per_dimension(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<4x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 offsets (one per dimension of target), got 3}}
  "pld.tile_remote_store"(%s, %t, %p, %i, %i, %i) : (tensor<1x64xf32, #pld.tile>, tensor<4x64xf32, #pld.dist>, i32, index, index, index) -> ()
  return
}

// -----

func.func @tile_remote_store_pushed_region_does_not_fit_dimension(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<4x64xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // expected-error@+1 {{the pushed region does not fit dimension 1 (offset 8 + extent 64 > size 64)}}
  "pld.tile_remote_store"(%s, %t, %p, %c0, %c8) : (tensor<1x64xf32, #pld.tile>, tensor<4x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

// Constant offsets below 0, or so large that offset + extent wraps in 64
// bits, passed R11 and R20 before (a store at [-1, -1] ran and overwrote
// the element before the target in its window, exit 0).
func.func @tile_remote_store_negative_offset(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<4x64xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %m1 = arith.constant -1 : index
  // expected-error@+1 {{the pushed region has a negative offset in dimension 0 (-1)}}
  "pld.tile_remote_store"(%s, %t, %p, %m1, %m1) : (tensor<1x64xf32, #pld.tile>, tensor<4x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

func.func @tile_remote_store_offset_that_wraps(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<4x64xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %big = arith.constant 9223372036854775800 : index
  // expected-error@+1 {{the pushed region does not fit dimension 1 (offset 9223372036854775800 + extent 64 > size 64)}}
  "pld.tile_remote_store"(%s, %t, %p, %c0, %big) : (tensor<1x64xf32, #pld.tile>, tensor<4x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

func.func @tile_remote_load_negative_offset(%t: tensor<1x64xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1 : index
  // expected-error@+1 {{reads before the start of dimension 1 (offset -1)}}
  %r = "pld.tile_remote_load"(%t, %p, %c0, %m1) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_load_offset_that_wraps(%t: tensor<1x64xf32, #pld.dist>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %big = arith.constant 9223372036854775807 : index
  // expected-error@+1 {{reads past the end of dimension 1 (offset 9223372036854775807 + extent 64 > size 64)}}
  %r = "pld.tile_remote_load"(%t, %p, %c0, %big) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_remote_store_atomic_add_supports_fp32_bf16_fp16(%s: tensor<1x64xi64, #pld.tile>, %t: tensor<1x64xi64, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{atomic add supports f32, bf16, f16, i32, i16 and i8, got i64}}
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) {atomic = #pld.atomic_type<"add">} : (tensor<1x64xi64, #pld.tile>, tensor<1x64xi64, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

func.func @tile_remote_store_atomic_atomictype_none_add_atomic_type(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<1x64xf32, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{atomic must be AtomicType "none", or "add", got #pld.atomic_type<"max">}}
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) {atomic = #pld.atomic_type<"max">} : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

// ===== 4.4 puts and gets =================================================

func.func @tensor_put_dst_distributedtensor_window_bound_plain_tensor(%d: tensor<1x64xf32>, %s: tensor<1x64xf32>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{dst must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.tensor_put"(%d, %p, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<1x64xf32>, i32, tensor<1x64xf32>) -> ()
  return
}

// -----

func.func @tensor_get_src_distributedtensor_window_bound_plain_tensor(%d: tensor<1x64xf32>, %s: tensor<1x64xf32>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // A get reads a peer's window.
  // expected-error@+1 {{src must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.tensor_get"(%d, %p, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<1x64xf32>, i32, tensor<1x64xf32>) -> ()
  return
}

// -----

func.func @tensor_put_src_tensor_not_tile(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32, #pld.tile>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{src must be a tensor, not a tile}}
  "pld.tensor_put"(%d, %p, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32, #pld.tile>) -> ()
  return
}

// -----

func.func @tensor_put_dst_src_have_same_dtype_f32(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf16>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{dst and src must have the same dtype, got f32 and f16}}
  "pld.tensor_put"(%d, %p, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf16>) -> ()
  return
}

// -----

func.func @tensor_put_dst_offsets_src_offsets_shape_given(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{dst_offsets, src_offsets and shape must be given together or not at all}}
  "pld.tensor_put"(%d, %p, %s, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 2, 0, 0>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>, index, index) -> ()
  return
}

// -----

func.func @tensor_put_expected_2_src_offsets_one_per(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 src_offsets (one per dimension of src), got 1}}
  "pld.tensor_put"(%d, %p, %s, %i, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 2, 1, 2>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>, index, index, index, index, index) -> ()
  return
}

// -----

func.func @tensor_put_expected_2_shape_one_per_dimension(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 shape (one per dimension of dst), got 3}}
  "pld.tensor_put"(%d, %p, %s, %i, %i, %i, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 2, 2, 3>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>, index, index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @tensor_put_chunk_rows_non_negative_integer_2(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{chunk_rows must be a non-negative integer, got -2 : i64}}
  "pld.tensor_put"(%d, %p, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, chunk_rows = -2 : i64} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>) -> ()
  return
}

// -----

func.func @tensor_get_pipeline_true_false_1_i64(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{pipeline must be true or false, got 1 : i64}}
  "pld.tensor_get"(%s, %p, %d) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, pipeline = 1 : i64} : (tensor<1x64xf32>, i32, tensor<1x64xf32, #pld.dist>) -> ()
  return
}

// -----

func.func @tensor_put_pipeline_true_requires_positive_chunk_rows(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{pipeline = true requires positive chunk_rows and chunk_cols}}
  "pld.tensor_put"(%d, %p, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, chunk_rows = 1 : i64, pipeline = true} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>) -> ()
  return
}

// -----

func.func @tile_put_stage_tile_plain_tensor(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %st: tensor<1x64xf32>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{stage must be a tile, got a plain tensor}}
  "pld.tile_put"(%d, %p, %s, %st) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>, tensor<1x64xf32>) -> ()
  return
}

// -----

func.func @tile_get_stage_dtype_f16_equal_src_dtype(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %st: tensor<1x64xf16, #pld.tile>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{stage dtype f16 must equal the src dtype f32}}
  "pld.tile_get"(%s, %p, %d, %st) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>} : (tensor<1x64xf32>, i32, tensor<1x64xf32, #pld.dist>, tensor<1x64xf16, #pld.tile>) -> ()
  return
}

// -----

func.func @tile_put_pong_have_same_type_stage(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<1x64xf32>, %st: tensor<1x64xf32, #pld.tile>, %pg: tensor<1x32xf32, #pld.tile>, %p: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{pong must have the same type as stage}}
  "pld.tile_put"(%d, %p, %s, %st, %pg) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>} : (tensor<1x64xf32, #pld.dist>, i32, tensor<1x64xf32>, tensor<1x64xf32, #pld.tile>, tensor<1x32xf32, #pld.tile>) -> ()
  return
}

// -----

// ===== 4.5 allreduce =====================================================

func.func @tensor_allreduce_target_distributedtensor_window_bound_plain_tensor(%t: tensor<64xf32>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<64xf32>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32>
  return
}

// -----

func.func @tensor_allreduce_target_dtype_fp16_fp32_bf16(%t: tensor<64xbf16, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target element type must be f16 or f32, got bf16}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<64xbf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xbf16, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_signal_have_int32_element_type_i64(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi64, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal must have element type i32, got i64}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<4x1xi64, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_signal_distributedtensor_window_bound_plain_tensor(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_op_reduceop_sum_max_min_prod(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{op must be ReduceOp "sum", "max", "min", or "prod", got #pld.reduce_op<"avg">}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"avg">} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_core_num_compile_time_integer_true(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{core_num must be a compile-time integer, got true}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">, core_num = true} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_core_num_compile_time_integer_1(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{core_num must be a compile-time integer, got 1.500000e+00 : f32}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">, core_num = 1.5 : f32} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_core_num_positive_0(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{core_num must be positive, got 0}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">, core_num = 0 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_mode_string_1_i64(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{mode must be a string, got 1 : i64}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">, mode = 1 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @host_tensor_allreduce_mode_ring_requires_explicit_signal(%t: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{mode = "ring" requires an explicit signal}}
  %r = "pld.tensor_allreduce"(%t) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allreduce_result_type_tensor_32xf32_dist_equal(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{result type tensor<32xf32, #pld.dist> must equal the target type tensor<64xf32, #pld.dist>}}
  %r = "pld.tensor_allreduce"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<32xf32, #pld.dist>
  return
}

// -----

// ===== 4.6 other composite collectives ===================================

func.func @tensor_barrier_signal_have_int32_element_type_f32(%s: tensor<4x1xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal must have element type i32, got f32}}
  %r = "pld.tensor_barrier"(%s) : (tensor<4x1xf32, #pld.dist>) -> tensor<4x1xf32, #pld.dist>
  return
}

// -----

func.func @tensor_barrier_result_type_tensor_4xi32_dist_equal(%s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{result type tensor<4xi32, #pld.dist> must equal the signal type tensor<4x1xi32, #pld.dist>}}
  %r = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4xi32, #pld.dist>
  return
}

// -----

func.func @tensor_broadcast_root_non_negative_1(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root must be non-negative, got -1}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = -1 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_broadcast_root_beyond_the_ranks(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{root = 7 is not a rank: the signal has 4 rows, one per rank}}
  %r = "pld.tensor_broadcast"(%t, %s) {root = 7 : i64} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_reduce_scatter_op_supports_only(%t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_reduce_scatter' op supports only op = #pld.reduce_op<"sum">, got #pld.reduce_op<"max">}}
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"max">} : (tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_reduce_scatter_target_2_d_nr_size_rank(%t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must be rank 2, one row per rank, got rank 1}}
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_all_to_all_input_target_different_values(%t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input and target must be different values}}
  %r = "pld.tensor_all_to_all"(%t, %t, %s) : (tensor<4x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allgather_input_2_d_rank_1(%i: tensor<16xf32>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input must be 2-D, got rank 1}}
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<16xf32>, tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allgather_target_2_d_rank_1(%i: tensor<1x16xf32>, %t: tensor<64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target must be 2-D, got rank 1}}
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x16xf32>, tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allgather_input_1_size_2_rows(%i: tensor<2x16xf32>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input must have one row, got 2 rows}}
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<2x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allgather_target_size_16_equal_input_size(%i: tensor<1x8xf32>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target dim 1 (16) must equal input dim 1 (8)}}
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x8xf32>, tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allgather_input_dtype_f16_equal_target_dtype(%i: tensor<1x16xf16>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input dtype f16 must equal the target dtype f32}}
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x16xf16>, tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allgather_signal_nr_nr_1(%i: tensor<1x16xf32>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // A ring-shaped signal cannot serve a mesh collective.
  // expected-error@+1 {{signal must be tensor<NRxi32> or tensor<NRx1xi32>, NR being the number of ranks}}
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_allgather_signal_dim_0_8_equal_target(%i: tensor<1x16xf32>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<8xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal dim 0 (8) must equal target dim 0 (4)}}
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<8xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_all_to_all_input_rows_2_equal_target_rows(%i: tensor<2x16xf32>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input dim 0 (2) must equal target dim 0 (4): both are the number of ranks}}
  %r = "pld.tensor_all_to_all"(%i, %t, %s) : (tensor<2x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

func.func @tensor_all_to_all_input_tensor_not_tile(%i: tensor<4x16xf32, #pld.tile>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input must be a tensor, not a tile}}
  %r = "pld.tensor_all_to_all"(%i, %t, %s) : (tensor<4x16xf32, #pld.tile>, tensor<4x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// ===== 4.7 all_to_all_v ==================================================

!in = tensor<8x16xf32>
!out = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_core_num_positive_0(%i: !in, %t: !out, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  %z = arith.constant 0 : index
  // expected-error@+1 {{core_num must be positive, got 0}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r, %z) : (!in, !out, !sig, !send, !recv, index) -> !out
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_input_target_different_values(%i: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input and target must be different values}}
  %o = "pld.tensor_all_to_all_v"(%i, %i, %s, %c, %r) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, !sig, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_input_target_2_d_nr_max(%i: tensor<128xf32>, %t: tensor<128xf32, #pld.dist>, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input and target must be rank 2, [NR * MAX_RECV, N]: NR ranks (signal dim 0)}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<128xf32>, tensor<128xf32, #pld.dist>, !sig, !send, !recv) -> tensor<128xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_target_dim_0_8_equal_input(%i: tensor<4x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target dim 0 (8) must equal input dim 0 (4)}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<4x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_target_size_16_equal_input_size(%i: tensor<8x8xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target dim 1 (16) must equal input dim 1 (8)}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x8xf32>, tensor<8x16xf32, #pld.dist>, !sig, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_input_dtype_i8_equal_target_dtype(%i: tensor<8x16xi8>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input dtype i8 must equal the target dtype f32}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xi8>, tensor<8x16xf32, #pld.dist>, !sig, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
!dn = tensor<8x16xf32, #pld.dist_with<{layout = "dn"}>>
func.func @tensor_all_to_all_v_target_layout_nd(%i: tensor<8x16xf32>, %t: !dn, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target layout must be ND}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, !dn, !sig, !send, !recv) -> !dn
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
!strided = tensor<8x16xf32, #pld.view<{strides = array<i64: 32, 1>}>>
func.func @tensor_all_to_all_v_input_strides_32_1_packed_strides(%i: !strided, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{input strides [32, 1] must be the packed strides [16, 1]}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (!strided, tensor<8x16xf32, #pld.dist>, !sig, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
!partial = tensor<8x16xf32, #pld.dist_with<{valid_shape = array<i64: 8, 12>}>>
func.func @tensor_all_to_all_v_target_valid_shape_not_narrower_than(%i: tensor<8x16xf32>, %t: !partial, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target valid_shape must not be narrower than its shape}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, !partial, !sig, !send, !recv) -> !partial
  return
}

// -----

!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_signal_2d_nr_1_rank_1(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal must be rank 2, [NR, 1] with NR the number of ranks, got rank 1}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<4xi32, #pld.dist>, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_signal_second_dimension_1(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<4x2xi32, #pld.dist>, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal second dimension must be 1}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<4x2xi32, #pld.dist>, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_target_dim_0_signal_dim_0(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<?x1xi32, #pld.dist>, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{target dim 0 and signal dim 0 (the number of ranks) must be static}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<3x1xi32, #pld.dist>
!send = tensor<3xi32>
!recv = tensor<3x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_signal_dim_0_nr_3_divide(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal dim 0 (3, the number of ranks) must divide target dim 0 (8)}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_send_counts_have_int32_element_type(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: tensor<4xi64>, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{send_counts must have element type i32, got i64}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, tensor<4xi64>, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_send_counts_nr_nr_1(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: tensor<4x1x1xi32>, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{send_counts must be tensor<NRxi32> or tensor<NRx1xi32>, NR being the number of ranks}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, tensor<4x1x1xi32>, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!recv = tensor<4x1xi32, #pld.dist>
func.func @tensor_all_to_all_v_send_counts_dim_0_constant_nr(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: tensor<2xi32>, %r: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{send_counts dim 0 must be the number of ranks, 4 (signal dim 0), got 2}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, tensor<2xi32>, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
func.func @tensor_all_to_all_v_recv_counts_nr_1(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: tensor<4x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{recv_counts must be tensor<NRx1xi32>, NR being the number of ranks}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, !send, tensor<4x2xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
func.func @tensor_all_to_all_v_recv_counts_distributedtensor_window_bound_plain(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{recv_counts must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, !send, tensor<4x1xi32>) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!sig = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
func.func @tensor_all_to_all_v_recv_counts_have_int32_element_type(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: !send, %r: tensor<4x1xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{recv_counts must have element type i32, got f32}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, !send, tensor<4x1xf32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>
func.func @host_tensor_all_to_all_v_signal_second_dimension_lanes_positive_constant(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<4x?xi32, #pld.dist>, %c: !send, %r: !recv) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{signal second dimension (lanes) must be a positive constant}}
  %o = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %r) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<4x?xi32, #pld.dist>, !send, !recv) -> tensor<8x16xf32, #pld.dist>
  return
}

// -----

!in = tensor<8x16xf32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_all_to_all_v_signal_dim_0_nr_3_divide(%i: !in, %t: !in, %s: tensor<3x1xi32, #pld.dist>, %c: tensor<4xi32, #pld.dist>, %v: !rcv, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // The builtin keeps the shape rules of pld.tensor_all_to_all_v.
  // expected-error@+1 {{signal dim 0 (3, the number of ranks) must divide target dim 0 (8)}}
  "pld.builtin_all_to_all_v"(%i, %t, %s, %c, %v, %r) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (!in, !in, tensor<3x1xi32, #pld.dist>, tensor<4xi32, #pld.dist>, !rcv, index) -> ()
  return
}

// -----

// ===== 4.8 indexed_all_to_all_v ==========================================

module attributes {pld.target = "a5"} {
func.func @c(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>,
             %c: tensor<2xi32>, %r: tensor<2x1xi32, #pld.dist>, %x: tensor<8xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{send_counts must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  %o = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %x) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>, tensor<8xi32>) -> tensor<8x16xf32, #pld.dist>
  return
}
}

// -----

// The kernel reads the index as int32_t (C33): an f32 or i64 index would be
// read as other numbers.
module attributes {pld.target = "a5"} {
func.func @index_f32(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>,
             %c: tensor<2xi32, #pld.dist>, %r: tensor<2x1xi32>, %x: tensor<8xf32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{'pld.tensor_indexed_all_to_all_v' op index must have element type i32, got f32}}
  %o = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %x) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32>, tensor<8xf32>) -> tensor<8x16xf32, #pld.dist>
  return
}
}

// -----

module attributes {pld.target = "a5"} {
func.func @index_i64(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>,
             %c: tensor<2xi32, #pld.dist>, %r: tensor<2x1xi32>, %x: tensor<8xi64, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{index must have element type i32, got i64}}
  %o = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %x) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32>, tensor<8xi64, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}
}

// -----

// One index entry per target row (C34): 8 rows need 8 entries, of any shape
// (a [2, 4] index has them; a [1] one does not).
module attributes {pld.target = "a5"} {
func.func @index_short(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>,
             %c: tensor<2xi32, #pld.dist>, %r: tensor<2x1xi32>, %x: tensor<1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{'pld.tensor_indexed_all_to_all_v' op index has 1 element; it needs at least target dim 0 (8, NR * MAX_RECV): one source row for each row of the target}}
  %o = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %x) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32>, tensor<1xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}
func.func @index_2d_short(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>,
             %c: tensor<2xi32, #pld.dist>, %r: tensor<2x1xi32>, %x: tensor<2x3xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{index has 6 elements; it needs at least target dim 0 (8, NR * MAX_RECV)}}
  %o = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %x) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<8x16xf32, #pld.dist>
  return
}
func.func @index_2d(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>,
             %c: tensor<2xi32, #pld.dist>, %r: tensor<2x1xi32>, %x: tensor<2x4xi32>, %y: tensor<?xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %o = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %x) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32>, tensor<2x4xi32>) -> tensor<8x16xf32, #pld.dist>
  %p = "pld.tensor_indexed_all_to_all_v"(%i, %t, %s, %c, %r, %y) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32>, tensor<?xi32>) -> tensor<8x16xf32, #pld.dist>
  return
}
}

// -----

// ===== 4.9 builtin dispatches ============================================

!d = tensor<64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_allreduce_dtype_attribute_f16_equal_src_element(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{dtype attribute f16 must equal the src element type f32}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f16, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xbf16, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_allreduce_supports_only_fp16_fp32_bf16(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{supports only f16 or f32, got bf16}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = bf16, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_allreduce_core_num_positive_integer(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{core_num must be a positive integer}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 0 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<4xi32, #pld.dist>
func.func @host_builtin_allreduce_rank_1_signal_valid_only_when(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{a rank-1 signal is valid only when core_num is 1, got 2}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 2 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<4x2xi32, #pld.dist>
func.func @host_builtin_allreduce_signal_shape_1_2_least_core(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{signal dim 1 (2) must be at least core_num (4)}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 4 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<4x?xi32, #pld.dist>
func.func @host_builtin_allreduce_rank_2_signal_shape_1_constant(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{rank-2 signal dim 1 must be static}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<4x1x1xi32, #pld.dist>
func.func @host_builtin_allreduce_signal_rank_1_2_rank_3(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{signal must be rank 1 or 2, got rank 3}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_allreduce_arg_directions_has_1_entries_but(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{arg_directions has 1 entries but the op has 2 tensor operands}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_allreduce_arg_directions_entries_direction_one_out(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{arg_directions entries must be #pld.direction<...> with one of "in", "out", "inout", or "scalar", got "inout"}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 1 : i64, arg_directions = ["inout", #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32>
!s = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_allreduce_src_distributedtensor_window_bound_plain_tensor(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{src must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.builtin_allreduce"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<7x4xi32, #pld.dist>
func.func @host_builtin_allreduce_ring_supports_only_op_sum_max(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{supports only op = #pld.reduce_op<"sum">, got #pld.reduce_op<"max">}}
  "pld.builtin_allreduce_ring"(%x, %s, %r) {op = #pld.reduce_op<"max">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf16, #pld.dist>
!s = tensor<7x4xi32, #pld.dist>
func.func @host_builtin_allreduce_ring_supports_only_fp32_f16(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{supports only f32, got f16}}
  "pld.builtin_allreduce_ring"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f16, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<28xi32, #pld.dist>
func.func @host_builtin_allreduce_ring_ring_signal_rank_2_2_nr(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{ring signal must be rank 2, [2*(NR-1)+1, NR] with NR the number of ranks, got rank 1}}
  "pld.builtin_allreduce_ring"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<64xf32, #pld.dist>
!s = tensor<6x4xi32, #pld.dist>
func.func @host_builtin_allreduce_ring_ring_signal_shape_0_6_equal(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{ring signal dim 0 (6) must equal 2*(NR-1) + 1 = 7, NR being signal dim 1}}
  "pld.builtin_allreduce_ring"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<130xf32, #pld.dist>
!s = tensor<129x65xi32, #pld.dist>
func.func @host_builtin_allreduce_ring_ring_allreduce_supports_64_fewer_ranks(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{ring allreduce supports 64 or fewer ranks, got 65}}
  "pld.builtin_allreduce_ring"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<?xf32, #pld.dist>
!s = tensor<7x4xi32, #pld.dist>
func.func @host_builtin_allreduce_ring_ring_allreduce_requires_statically_known_src(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{ring allreduce requires a statically-known src shape}}
  "pld.builtin_allreduce_ring"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

!d = tensor<66xf32, #pld.dist>
!s = tensor<7x4xi32, #pld.dist>
func.func @host_builtin_allreduce_ring_ring_allreduce_src_element_count_66(%x: !d, %s: !s, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{ring allreduce src element count (66) must be an exact multiple of the rank count (4); got a remainder of 2}}
  "pld.builtin_allreduce_ring"(%x, %s, %r) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!d, !s, index) -> ()
  return
}

// -----

func.func @host_builtin_barrier_signal_rank_1_nr_rank_2(%s: tensor<4x1xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{signal must be rank 1, one element per rank, got rank 2}}
  "pld.builtin_barrier"(%s, %r) {arg_directions = [#pld.direction<"inout">]} : (tensor<4x1xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @host_builtin_broadcast_supports_only_fp32_f16(%x: tensor<64xf16, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{supports only f32, got f16}}
  "pld.builtin_broadcast"(%x, %s, %r) {root = 0 : i64, dtype = f16, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<64xf16, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @host_builtin_broadcast_root_non_negative_3(%x: tensor<64xf32, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{root must be non-negative, got -3}}
  "pld.builtin_broadcast"(%x, %s, %r) {root = -3 : i64, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<64xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @host_builtin_reduce_scatter_op_supports_only(%x: tensor<4x16xf32, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{'pld.builtin_reduce_scatter' op supports only op = #pld.reduce_op<"sum">, got #pld.reduce_op<"min">}}
  "pld.builtin_reduce_scatter"(%x, %s, %r) {op = #pld.reduce_op<"min">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4x16xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @host_builtin_allgather_signal_nr_nr_1(%i: tensor<1x16xf32, #pld.dist>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4x2xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{signal must be tensor<NRxi32> or tensor<NRx1xi32>, NR being the number of ranks}}
  "pld.builtin_allgather"(%i, %t, %s, %r) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<1x16xf32, #pld.dist>, tensor<4x16xf32, #pld.dist>, tensor<4x2xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @host_builtin_all_to_all_supports_only_fp32_f16(%i: tensor<4x16xf16, #pld.dist>, %t: tensor<4x16xf16, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{supports only f32, got f16}}
  "pld.builtin_all_to_all"(%i, %t, %s, %r) {dtype = f16, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4x16xf16, #pld.dist>, tensor<4x16xf16, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @host_builtin_all_to_all_input_distributedtensor_window_bound_plain_tensor(%i: tensor<4x16xf32>, %t: tensor<4x16xf32, #pld.dist>, %s: tensor<4xi32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // HOST builtins read their input from a window.
  // expected-error@+1 {{input must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.builtin_all_to_all"(%i, %t, %s, %r) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<4xi32, #pld.dist>, index) -> ()
  return
}

// -----

!in = tensor<8x16xf16, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_all_to_all_v_supports_only_fp32_int8_f16(%i: !in, %t: !in, %s: !sig, %c: !cnt, %v: !rcv, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{supports only f32 or i8, got f16}}
  "pld.builtin_all_to_all_v"(%i, %t, %s, %c, %v, %r) {dtype = f16, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (!in, !in, !sig, !cnt, !rcv, index) -> ()
  return
}

// -----

!in = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @host_builtin_all_to_all_v_send_counts_distributedtensor_window_bound_plain(%i: !in, %t: !in, %s: !sig, %c: tensor<4xi32>, %v: !rcv, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{send_counts must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor}}
  "pld.builtin_all_to_all_v"(%i, %t, %s, %c, %v, %r) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (!in, !in, !sig, tensor<4xi32>, !rcv, index) -> ()
  return
}

// -----

// ===== HOST orchestration: dispatch and comm domains =====================

func.func @chip(%d: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @host_dispatch_body_hold_exactly_one_func_call(%d: tensor<64xf32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{body must hold exactly one func.call of a CHIP orchestrator, found 2}}
  "pld.dispatch"(%r) ({
    func.call @chip(%d) : (tensor<64xf32, #pld.dist>) -> ()
    func.call @chip(%d) : (tensor<64xf32, #pld.dist>) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

// A scalar helper's call in the body counts too, and is named:
func.func @chip(%d: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @pick(%r: index) -> index {
  return %r : index
}
func.func @host_dispatch_helper_call(%d: tensor<64xf32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{body must hold exactly one func.call of a CHIP orchestrator, found 2 calls (of which @pick is not a CHIP orchestrator: every call in the body counts, so compute what the dispatch needs before it, or in the CHIP orchestrator)}}
  "pld.dispatch"(%r) ({
    %i = func.call @pick(%r) : (index) -> index
    func.call @chip(%d) : (tensor<64xf32, #pld.dist>) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

// A call inside a branch of the body is not the dispatch's call (it said
// only "found 0").
func.func @chip(%d: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @host_dispatch_call_in_a_branch(%d: tensor<64xf32, #pld.dist>, %r: index, %yes: i1) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{body must hold exactly one func.call of a CHIP orchestrator, found 0 directly in its body (1 inside an op nested in it: the call must be directly in the body, so put the branch or loop in the CHIP orchestrator)}}
  "pld.dispatch"(%r) ({
    scf.if %yes {
      func.call @chip(%d) : (tensor<64xf32, #pld.dist>) -> ()
    }
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

func.func @kernel(%d: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @host_dispatched_function_kernel_chip_orchestrator_kind(%d: tensor<64xf32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{dispatched function @kernel must be a CHIP orchestrator (pld.kind "chip")}}
  "pld.dispatch"(%r) ({
    func.call @kernel(%d) : (tensor<64xf32, #pld.dist>) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

func.func @chip(%d: tensor<64xf32, #pld.dist>) -> i32 attributes {pld.kind = #pld.func_kind<"chip">} {
  %c = arith.constant 0 : i32
  return %c : i32
}
func.func @host_dispatch_body_end_gpu_yield_without_operands(%d: tensor<64xf32, #pld.dist>, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{body must end with a gpu.yield without operands}}
  "pld.dispatch"(%r) ({
    %x = func.call @chip(%d) : (tensor<64xf32, #pld.dist>) -> i32
    gpu.yield %x : i32
  }) : (index) -> ()
  return
}

// -----

func.func @host_comm_domain_requires_non_empty_name() attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{requires a non-empty 'name'}}
  "pld.comm_domain"() ({
    gpu.yield
  }) {name = "", devices = array<i64>, slots = []} : () -> ()
  return
}

// -----

func.func @host_comm_domain_devices_array_i64() attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{devices must be array<i64: ...>}}
  "pld.comm_domain"() ({
    gpu.yield
  }) {name = "comm_d0", devices = array<i32: 0>, slots = []} : () -> ()
  return
}

// -----

func.func @host_comm_domain_devices_distinct_ascending_non_negative_1() attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{devices must be distinct, ascending and non-negative, got [1, 0]}}
  "pld.comm_domain"() ({
    gpu.yield
  }) {name = "comm_d0", devices = array<i64: 1, 0>, slots = []} : () -> ()
  return
}

// -----

func.func @host_comm_domain_slots_array_non_empty_allocation_names() attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{slots must be an array of non-empty allocation names}}
  "pld.comm_domain"() ({
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = ["a", 3 : i64]} : () -> ()
  return
}

// -----

func.func @host_comm_domain_slot_appears_twice() attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{slot "a" appears twice}}
  "pld.comm_domain"() ({
    %b = arith.constant 64 : i64
    %p = "pld.tensor_alloc_window_buffer"(%b) {name = "a"} : (i64) -> !pld.ptr
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = ["a", "a"]} : () -> ()
  return
}

// -----

func.func @host_tensor_alloc_window_buffer_slot_outside_names_no_tensor_alloc() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 64 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "outside"} : (i64) -> !pld.ptr
  // expected-error@+1 {{slot "outside" names no pld.tensor_alloc_window_buffer inside the domain}}
  "pld.comm_domain"() ({
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = ["outside"]} : () -> ()
  return
}

// -----

func.func @host_comm_domain_body_end_gpu_yield_values_matching() -> i64 attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{body must end with gpu.yield of values matching the results}}
  %n = "pld.comm_domain"() ({
    %w = "pld.system_world_size"() : () -> i64
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = []} : () -> i64
  return %n : i64
}

// -----

func.func @host_comm_domain_logical_bytes_hold_one_affine_map() attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{logical_bytes must hold one affine map per slot (1), got []}}
  "pld.comm_domain"() ({
    %b = arith.constant 64 : i64
    %p = "pld.tensor_alloc_window_buffer"(%b) {name = "a"} : (i64) -> !pld.ptr
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = ["a"], logical_bytes = []} : () -> ()
  return
}

// -----

func.func @host_comm_domain_window_bytes_affine_map_64_i64() attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{window_bytes must be an affine map, got 64 : i64}}
  "pld.comm_domain"() ({
    %b = arith.constant 64 : i64
    %p = "pld.tensor_alloc_window_buffer"(%b) {name = "a"} : (i64) -> !pld.ptr
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = ["a"], window_bytes = 64 : i64} : () -> ()
  return
}

// -----

func.func @host_slot_also_slot_comm_domain_comm() attributes {pld.kind = #pld.func_kind<"host">} {
  "pld.comm_domain"() ({
    // expected-error@+1 {{slot "a" is also a slot of comm domain "comm_d0" in this function}}
    "pld.comm_domain"() ({
      %b = arith.constant 64 : i64
      %p = "pld.tensor_alloc_window_buffer"(%b) {name = "a"} : (i64) -> !pld.ptr
      gpu.yield
    }) {name = "comm_d1", devices = array<i64: 0>, slots = ["a"]} : () -> ()
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = ["a"]} : () -> ()
  return
}

// -----

// ===== local tile ops of the composite rail ==============================

func.func @tensor_view_view_keep_element_count_64_32(%t: tensor<4x16xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{the view must keep the element count (64), got 32}}
  %v = "pld.tensor_view"(%t) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16xf32, #pld.dist>) -> tensor<1x32xf32, #pld.dist>
  return
}

// -----

// A dynamic size given by a constant counts: 100 of 128 passed, and the
// PTO conversion then blamed "static tensor shapes at kernel boundaries".
func.func @tensor_view_constant_dynamic_size(%t: tensor<128xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c100 = arith.constant 100 : index
  // expected-error@+1 {{the view must keep the element count (128), got 100}}
  %v = "pld.tensor_view"(%t, %c100) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128xf32, #pld.dist>, index) -> tensor<1x?xf32, #pld.dist>
  return
}

// -----

func.func @tensor_view_view_distributed_tensor_like_source_plain(%t: tensor<4x16xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{the view must be a distributed tensor like its source, got a plain tensor}}
  %v = "pld.tensor_view"(%t) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16xf32, #pld.dist>) -> tensor<1x64xf32>
  return
}

// -----

func.func @tensor_view_source_view_only_supports_nd_layout(%t: tensor<4x16xf32, #pld.dist_with<{layout = "dn"}>>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{source view only supports ND layout}}
  %v = "pld.tensor_view"(%t) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16xf32, #pld.dist_with<{layout = "dn"}>>) -> tensor<1x64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_view_source_shape_reinterpret_requires_packed_source(%t: tensor<4x16xf32, #pld.dist_with<{strides = array<i64: 32, 1>}>>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{source shape reinterpret requires a packed source}}
  %v = "pld.tensor_view"(%t) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16xf32, #pld.dist_with<{strides = array<i64: 32, 1>}>>) -> tensor<1x64xf32, #pld.dist>
  return
}

// -----

func.func @tensor_view_expected_1_dynamic_size_operands_one(%t: tensor<?xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 1 dynamic size operands (one per '?' in the result type), got 0}}
  %v = "pld.tensor_view"(%t) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<?xf32, #pld.dist>) -> tensor<1x?xf32, #pld.dist>
  return
}

// -----

func.func @tensor_view_expected_0_2_valid_shape_extents(%t: tensor<64xf32, #pld.dist>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 0 or 2 valid_shape extents (one per dimension), got 1}}
  %v = "pld.tensor_view"(%t, %i) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<64xf32, #pld.dist>, index) -> tensor<1x64xf32, #pld.dist>
  return
}

// -----

func.func @tile_create_tile_s_physical_shape_static() attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{a tile's physical shape must be static}}
  %t = "pld.tile_create"() : () -> tensor<1x?xf32, #pld.tile>
  return
}

// -----

func.func @tile_create_result_tile_tile_encoding_plain_tensor() attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{result must be a tile (#pld.tile encoding), got a plain tensor}}
  %t = "pld.tile_create"() : () -> tensor<1x8xf32>
  return
}

// -----

func.func @tile_load_expected_2_offsets_one_per_dimension(%t: tensor<1x64xf32, #pld.dist>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 offsets (one per dimension of source), got 1}}
  %r = "pld.tile_load"(%t, %i) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x64xf32, #pld.dist>, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_load_tile_rank_1_equal_source_rank(%t: tensor<1x64xf32, #pld.dist>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{tile rank 1 must equal the source rank 2}}
  %r = "pld.tile_load"(%t, %i, %i) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, index, index) -> tensor<64xf32, #pld.tile>
  return
}

// -----

func.func @tile_load_tile_dtype_f16_equal_source_dtype(%t: tensor<1x64xf32, #pld.dist>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{tile dtype f16 must equal the source dtype f32}}
  %r = "pld.tile_load"(%t, %i, %i) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, index, index) -> tensor<1x64xf16, #pld.tile>
  return
}

// -----

func.func @tile_load_valid_shape_extents_not_negative_4(%t: tensor<1x64xf32, #pld.dist>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  %m = arith.constant -4 : index
  // expected-error@+1 {{valid_shape extents must not be negative, got -4}}
  %r = "pld.tile_load"(%t, %i, %i, %i, %m) {operandSegmentSizes = array<i32: 1, 2, 2>} : (tensor<1x64xf32, #pld.dist>, index, index, index, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_store_tile_tile_plain_tensor(%t: tensor<1x64xf32, #pld.dist>, %x: tensor<1x64xf32>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{tile must be a tile, got a plain tensor}}
  "pld.tile_store"(%x, %t, %i, %i) : (tensor<1x64xf32>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  return
}

// -----

func.func @tile_store_tile_rank_2_equal_target_rank(%t: tensor<64xf32, #pld.dist>, %x: tensor<1x64xf32, #pld.tile>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{tile rank 2 must equal the target rank 1}}
  "pld.tile_store"(%x, %t, %i) : (tensor<1x64xf32, #pld.tile>, tensor<64xf32, #pld.dist>, index) -> ()
  return
}

// -----

func.func @tile_fillpad_tile_result_have_same_physical_shape(%x: tensor<1x64xf32, #pld.tile>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{tile and result must have the same physical shape and dtype, got 1x64xf32 and 1x32xf32}}
  %f = "pld.tile_fillpad"(%x) : (tensor<1x64xf32, #pld.tile>) -> tensor<1x32xf32, #pld.tile>
  return
}

// -----

func.func @tile_fillpad_result_fill_pad_fully_valid_type(%x: tensor<1x64xf32, #pld.tile>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{the result of a fill-pad is fully valid: its type has no partial valid_shape}}
  %f = "pld.tile_fillpad"(%x) : (tensor<1x64xf32, #pld.tile>) -> tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, 8>}>>
  return
}

// -----

func.func @tile_set_validshape_expected_2_valid_shape_extents_one(%x: tensor<1x64xf32, #pld.tile>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 valid_shape extents (one per dimension), got 1}}
  %v = "pld.tile_set_validshape"(%x, %i) : (tensor<1x64xf32, #pld.tile>, index) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_add_lhs_rhs_have_same_physical_shape(%x: tensor<1x64xf32, #pld.tile>, %y: tensor<1x64xf16, #pld.tile>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{lhs and rhs must have the same physical shape and dtype, got 1x64xf32 and 1x64xf16}}
  %s = "pld.tile_add"(%x, %y) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf16, #pld.tile>) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tile_mul_rhs_tile_plain_tensor(%x: tensor<1x64xf32, #pld.tile>, %y: tensor<1x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{rhs must be a tile, got a plain tensor}}
  %s = "pld.tile_mul"(%x, %y) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32>) -> tensor<1x64xf32, #pld.tile>
  return
}

// -----

func.func @tensor_read_result_type_i64_element_type_i32(%t: tensor<4xi32>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{result type i64 must be the element type i32 of the source}}
  %v = "pld.tensor_read"(%t, %i) : (tensor<4xi32>, index) -> i64
  return
}

// -----

func.func @tensor_read_expected_2_indices_one_per_dimension(%t: tensor<4x1xi32>, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{expected 2 indices (one per dimension of source), got 1}}
  %v = "pld.tensor_read"(%t, %i) : (tensor<4x1xi32>, index) -> i32
  return
}

// -----

// A multi-block builtin all_to_all_v requests at least one block.
!in = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x2xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @h(%i: !in, %t: !in, %s: !sig, %c: !cnt, %v: !rcv, %r: index) attributes {pld.kind = #pld.func_kind<"host">} {
  %zero = arith.constant 0 : index
  // expected-error@+1 {{core_num must be positive, got 0}}
  "pld.builtin_all_to_all_v"(%i, %t, %s, %c, %v, %r, %zero) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (!in, !in, !sig, !cnt, !rcv, index, index) -> ()
  return
}

// -----

// G1b: names the lowering and the compiled code can carry (recheck27c M1, M2).
// expected-error@+1 {{function @"" has an empty name; the functions pld makes of it are named after it: give it one}}
func.func @""() attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// expected-error@+1 {{function @"k\00x" has a NUL byte in its name, which no compiled function can carry; rename it}}
func.func @"k\00x"() attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
