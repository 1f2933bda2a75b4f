// A buffer of a comm domain is filled, written and read back on that
// domain's devices only: its --input files are needed for those devices
// alone (pair_buf lives on devices 1 and 3 of 4; there are no files for 0
// and 2, which used to be demanded: `cannot read '.../pair.rank0.npy'`).
// The pair's sum, 1.0 + 2.0, is checked on the files written; the MPI run
// of the same program is in mpi/domain-inputs.mlir.
//
// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/in
// RUN: python3 %S/Inputs/npy.py write %t/in/pair.rank1.npy f4 64 3f800000
// RUN: python3 %S/Inputs/npy.py write %t/in/pair.rank3.npy f4 64 40000000
// RUN: pld-run %t/pair13.mlir --ranks 4 --check --input pair_buf=%t/in/pair.rank{rank}.npy --output-dir %t/out | FileCheck %s
// RUN: python3 %S/Inputs/npy.py show %t/out/pair_buf.rank1.npy | FileCheck %s --check-prefix=SUM
// RUN: python3 %S/Inputs/npy.py show %t/out/pair_buf.rank3.npy | FileCheck %s --check-prefix=SUM
// RUN: ls %t/out | FileCheck %s --check-prefix=FILES
// CHECK: pld.tensor_allreduce at {{.*}}pair13.mlir:{{[0-9]+}}:{{[0-9]+}}: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks
// SUM: <f4 (64,): 40400000 x 64
// FILES-NOT: pair_buf.rank0
// FILES-NOT: pair_buf.rank2
// FILES: pair_buf.rank1.npy
// FILES-NOT: pair_buf.rank2
// FILES: pair_buf.rank3.npy

//--- pair13.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c256 = arith.constant 256 : i64
  %c8 = arith.constant 8 : i64
  "pld.comm_domain"() ({
    %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
    %psbuf = "pld.tensor_alloc_window_buffer"(%c8) {name = "pair_sig"} : (i64) -> !pld.ptr
    %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    %psig = "pld.tensor_window"(%psbuf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
    %p = "pld.tensor_allreduce"(%pair, %psig) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
    gpu.yield
  }) {name = "pair", devices = array<i64: 1, 3>, slots = ["pair_buf", "pair_sig"]} : () -> ()
  return
}
