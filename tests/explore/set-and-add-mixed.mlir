// Broken on purpose: two barriers in a row whose credits are given with
// Set(1) instead of AtomicAdd(1), while the epilogue takes them back with
// AtomicAdd(-1). A fast peer's Set of the second barrier can land before
// this rank's epilogue of the first: the Set is overwritten by the -1, the
// credit is lost, and the second barrier may hang.
//
// The explorer reports Set and AtomicAdd on one cell with no signal
// ordering them, naming the Set and the epilogue's add.
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
  %c2 = arith.constant 2 : index
  scf.for %round = %c0 to %c2 step %c1 {
  scf.for %peer = %c0 to %nr step %c1 {
    %other = arith.cmpi ne, %peer, %me : index
    scf.if %other {
      "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"set">} : (tensor<4x1xi32, #pld.dist>, index, index, index, i32) -> ()
    }
  }
  scf.for %src = %c0 to %nr step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      "pld.system_wait"(%sig, %src, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<4x1xi32, #pld.dist>, index, index, i32) -> ()
    }
  }
  scf.for %src = %c0 to %nr step %c1 {
    %other = arith.cmpi ne, %src, %me : index
    scf.if %other {
      "pld.system_notify"(%sig, %me, %src, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (tensor<4x1xi32, #pld.dist>, index, index, index, i32) -> ()
    }
  }
  }
  return
}
