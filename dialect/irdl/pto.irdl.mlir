// The subset of the PTO dialect (the PTOAS assembler's IR) that pld emits.
//
// Op, attribute and enum member names are PTOAS's. Two things differ from
// PTOAS's own text form, both forced by IRDL, and both undone by
// `pld-translate --emit=pto`, which writes the custom syntax PTOAS parses:
// * IRDL op names cannot contain a dot, so `pto.comm.tnotify` is
//   `pto.comm_tnotify`, `pto.fence.barrier_all` is `pto.fence_barrier_all`
//   and `pto.cmo.cacheinvalid` is `pto.cmo_cacheinvalid`.
// * IRDL type parameters are attributes, so shapes are carried by a builtin
//   tensor type: PTOAS `!pto.tensor_view<?x?xf32>` is
//   `!pto.tensor_view<tensor<?x?xf32>>`, and a tile buffer is
//   `!pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>`
//   (-1 marks a runtime extent; other keys: blayout, slayout, fractal, pad).
// Enum attributes hold the PTOAS member name: #pto.notify_op<"atomic_add">
// is PTOAS `#pto<notify_op atomic_add>`.
// Optional attributes are named in an op's comment ("optional:").

irdl.dialect @pto {

  // ------------------------------------------------------------------ types

  // Global-memory pointer: !pto.ptr<f32>.
  irdl.type @ptr {
    %elem = irdl.any
    irdl.parameters(elem: %elem)
  }

  // View of global memory: !pto.tensor_view<tensor<?x?xf32>>.
  irdl.type @tensor_view {
    %shape = irdl.base "!builtin.tensor"
    irdl.parameters(shape: %shape)
  }

  // Sub-view consumed by tload/tstore/comm ops.
  irdl.type @partition_tensor_view {
    %shape = irdl.base "!builtin.tensor"
    irdl.parameters(shape: %shape)
  }

  // Local (UB) tile buffer: location, physical shape and dtype, properties.
  irdl.type @tile_buf {
    %v0 = irdl.is "vec"
    %v1 = irdl.is "mat"
    %v2 = irdl.is "left"
    %v3 = irdl.is "right"
    %v4 = irdl.is "acc"
    %v5 = irdl.is "bias"
    %v6 = irdl.is "scaling"
    %loc = irdl.any_of(%v0, %v1, %v2, %v3, %v4, %v5, %v6)
    %shape = irdl.base "!builtin.tensor"
    %props = irdl.base "#builtin.dictionary"
    irdl.parameters(loc: %loc, shape: %shape, props: %props)
  }

  // Handle of an asynchronous DMA session (PTOAS !pto.async_session).
  irdl.type @async_session {
    irdl.parameters()
  }

  // Handle of one asynchronous copy's completion (PTOAS !pto.async_event).
  irdl.type @async_event {
    irdl.parameters()
  }

  // ------------------------------------------------------------- attributes

  // Layout of make_tensor_view (PTOAS #pto.layout<nd>).
  irdl.attribute @layout {
    %v0 = irdl.is "nd"
    %v1 = irdl.is "dn"
    %v2 = irdl.is "nz"
    %v3 = irdl.is "mx_a_zz"
    %v4 = irdl.is "mx_b_nn"
    %value = irdl.any_of(%v0, %v1, %v2, %v3, %v4)
    irdl.parameters(value: %value)
  }

  // PTOAS #pto<atomic_type atomic_none>.
  irdl.attribute @atomic_type {
    %v0 = irdl.is "atomic_none"
    %v1 = irdl.is "atomic_add"
    %value = irdl.any_of(%v0, %v1)
    irdl.parameters(value: %value)
  }

  // PTOAS #pto<notify_op atomic_add>; values 0, 1.
  irdl.attribute @notify_op {
    %v0 = irdl.is "atomic_add"
    %v1 = irdl.is "set"
    %value = irdl.any_of(%v0, %v1)
    irdl.parameters(value: %value)
  }

  // PTOAS #pto<wait_cmp ge>; values 0..5.
  irdl.attribute @wait_cmp {
    %v0 = irdl.is "eq"
    %v1 = irdl.is "ne"
    %v2 = irdl.is "gt"
    %v3 = irdl.is "ge"
    %v4 = irdl.is "lt"
    %v5 = irdl.is "le"
    %value = irdl.any_of(%v0, %v1, %v2, %v3, %v4, %v5)
    irdl.parameters(value: %value)
  }

  // PTOAS #pto.pipe<PIPE_ALL>.
  irdl.attribute @pipe {
    %v0 = irdl.is "PIPE_S"
    %v1 = irdl.is "PIPE_V"
    %v2 = irdl.is "PIPE_M"
    %v3 = irdl.is "PIPE_MTE1"
    %v4 = irdl.is "PIPE_MTE2"
    %v5 = irdl.is "PIPE_MTE3"
    %v6 = irdl.is "PIPE_ALL"
    %value = irdl.any_of(%v0, %v1, %v2, %v3, %v4, %v5, %v6)
    irdl.parameters(value: %value)
  }

  // PTOAS #pto.fence_scope<gm>.
  irdl.attribute @fence_scope {
    %v0 = irdl.is "local_memory"
    %v1 = irdl.is "gm"
    %v2 = irdl.is "all"
    %value = irdl.any_of(%v0, %v1, %v2)
    irdl.parameters(value: %value)
  }

  // PTOAS #pto.address_space<gm>.
  irdl.attribute @address_space {
    %v0 = irdl.is "zero"
    %v1 = irdl.is "gm"
    %v2 = irdl.is "mat"
    %v3 = irdl.is "left"
    %v4 = irdl.is "right"
    %v5 = irdl.is "acc"
    %v6 = irdl.is "vec"
    %v7 = irdl.is "bias"
    %v8 = irdl.is "scaling"
    %value = irdl.any_of(%v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8)
    irdl.parameters(value: %value)
  }

  // PTOAS #pto.kernel_kind<vector>, on func.func as pto.kernel_kind.
  irdl.attribute @kernel_kind {
    %v0 = irdl.is "vector"
    %v1 = irdl.is "cube"
    %value = irdl.any_of(%v0, %v1)
    irdl.parameters(value: %value)
  }

  // DMA engine of an async session (pto::comm::DmaEngine): SDMA, or URMA
  // (A5 only, PER_PEER queues). PTOAS #pto<dma_engine urma>.
  irdl.attribute @dma_engine {
    %v0 = irdl.is "sdma"
    %v1 = irdl.is "urma"
    %value = irdl.any_of(%v0, %v1)
    irdl.parameters(value: %value)
  }

  // Extent of cmo.cacheinvalid: the whole cache or the line of the view's base.
  irdl.attribute @cache_line {
    %v0 = irdl.is "all"
    %v1 = irdl.is "single_cache_line"
    %value = irdl.any_of(%v0, %v1)
    irdl.parameters(value: %value)
  }

  // ------------------------------------------------------------------ ops

  // %v = load_scalar %ptr[%offset]: reads element `offset` (elements, not bytes).
  irdl.operation @load_scalar {
    %ptr = irdl.base @pto::@ptr
    %idx = irdl.is index
    %any = irdl.any
    irdl.operands(ptr: %ptr, offset: %idx)
    irdl.results(value: %any)
  }

  irdl.operation @store_scalar {
    %ptr = irdl.base @pto::@ptr
    %idx = irdl.is index
    %any = irdl.any
    irdl.operands(value: %any, ptr: %ptr, offset: %idx)
  }

  // Pointer plus an element offset; must feed make_tensor_view in the same function.
  irdl.operation @addptr {
    %ptr = irdl.base @pto::@ptr
    %idx = irdl.is index
    irdl.operands(ptr: %ptr, offset: %idx)
    irdl.results(result: %ptr)
  }

  irdl.operation @make_tensor_view {
    %ptr = irdl.base @pto::@ptr
    %idx = irdl.is index
    %view = irdl.base @pto::@tensor_view
    %layout = irdl.base @pto::@layout
    irdl.operands(ptr: %ptr, shape: variadic %idx, strides: variadic %idx)
    irdl.results(view: %view)
    irdl.attributes { "layout" = %layout }
  }

  irdl.operation @partition_view {
    %view = irdl.base @pto::@tensor_view
    %idx = irdl.is index
    %part = irdl.base @pto::@partition_tensor_view
    irdl.operands(source: %view, offsets: variadic %idx, sizes: variadic %idx)
    irdl.results(result: %part)
  }

  irdl.operation @alloc_tile {
    %i64 = irdl.is i64
    %idx = irdl.is index
    %tile = irdl.base @pto::@tile_buf
    irdl.operands(addr: optional %i64, valid_row: optional %idx, valid_col: optional %idx)
    irdl.results(tile: %tile)
  }

  irdl.operation @set_validshape {
    %tile = irdl.base @pto::@tile_buf
    %idx = irdl.is index
    irdl.operands(tile: %tile, row: %idx, col: %idx)
  }

  irdl.operation @get_validshape {
    %tile = irdl.base @pto::@tile_buf
    %idx = irdl.is index
    irdl.operands(tile: %tile)
    irdl.results(row: %idx, col: %idx)
  }

  // Global memory -> tile (PIPE_MTE2).
  irdl.operation @tload {
    %part = irdl.base @pto::@partition_tensor_view
    %tile = irdl.base @pto::@tile_buf
    %pad_value = irdl.any
    %left_padding_num = irdl.any
    %right_padding_num = irdl.any
    %init_condition = irdl.any
    irdl.operands(src: %part, dst: %tile, pad_value: optional %pad_value, left_padding_num: optional %left_padding_num, right_padding_num: optional %right_padding_num, init_condition: optional %init_condition)
  }

  // Tile -> global memory (PIPE_MTE3). optional: atomicType (#pto.atomic_type).
  irdl.operation @tstore {
    %part = irdl.base @pto::@partition_tensor_view
    %i64 = irdl.is i64
    %src = irdl.base @pto::@tile_buf
    %fp = irdl.base @pto::@tile_buf
    irdl.operands(src: %src, dst: %part, fp: optional %fp, pre_quant_scalar: optional %i64)
  }

  // dst = add(src0, src1), elementwise over the valid region; dst may be src0.
  irdl.operation @tadd {
    %src0 = irdl.base @pto::@tile_buf
    %src1 = irdl.base @pto::@tile_buf
    %dst = irdl.base @pto::@tile_buf
    irdl.operands(src0: %src0, src1: %src1, dst: %dst)
  }

  // dst = max(src0, src1), elementwise over the valid region; dst may be src0.
  irdl.operation @tmax {
    %src0 = irdl.base @pto::@tile_buf
    %src1 = irdl.base @pto::@tile_buf
    %dst = irdl.base @pto::@tile_buf
    irdl.operands(src0: %src0, src1: %src1, dst: %dst)
  }

  // dst = min(src0, src1), elementwise over the valid region; dst may be src0.
  irdl.operation @tmin {
    %src0 = irdl.base @pto::@tile_buf
    %src1 = irdl.base @pto::@tile_buf
    %dst = irdl.base @pto::@tile_buf
    irdl.operands(src0: %src0, src1: %src1, dst: %dst)
  }

  // dst = mul(src0, src1), elementwise over the valid region; dst may be src0.
  irdl.operation @tmul {
    %src0 = irdl.base @pto::@tile_buf
    %src1 = irdl.base @pto::@tile_buf
    %dst = irdl.base @pto::@tile_buf
    irdl.operands(src0: %src0, src1: %src1, dst: %dst)
  }

  // Copies src's valid region into dst and fills the rest with dst's pad value.
  irdl.operation @tfillpad {
    %src = irdl.base @pto::@tile_buf
    %dst = irdl.base @pto::@tile_buf
    irdl.operands(src: %src, dst: %dst)
  }

  // tfillpad where src and dst share storage.
  irdl.operation @tfillpad_inplace {
    %src = irdl.base @pto::@tile_buf
    %dst = irdl.base @pto::@tile_buf
    irdl.operands(src: %src, dst: %dst)
  }

  irdl.operation @barrier {
    %pipe = irdl.base @pto::@pipe
    irdl.operands()
    irdl.attributes { "pipe" = %pipe }
  }

  // PTOAS pto.fence.barrier_all.
  irdl.operation @fence_barrier_all {
    %scope = irdl.base @pto::@fence_scope
    irdl.operands()
    irdl.attributes { "scope" = %scope }
  }

  // PTOAS pto.cmo.cacheinvalid. optional: space (#pto.address_space, whole-cache form).
  irdl.operation @cmo_cacheinvalid {
    %any = irdl.any
    %line = irdl.base @pto::@cache_line
    irdl.operands(addr: optional %any)
    irdl.attributes { "line" = %line }
  }

  // PTOAS pto.comm.tnotify.
  irdl.operation @comm_tnotify {
    %part = irdl.base @pto::@partition_tensor_view
    %i32 = irdl.is i32
    %op = irdl.base @pto::@notify_op
    irdl.operands(signal: %part, value: %i32)
    irdl.attributes { "notifyOp" = %op }
  }

  // PTOAS pto.comm.twait.
  irdl.operation @comm_twait {
    %part = irdl.base @pto::@partition_tensor_view
    %i32 = irdl.is i32
    %cmp = irdl.base @pto::@wait_cmp
    irdl.operands(signal: %part, cmp_value: %i32)
    irdl.attributes { "cmp" = %cmp }
  }

  // PTOAS pto.comm.ttest.
  irdl.operation @comm_ttest {
    %part = irdl.base @pto::@partition_tensor_view
    %i32 = irdl.is i32
    %i1 = irdl.is i1
    %cmp = irdl.base @pto::@wait_cmp
    irdl.operands(signal: %part, cmp_value: %i32)
    irdl.results(ok: %i1)
    irdl.attributes { "cmp" = %cmp }
  }

  // PTOAS pto.comm.tput. optional: atomicType (#pto.atomic_type).
  irdl.operation @comm_tput {
    %dst = irdl.base @pto::@partition_tensor_view
    %src = irdl.base @pto::@partition_tensor_view
    %ping = irdl.base @pto::@tile_buf
    %pong = irdl.base @pto::@tile_buf
    irdl.operands(dst: %dst, src: %src, ping: %ping, pong: optional %pong)
  }

  // PTOAS pto.comm.tget.
  irdl.operation @comm_tget {
    %dst = irdl.base @pto::@partition_tensor_view
    %src = irdl.base @pto::@partition_tensor_view
    %ping = irdl.base @pto::@tile_buf
    %pong = irdl.base @pto::@tile_buf
    irdl.operands(dst: %dst, src: %src, ping: %ping, pong: optional %pong)
  }

  // PTOAS pto.comm.build_async_session: a session of `engine` over the
  // engine's workspace (a pointer, or an i64 address such as the
  // CommContext's workSpace); an SDMA session also takes a UB scratch tile.
  irdl.operation @comm_build_async_session {
    %tile = irdl.base @pto::@tile_buf
    %ptr = irdl.base @pto::@ptr
    %i64 = irdl.is i64
    %workspace = irdl.any_of(%ptr, %i64)
    %session = irdl.base @pto::@async_session
    %engine = irdl.base @pto::@dma_engine
    irdl.operands(scratch: optional %tile, workspace: %workspace)
    irdl.results(session: %session)
    irdl.attributes { "engine" = %engine }
  }

  // PTOAS pto.comm.tput_async: dst (the peer's) <- src (local), on the
  // session's engine; `peer` selects a URMA queue (PER_PEER).
  irdl.operation @comm_tput_async {
    %dst = irdl.base @pto::@partition_tensor_view
    %src = irdl.base @pto::@partition_tensor_view
    %session = irdl.base @pto::@async_session
    %i32 = irdl.is i32
    %event = irdl.base @pto::@async_event
    irdl.operands(dst: %dst, src: %src, session: %session, peer: optional %i32)
    irdl.results(event: %event)
  }

  // PTOAS pto.comm.tget_async: dst (local) <- src (the peer's).
  irdl.operation @comm_tget_async {
    %dst = irdl.base @pto::@partition_tensor_view
    %src = irdl.base @pto::@partition_tensor_view
    %session = irdl.base @pto::@async_session
    %i32 = irdl.is i32
    %event = irdl.base @pto::@async_event
    irdl.operands(dst: %dst, src: %src, session: %session, peer: optional %i32)
    irdl.results(event: %event)
  }

  // PTOAS pto.comm.wait_async_event: blocks until the copy is complete
  // (AsyncEvent::Wait); false on an engine error.
  irdl.operation @comm_wait_async_event {
    %event = irdl.base @pto::@async_event
    %session = irdl.base @pto::@async_session
    %i1 = irdl.is i1
    irdl.operands(event: %event, session: %session)
    irdl.results(completed: %i1)
  }

  // PTOAS pto.comm.test_async_event: whether the copy is complete now
  // (AsyncEvent::Test).
  irdl.operation @comm_test_async_event {
    %event = irdl.base @pto::@async_event
    %session = irdl.base @pto::@async_session
    %i1 = irdl.is i1
    irdl.operands(event: %event, session: %session)
    irdl.results(completed: %i1)
  }

  irdl.operation @get_block_idx {
    %i64 = irdl.is i64
    irdl.results(idx: %i64)
  }

  irdl.operation @get_block_num {
    %i64 = irdl.is i64
    irdl.results(num: %i64)
  }
}
