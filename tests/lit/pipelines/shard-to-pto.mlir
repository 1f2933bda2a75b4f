// shard-to-pto: a shard-partitioned module down to PTO in one pipeline
// (convert-shard-to-pld, then everything pld-to-pto does); its kernels end
// as func/arith/scf/pto only, and print as PTOAS text. From sharding
// annotations it is one pipeline string too, after upstream's
// sharding-propagation and shard-partition.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(shard-to-pto)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(shard-to-pto)' | pld-translate --emit=pto | FileCheck %s --check-prefix=PTOAS
// RUN: split-file %S/../passes/convert-shard-to-pld/partition.mlir %t
// RUN: pld-opt %t/annotated.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition),shard-to-pto)' | FileCheck %s --check-prefix=ANNOTATED
// RUN: pld-opt --list-passes | FileCheck %s --check-prefix=LIST

// The HOST orchestrator, its comm domains sized and its collective a
// builtin dispatch per device of each group.
// CHECK-LABEL: func.func @gather()
// CHECK: "pld.comm_domain"() ({
// CHECK-COUNT-4: "pld.builtin_allgather"
// CHECK: }) {{{.*}}devices = array<i64: 4, 5, 6, 7>
// CHECK: }) {{{.*}}devices = array<i64: 0, 1, 2, 3>
// CHECK: }) {{{.*}}devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>
// The kernels in PTO.
// CHECK-LABEL: func.func @gather__all_gather0_unpack(
// CHECK-SAME: pto.kernel_kind = #pto.kernel_kind<"vector">
// CHECK: "pto.tload"
// CHECK: "pto.tstore"
// CHECK-NOT: "pld.

// PTOAS: func.func @gather__all_gather0_pack(
// PTOAS: pto.tload

// ANNOTATED-LABEL: func.func @annotated()
// ANNOTATED: "pld.builtin_all_to_all"
// ANNOTATED: "pld.builtin_allgather"

// LIST: shard-to-pto {{.*}}[convert-shard-to-pld,pld-verify,

shard.grid @grid(shape = 2x4)

func.func @gather(%x: tensor<8x4xf32>) -> tensor<8x16xf32> {
  %columns = shard.all_gather %x on @grid grid_axes = [1] gather_axis = 1 : tensor<8x4xf32> -> tensor<8x16xf32>
  return %columns : tensor<8x16xf32>
}
