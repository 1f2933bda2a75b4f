// A kernel that polls a flag no rank sets, with scalar reads: a schedule
// of the protocol explorer cannot end (the explorer cuts it after its
// no-progress decisions, and the ranks poll on). Read by the Python
// package's tests of pld.opt (pld-explore-protocol) and pld.explore.
func.func @poll(%flag: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  scf.while : () -> () {
    %v = "pld.tensor_read"(%flag, %c0, %c0) : (tensor<2x1xi32, #pld.dist>, index, index) -> i32
    %go = arith.cmpi eq, %v, %zero : i32
    scf.condition(%go)
  } do {
    scf.yield
  }
  return
}
