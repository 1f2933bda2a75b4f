// Broken on purpose: a hand-made barrier on every rank of a [4, 1] mesh
// signal. Each rank adds one credit to its cell in every peer's signal and
// then waits for its own cells, but expects two credits per peer where the
// peers give one. No rank can pass its wait.
//
// The explorer reports the deadlock exactly (no thread can run), at the
// wait.
func.func @barrier(%sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<4x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %nr32 = "pld.system_nranks"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %nr = arith.index_cast %nr32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %minus = arith.constant -1 : i32
  scf.for %peer = %c0 to %nr step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<4x1xi32, #pld.dist>, index, index, index, i32) -> ()
    }
  }
  scf.for %src = %c0 to %nr step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      "pld.system_wait"(%sig, %src, %c0, %two) {cmp = #pld.wait_cmp<"ge">} : (tensor<4x1xi32, #pld.dist>, index, index, i32) -> ()
    }
  }
  scf.for %src = %c0 to %nr step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      "pld.system_notify"(%sig, %me, %src, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (tensor<4x1xi32, #pld.dist>, index, index, index, i32) -> ()
    }
  }
  return
}
