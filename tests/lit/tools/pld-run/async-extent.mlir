// TPUT_ASYNC / TGET_ASYNC move all of their source, into a destination at
// least as long (pto-isa asserts `dstElems >= srcElems` and copies
// `srcElems`), and AsyncEvent::Wait polls the engine of the session it is
// given. Before, the simulator moved the destination's element count (a
// source view of 32 elements put 64, the 32 past it included, exit 0), a
// destination shorter than the source at run time took its own count
// silently, and a URMA event waited with an SDMA session passed.
//
// A source of 32 into a destination of 64: 32 ones, then the zeros that
// were there.
// RUN: rm -rf %t.out && pld-run %S/Inputs/async-short-src.pto.mlir --ranks 2 --input arg0=zeros --input arg2=ones --input arg3=zeros --output-dir %t.out > /dev/null
// RUN: od -A n -t f4 -j 128 -w256 %t.out/arg3.rank0.npy | FileCheck %s --check-prefix=MOVED
// MOVED: {{^ +}}1{{( +1){31}( +0){32} *$}}
//
// RUN: not pld-run %S/Inputs/async-short-dst.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT-DAG: pld-run: error: rank 0: {{.*}}async-short-dst.pto.mlir:49:12: pto.comm_tput_async: dst has 32 elements, fewer than the 64 of src (an asynchronous copy moves all of src); nothing was copied
// SHORT-DAG: pld-run: error: rank 1: {{.*}}async-short-dst.pto.mlir:49:12: pto.comm_tput_async: dst has 32 elements
//
// RUN: not pld-run %S/Inputs/async-other-session.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SESSION
// SESSION-DAG: pld-run: error: rank 0: {{.*}}async-other-session.pto.mlir:49:13: pto.comm_wait_async_event: AsyncEvent::Wait on event {{[0-9]+}}: the event of a copy on URMA waited with a session on SDMA (the wait polls its session's engine)
// SESSION-DAG: pld-run: error: rank 1: {{.*}}async-other-session.pto.mlir:49:13: pto.comm_wait_async_event: AsyncEvent::Wait on event
//
// Sessions and events chosen by arith.select are the simulator's i64 like
// those carried by scf ops (pld-run refused the select: "failed to verify
// that all of {true_value, false_value, result} have same type"):
// RUN: pld-run %S/Inputs/async-select-event.pto.mlir --ranks 2 | FileCheck %s --check-prefix=SELECT
// SELECT: @xchg on 2 ranks: finished
