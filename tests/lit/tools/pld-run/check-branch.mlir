// --check of a kernel whose collective sits in an scf.if: where the branch
// is not taken the call does not run, and the ranks' targets are WRONG
// against the golden of a call. The verdict now says why it may be so (it
// listed wrong elements with no hint).
//
// RUN: not pld-run %s --ranks 2 --check | FileCheck %s
// CHECK: rank 0: WRONG
// CHECK: note: the pld.tensor_allreduce of @ifk is inside an scf.if: where the branch was not taken it did not run, and its target kept what it held

!t = tensor<1x64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @ifk(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %false = arith.constant false
  scf.if %false {
    %a = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!t, !s) -> !t
  }
  return
}
