// Each kernel task of a program is a kernel launch of its own on the
// device, with its own UB: its tiles are freed when it returns. Before,
// a device's tiles were freed only when its whole program ended, so seven
// different kernels of ~30 KiB of tiles each, called one after the other
// on a device, were refused as needing 212992 bytes of UB (more than an
// AIV core's 196608) although each fits.
//
// RUN: pld-run %S/Inputs/seven-kernels.mlir --ranks 4 --check | FileCheck %s
// CHECK: 7 collective calls
// CHECK-COUNT-7: pld.tensor_allreduce {{.*}}: ok on 4 ranks
// CHECK-NOT: UB
