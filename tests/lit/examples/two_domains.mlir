// examples/two_domains.mlir: two comm domains (every device, and devices 0
// and 1) from the HOST pipeline, and the whole program on 4 devices with
// every call checked: the pair's InCore allreduce and its HOST allreduce on
// 2 ranks, data_buf's HOST allreduce (no dispatch names it) on 4.
//
// RUN: pld-opt %S/../../../examples/two_domains.mlir --pass-pipeline='builtin.module(pld-host-pipeline)' | FileCheck %s --check-prefix=HOST
// RUN: pld-opt %S/../../../examples/two_domains.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.pto
// RUN: pld-run %S/../../../examples/two_domains.mlir --ranks 4 --check --stats --per-rank | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/two_domains.mlir --ranks 2 --check | FileCheck %s --check-prefix=TWO

// HOST-LABEL: func.func @main
// HOST: "pld.comm_domain"() ({
// HOST-NEXT: "pld.comm_domain"() ({
// HOST: "pld.builtin_allreduce"({{.*}}) {{.*}}op = #pld.reduce_op<"sum">
// HOST: }) {{{.*}}devices = array<i64: 0, 1>, {{.*}}name = "comm_d1", slots = ["pair_buf", "pair_sig", "__allreduce_signal_buf_1"]
// HOST: }) {{{.*}}devices = array<i64>, {{.*}}name = "comm_d0", slots = ["data_buf", "__allreduce_signal_buf_0"]

// FOUR: @main on 4 devices: 3 collective calls
// FOUR-NEXT: pld.tensor_allreduce in @pair_max (called at {{.*}}two_domains.mlir:31:3): f32 x 256 (max, mesh), {{.*}}: ok on 2 ranks
// FOUR-NEXT: pld.tensor_allreduce at {{.*}}two_domains.mlir:57:10: f32 x 1024 (sum, mesh), {{.*}}: ok on 4 ranks
// FOUR-NEXT: pld.tensor_allreduce at {{.*}}two_domains.mlir:59:15: f32 x 256 (sum, mesh), {{.*}}: ok on 2 ranks
// FOUR: device  round trips
// FOUR-NEXT: 0            3
// FOUR-NEXT: 1            3
// FOUR-NEXT: 2            1
// FOUR-NEXT: 3            1

// TWO: @main on 2 devices: 3 collective calls
// TWO-COUNT-3: ok on 2 ranks
