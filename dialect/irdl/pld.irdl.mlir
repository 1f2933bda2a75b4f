// The `pld` dialect: distributed tensor collectives for Ascend NPUs.
//
// This file is the single source of truth for the ops, types and attributes
// of the dialect. It loads in stock MLIR:
//
//   mlir-opt --irdl-file=dialect/irdl/pld.irdl.mlir input.mlir
//
// Op names. The spec groups ops as pld.<group>.<op> (pld.tensor.allreduce,
// pld.tile.remote_load, pld.system.notify, and the internal builtin.tensor.*
// targets). IRDL in LLVM 22 only accepts [a-z0-9_] in op names, so the group
// is joined with an underscore: pld.tensor_allreduce, pld.tile_remote_load,
// pld.system_notify, pld.builtin_allreduce.
//
// IRDL checks operand/result arity and base kinds. Everything else (which
// tensor is distributed, ranks of offset tuples, dtypes, enum values, which
// function kinds may hold which ops, ...) is checked by the Rust semantic
// verifier `pld-verify` (dialect/src/verify). See docs/dialect.md.
//
// Conventions used below.
// * Tensors are builtin ranked tensors; the encoding says what they are:
//     tensor<4x1xi32, #pld.dist>            distributed (window-bound) tensor
//     tensor<4x1xi32, #pld.dist_with<{..}>> distributed, with a view/binding
//     tensor<16xf32>                        plain tensor (no encoding)
//     tensor<16xf32, #pld.view<{..}>>       plain tensor with a view
//     tensor<1x256xf32, #pld.tile>          on-chip tile
//     tensor<1x256xf32, #pld.tile_with<{..}>> tile with valid shape / layout
// * Enums are attributes holding the member name, e.g. #pld.reduce_op<"sum">.
//   Their ABI values (the order below) are an append-only contract.
// * Attributes IRDL lists in `irdl.attributes` are required. Optional
//   attributes are named in the comment of their op ("optional:") and are
//   checked by pld-verify.
// * IRDL cannot mark an op as a terminator, so the regions of
//   `pld.comm_domain` and `pld.dispatch` end with the upstream `gpu.yield`.
// * IRDL binds each constraint value to the first attribute or type it
//   matches, so two operands that may differ have constraints of their own.

irdl.dialect @pld {

  // ------------------------------------------------------------------ types

  // Allocation-identity token returned by pld.tensor.alloc_window_buffer.
  irdl.type @ptr {
    irdl.parameters()
  }

  // Handle to the runtime CommContext of a distributed tensor.
  irdl.type @ctx {
    irdl.parameters()
  }

  // ------------------------------------------------------ tensor encodings

  // Distributed tensor: packed ND layout, fully valid, not yet bound to a
  // window buffer.
  irdl.attribute @dist {
    irdl.parameters()
  }

  // Distributed tensor with properties. Keys (all optional):
  //   layout = "nd" | "dn" | "nz" | "mx_a_zz" | "mx_b_nn"
  //   strides = array<i64: ...>       explicit element strides
  //   valid_shape = array<i64: ...>   valid region (a genuine partial region)
  //   window = "<alloc name>"         window buffer the view is bound to
  irdl.attribute @dist_with {
    %props = irdl.base "#builtin.dictionary"
    irdl.parameters(props: %props)
  }

  // Plain tensor with a view: keys layout, strides, valid_shape as above.
  irdl.attribute @view {
    %props = irdl.base "#builtin.dictionary"
    irdl.parameters(props: %props)
  }

  // On-chip tile, fully valid, row-major.
  irdl.attribute @tile {
    irdl.parameters()
  }

  // Tile with properties. Keys (all optional):
  //   valid_shape = array<i64: ...>   -1 marks a runtime extent
  //   blayout = "row_major" | "col_major"
  irdl.attribute @tile_with {
    %props = irdl.base "#builtin.dictionary"
    irdl.parameters(props: %props)
  }

  // ------------------------------------------------------------------ enums

  // ReduceOp: "sum" = 0, "max" = 1, "min" = 2, "prod" = 3.
  irdl.attribute @reduce_op {
    %v = irdl.base "#builtin.string"
    irdl.parameters(value: %v)
  }

  // NotifyOp: "atomic_add" = 0, "set" = 1.
  irdl.attribute @notify_op {
    %v = irdl.base "#builtin.string"
    irdl.parameters(value: %v)
  }

  // WaitCmp: "eq" = 0, "ge" = 1.
  irdl.attribute @wait_cmp {
    %v = irdl.base "#builtin.string"
    irdl.parameters(value: %v)
  }

  // AtomicType: "none" = 0, "add" = 1.
  irdl.attribute @atomic_type {
    %v = irdl.base "#builtin.string"
    irdl.parameters(value: %v)
  }

  // Function kind, on func.func as `pld.kind`:
  //   "host" (HOST orchestrator), "chip" (CHIP/L2 orchestrator),
  //   "incore" (InCore kernel), "aiv" (vector kernel), "aic" (cube kernel).
  irdl.attribute @func_kind {
    %v = irdl.base "#builtin.string"
    irdl.parameters(value: %v)
  }

  // Call direction of a kernel argument: "in", "out", "inout", "scalar".
  irdl.attribute @direction {
    %v = irdl.base "#builtin.string"
    irdl.parameters(value: %v)
  }

  // ------------------------------------- 4.1 window allocation and views

  // %buf = alloc_window_buffer(%bytes) {name}: per-rank byte count.
  irdl.operation @tensor_alloc_window_buffer {
    %i64 = irdl.is i64
    %index = irdl.is index
    %size = irdl.any_of(%i64, %index)
    %ptr = irdl.base @pld::@ptr
    %name = irdl.base "#builtin.string"
    irdl.operands(size: %size)
    irdl.results(buffer: %ptr)
    irdl.attributes { "name" = %name }
  }

  // %v = window(%buf, dynamic dims...): one operand per `?` of the result.
  irdl.operation @tensor_window {
    %ptr = irdl.base @pld::@ptr
    %idx = irdl.is index
    %t = irdl.base "!builtin.tensor"
    irdl.operands(buffer: %ptr, dynamic_sizes: variadic %idx)
    irdl.results(view: %t)
  }

  irdl.operation @system_world_size {
    %i64 = irdl.is i64
    irdl.results(size: %i64)
  }

  // ------------------------------------ 4.2 communication-context queries

  irdl.operation @system_get_comm_ctx {
    %t = irdl.base "!builtin.tensor"
    %ctx = irdl.base @pld::@ctx
    irdl.operands(tensor: %t)
    irdl.results(ctx: %ctx)
  }

  irdl.operation @system_rank {
    %ctx = irdl.base @pld::@ctx
    %i32 = irdl.is i32
    irdl.operands(ctx: %ctx)
    irdl.results(rank: %i32)
  }

  irdl.operation @system_nranks {
    %ctx = irdl.base @pld::@ctx
    %i32 = irdl.is i32
    irdl.operands(ctx: %ctx)
    irdl.results(nranks: %i32)
  }

  // ------------------------------------------------ 4.3 signal primitives

  irdl.operation @system_notify {
    %t = irdl.base "!builtin.tensor"
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %idx = irdl.is index
    %op = irdl.base @pld::@notify_op
    %peer = irdl.any_of(%i32, %i64, %index)
    %value = irdl.any_of(%i32, %i64, %index)
    irdl.operands(target: %t, peer: %peer, offsets: variadic %idx, value: %value)
    irdl.attributes { "op" = %op }
  }

  irdl.operation @system_wait {
    %t = irdl.base "!builtin.tensor"
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %cmp = irdl.base @pld::@wait_cmp
    irdl.operands(signal: %t, offsets: variadic %idx, expected: %int)
    irdl.attributes { "cmp" = %cmp }
  }

  irdl.operation @system_defer_wait {
    %t = irdl.base "!builtin.tensor"
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %cmp = irdl.base @pld::@wait_cmp
    irdl.operands(signal: %t, offsets: variadic %idx, expected: %int)
    irdl.attributes { "cmp" = %cmp }
  }

  // ---------------------------------------------- 4.4 remote data movement

  // The tile shape is the result type's shape; valid_shape is empty or one
  // extent per dimension.
  irdl.operation @tile_remote_load {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %target = irdl.base "!builtin.tensor"
    %tile = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, peer: %int, offsets: variadic %idx, valid_shape: variadic %idx)
    irdl.results(tile: %tile)
  }

  // Lowering-internal FP16 variant that may read a ragged tail rounded up to
  // one 32-byte block (15 elements past the last physical column).
  irdl.operation @tile_remote_load_with_physical_tail_padding {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %target = irdl.base "!builtin.tensor"
    %tile = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, peer: %int, offsets: variadic %idx, valid_shape: variadic %idx)
    irdl.results(tile: %tile)
  }

  // optional: atomic (#pld.atomic_type, default "none")
  irdl.operation @tile_remote_store {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %src = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    irdl.operands(src: %src, target: %target, peer: %int, offsets: variadic %idx)
  }

  // optional: atomic (#pld.atomic_type, default "none")
  irdl.operation @tensor_remote_store {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %src = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    irdl.operands(src: %src, target: %target, peer: %int, offsets: variadic %idx)
  }

  // optional: atomic (#pld.atomic_type), chunk_rows, chunk_cols (i64),
  //           pipeline (bool)
  irdl.operation @tensor_put {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %dst = irdl.base "!builtin.tensor"
    %src = irdl.base "!builtin.tensor"
    irdl.operands(dst: %dst, peer: %int, src: %src, dst_offsets: variadic %idx, src_offsets: variadic %idx, shape: variadic %idx)
  }

  // optional: chunk_rows, chunk_cols (i64), pipeline (bool)
  irdl.operation @tensor_get {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %dst = irdl.base "!builtin.tensor"
    %src = irdl.base "!builtin.tensor"
    irdl.operands(dst: %dst, peer: %int, src: %src, dst_offsets: variadic %idx, src_offsets: variadic %idx, shape: variadic %idx)
  }

  // optional: atomic (#pld.atomic_type, default "none")
  irdl.operation @tile_put {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %dst = irdl.base "!builtin.tensor"
    %src = irdl.base "!builtin.tensor"
    %stage = irdl.base "!builtin.tensor"
    %pong = irdl.base "!builtin.tensor"
    irdl.operands(dst: %dst, peer: %int, src: %src, stage: %stage, pong: optional %pong, dst_offsets: variadic %idx, src_offsets: variadic %idx, shape: variadic %idx)
  }

  irdl.operation @tile_get {
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %index = irdl.is index
    %int = irdl.any_of(%i32, %i64, %index)
    %idx = irdl.is index
    %dst = irdl.base "!builtin.tensor"
    %src = irdl.base "!builtin.tensor"
    %stage = irdl.base "!builtin.tensor"
    %pong = irdl.base "!builtin.tensor"
    irdl.operands(dst: %dst, peer: %int, src: %src, stage: %stage, pong: optional %pong, dst_offsets: variadic %idx, src_offsets: variadic %idx, shape: variadic %idx)
  }

  // ------------------------------------------------------- 4.5 allreduce

  // optional: mode (string, default "mesh"; the rails' passes accept "mesh"
  //           and "ring"), core_num (integer, default 1)
  irdl.operation @tensor_allreduce {
    %op = irdl.base @pld::@reduce_op
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, signal: optional %signal)
    irdl.results(result: %result)
    irdl.attributes { "op" = %op }
  }

  // ------------------------------------ 4.6 other composite collectives

  irdl.operation @tensor_barrier {
    %signal = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(signal: %signal)
    irdl.results(result: %result)
  }

  irdl.operation @tensor_broadcast {
    %root = irdl.base "#builtin.integer"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, signal: %signal)
    irdl.results(result: %result)
    irdl.attributes { "root" = %root }
  }

  irdl.operation @tensor_reduce_scatter {
    %op = irdl.base @pld::@reduce_op
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, signal: %signal)
    irdl.results(result: %result)
    irdl.attributes { "op" = %op }
  }

  irdl.operation @tensor_reduce {
    %op = irdl.base @pld::@reduce_op
    %root = irdl.base "#builtin.integer"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, signal: %signal)
    irdl.results(result: %result)
    irdl.attributes { "op" = %op, "root" = %root }
  }

  irdl.operation @tensor_allgather {
    %input = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, target: %target, signal: %signal)
    irdl.results(result: %result)
  }

  irdl.operation @tensor_all_to_all {
    %input = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, target: %target, signal: %signal)
    irdl.results(result: %result)
  }

  // ------------------------------------------------- 4.7 all_to_all_v

  irdl.operation @tensor_all_to_all_v {
    %idx = irdl.is index
    %input = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %send_counts = irdl.base "!builtin.tensor"
    %recv_counts = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, target: %target, signal: %signal, send_counts: %send_counts, recv_counts: %recv_counts, core_num: optional %idx)
    irdl.results(result: %result)
  }

  // ----------------------------------------- 4.8 indexed_all_to_all_v

  irdl.operation @tensor_indexed_all_to_all_v {
    %idx = irdl.is index
    %input = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %send_counts = irdl.base "!builtin.tensor"
    %recv_counts = irdl.base "!builtin.tensor"
    %index = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, target: %target, signal: %signal, send_counts: %send_counts, recv_counts: %recv_counts, index: %index, core_num: optional %idx)
    irdl.results(result: %result)
  }

  // ---------------------------- 4.9 builtin dispatches (HOST rail targets)
  //
  // One op per device: `device` is the worker index. `arg_directions` holds
  // one #pld.direction per tensor operand; `dtype` is the element type.

  irdl.operation @builtin_allreduce {
    %idx = irdl.is index
    %op = irdl.base @pld::@reduce_op
    %int = irdl.base "#builtin.integer"
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %src = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(src: %src, signal: %signal, device: %idx)
    irdl.attributes { "op" = %op, "dtype" = %ty, "core_num" = %int, "arg_directions" = %dirs }
  }

  irdl.operation @builtin_allreduce_ring {
    %idx = irdl.is index
    %op = irdl.base @pld::@reduce_op
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %src = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(src: %src, signal: %signal, device: %idx)
    irdl.attributes { "op" = %op, "dtype" = %ty, "arg_directions" = %dirs }
  }

  // The two-shot allreduce (docs/algorithms.md): core_num lanes, as the mesh's.
  irdl.operation @builtin_allreduce_two_shot {
    %idx = irdl.is index
    %op = irdl.base @pld::@reduce_op
    %int = irdl.base "#builtin.integer"
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %src = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(src: %src, signal: %signal, device: %idx)
    irdl.attributes { "op" = %op, "dtype" = %ty, "core_num" = %int, "arg_directions" = %dirs }
  }

  irdl.operation @builtin_barrier {
    %t = irdl.base "!builtin.tensor"
    %idx = irdl.is index
    %dirs = irdl.base "#builtin.array"
    irdl.operands(signal: %t, device: %idx)
    irdl.attributes { "arg_directions" = %dirs }
  }

  irdl.operation @builtin_broadcast {
    %idx = irdl.is index
    %int = irdl.base "#builtin.integer"
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, signal: %signal, device: %idx)
    irdl.attributes { "root" = %int, "dtype" = %ty, "arg_directions" = %dirs }
  }

  irdl.operation @builtin_reduce_scatter {
    %idx = irdl.is index
    %op = irdl.base @pld::@reduce_op
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, signal: %signal, device: %idx)
    irdl.attributes { "op" = %op, "dtype" = %ty, "arg_directions" = %dirs }
  }

  irdl.operation @builtin_reduce {
    %idx = irdl.is index
    %op = irdl.base @pld::@reduce_op
    %int = irdl.base "#builtin.integer"
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(target: %target, signal: %signal, device: %idx)
    irdl.attributes { "op" = %op, "root" = %int, "dtype" = %ty, "arg_directions" = %dirs }
  }

  irdl.operation @builtin_allgather {
    %idx = irdl.is index
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %input = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, target: %target, signal: %signal, device: %idx)
    irdl.attributes { "dtype" = %ty, "arg_directions" = %dirs }
  }

  irdl.operation @builtin_all_to_all {
    %idx = irdl.is index
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %input = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, target: %target, signal: %signal, device: %idx)
    irdl.attributes { "dtype" = %ty, "arg_directions" = %dirs }
  }

  irdl.operation @builtin_all_to_all_v {
    %idx = irdl.is index
    %dirs = irdl.base "#builtin.array"
    %ty = irdl.any
    %input = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %signal = irdl.base "!builtin.tensor"
    %send_counts = irdl.base "!builtin.tensor"
    %recv_counts = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, target: %target, signal: %signal, send_counts: %send_counts, recv_counts: %recv_counts, device: %idx, core_num: optional %idx)
    irdl.attributes { "dtype" = %ty, "arg_directions" = %dirs }
  }

  // ------------------------------------------- 4.10 memory consistency

  // Region form: tensor plus one size and one offset per dimension.
  // Whole-GM form: no operands.
  irdl.operation @system_cacheinvalid {
    %t = irdl.base "!builtin.tensor"
    %idx = irdl.is index
    irdl.operands(tensor: optional %t, sizes: variadic %idx, offsets: variadic %idx)
  }

  irdl.operation @system_fence {
    irdl.operands()
  }

  // --------------------------------- local tiles (the composite rail's)
  //
  // The composite (InCore) rail expands collectives into these local ops
  // next to the remote ones; convert-pld-to-pto maps them to PTO. A tile's
  // physical shape is its type's; its valid region is the type's
  // valid_shape property (-1 for a runtime extent) or, when set at run
  // time, the extents given to the op that made it.

  // %v = tensor_view(%t, dynamic dims..., valid...): the packed tensor %t
  // seen in another shape (same elements, same order).
  irdl.operation @tensor_view {
    %source = irdl.base "!builtin.tensor"
    %idx = irdl.is index
    %view = irdl.base "!builtin.tensor"
    irdl.operands(source: %source, dynamic_sizes: variadic %idx, valid_shape: variadic %idx)
    irdl.results(view: %view)
  }

  // %v = tensor_read(%t, indices...): one element of a tensor (a scalar load).
  irdl.operation @tensor_read {
    %source = irdl.base "!builtin.tensor"
    %idx = irdl.is index
    %value = irdl.any
    irdl.operands(source: %source, indices: variadic %idx)
    irdl.results(value: %value)
  }

  // %t = tile_create: an uninitialised tile (a staging buffer).
  irdl.operation @tile_create {
    %tile = irdl.base "!builtin.tensor"
    irdl.results(tile: %tile)
  }

  // %t = tile_load(%src, offsets..., valid...): a local load.
  irdl.operation @tile_load {
    %source = irdl.base "!builtin.tensor"
    %idx = irdl.is index
    %tile = irdl.base "!builtin.tensor"
    irdl.operands(source: %source, offsets: variadic %idx, valid_shape: variadic %idx)
    irdl.results(tile: %tile)
  }

  // tile_store(%t, %dst, offsets...): stores the tile's valid region.
  irdl.operation @tile_store {
    %tile = irdl.base "!builtin.tensor"
    %target = irdl.base "!builtin.tensor"
    %idx = irdl.is index
    irdl.operands(tile: %tile, target: %target, offsets: variadic %idx)
  }

  // %f = tile_fillpad(%t): the tile, fully valid, its padding zeroed.
  irdl.operation @tile_fillpad {
    %tile = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(tile: %tile)
    irdl.results(result: %result)
  }

  // %v = tile_set_validshape(%t, valid...): the tile with a new valid region.
  irdl.operation @tile_set_validshape {
    %tile = irdl.base "!builtin.tensor"
    %idx = irdl.is index
    %result = irdl.base "!builtin.tensor"
    irdl.operands(tile: %tile, valid_shape: variadic %idx)
    irdl.results(result: %result)
  }

  // Elementwise reductions of two tiles (ReduceOp sum/max/min/prod).
  irdl.operation @tile_add {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @tile_maximum {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @tile_minimum {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  irdl.operation @tile_mul {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %result = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %result)
  }

  // ------------------------------------ HOST orchestration (design.md 3)

  // Per-device dispatch of a CHIP orchestrator from a HOST orchestrator.
  // The body holds the call (a func.call of a CHIP orchestrator) and ends
  // with gpu.yield; IRDL unifies the types of a variadic operand group, so
  // the call's mixed-type arguments cannot be operands of this op:
  //   "pld.dispatch"(%device) ({
  //     func.call @chip_step(%data) : (tensor<64xf32, #pld.dist>) -> ()
  //     gpu.yield
  //   }) : (index) -> ()
  irdl.operation @dispatch {
    %idx = irdl.is index
    %body = irdl.region
    irdl.operands(device: %idx)
    irdl.regions(body: %body)
  }

  // A comm domain: window buffers (by allocation name) allocated together
  // on a set of devices (empty = all devices). The body ends with gpu.yield,
  // whose operands become the results (IRDL requires them to share a type).
  irdl.operation @comm_domain {
    %any = irdl.any
    %name = irdl.base "#builtin.string"
    %devices = irdl.base "#builtin.dense_array"
    %slots = irdl.base "#builtin.array"
    %body = irdl.region
    irdl.results(results: variadic %any)
    irdl.regions(body: %body)
    irdl.attributes { "name" = %name, "devices" = %devices, "slots" = %slots }
  }
}
