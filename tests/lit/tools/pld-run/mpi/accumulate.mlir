// REQUIRES: mpirun
// Atomic-add stores (`pld.tile_remote_store` with
// #pld.atomic_type<"add">) of every rank into one element range of rank 0
// combine element by element, whichever way the ranks reach each other:
// threads (CPU atomics), one node of MPI processes (CPU atomics on the
// shared mapping), mpi-rma and mpi across (pretended) nodes (every
// accumulation through MPI_Accumulate, or for f16 MPI_Compare_and_swap,
// rank 0's own and its node's too). No add is lost: rank 0's buffer
// equals its input plus every rank's, as accumulate.py computes it
// (exact in f16 and f32 in any order).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %S/Inputs/accumulate.sh %t 3 f32 | FileCheck %s --check-prefix=F32-3
// RUN: %S/Inputs/accumulate.sh %t 4 f32 | FileCheck %s --check-prefix=F32-4
// RUN: %S/Inputs/accumulate.sh %t 3 f16 | FileCheck %s --check-prefix=F16-3
// RUN: %S/Inputs/accumulate.sh %t 4 f16 | FileCheck %s --check-prefix=F16-4
// F32-3: threads 3 f32: 4096 of 4096 elements right
// F32-3-NEXT: mpi 3 f32: 4096 of 4096 elements right
// F32-3-NEXT: mpi-rma 3 f32: 4096 of 4096 elements right
// F32-3-NEXT: nodes 3 f32: 4096 of 4096 elements right
// F32-4: threads 4 f32: 4096 of 4096 elements right
// F32-4-NEXT: mpi 4 f32: 4096 of 4096 elements right
// F32-4-NEXT: mpi-rma 4 f32: 4096 of 4096 elements right
// F32-4-NEXT: nodes 4 f32: 4096 of 4096 elements right
// F16-3: threads 3 f16: 4096 of 4096 elements right
// F16-3-NEXT: mpi 3 f16: 4096 of 4096 elements right
// F16-3-NEXT: mpi-rma 3 f16: 4096 of 4096 elements right
// F16-3-NEXT: nodes 3 f16: 4096 of 4096 elements right
// F16-4: threads 4 f16: 4096 of 4096 elements right
// F16-4-NEXT: mpi 4 f16: 4096 of 4096 elements right
// F16-4-NEXT: mpi-rma 4 f16: 4096 of 4096 elements right
// F16-4-NEXT: nodes 4 f16: 4096 of 4096 elements right
