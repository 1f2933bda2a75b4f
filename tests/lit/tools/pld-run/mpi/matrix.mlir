// REQUIRES: mpirun
// Every collective kind of the InCore rail on P = 2, 3 and 4 ranks, run on
// threads (checked against the golden) and on P MPI processes under both
// MPI transports: every output file of every rank is identical byte for
// byte (Inputs/matrix.sh; the kernels come from Inputs/kernels.py).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %S/Inputs/matrix.sh 3 mpi %t/3 allreduce_mesh allreduce_max allreduce_ring barrier broadcast reduce reduce_scatter allgather all_to_all all_to_all_v | FileCheck %s --check-prefix=ALL -DP=3 -DT=mpi
// RUN: %S/Inputs/matrix.sh 3 mpi-rma %t/3 allreduce_mesh allreduce_max allreduce_ring barrier broadcast reduce reduce_scatter allgather all_to_all all_to_all_v | FileCheck %s --check-prefix=ALL -DP=3 -DT=mpi-rma
// RUN: %S/Inputs/matrix.sh 2 mpi %t/2 allreduce_mesh allreduce_ring broadcast all_to_all_v | FileCheck %s --check-prefix=SOME -DP=2 -DT=mpi
// RUN: %S/Inputs/matrix.sh 2 mpi-rma %t/2 allreduce_mesh allreduce_ring broadcast all_to_all_v | FileCheck %s --check-prefix=SOME -DP=2 -DT=mpi-rma
// RUN: %S/Inputs/matrix.sh 4 mpi %t/4 allreduce_mesh allreduce_ring broadcast all_to_all_v | FileCheck %s --check-prefix=SOME -DP=4 -DT=mpi
// RUN: %S/Inputs/matrix.sh 4 mpi-rma %t/4 allreduce_mesh allreduce_ring broadcast all_to_all_v | FileCheck %s --check-prefix=SOME -DP=4 -DT=mpi-rma

// ALL: [[P]] [[T]] allreduce_mesh: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] allreduce_max: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] allreduce_ring: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] barrier: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] broadcast: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] reduce: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] reduce_scatter: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] allgather: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] all_to_all: {{[1-9][0-9]*}} files identical
// ALL-NEXT: [[P]] [[T]] all_to_all_v: {{[1-9][0-9]*}} files identical
// SOME: [[P]] [[T]] allreduce_mesh: {{[1-9][0-9]*}} files identical
// SOME-NEXT: [[P]] [[T]] allreduce_ring: {{[1-9][0-9]*}} files identical
// SOME-NEXT: [[P]] [[T]] broadcast: {{[1-9][0-9]*}} files identical
// SOME-NEXT: [[P]] [[T]] all_to_all_v: {{[1-9][0-9]*}} files identical

// 64 ranks, each its own process, the windows spread over them.
// RUN: %S/Inputs/matrix.sh 64 mpi-rma %t/64 allreduce_mesh | FileCheck %s --check-prefix=WIDE
// WIDE: 64 mpi-rma allreduce_mesh: 192 files identical
