// HOST functions that already have pld.comm_domain scopes (hand-written, or
// from an earlier run) keep them, and the pass completes them (issue 20,
// item 4): docs/dialect.md lets a hand-written scope leave its size records
// out, and pld-run used to refuse such a scope with `records no
// logical_bytes and aligned_bytes per slot; run
// pld-materialize-comm-domain-scopes`, a pass that then skipped the
// function. Now a scope without a record gets it computed from the
// allocations of its slots; a signal (or receive-count) allocation that no
// slot names joins the domain of its collective's target.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals, pld-materialize-comm-domain-scopes)' | FileCheck %s
// Running it again changes nothing:
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals, pld-materialize-comm-domain-scopes)' -o %t.once
// RUN: pld-opt %t.once --split-input-file --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes)' -o %t.twice
// RUN: diff %t.once %t.twice

// Nested scopes without records: each gets all three.
// CHECK-DAG: #[[B256:.*]] = affine_map<()[s0] -> (256)>
// CHECK-DAG: #[[SIG:.*]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-DAG: #[[SIGPAD:.*]] = affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32 + 256)>
// CHECK-DAG: #[[B16:.*]] = affine_map<()[s0] -> (16)>
// CHECK-DAG: #[[B32:.*]] = affine_map<()[s0] -> (32)>
// CHECK-DAG: #[[PAIRWIN:.*]] = affine_map<()[s0] -> (288)>
// CHECK-LABEL: func.func @nested
// CHECK: }) {aligned_bytes = [#[[B256]], #[[B32]]], devices = array<i64: 0, 1>, logical_bytes = [#[[B256]], #[[B16]]], name = "pair", slots = ["pair_buf", "pair_sig"], window_bytes = #[[PAIRWIN]]}
// CHECK: }) {aligned_bytes = [#[[B256]], #[[SIGPAD]]], devices = array<i64>, logical_bytes = [#[[B256]], #[[SIG]]], name = "world", slots = ["data_buf", "sig_buf"], window_bytes = #[[WIN]]}
func.func @nested() attributes {pld.kind = #pld.func_kind<"host">} {
  "pld.comm_domain"() ({
    %c4 = arith.constant 4 : i64
    %c16 = arith.constant 16 : i64
    %c256 = arith.constant 256 : i64
    %ws = "pld.system_world_size"() : () -> i64
    %n = arith.index_cast %ws : i64 to index
    %sig_bytes = arith.muli %ws, %c4 : i64
    %dbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "data_buf"} : (i64) -> !pld.ptr
    %sbuf = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
    %data = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    %sig = "pld.tensor_window"(%sbuf, %n) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>
    "pld.comm_domain"() ({
      %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
      %psbuf = "pld.tensor_alloc_window_buffer"(%c16) {name = "pair_sig"} : (i64) -> !pld.ptr
      %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
      %psig = "pld.tensor_window"(%psbuf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
      %s = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
      %p = "pld.tensor_allreduce"(%pair, %psig) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
      gpu.yield
    }) {name = "pair", devices = array<i64: 0, 1>, slots = ["pair_buf", "pair_sig"]} : () -> ()
    gpu.yield
  }) {name = "world", devices = array<i64>, slots = ["data_buf", "sig_buf"]} : () -> ()
  return
}

// -----

// Records a scope has are kept (they are the user's); only the missing ones
// are added. The first scope has all three and stays as written; the
// second has logical_bytes and gets aligned_bytes and window_bytes; the
// third has no slots and gets empty records and a zero-byte window.
// CHECK-DAG: #[[L100:.*]] = affine_map<()[s0] -> (100)>
// CHECK-DAG: #[[A128:.*]] = affine_map<()[s0] -> (128)>
// CHECK-DAG: #[[W:.*]] = affine_map<()[s0] -> (4096)>
// CHECK-DAG: #[[L40:.*]] = affine_map<()[s0] -> (40)>
// CHECK-DAG: #[[A64:.*]] = affine_map<()[s0] -> (64)>
// CHECK-DAG: #[[ZERO:.*]] = affine_map<()[s0] -> (0)>
// CHECK-LABEL: func.func @partial
// CHECK: }) {aligned_bytes = [#[[A128]]], devices = array<i64>, logical_bytes = [#[[L100]]], name = "given", slots = ["a"], window_bytes = #[[W]]}
// CHECK: }) {aligned_bytes = [#[[A64]]], devices = array<i64>, logical_bytes = [#[[L40]]], name = "half", slots = ["b"], window_bytes = #[[A64]]}
// CHECK: }) {aligned_bytes = [], devices = array<i64>, logical_bytes = [], name = "empty", slots = [], window_bytes = #[[ZERO]]}
func.func @partial() attributes {pld.kind = #pld.func_kind<"host">} {
  %c100 = arith.constant 100 : i64
  %c40 = arith.constant 40 : i64
  "pld.comm_domain"() ({
    %a = "pld.tensor_alloc_window_buffer"(%c100) {name = "a"} : (i64) -> !pld.ptr
    gpu.yield
  }) {name = "given", devices = array<i64>, slots = ["a"], logical_bytes = [affine_map<()[s0] -> (100)>], aligned_bytes = [affine_map<()[s0] -> (128)>], window_bytes = affine_map<()[s0] -> (4096)>} : () -> ()
  "pld.comm_domain"() ({
    %b = "pld.tensor_alloc_window_buffer"(%c40) {name = "b"} : (i64) -> !pld.ptr
    gpu.yield
  }) {name = "half", devices = array<i64>, slots = ["b"], logical_bytes = [affine_map<()[s0] -> (40)>]} : () -> ()
  "pld.comm_domain"() ({
    gpu.yield
  }) {name = "empty", devices = array<i64>, slots = []} : () -> ()
  return
}

// -----

// An allreduce without a signal inside hand-written scopes: the synthesized
// signal is allocated right before the call, inside the inner scope, and
// joins the domain of its data (the outer one, which encloses it), whose
// records are computed again for its new slot. Before, the HOST lowering
// refused it with `is not inside a pld.comm_domain holding data_buf,
// __allreduce_signal_buf_0; run pld-materialize-comm-domain-scopes first`.
// CHECK-LABEL: func.func @synthesized_in_scope
// CHECK: }) {{{.*}}devices = array<i64: 0, 1>, {{.*}}name = "pair", slots = ["pair_buf", "__allreduce_signal_buf_1"]
// CHECK: }) {aligned_bytes = [#{{.*}}, #{{.*}}], devices = array<i64>, logical_bytes = [#{{.*}}, #{{.*}}], name = "world", slots = ["data_buf", "__allreduce_signal_buf_0"], window_bytes = #{{.*}}}
func.func @synthesized_in_scope() attributes {pld.kind = #pld.func_kind<"host">} {
  "pld.comm_domain"() ({
    %c256 = arith.constant 256 : i64
    %dbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "data_buf"} : (i64) -> !pld.ptr
    %data = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    "pld.comm_domain"() ({
      %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
      %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
      %s = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
      %p = "pld.tensor_allreduce"(%pair) {op = #pld.reduce_op<"max">} : (tensor<64xf32, #pld.dist>) -> tensor<64xf32, #pld.dist>
      gpu.yield
    }) {name = "pair", devices = array<i64: 0, 1>, slots = ["pair_buf"]} : () -> ()
    gpu.yield
  }) {name = "world", devices = array<i64>, slots = ["data_buf"], logical_bytes = [affine_map<()[s0] -> (256)>], aligned_bytes = [affine_map<()[s0] -> (256)>], window_bytes = affine_map<()[s0] -> (256)>} : () -> ()
  return
}
