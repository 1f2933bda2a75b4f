// Diagnostics of pld-materialize-comm-domain-scopes.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes)'

!data = tensor<64xf32, #pld.dist>
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  // expected-error@+1 {{allocation "lonely" has no pld.tensor_window materialisation (dead allocation)}}
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "lonely"} : (i64) -> !pld.ptr
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  // expected-error@+1 {{allocation "unused" is not consumed by any CHIP orchestrator dispatch or HOST collective}}
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "unused"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %bytes = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %n step %c2 {
    // expected-error@+1 {{device=r over a non-unit-step loop is not supported}}
    "pld.dispatch"(%r) ({
      func.call @chip(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c1 to %c4 step %c1 {
    // expected-error@+1 {{a device loop must start at 0: for a subset of the devices, dispatch to each with a constant device, or write the pld.comm_domain of those devices by hand (devices = array<i64: 2, 3>)}}
    "pld.dispatch"(%r) ({
      func.call @chip(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h(%n: index) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %n step %c1 {
    // expected-error@+1 {{a device loop must run to world_size or to a constant}}
    "pld.dispatch"(%r) ({
      func.call @chip(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // A bound far past what a comm domain holds once made the pass list
  // every device (an allocation of 8 TB, abort).
  %many = arith.constant 1000000000000 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %many step %c1 {
    // expected-error@+1 {{a device loop runs to 1000000000000, past the 64 devices a pld comm domain holds (the CommContext's capacity)}}
    "pld.dispatch"(%r) ({
      func.call @chip(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c64 = arith.constant 64 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  // expected-error@+1 {{device index 64 is past the 64 devices a pld comm domain holds}}
  "pld.dispatch"(%c64) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h(%device: index) attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  // expected-error@+1 {{device must be a constant or the induction variable of an scf.for over world_size or a constant range}}
  "pld.dispatch"(%device) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %m = arith.constant -1 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  // expected-error@+1 {{device index must be non-negative, got -1}}
  "pld.dispatch"(%m) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!in = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @h(%in: !in, %out: !in, %sig: !sig, %cnt: !cnt, %rcv: !rcv) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error@+1 {{cannot be inside an scf.for or scf.while in a HOST orchestrator}}
    %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv) : (!in, !in, !sig, !cnt, !rcv) -> !in
  }
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%a: !data, %b: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 256 : i64
  %p = "pld.tensor_alloc_window_buffer"(%bytes) {name = "twin"} : (i64) -> !pld.ptr
  // expected-error@+1 {{duplicate slot name "twin": the allocations of one HOST orchestrator need distinct names}}
  %q = "pld.tensor_alloc_window_buffer"(%bytes) {name = "twin"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  %b = "pld.tensor_window"(%q) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%a, %b) : (!data, !data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%a: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %ws = "pld.system_world_size"() : () -> i64
  %bytes = arith.muli %ws, %ws : i64
  // expected-error@+1 {{size of "square": window size must be linear in world_size (it multiplies world_size by itself)}}
  %p = "pld.tensor_alloc_window_buffer"(%bytes) {name = "square"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%a) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%a: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h(%bytes: i64) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{size of "param": window size must be built from constants and world_size with arith.addi, arith.subi and arith.muli}}
  %p = "pld.tensor_alloc_window_buffer"(%bytes) {name = "param"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%a) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%a: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() -> (i64, index) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 256 : i64
  %p = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%a) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  // expected-error@+1 {{cannot wrap a HOST function that returns values of different types in comm domains}}
  return %bytes, %c0 : i64, index
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%a: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  // Names must differ across domains too: collectives find their domain
  // by slot name.
  %p = "pld.tensor_alloc_window_buffer"(%bytes) {name = "x"} : (i64) -> !pld.ptr
  // expected-error@+1 {{duplicate slot name "x": the allocations of one HOST orchestrator need distinct names}}
  %q = "pld.tensor_alloc_window_buffer"(%bytes) {name = "x"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  %b = "pld.tensor_window"(%q) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%a) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  "pld.dispatch"(%c0) ({
    func.call @chip(%b) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %c0 step %c1 {
    // expected-error@+1 {{a device loop must reach at least one device, but it runs to 0}}
    "pld.dispatch"(%r) ({
      func.call @chip(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

// -----

// A hand-written scope without its size records: the pass computes them
// from its slots' allocations, which must then be sizes it can express.
func.func @h(%bytes: i64) attributes {pld.kind = #pld.func_kind<"host">} {
  "pld.comm_domain"() ({
    // expected-error@+1 {{size of "param": window size must be built from constants and world_size with arith.addi, arith.subi and arith.muli}}
    %p = "pld.tensor_alloc_window_buffer"(%bytes) {name = "param"} : (i64) -> !pld.ptr
    gpu.yield
  }) {name = "comm_d0", devices = array<i64>, slots = ["param"]} : () -> ()
  return
}

// -----

// A builtin dispatch written by hand outside a pld.comm_domain gives its
// windows no devices (the spec counts dispatches and collectives; the
// HOST rail emits builtins inside the scopes): the error says what to
// write instead (uat-algo finding 10).
func.func @direct_builtin() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 256 : i64
  // expected-error@+1 {{allocation "data_buf" is not consumed by any CHIP orchestrator dispatch or HOST collective; its view is an operand of pld.builtin_allreduce_two_shot, a dispatch the HOST rail emits inside a pld.comm_domain: write the collective (pld.tensor_<op>) instead, or put the builtin in a pld.comm_domain whose slots name "data_buf"}}
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
  %sb = arith.constant 16 : i64
  // expected-error@+1 {{allocation "sig_buf" is not consumed by any CHIP orchestrator dispatch or HOST collective; its view is an operand of pld.builtin_allreduce_two_shot}}
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
  "pld.builtin_allreduce_two_shot"(%data, %sig, %c0) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], core_num = 1 : i64, dtype = f32, op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> ()
  return
}

// -----

// Sizes whose padded count, or whose window, overflows 64 bits are
// refused at the allocation: MLIR would fold the records' constants to a
// wrapped, negative byte count (and print a map that does not parse).
!big = tensor<1x1152921504606846976xf32, #pld.dist>
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %quarter = arith.constant 4611686018427387904 : i64
  %p = "pld.tensor_alloc_window_buffer"(%quarter) {name = "first"} : (i64) -> !pld.ptr
  // expected-error@+1 {{size of "second": the comm domain's window would hold 4611686018427387904 bytes of earlier slots and 4611686018427387904 of this one, more than a 64-bit byte count holds}}
  %q = "pld.tensor_alloc_window_buffer"(%quarter) {name = "second"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !big
  %b = "pld.tensor_window"(%q) : (!pld.ptr) -> !big
  %r = "pld.tensor_allreduce"(%a) {op = #pld.reduce_op<"sum">} : (!big) -> !big
  %s = "pld.tensor_allreduce"(%b) {op = #pld.reduce_op<"sum">} : (!big) -> !big
  return
}

// -----

!big = tensor<1x1152921504606846976xf32, #pld.dist>
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %max = arith.constant 9223372036854775807 : i64
  // expected-error@+1 {{size of "whole": 9223372036854775807 bytes padded to 32 overflow a 64-bit byte count}}
  %p = "pld.tensor_alloc_window_buffer"(%max) {name = "whole"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !big
  %r = "pld.tensor_allreduce"(%a) {op = #pld.reduce_op<"sum">} : (!big) -> !big
  return
}

// -----

!big = tensor<1x1152921504606846976xf32, #pld.dist>
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %half = arith.constant 4611686018427387904 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %per = arith.muli %ws, %half : i64
  %twice = arith.addi %per, %per : i64
  // expected-error@+1 {{size of "grown": window size overflows a 64-bit byte count}}
  %p = "pld.tensor_alloc_window_buffer"(%twice) {name = "grown"} : (i64) -> !pld.ptr
  %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !big
  %r = "pld.tensor_allreduce"(%a) {op = #pld.reduce_op<"sum">} : (!big) -> !big
  return
}

// -----

// A size computed from constants to 0 or less (0 - 5): recorded as
// logical_bytes = -5 before.
!data = tensor<8xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %five = arith.constant 5 : i64
  %zero = arith.constant 0 : i64
  %bytes = arith.subi %zero, %five : i64
  // expected-error@+1 {{size of "A": it is -5 bytes, and a window size must be positive}}
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "A"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

// A size of world_size that is 0 or less for every world size (16 - 16 *
// world_size): recorded as logical_bytes = -(s0 * 16) + 16 before, refused
// only by a run. (One positive for some world sizes is the run's to check.)
!data = tensor<8xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %sixteen = arith.constant 16 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %scaled = arith.muli %ws, %sixteen : i64
  %bytes = arith.subi %sixteen, %scaled : i64
  // expected-error@+1 {{size of "A": it is 0 bytes on 1 device and -1008 on 64, not positive for any world size, and a window size must be positive}}
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "A"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}

// -----

// A view passed to a HOST subroutine that dispatches: the pass finds an
// allocation's devices in the HOST orchestrator that allocates it (it said
// only that "sig" is not consumed by any dispatch).
!s = tensor<4x1xi32, #pld.dist>
func.func @chip(%s: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @sub(%s: !s) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  "pld.dispatch"(%c0) ({
    func.call @chip(%s) : (!s) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 32 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "sig"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%p) : (!pld.ptr) -> !s
  // expected-error@+1 {{'func.call' op passes the view of allocation "sig" to @sub, and no dispatch or HOST collective of @main uses it: pld-materialize-comm-domain-scopes finds an allocation's devices in the HOST orchestrator that allocates it, so write the pld.dispatch (or the collective) there, not in a function it calls}}
  func.call @sub(%s) : (!s) -> ()
  return
}

// -----

// The same when @main dispatches the view too: the devices @sub gives it
// were lost without a word (device 1 here; the scope listed device 0 only).
!s = tensor<4x1xi32, #pld.dist>
func.func @chip(%s: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @sub(%s: !s) attributes {pld.kind = #pld.func_kind<"host">} {
  %c1 = arith.constant 1 : index
  "pld.dispatch"(%c1) ({
    func.call @chip(%s) : (!s) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %b = arith.constant 32 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "sig"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%p) : (!pld.ptr) -> !s
  "pld.dispatch"(%c0) ({
    func.call @chip(%s) : (!s) -> ()
    gpu.yield
  }) : (index) -> ()
  // expected-error@+1 {{'func.call' op passes the view of allocation "sig" to @sub, which dispatches or runs a HOST collective: pld-materialize-comm-domain-scopes finds an allocation's devices in the HOST orchestrator that allocates it, so the devices @sub gives it would be lost; write the pld.dispatch (or the collective) in @main}}
  func.call @sub(%s) : (!s) -> ()
  return
}
