// A device error of an asynchronous copy names the rank, then the op's
// place and name, as every device error does: an AsyncEvent::Wait on an
// event already waited for, and a URMA put whose queue's peer is not the
// rank whose window holds the destination (both siblings of
// tests/explore/async-put-waited.pto.mlir, one line changed). Before, they
// said only `rank 0: AsyncEvent::Wait on event 1, ...` and `rank 0: a URMA
// TPUT_ASYNC on the queue to rank 0 ...`.
//
// RUN: sed -e '/%%done = "pto.comm_wait_async_event"/{p;s/%%done =/%%again =/;}' %S/../../../explore/async-put-waited.pto.mlir > %t.double-wait.pto.mlir
// RUN: not pld-run %t.double-wait.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE-DAG: pld-run: error: rank 0: {{.*}}double-wait.pto.mlir:58:14: pto.comm_wait_async_event: AsyncEvent::Wait on event {{[0-9]+}}, which is not an outstanding asynchronous copy of rank 0 (waited for, or tested complete, already; or never submitted)
// TWICE-DAG: pld-run: error: rank 1: {{.*}}double-wait.pto.mlir:58:14: pto.comm_wait_async_event: AsyncEvent::Wait on event
//
// Two tests before the wait: the second finds the copy complete (a plain
// run finds it in flight the first time), which ends the event, so the
// wait is the same error (it said "waited for already, or never
// submitted", neither of which was so).
// RUN: sed -e '/%%done = "pto.comm_wait_async_event"/{h;s/%%done =/%%t1 =/;s/wait_async_event/test_async_event/;p;s/%%t1 =/%%t2 =/;p;g;}' %S/../../../explore/async-put-waited.pto.mlir > %t.tested.pto.mlir
// RUN: not pld-run %t.tested.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=TESTED
// TESTED-DAG: pld-run: error: rank 0: {{.*}}tested.pto.mlir:59:13: pto.comm_wait_async_event: AsyncEvent::Wait on event {{[0-9]+}}, which is not an outstanding asynchronous copy of rank 0 (waited for, or tested complete, already; or never submitted)
// TESTED-DAG: pld-run: error: rank 1: {{.*}}tested.pto.mlir:59:13: pto.comm_wait_async_event: AsyncEvent::Wait on event
//
// RUN: sed -e 's/%%session, %%peer32)/%%session, %%me32)/' %S/../../../explore/async-put-waited.pto.mlir > %t.wrong-queue.pto.mlir
// RUN: not pld-run %t.wrong-queue.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=QUEUE
// QUEUE-DAG: pld-run: error: rank 0: {{.*}}wrong-queue.pto.mlir:56:12: pto.comm_tput_async: a URMA TPUT_ASYNC on the queue to rank 0 has its destination in rank 1's window
// QUEUE-DAG: pld-run: error: rank 1: {{.*}}wrong-queue.pto.mlir:56:12: pto.comm_tput_async: a URMA TPUT_ASYNC on the queue to rank 1 has its destination in rank 0's window
// The explorer reports them the same way:
// RUN: not pld-run %t.wrong-queue.pto.mlir --ranks 2 --explore 2 | FileCheck %s --check-prefix=EXPLORE
// EXPLORE: schedule 0 (--replay 0): error: rank {{[01]}}: {{.*}}wrong-queue.pto.mlir:56:12: pto.comm_tput_async: a URMA TPUT_ASYNC
