// Programs with several comm domains, and HOST collectives on windows no
// dispatch names, run whole with every call checked (issue 20, item 4).
// Each used to be refused:
// - nested.mlir: `allocates 'data_buf', which is not a slot of its comm
//   domain comm_d1` (an allocation of the outer domain inside the inner);
// - pair-first.mlir: the world allreduce after the pair's got `not every
//   member of the comm domain ran this call` (calls were matched by their
//   position in each device's work) and was not checked, with status 0;
// - siblings.mlir: the pair's allreduce on devices 1 and 2 was not reported
//   at all (calls were those of device 0), and the scopes, written without
//   size records, got `records no logical_bytes and aligned_bytes per slot;
//   run pld-materialize-comm-domain-scopes`;
// - host-only.mlir: `allocation "data_buf" is not consumed by any CHIP
//   orchestrator dispatch` and the same for `__allreduce_signal_buf_0`.
//
// RUN: split-file %s %t
// RUN: pld-run %t/nested.mlir --ranks 4 --check --stats --per-rank | FileCheck %s --check-prefix=NESTED
// RUN: pld-run %t/pair-first.mlir --ranks 4 --check | FileCheck %s --check-prefix=FIRST
// RUN: pld-run %t/siblings.mlir --ranks 4 --check | FileCheck %s --check-prefix=SIBLINGS
// RUN: pld-run %t/host-only.mlir --ranks 3 --check --stats | FileCheck %s --check-prefix=HOSTONLY
// RUN: pld-run %t/host-only.mlir --ranks 8 --check | FileCheck %s --check-prefix=HOSTONLY8
// An allocation that no slot of the scopes around it names is an error at
// the allocation, naming the scopes (status 1, nothing runs):
// RUN: not pld-run %t/unlisted.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=UNLISTED
// RUN: sh -c 'pld-run %t/unlisted.mlir --ranks 2 > /dev/null 2>&1; test $? -eq 1'
// A scope's result (the view it yields) is the view after it: a HOST
// orchestrator returns it (docs/passes/pld-host-pipeline.md's example), or
// dispatches it; both were refused as "'func.return' uses a value the
// simulator did not compute".
// RUN: pld-run %t/returns.mlir --ranks 4 --check | FileCheck %s --check-prefix=RETURNS
// RETURNS: pld.tensor_allreduce 4 256 64 f32 max - {{.*}} 0{{$}}
// RUN: pld-run %t/yielded.mlir --ranks 2 --input x_buf=ones --output-dir %t/yielded-out
// RUN: python3 %S/Inputs/npy.py show %t/yielded-out/x_buf.rank1.npy | FileCheck %s --check-prefix=YIELDED
// YIELDED: <f4 (1, 64): 40000000 x 64
// A dispatch to a device past --ranks is refused at the dispatch written,
// not at the scope materialized around it (which the user never wrote; it
// was reported as "'pld.comm_domain' lists device 5" at the allocation):
// RUN: not pld-run %t/far.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=FAR
// FAR: far.mlir:14:3: error: 'pld.dispatch' dispatches to device 5, but the program runs on 4 devices: run it on 6 ranks or more
// FAR-NOT: comm_domain

// NESTED: @main on 4 devices: 2 collective calls
// NESTED-NEXT: pld.tensor_allreduce at {{.*}}nested.mlir:29:8: f32 x 64 (sum, mesh), {{.*}}: ok on 4 ranks
// NESTED-NEXT: pld.tensor_allreduce at {{.*}}nested.mlir:30:8: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks
// Round trips: a dispatch of data_buf's step and the world allreduce on
// every device, and on devices 0 and 1 the pair's dispatch and allreduce.
// NESTED:      device  round trips
// NESTED-NEXT:      0            4
// NESTED-NEXT:      1            4
// NESTED-NEXT:      2            2
// NESTED-NEXT:      3            2

// FIRST: @main on 4 devices: 2 collective calls
// FIRST-NEXT: pld.tensor_allreduce at {{.*}}pair-first.mlir:15:10: f32 x 64 (max, mesh), {{.*}}: ok on 2 ranks
// FIRST-NEXT: pld.tensor_allreduce at {{.*}}pair-first.mlir:23:10: f32 x 64 (sum, mesh), {{.*}}: ok on 4 ranks
// FIRST-NOT: not every member

// SIBLINGS: @main on 4 devices: 2 collective calls
// SIBLINGS-NEXT: pld.tensor_broadcast at {{.*}}siblings.mlir:15:10: f32 x 64 (root 1), {{.*}}: ok on 4 ranks
// SIBLINGS-NEXT: pld.tensor_allreduce at {{.*}}siblings.mlir:23:10: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks

// HOSTONLY: @main on 3 devices: 1 collective call
// HOSTONLY-NEXT: pld.tensor_allreduce at {{.*}}host-only.mlir:5:10: f32 x 1024 (sum, mesh), {{.*}}: ok on 3 ranks
// HOSTONLY: device  round trips
// HOSTONLY-NEXT: all       1 each
// HOSTONLY8: ok on 8 ranks

// UNLISTED: {{.*}}unlisted.mlir:9:15: error: 'pld.tensor_alloc_window_buffer' allocates 'extra', which no slot of the comm domains around it names (inner, outer); add it to the slots of the one whose devices use it

//--- nested.mlir
// data_buf on every device (its allreduce), pair_buf on devices 0 and 1.
func.func @step(%x: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %dbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "data_buf"} : (i64) -> !pld.ptr
  %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
  %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%data) : (tensor<64xf32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  "pld.dispatch"(%c0) ({
    func.call @step(%pair) : (tensor<64xf32, #pld.dist>) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @step(%pair) : (tensor<64xf32, #pld.dist>) -> ()
    gpu.yield
  }) : (index) -> ()
  %s = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  %p = "pld.tensor_allreduce"(%pair) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return
}
//--- pair-first.mlir
// Hand-written sibling scopes with their size records, the pair's first:
// device 0's first call is the pair's, device 2's the world's.
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c256 = arith.constant 256 : i64
  %c8 = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %c4 = arith.constant 4 : i64
  %sbytes = arith.muli %ws, %c4 : i64
  "pld.comm_domain"() ({
    %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
    %psbuf = "pld.tensor_alloc_window_buffer"(%c8) {name = "pair_sig"} : (i64) -> !pld.ptr
    %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    %psig = "pld.tensor_window"(%psbuf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
    %p = "pld.tensor_allreduce"(%pair, %psig) {op = #pld.reduce_op<"max">} : (tensor<64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
    gpu.yield
  }) {name = "pair", devices = array<i64: 0, 1>, slots = ["pair_buf", "pair_sig"], logical_bytes = [affine_map<()[s0] -> (256)>, affine_map<()[s0] -> (8)>], aligned_bytes = [affine_map<()[s0] -> (256)>, affine_map<()[s0] -> (32)>], window_bytes = affine_map<()[s0] -> (288)>} : () -> ()
  "pld.comm_domain"() ({
    %dbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "data_buf"} : (i64) -> !pld.ptr
    %sbuf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "sig_buf"} : (i64) -> !pld.ptr
    %data = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    %sig = "pld.tensor_window"(%sbuf, %n) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>
    %s = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
    gpu.yield
  }) {name = "world", devices = array<i64>, slots = ["data_buf", "sig_buf"], logical_bytes = [affine_map<()[s0] -> (256)>, affine_map<()[s0] -> (s0 * 4)>], aligned_bytes = [affine_map<()[s0] -> (256)>, affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32)>], window_bytes = affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32 + 256)>} : () -> ()
  return
}
//--- siblings.mlir
// Hand-written sibling scopes without size records: every device, then
// devices 1 and 2 (domain ranks 0 and 1).
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c256 = arith.constant 256 : i64
  %c8 = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %c4 = arith.constant 4 : i64
  %sbytes = arith.muli %ws, %c4 : i64
  "pld.comm_domain"() ({
    %dbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "data_buf"} : (i64) -> !pld.ptr
    %sbuf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "sig_buf"} : (i64) -> !pld.ptr
    %data = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    %sig = "pld.tensor_window"(%sbuf, %n) : (!pld.ptr, index) -> tensor<?xi32, #pld.dist>
    %b = "pld.tensor_broadcast"(%data, %sig) {root = 1 : i64} : (tensor<64xf32, #pld.dist>, tensor<?xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
    gpu.yield
  }) {name = "world", devices = array<i64>, slots = ["data_buf", "sig_buf"]} : () -> ()
  "pld.comm_domain"() ({
    %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
    %psbuf = "pld.tensor_alloc_window_buffer"(%c8) {name = "pair_sig"} : (i64) -> !pld.ptr
    %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    %psig = "pld.tensor_window"(%psbuf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
    %p = "pld.tensor_allreduce"(%pair, %psig) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
    gpu.yield
  }) {name = "pair", devices = array<i64: 1, 2>, slots = ["pair_buf", "pair_sig"]} : () -> ()
  return
}
//--- host-only.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4096 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1024xf32, #pld.dist>
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (tensor<1024xf32, #pld.dist>) -> tensor<1024xf32, #pld.dist>
  return
}
//--- unlisted.mlir
func.func @step(%x: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : i64
  "pld.comm_domain"() ({
    "pld.comm_domain"() ({
      %ebuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "extra"} : (i64) -> !pld.ptr
      %extra = "pld.tensor_window"(%ebuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
      "pld.dispatch"(%c0) ({
        func.call @step(%extra) : (tensor<64xf32, #pld.dist>) -> ()
        gpu.yield
      }) : (index) -> ()
      gpu.yield
    }) {name = "inner", devices = array<i64: 0>, slots = []} : () -> ()
    gpu.yield
  }) {name = "outer", devices = array<i64>, slots = []} : () -> ()
  return
}

//--- returns.mlir
func.func @step(%x: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() -> tensor<64xf32, #pld.dist> attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%data) : (tensor<64xf32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  %max = "pld.tensor_allreduce"(%sum) {op = #pld.reduce_op<"max">, core_num = 4 : i64} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  return %max : tensor<64xf32, #pld.dist>
}

//--- yielded.mlir
// A view yielded out of a hand-written comm domain, then dispatched.
!row = tensor<1x64xf32, #pld.dist>
!tile = tensor<1x64xf32, #pld.tile>
func.func @double(%x: !row) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%x, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!row, index, index) -> !tile
  %s = "pld.tile_add"(%t, %t) : (!tile, !tile) -> !tile
  "pld.tile_store"(%s, %x, %c0, %c0) : (!tile, !row, index, index) -> ()
  return
}
func.func @step(%x: !row) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @double(%x) : (!row) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.constant 256 : i64
  %x = "pld.comm_domain"() ({
    %xb = "pld.tensor_alloc_window_buffer"(%b) {name = "x_buf"} : (i64) -> !pld.ptr
    %xv = "pld.tensor_window"(%xb) : (!pld.ptr) -> !row
    gpu.yield %xv : !row
  }) {name = "pair", devices = array<i64: 0, 1>, slots = ["x_buf"]} : () -> !row
  "pld.dispatch"(%c0) ({
    func.call @step(%x) : (!row) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @step(%x) : (!row) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

//--- far.mlir
func.func @step(%x: tensor<64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
  "pld.dispatch"(%c0) ({
    func.call @step(%data) : (tensor<64xf32, #pld.dist>) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c5) ({
    func.call @step(%data) : (tensor<64xf32, #pld.dist>) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}
