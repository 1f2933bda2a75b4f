// The trace of a program: a process per device, a track for its own thread
// and one per AIV block of a builtin's launch (the four blocks of the
// all_to_all_v run at once: on one track their slices overlapped), every
// event of a builtin's kernels named by the pld op it serves and its
// location, and the entry's launch line as an event. --stats shows the
// launch line too (it was collected, and no tool showed it).
//
// RUN: pld-run %S/../../../../examples/chip_all_to_all_v.mlir --ranks 2 --trace %t.json --stats | FileCheck %s --check-prefix=STATS
// RUN: FileCheck %s --input-file=%t.json
//
// STATS: log (devices 0-1): pld.tensor_all_to_all_v at {{.*}}chip_all_to_all_v.mlir:39:15: requested_core_num=4 launched_core_num=4 active_lanes=4 nranks=2
//
// CHECK: {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "rank 0"}},
// CHECK-NEXT: {"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "rank 0"}},
// CHECK-NEXT: {"name": "thread_name", "ph": "M", "pid": 0, "tid": 1, "args": {"name": "rank 0 AIV block 0"}},
// CHECK-NEXT: {"name": "thread_name", "ph": "M", "pid": 0, "tid": 2, "args": {"name": "rank 0 AIV block 1"}},
// CHECK-NEXT: {"name": "thread_name", "ph": "M", "pid": 0, "tid": 3, "args": {"name": "rank 0 AIV block 2"}},
// CHECK-NEXT: {"name": "thread_name", "ph": "M", "pid": 0, "tid": 4, "args": {"name": "rank 0 AIV block 3"}},
// CHECK-DAG: {"name": "log", "ph": "X", "pid": 0, "tid": 0, {{.*}}"line": "pld.tensor_all_to_all_v at {{.*}}: requested_core_num=4 launched_core_num=4 active_lanes=4 nranks=2", "op": "pld.tensor_all_to_all_v", "loc": "{{.*}}chip_all_to_all_v.mlir:39:15"}},
// CHECK-DAG: {"name": "notify", "ph": "X", "pid": 0, "tid": 4, {{.*}}"op": "pld.tensor_all_to_all_v", "loc": "{{.*}}chip_all_to_all_v.mlir:39:15"}},
// CHECK-DAG: {"name": "task", "ph": "X", "pid": 0, "tid": 0, {{.*}}"builtin": {{.*}}"op": "pld.tensor_all_to_all_v", "loc": "{{.*}}chip_all_to_all_v.mlir:39:15"}},
// CHECK: {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "rank 1"}},
