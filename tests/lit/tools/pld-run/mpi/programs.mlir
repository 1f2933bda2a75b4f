// REQUIRES: mpirun
// Whole programs under MPI, one device per process: every HOST-rail
// builtin collective (allreduce in its three schedules, barrier,
// broadcast, reduce_scatter, reduce, allgather, all_to_all, all_to_all_v)
// and a CHIP program (two InCore kernels around an all_to_all_v managed
// task) on D = 2, 3 and 4 devices, run on threads (checked against the
// golden) and on D MPI processes under both MPI transports (each process
// checking its own device): every output file of every device, goldens
// included, is identical byte for byte, and every call's verdict is the
// thread run's
// (Inputs/program_matrix.sh; the programs come from Inputs/programs.py).
// D = 3 runs every program; D = 2 and 4 a subset (the whole matrix at
// three sizes would take several minutes on 2 cores).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %S/Inputs/program_matrix.sh 3 mpi %t/3 allreduce_mesh allreduce_ring allreduce_two_shot barrier broadcast reduce_scatter reduce allgather all_to_all all_to_all_v chip_all_to_all_v | FileCheck %s --check-prefix=ALL -DP=3 -DT=mpi
// RUN: %S/Inputs/program_matrix.sh 3 mpi-rma %t/3 allreduce_mesh allreduce_ring allreduce_two_shot barrier broadcast reduce_scatter reduce allgather all_to_all all_to_all_v chip_all_to_all_v | FileCheck %s --check-prefix=ALL -DP=3 -DT=mpi-rma
// RUN: %S/Inputs/program_matrix.sh 2 mpi %t/2 allreduce_ring allreduce_two_shot all_to_all chip_all_to_all_v | FileCheck %s --check-prefix=SOME -DP=2 -DT=mpi
// RUN: %S/Inputs/program_matrix.sh 2 mpi-rma %t/2 allreduce_ring allreduce_two_shot all_to_all chip_all_to_all_v | FileCheck %s --check-prefix=SOME -DP=2 -DT=mpi-rma
// RUN: %S/Inputs/program_matrix.sh 4 mpi %t/4 allreduce_ring allreduce_two_shot all_to_all chip_all_to_all_v | FileCheck %s --check-prefix=SOME -DP=4 -DT=mpi
// RUN: %S/Inputs/program_matrix.sh 4 mpi-rma %t/4 allreduce_ring allreduce_two_shot all_to_all chip_all_to_all_v | FileCheck %s --check-prefix=SOME -DP=4 -DT=mpi-rma

// ALL: [[P]] [[T]] allreduce_mesh: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] allreduce_ring: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] allreduce_two_shot: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] barrier: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] broadcast: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] reduce_scatter: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] reduce: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] allgather: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] all_to_all: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] all_to_all_v: {{[1-9][0-9]*}} files identical, 1 calls ok
// ALL-NEXT: [[P]] [[T]] chip_all_to_all_v: {{[1-9][0-9]*}} files identical, 3 calls ok
// SOME: [[P]] [[T]] allreduce_ring: {{[1-9][0-9]*}} files identical, 1 calls ok
// SOME-NEXT: [[P]] [[T]] allreduce_two_shot: {{[1-9][0-9]*}} files identical, 1 calls ok
// SOME-NEXT: [[P]] [[T]] all_to_all: {{[1-9][0-9]*}} files identical, 1 calls ok
// SOME-NEXT: [[P]] [[T]] chip_all_to_all_v: {{[1-9][0-9]*}} files identical, 3 calls ok
