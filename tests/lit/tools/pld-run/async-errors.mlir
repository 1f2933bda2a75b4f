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
//
// The local side of a copy in a peer's window: a put whose source, or a
// get whose destination, is the peer's row (both ran with exit 0, the put
// copying the peer's row onto itself).
// RUN: sed -e 's/"pto.comm_tput_async"(%%slot, %%staging,/"pto.comm_tput_async"(%%slot, %%slot,/' %S/../../../explore/async-put-waited.pto.mlir > %t.remote-source.pto.mlir
// RUN: not pld-run %t.remote-source.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SOURCE
// SOURCE-DAG: pld-run: error: rank 0: {{.*}}remote-source.pto.mlir:56:12: pto.comm_tput_async: a TPUT_ASYNC has its source in rank 1's window: the source of a TPUT_ASYNC is local (this rank's window, a tile or a buffer), and only the other side may be a peer's
// SOURCE-DAG: pld-run: error: rank 1: {{.*}}remote-source.pto.mlir:56:12: pto.comm_tput_async: a TPUT_ASYNC has its source in rank 0's window
// RUN: sed -e 's/"pto.comm_tput_async"(%%slot/"pto.comm_tget_async"(%%slot/' %S/../../../explore/async-put-waited.pto.mlir > %t.remote-destination.pto.mlir
// RUN: not pld-run %t.remote-destination.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=DESTINATION
// DESTINATION-DAG: pld-run: error: rank 0: {{.*}}remote-destination.pto.mlir:56:12: pto.comm_tget_async: a TGET_ASYNC has its destination in rank 1's window: the destination of a TGET_ASYNC is local
//
// A source view whose elements are not adjacent (the staging row of a
// tensor view with a column stride of 2) ran as a gather the DMA engines
// do not make (dma26 M1): refused at the put.
// RUN: sed -e 's/%%mine = "pto.make_tensor_view"(%%data, %%c2, %%c64, %%c64, %%c1)/%%mine = "pto.make_tensor_view"(%%data, %%c2, %%c64, %%c1, %%c2)/' %S/../../../explore/async-put-waited.pto.mlir > %t.strided.pto.mlir
// RUN: not pld-run %t.strided.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=STRIDED
// STRIDED: pld-run: error: rank {{[01]}}: {{.*}}strided.pto.mlir:56:12: pto.comm_tput_async: an asynchronous copy moves a flat contiguous span, but its src view's elements are not adjacent (strides [1, 2] elements for a 1 x 64 view; a DMA engine makes no gather); nothing was copied
// DESTINATION-DAG: pld-run: error: rank 1: {{.*}}remote-destination.pto.mlir:56:12: pto.comm_tget_async: a TGET_ASYNC has its destination in rank 0's window
//
// An event never waited for is said at its copy's op, as every device
// error (it named the op mid-sentence: dma24 L1).
// RUN: not pld-run %S/../../../explore/async-event-never-waited.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=UNWAITED
// UNWAITED: pld-run: error: rank {{[01]}}: {{.*}}async-event-never-waited.pto.mlir:53:12: pto.comm_tput_async: an asynchronous copy (URMA TPUT_ASYNC, 256 bytes) was never waited for: its event was still outstanding when its kernel ended
