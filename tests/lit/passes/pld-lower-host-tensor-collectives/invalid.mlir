// Diagnostics of pld-lower-host-tensor-collectives (spec 7.5), each on the
// user's collective. Generated cases share one shape: the windows are
// dispatched to the listed devices, then the collective under test runs.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes, pld-lower-host-tensor-collectives)'

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 16 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // An unknown mode is rejected here (the verifier leaves mode values to the rails).
  // expected-error@+1 {{mode must be "mesh", "ring", "two_shot" or "auto", got "star"}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "star"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<1xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 4 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // A static signal needs a row per participating device.
  // expected-error@+1 {{collective signal dim 0 (1) must be at least the participating device count (2)}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x?xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 16 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p, %c1) : (!pld.ptr, index) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Mesh lanes: a dynamic lane count cannot be checked.
  // expected-error@+1 {{rank-2 signal dim 1 must be static}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 16 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Mesh lanes: a rank-1 signal has one lane.
  // expected-error@+1 {{rank-1 signal is valid only when one signal lane is required (core_num = 4)}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, core_num = 4 : i64} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x2xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 32 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Mesh lanes: fewer lanes than cores.
  // expected-error@+1 {{rank-2 signal dim 1 (2) must be at least the required lane count (4)}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, core_num = 4 : i64} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x8xi32, #pld.dist>
module attributes {pld.aiv_core_count = 4 : i64} {
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 128 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // More cores than the backend has (pld.aiv_core_count on the module).
  // expected-error@+1 {{core_num (8) exceeds the backend AIV core count (4)}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, core_num = 8 : i64} : (!data, !sig) -> !data
  return
}
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<3x2xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 32 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Ring allreduce runs on one core.
  // expected-error@+1 {{mode = "ring" does not support core_num > 1}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring", core_num = 4 : i64} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<5x4xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 80 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d2 = arith.constant 2 : index
  "pld.dispatch"(%d2) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d3 = arith.constant 3 : index
  "pld.dispatch"(%d3) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Ring signal too short for four devices.
  // expected-error@+1 {{ring signal dim 0 (5) must be at least 2*(NR-1) + 1 = 7 for NR = 4 participating devices}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<7x4xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 112 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Ring signal columns must be the device count.
  // expected-error@+1 {{ring signal dim 1 (4) must equal the participating device count (2)}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<9x2xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 72 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Ring signal rows must fit its columns.
  // expected-error@+1 {{ring signal dim 0 (9) must equal 2*(NR-1) + 1 = 3 for NR = 2 ranks (signal dim 1)}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<27xf32, #pld.dist>
!sig = tensor<7x4xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 108 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 112 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d2 = arith.constant 2 : index
  "pld.dispatch"(%d2) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d3 = arith.constant 3 : index
  "pld.dispatch"(%d3) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Ring: the element count must split evenly over the ranks.
  // expected-error@+1 {{exact multiple of the rank count (4); got a remainder of 3}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<130xf32, #pld.dist>
!sig = tensor<129x65xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c65 = arith.constant 65 : index
  %data_bytes = arith.constant 520 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 33540 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %c65 step %c1 {
    // No comm domain holds 65 devices (the ring's own limit, 64, is the
    // same).
    // expected-error@+1 {{a device loop runs to 65, past the 64 devices a pld comm domain holds (the CommContext's capacity)}}
    "pld.dispatch"(%r) ({
      func.call @chip(%data, %sig) : (!data, !sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<?xf32, #pld.dist>
!sig = tensor<3x2xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p, %c4) : (!pld.ptr, index) -> !data
  %sig_bytes = arith.constant 24 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Ring: the source shape must be static.
  // expected-error@+1 {{mode = "ring" requires a statically-known src shape}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<3x2xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 24 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Ring kernels add FP32 only.
  // expected-error@+1 {{on the HOST rail supports only op = #pld.reduce_op<"sum">, got #pld.reduce_op<"max">}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"max">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Two views of one allocation are a data race.
  // expected-error@+1 {{src and signal must be different window allocations (two pld.tensor_window views of one pld.tensor_alloc_window_buffer race across processes under the kernel's remote puts and notifies)}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<?xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 256 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 8 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %c2 = arith.constant 2 : index
  %sig = "pld.tensor_window"(%sig_p, %c2) : (!pld.ptr, index) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Broadcast root beyond the devices (a signal of static rows is checked
  // by the verifier already; this one's rows are known at run time).
  // expected-error@+1 {{root (5) must be a valid rank in [0, 2)}}
  %x = "pld.tensor_broadcast"(%data, %sig) {root = 5 : i64} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf16, #pld.dist>
!sig = tensor<2xi32, #pld.dist>
func.func @chip(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %data_bytes = arith.constant 128 : i64
  %data_p = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%data_p) : (!pld.ptr) -> !data
  %sig_bytes = arith.constant 8 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%data, %sig) : (!data, !sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // Broadcast kernels move FP32 only.
  // expected-error@+1 {{on the HOST rail supports only element type f32, got f16}}
  %x = "pld.tensor_broadcast"(%data, %sig) {root = 0 : i64} : (!data, !sig) -> !data
  return
}

// -----

!sig = tensor<2x1xi32, #pld.dist>
func.func @chip(%sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %sig_bytes = arith.constant 8 : i64
  %sig_p = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sig_p) : (!pld.ptr) -> !sig
  %d0 = arith.constant 0 : index
  "pld.dispatch"(%d0) ({
    func.call @chip(%sig) : (!sig) -> ()
    gpu.yield
  }) : (index) -> ()
  %d1 = arith.constant 1 : index
  "pld.dispatch"(%d1) ({
    func.call @chip(%sig) : (!sig) -> ()
    gpu.yield
  }) : (index) -> ()
  // The barrier kernel takes a rank-1 signal.
  // expected-error@+1 {{on the HOST rail needs a rank-1 signal, one element per rank, got rank 2}}
  %x = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  return
}

// -----

!in = tensor<4x16xf32>
!out = tensor<4x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @chip(%o: !out) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h(%in: !in) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %b = arith.constant 256 : i64
  %s = arith.constant 16 : i64
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !out
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !sig
  "pld.dispatch"(%c0) ({
    func.call @chip(%out) : (!out) -> ()
    gpu.yield
  }) : (index) -> ()
  // A HOST all_to_all reads its input from a window.
  // expected-error@+1 {{input must be a window-bound tensor (a pld.tensor_window of a pld.tensor_alloc_window_buffer) in a HOST orchestrator}}
  %x = "pld.tensor_all_to_all"(%in, %out, %sig) : (!in, !out, !sig) -> !out
  return
}

// -----

!big = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @chip(%i: !big, %o: !big) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h(%cnt: !cnt) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %b = arith.constant 512 : i64
  %s = arith.constant 16 : i64
  %pi = "pld.tensor_alloc_window_buffer"(%b) {name = "in"} : (i64) -> !pld.ptr
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %pr = "pld.tensor_alloc_window_buffer"(%s) {name = "rcv"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%pi) : (!pld.ptr) -> !big
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !big
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !sig
  %rcv = "pld.tensor_window"(%pr) : (!pld.ptr) -> !rcv
  "pld.dispatch"(%c0) ({
    func.call @chip(%in, %out) : (!big, !big) -> ()
    gpu.yield
  }) : (index) -> ()
  // An unbound distributed parameter is not a window either.
  // expected-error@+1 {{send_counts must be a window-bound tensor}}
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv) : (!big, !big, !sig, !cnt, !rcv) -> !big
  return
}

// -----

!big = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
func.func @chip(%i: !big, %o: !big, %c: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %b = arith.constant 512 : i64
  %s = arith.constant 16 : i64
  %pi = "pld.tensor_alloc_window_buffer"(%b) {name = "in"} : (i64) -> !pld.ptr
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %pc = "pld.tensor_alloc_window_buffer"(%s) {name = "cnt"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%pi) : (!pld.ptr) -> !big
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !big
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !sig
  %cnt = "pld.tensor_window"(%pc) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%ps) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
  "pld.dispatch"(%c0) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  // Every pair of roles is checked, with the roles named.
  // expected-error@+1 {{signal and recv_counts must be different window allocations}}
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv) : (!big, !big, !sig, !cnt, tensor<4x1xi32, #pld.dist>) -> !big
  return
}

// -----

!big = tensor<8x16xf32, #pld.dist>
!lanes = tensor<4x2xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @chip(%i: !big, %o: !big, %c: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %b = arith.constant 512 : i64
  %s = arith.constant 32 : i64
  %pi = "pld.tensor_alloc_window_buffer"(%b) {name = "in"} : (i64) -> !pld.ptr
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %pc = "pld.tensor_alloc_window_buffer"(%s) {name = "cnt"} : (i64) -> !pld.ptr
  %pr = "pld.tensor_alloc_window_buffer"(%s) {name = "rcv"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%pi) : (!pld.ptr) -> !big
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !big
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !lanes
  %cnt = "pld.tensor_window"(%pc) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%pr) : (!pld.ptr) -> !rcv
  "pld.dispatch"(%c0) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  // One lane per launched block: core_num 3 on one device launches 3.
  // expected-error@+1 {{signal dim 1 (2) must be at least the launched block count CalAllToAllVBlocks(1, 3) = 3}}
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv, %c3) : (!big, !big, !lanes, !cnt, !rcv, index) -> !big
  return
}

// -----

!big = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @chip(%i: !big, %o: !big, %c: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = arith.constant 512 : i64
  %s = arith.constant 16 : i64
  %pi = "pld.tensor_alloc_window_buffer"(%b) {name = "in"} : (i64) -> !pld.ptr
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %pc = "pld.tensor_alloc_window_buffer"(%s) {name = "cnt"} : (i64) -> !pld.ptr
  %pr = "pld.tensor_alloc_window_buffer"(%s) {name = "rcv"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%pi) : (!pld.ptr) -> !big
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !big
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !sig
  %cnt = "pld.tensor_window"(%pc) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%pr) : (!pld.ptr) -> !rcv
  "pld.dispatch"(%c0) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  // One device (P = 1), core_num 2: B = CalAllToAllVBlocks(1, 2) = 2
  // blocks need two signal lanes.
  // expected-error@+1 {{signal dim 1 (1) must be at least the launched block count CalAllToAllVBlocks(1, 2) = 2}}
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv, %c2) : (!big, !big, !sig, !cnt, !rcv, index) -> !big
  return
}

// -----

!big = tensor<8x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!cnt = tensor<4xi32, #pld.dist>
!rcv = tensor<4x1xi32, #pld.dist>
func.func @chip(%i: !big, %o: !big, %c: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = arith.constant 512 : i64
  %s = arith.constant 16 : i64
  %pi = "pld.tensor_alloc_window_buffer"(%b) {name = "in"} : (i64) -> !pld.ptr
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %pc = "pld.tensor_alloc_window_buffer"(%s) {name = "cnt"} : (i64) -> !pld.ptr
  %pr = "pld.tensor_alloc_window_buffer"(%s) {name = "rcv"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%pi) : (!pld.ptr) -> !big
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !big
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !sig
  %cnt = "pld.tensor_window"(%pc) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%pr) : (!pld.ptr) -> !rcv
  "pld.dispatch"(%c0) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  // The HOST entry takes the launch width as an int16_t.
  %big = arith.constant 40000 : index
  // expected-error@+1 {{core_num must be at most 32767 on the HOST rail (the launch width its builtin entry takes), got 40000}}
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv, %big) : (!big, !big, !sig, !cnt, !rcv, index) -> !big
  return
}

// -----

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @h(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"host">} {
  // Without comm domains (materialize did not run: no allocations here),
  // parameters are not windows of this orchestrator.
  // expected-error@+1 {{src must be a view of a window allocation of this HOST orchestrator}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<?xf32, #pld.dist>
!sig = tensor<7x4xi32, #pld.dist>
func.func @chip(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h(%n: index) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "data_buf"} : (i64) -> !pld.ptr
  %q = "pld.tensor_alloc_window_buffer"(%b) {name = "sig_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%p, %n) : (!pld.ptr, index) -> !data
  %sig = "pld.tensor_window"(%q) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%data, %sig) : (!data, !sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  // Over every device the ring is the signal's width; the source must
  // still be static.
  // expected-error@+1 {{mode = "ring" requires a statically-known src shape}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// -----

module attributes {pld.aiv_core_count = "many"} {
  // expected-error@-1 {{pld.aiv_core_count must be a positive integer, got "many"}}
}

// -----

// Past i64 it is too large, not "not positive".
module attributes {pld.aiv_core_count = 18446744073709551615 : ui64} {
  // expected-error@-1 {{pld.aiv_core_count = 18446744073709551615 is too large}}
}

// -----

// Multi-block all_to_all_v on two devices: core_num 10 launches
// B = CalAllToAllVBlocks(2, 10) = 10 blocks, more than the 8 lanes.
!big = tensor<8x16xf32, #pld.dist>
!sig = tensor<2x8xi32, #pld.dist>
!cnt = tensor<2xi32, #pld.dist>
!rcv = tensor<2x1xi32, #pld.dist>
func.func @chip(%i: !big, %o: !big, %c: !cnt) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %b = arith.constant 512 : i64
  %s = arith.constant 64 : i64
  %pi = "pld.tensor_alloc_window_buffer"(%b) {name = "in"} : (i64) -> !pld.ptr
  %po = "pld.tensor_alloc_window_buffer"(%b) {name = "out"} : (i64) -> !pld.ptr
  %ps = "pld.tensor_alloc_window_buffer"(%s) {name = "sig"} : (i64) -> !pld.ptr
  %pc = "pld.tensor_alloc_window_buffer"(%s) {name = "cnt"} : (i64) -> !pld.ptr
  %pr = "pld.tensor_alloc_window_buffer"(%s) {name = "rcv"} : (i64) -> !pld.ptr
  %in = "pld.tensor_window"(%pi) : (!pld.ptr) -> !big
  %out = "pld.tensor_window"(%po) : (!pld.ptr) -> !big
  %sig = "pld.tensor_window"(%ps) : (!pld.ptr) -> !sig
  %cnt = "pld.tensor_window"(%pc) : (!pld.ptr) -> !cnt
  %rcv = "pld.tensor_window"(%pr) : (!pld.ptr) -> !rcv
  "pld.dispatch"(%c0) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  "pld.dispatch"(%c1) ({
    func.call @chip(%in, %out, %cnt) : (!big, !big, !cnt) -> ()
    gpu.yield
  }) : (index) -> ()
  // expected-error@+1 {{signal dim 1 (8) must be at least the launched block count CalAllToAllVBlocks(2, 10) = 10}}
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %cnt, %rcv, %c10) : (!big, !big, !sig, !cnt, !rcv, index) -> !big
  return
}
