// The members of one call of a comm domain can make it from different
// places (a kernel called on the even devices, another on the odd ones):
// each member's n-th collective on the domain meets the others' n-th.
// Before anything runs, those must be the same collective on views of the
// same types.
//
// RUN: split-file %s %t
//
// The even devices reduce with sum, the odd ones with max: refused before
// the run, on 4 devices and on 2 (each place one device's). Before, the two
// were matched as one call by order and every rank was WRONG against
// @sum_a's golden (prog24 MED-1, recheck24b H1), then two calls neither run
// by every member, which only --check said.
// RUN: not pld-run %t/ops.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not pld-run %t/ops.mlir --ranks 4 --check 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not pld-run %t/ops.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=OPS2
// OPS: ops.mlir:17:5: error: the members of comm domain 'comm_d0' disagree on their 1st collective call: devices 0, 2 run pld.tensor_allreduce (sum) in mode mesh of tensor<1x64xf32>, tensor<4x1xi32> in @sum_a (called at {{.*}}ops.mlir:17:5), devices 1, 3 run pld.tensor_allreduce (max) in mode mesh of tensor<1x64xf32>, tensor<4x1xi32> in @max_b (called at {{.*}}ops.mlir:19:5); every member of one call runs the same collective on views of the same types
// OPS-NOT: WRONG
// OPS2: error: the members of comm domain 'comm_d0' disagree on their 1st collective call: device 0 runs pld.tensor_allreduce (sum) {{.*}} in @sum_a (called at {{.*}}), device 1 runs pld.tensor_allreduce (max) {{.*}} in @max_b
//
// The even devices allreduce a [1, 64] view, the odd ones a [1, 32] view
// of the same buffer: without --check the run finished with status 0 and
// the odd devices held a half-reduced row (prog24 MED-3).
// RUN: not pld-run %t/shapes.mlir --ranks 4 --input v=ones 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not pld-run %t/shapes.mlir --ranks 4 --explore 2 2>&1 | FileCheck %s --check-prefix=SHAPES
// SHAPES: shapes.mlir:22:5: error: the members of comm domain 'comm_d0' disagree on their 1st collective call: devices 0, 2 run pld.tensor_allreduce (sum) in mode mesh of tensor<1x64xf32>, tensor<4x1xi32> in @ka (called at {{.*}}shapes.mlir:22:5), devices 1, 3 run pld.tensor_allreduce (sum) in mode mesh of tensor<1x32xf32>, tensor<4x1xi32> in @kb (called at {{.*}}shapes.mlir:27:5); every member
// SHAPES-NOT: finished
//
// The same collective on the same types from two places runs; --check
// cannot compare either place's call alone and says so.
// RUN: pld-run %t/same.mlir --ranks 4 --input v=ones 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not pld-run %t/same.mlir --ranks 4 --check 2>&1 | FileCheck %s --check-prefix=SAME-CHECK
// SAME: @main on 4 devices: 2 collective calls, finished
// SAME-CHECK: pld-run: error: {{.*}}same.mlir:17:5: --check cannot compare pld.tensor_allreduce: not every member of the comm domain ran this call
// SAME-CHECK-NOT: WRONG
//
// The same collective in two allreduce modes does not meet (mesh against
// two_shot deadlocked after the deadline: recheck25 L1):
// RUN: not pld-run %t/modes.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=MODES
// MODES: modes.mlir:17:5: error: the members of comm domain 'comm_d0' disagree on their 1st collective call: devices 0, 2 run pld.tensor_allreduce (sum) in mode mesh of {{.*}} in @sum_a {{.*}}, devices 1, 3 run pld.tensor_allreduce (sum) in mode two_shot of {{.*}} in @sum_b
//
// A kernel may hold collectives of two comm domains: each is matched on
// its own. Devices 0 and 1 reduce %p (their pair's domain) and then %w
// (every device's, their kernel's first parameter); devices 2 and 3
// reduce %w alone, from another place.
// Every member's 1st collective on each domain agrees; the check matched
// the kernel's first collective with the other place's and refused the
// program (recheck25 H1).
// RUN: pld-run %t/domains.mlir --ranks 4 --input w=ones --input p=ones --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=DOMAINS
// The kernel's second collective is a call of the report too.
// DOMAINS: @main on 4 devices: 3 collective calls, finished
// Calls before the first collective in a loop are still counted: the sum
// against the max, then every device's looped sum, is refused.
// RUN: not pld-run %t/looplast.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=LOOPLAST
// LOOPLAST: error: the members of comm domain 'comm_d0' disagree on their 1st collective call
//
// A collective in a loop of its kernel runs as often as the loop does:
// its domain's calls are not counted before the run. Devices 0 and 1 run
// two maxes in one kernel's loop, devices 2 and 3 call a one-max kernel
// twice, then the HOST sums (the HOST sum was matched against the second
// call and the program refused: recheck25b H1).
// RUN: pld-run %t/looped.mlir --ranks 4 --input w=ones --output-dir %t/looped-out 2>&1 | FileCheck %s --check-prefix=LOOPED
// LOOPED: @main on 4 devices: 4 collective calls, finished
// RUN: python3 %S/Inputs/npy.py show %t/looped-out/w.rank2.npy | FileCheck %s --check-prefix=SUM
//
// The sum of ones over 4 devices is 4.0 (0x40800000) on each, the max of
// ones over the pair 1.0 (0x3f800000):
// RUN: python3 %S/Inputs/npy.py show %t/out/w.rank3.npy | FileCheck %s --check-prefix=SUM
// SUM: <f4 (1, 16): 40800000 x 16
// RUN: python3 %S/Inputs/npy.py show %t/out/p.rank1.npy | FileCheck %s --check-prefix=MAX
// MAX: <f4 (1, 16): 3f800000 x 16
//
// One kernel called from the two branches of a CHIP scf.if (the odd
// devices take one, the even ones the other): --check says where the
// other members made the call ("not every member ran this call" alone read
// as if they had skipped it: progs26 MED-2).
// RUN: not pld-run %t/branches.mlir --ranks 4 --check 2>&1 | FileCheck %s --check-prefix=BRANCHES
// BRANCHES: pld-run: error: {{.*}}branches.mlir:11:5: --check cannot compare pld.tensor_allreduce: not every member of the comm domain ran this call here: devices 1, 3 made it from another place ({{.*}}branches.mlir:9:5); --check compares a call whose members all make it from one place

//--- ops.mlir
!v = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @sum_a(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @max_b(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"max">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @step(%x: !v, %s: !s, %dev: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %dev, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  scf.if %even {
    func.call @sum_a(%x, %s) : (!v, !s) -> ()
  } else {
    func.call @max_b(%x, %s) : (!v, !s) -> ()
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b256 = arith.constant 256 : i64
  %b16 = arith.constant 16 : i64
  %vb = "pld.tensor_alloc_window_buffer"(%b256) {name = "v"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig"} : (i64) -> !pld.ptr
  %v = "pld.tensor_window"(%vb) : (!pld.ptr) -> !v
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !s
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%v, %s, %r) : (!v, !s, index) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- shapes.mlir
!v = tensor<1x64xf32, #pld.dist>
!w = tensor<1x32xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @ka(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!v, !s) -> !v
  return
}
func.func @kb(%x: !w, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!w, !s) -> !w
  return
}
func.func @step(%x: !v, %y: !w, %s: !s, %dev: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %dev, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  scf.if %even {
    // The next line is the even devices' call.
    //
    //
    //
    func.call @ka(%x, %s) : (!v, !s) -> ()
  } else {
    //
    //
    //
    func.call @kb(%y, %s) : (!w, !s) -> ()
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b256 = arith.constant 256 : i64
  %b16 = arith.constant 16 : i64
  %vb = "pld.tensor_alloc_window_buffer"(%b256) {name = "v"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig"} : (i64) -> !pld.ptr
  %v = "pld.tensor_window"(%vb) : (!pld.ptr) -> !v
  %w = "pld.tensor_window"(%vb) : (!pld.ptr) -> !w
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !s
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%v, %w, %s, %r) : (!v, !w, !s, index) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- same.mlir
!v = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @sum_a(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @sum_b(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @step(%x: !v, %s: !s, %dev: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %dev, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  scf.if %even {
    func.call @sum_a(%x, %s) : (!v, !s) -> ()
  } else {
    func.call @sum_b(%x, %s) : (!v, !s) -> ()
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b256 = arith.constant 256 : i64
  %b16 = arith.constant 16 : i64
  %vb = "pld.tensor_alloc_window_buffer"(%b256) {name = "v"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig"} : (i64) -> !pld.ptr
  %v = "pld.tensor_window"(%vb) : (!pld.ptr) -> !v
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !s
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%v, %s, %r) : (!v, !s, index) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- modes.mlir
!v = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @sum_a(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @sum_b(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (!v, !s) -> !v
  return
}
func.func @step(%x: !v, %s: !s, %dev: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %dev, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  scf.if %even {
    func.call @sum_a(%x, %s) : (!v, !s) -> ()
  } else {
    func.call @sum_b(%x, %s) : (!v, !s) -> ()
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b256 = arith.constant 256 : i64
  %b16 = arith.constant 16 : i64
  %vb = "pld.tensor_alloc_window_buffer"(%b256) {name = "v"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig"} : (i64) -> !pld.ptr
  %v = "pld.tensor_window"(%vb) : (!pld.ptr) -> !v
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !s
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%v, %s, %r) : (!v, !s, index) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- looplast.mlir
!v = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @sum_a(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @max_b(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"max">, mode = "mesh"} : (!v, !s) -> !v
  return
}
func.func @looped(%x: !v, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (!v, !s) -> !v
  }
  return
}
func.func @step(%x: !v, %s: !s, %dev: index) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %dev, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  scf.if %even {
    func.call @sum_a(%x, %s) : (!v, !s) -> ()
  } else {
    func.call @max_b(%x, %s) : (!v, !s) -> ()
  }
  func.call @looped(%x, %s) : (!v, !s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b256 = arith.constant 256 : i64
  %b16 = arith.constant 16 : i64
  %vb = "pld.tensor_alloc_window_buffer"(%b256) {name = "v"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "sig"} : (i64) -> !pld.ptr
  %v = "pld.tensor_window"(%vb) : (!pld.ptr) -> !v
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !s
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%v, %s, %r) : (!v, !s, index) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- domains.mlir
!v = tensor<1x16xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @pair_then_all(%w: !v, %ws: !s, %p: !v, %ps: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_allreduce"(%p, %ps) {op = #pld.reduce_op<"max">} : (!v, !s) -> !v
  %b = "pld.tensor_allreduce"(%w, %ws) {op = #pld.reduce_op<"sum">} : (!v, !s) -> !v
  return
}
func.func @all(%w: !v, %ws: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %b = "pld.tensor_allreduce"(%w, %ws) {op = #pld.reduce_op<"sum">} : (!v, !s) -> !v
  return
}
func.func @front(%w: !v, %ws: !s, %p: !v, %ps: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @pair_then_all(%w, %ws, %p, %ps) : (!v, !s, !v, !s) -> ()
  return
}
func.func @back(%w: !v, %ws: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @all(%w, %ws) : (!v, !s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b64 = arith.constant 64 : i64
  %b16 = arith.constant 16 : i64
  %wb = "pld.tensor_alloc_window_buffer"(%b64) {name = "w"} : (i64) -> !pld.ptr
  %wsb = "pld.tensor_alloc_window_buffer"(%b16) {name = "ws"} : (i64) -> !pld.ptr
  %pb = "pld.tensor_alloc_window_buffer"(%b64) {name = "p"} : (i64) -> !pld.ptr
  %psb = "pld.tensor_alloc_window_buffer"(%b16) {name = "ps"} : (i64) -> !pld.ptr
  %w = "pld.tensor_window"(%wb) : (!pld.ptr) -> !v
  %ws = "pld.tensor_window"(%wsb) : (!pld.ptr) -> !s
  %p = "pld.tensor_window"(%pb) : (!pld.ptr) -> !v
  %ps = "pld.tensor_window"(%psb) : (!pld.ptr) -> !s
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  "pld.dispatch"(%c0) ({
    func.call @front(%w, %ws, %p, %ps) : (!v, !s, !v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @front(%w, %ws, %p, %ps) : (!v, !s, !v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c2) ({
    func.call @back(%w, %ws) : (!v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c3) ({
    func.call @back(%w, %ws) : (!v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

//--- looped.mlir
!v = tensor<1x16xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @twice(%w: !v, %ws: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %r = "pld.tensor_allreduce"(%w, %ws) {op = #pld.reduce_op<"max">} : (!v, !s) -> !v
  }
  return
}
func.func @once(%w: !v, %ws: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%w, %ws) {op = #pld.reduce_op<"max">} : (!v, !s) -> !v
  return
}
func.func @front(%w: !v, %ws: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @twice(%w, %ws) : (!v, !s) -> ()
  return
}
func.func @back(%w: !v, %ws: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @once(%w, %ws) : (!v, !s) -> ()
  func.call @once(%w, %ws) : (!v, !s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b64 = arith.constant 64 : i64
  %b16 = arith.constant 16 : i64
  %wb = "pld.tensor_alloc_window_buffer"(%b64) {name = "w"} : (i64) -> !pld.ptr
  %wsb = "pld.tensor_alloc_window_buffer"(%b16) {name = "ws"} : (i64) -> !pld.ptr
  %w = "pld.tensor_window"(%wb) : (!pld.ptr) -> !v
  %ws = "pld.tensor_window"(%wsb) : (!pld.ptr) -> !s
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  "pld.dispatch"(%c0) ({
    func.call @front(%w, %ws) : (!v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @front(%w, %ws) : (!v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c2) ({
    func.call @back(%w, %ws) : (!v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c3) ({
    func.call @back(%w, %ws) : (!v, !s) -> ()
    gpu.yield
  }) : (index) -> ()
  %h = "pld.tensor_allreduce"(%w) {op = #pld.reduce_op<"sum">} : (!v) -> !v
  return
}

//--- branches.mlir
!x = tensor<1x16xf32, #pld.dist>
!ks = tensor<4x1xi32, #pld.dist>
func.func @k(%x: !x, %s: !ks) attributes {pld.kind = #pld.func_kind<"incore">} {
  %0 = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!x, !ks) -> !x
  return
}
func.func @step(%x: !x, %s: !ks, %odd: i1) attributes {pld.kind = #pld.func_kind<"chip">} {
  scf.if %odd {
    func.call @k(%x, %s) : (!x, !ks) -> ()
  } else {
    func.call @k(%x, %s) : (!x, !ks) -> ()
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %xb = arith.constant 64 : i64
  %sb = arith.constant 16 : i64
  %xbuf = "pld.tensor_alloc_window_buffer"(%xb) {name = "x"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xbuf) : (!pld.ptr) -> !x
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !ks
  scf.for %d = %c0 to %c4 step %c1 {
    "pld.dispatch"(%d) ({
      %di = arith.index_cast %d : index to i64
      %one = arith.constant 1 : i64
      %bit = arith.andi %di, %one : i64
      %odd = arith.trunci %bit : i64 to i1
      func.call @step(%x, %s, %odd) : (!x, !ks, i1) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
