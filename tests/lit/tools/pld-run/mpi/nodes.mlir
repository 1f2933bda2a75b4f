// REQUIRES: mpirun
// --transport mpi splits the job by node: peers on this process's node
// are reached through the node's shared window (plain loads and stores,
// CPU atomics for signals), peers on other nodes through MPI RMA
// (Get/Put, Accumulate, Fetch_and_op). There is one machine here, so the
// test knob PLD_MPI_RANKS_PER_NODE=K pretends nodes of K consecutive
// ranks: with P = 4 and K = 2 every rank has one peer of each kind (a
// window of another pretended node is not mapped at all, so reaching it
// other than through MPI would fault). Kernels and whole programs give
// the thread run's results byte for byte.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: env PLD_MPI_RANKS_PER_NODE=2 %S/Inputs/matrix.sh 4 mpi %t/k allreduce_mesh allreduce_ring broadcast reduce_scatter all_to_all_v | FileCheck %s --check-prefix=KERNELS
// RUN: env PLD_MPI_RANKS_PER_NODE=2 %S/Inputs/program_matrix.sh 4 mpi %t/p allreduce_two_shot allgather chip_all_to_all_v | FileCheck %s --check-prefix=PROGRAMS
// RUN: grep -c "(4 MPI processes on 2 nodes under --transport mpi)" %t/k/mpi-allreduce_ring.out %t/p/mpi-chip_all_to_all_v.out | FileCheck %s --check-prefix=NODES
// KERNELS: 4 mpi allreduce_mesh: {{[1-9][0-9]*}} files identical
// KERNELS-NEXT: 4 mpi allreduce_ring: {{[1-9][0-9]*}} files identical
// KERNELS-NEXT: 4 mpi broadcast: {{[1-9][0-9]*}} files identical
// KERNELS-NEXT: 4 mpi reduce_scatter: {{[1-9][0-9]*}} files identical
// KERNELS-NEXT: 4 mpi all_to_all_v: {{[1-9][0-9]*}} files identical
// PROGRAMS: 4 mpi allreduce_two_shot: {{[1-9][0-9]*}} files identical, 1 calls ok
// PROGRAMS-NEXT: 4 mpi allgather: {{[1-9][0-9]*}} files identical, 1 calls ok
// PROGRAMS-NEXT: 4 mpi chip_all_to_all_v: {{[1-9][0-9]*}} files identical, 3 calls ok
// NODES: mpi-allreduce_ring.out:1
// NODES: mpi-chip_all_to_all_v.out:1
//
// Without the knob the four processes share one node.
// RUN: %mpirun -np 4 pld-run %t/k/src/allreduce_ring.mlir --ranks 4 --transport mpi | FileCheck %s --check-prefix=ONE
// ONE: @k on 4 ranks (4 MPI processes under --transport mpi): finished
//
// A knob that is not a positive count is refused, naming it, once.
// RUN: not env PLD_MPI_RANKS_PER_NODE=0 %mpirun -np 2 pld-run %t/k/src/allreduce_ring.mlir --ranks 2 --transport mpi 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: pld-run: error: PLD_MPI_RANKS_PER_NODE=0: the processes per pretended node must be a positive integer
// BAD-NOT: pld-run: error
//
// PLD_MPI_SHOW_NODES=1 makes process 0 say how the job was split (the
// pretended nodes lie within the one real node); a value other than 0 or 1
// is refused, naming it, once.
// (mpirun forwards standard output and error separately, so their lines
// are checked apart: their order in one stream is not fixed.)
// RUN: env PLD_MPI_RANKS_PER_NODE=2 PLD_MPI_SHOW_NODES=1 %mpirun -np 4 pld-run %t/k/src/allreduce_ring.mlir --ranks 4 --transport mpi 2>%t/show.err >%t/show.out
// RUN: FileCheck %s --check-prefix=SHOW < %t/show.err
// RUN: FileCheck %s --check-prefix=SHOWOUT < %t/show.out
// SHOW: pld-run: 4 MPI processes on 2 nodes, split by MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and PLD_MPI_RANKS_PER_NODE=2
// SHOW-NEXT: pld-run:   node 0 (host [[HOST:.+]]): processes 0, 1
// SHOW-NEXT: pld-run:   node 1 (host [[HOST]]): processes 2, 3
// SHOWOUT: @k on 4 ranks (4 MPI processes on 2 nodes under --transport mpi): finished
// RUN: %mpirun -np 4 pld-run %t/k/src/allreduce_ring.mlir --ranks 4 --transport mpi 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: node 0
// QUIET: @k on 4 ranks (4 MPI processes under --transport mpi): finished
// QUIET-NOT: node 0
// RUN: not env PLD_MPI_SHOW_NODES=maybe %mpirun -np 4 pld-run %t/k/src/allreduce_ring.mlir --ranks 4 --transport mpi 2>&1 | FileCheck %s --check-prefix=SHOWBAD
// SHOWBAD: pld-run: error: PLD_MPI_SHOW_NODES=maybe: say 1, true, yes or on to show the nodes, or 0, false, no, off or nothing to not show them
// SHOWBAD-NOT: pld-run: error
