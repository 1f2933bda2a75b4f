// REQUIRES: mpirun, emulated-nodes
// pld-run across nodes that are not one machine to Open MPI: the nodes of
// tests/cluster/emulated-nodes.sh, each a network namespace with its own
// address and host name, started through the script as mpirun's remote
// shell, talking TCP over veths (docs/tools/pld-run.md, "An emulated
// cluster"). This is the script's small part (`smoke`); its default
// command runs the whole matrix. UNSUPPORTED where namespaces cannot be
// made (the lit configuration probes).
//
// RUN: rm -rf %t
// RUN: %emulated_nodes smoke %t | FileCheck %s
//
// MPI_Comm_split_type(SHARED) splits the job by the nodes mpirun placed it
// on (2 + 1), and pld-run says so (PLD_MPI_SHOW_NODES=1).
// CHECK: pld-run: 3 MPI processes on 2 nodes, split by MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)
// CHECK-NEXT: pld-run:   node 0 (host pldnode1): processes 0, 1
// CHECK-NEXT: pld-run:   node 1 (host pldnode2): process 2
//
// Without a one-sided component that reaches another node over TCP
// (mpirun --mca osc sm,rdma, as Debian's Open MPI configures itself),
// the run fails and says why, once.
// CHECK-NEXT: 3 mpi with osc sm,rdma: status 1
// CHECK-NEXT: pld-run: error: MPI_Win_create failed: {{.*}} (the job spans 2 nodes, and no one-sided component of this MPI reaches the processes of the others: {{.*}} start mpirun with --mca osc sm,rdma,pt2pt)
//
// Kernels and programs give the thread run's files byte for byte, across
// 2 nodes (the script checks every headline says so).
// CHECK-NEXT: 3 mpi allreduce_ring: {{[1-9][0-9]*}} files identical
// CHECK-NEXT: 4 mpi-rma allreduce_two_shot: {{[1-9][0-9]*}} files identical, 1 calls ok
//
// Accumulating stores from three nodes (1+1+1) into rank 0 lose no add:
// CPU atomics and MPI_Accumulate never meet on a cell. "nodes" pretends
// nodes of 2 processes, which never span two real nodes (a shared window
// across machines would be refused: MPI_ERR_RMA_SHARED).
// CHECK-NEXT: threads 3 f32: 4096 of 4096 elements right
// CHECK-NEXT: mpi 3 f32: 4096 of 4096 elements right
// CHECK-NEXT: mpi-rma 3 f32: 4096 of 4096 elements right
// CHECK-NEXT: nodes 3 f32: 4096 of 4096 elements right
//
// A deadlock across nodes is reported as on threads, with status 3.
// CHECK-NEXT: 3 mpi deadlock: status 3, 6 report lines as on threads
