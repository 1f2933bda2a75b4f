// A 0-d .npy (shape ()) fills a one-element [1] buffer: a shard program's
// rank-0 tensor<f32> argument is a [1] window buffer (a window has at least
// one dimension). Before, it was refused: `'x.rank0.npy' has shape []; the
// parameter is [1]`. The result is written as the buffer is, shape (1,).
// A 0-d array for a buffer of another shape is still refused.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import struct, sys; h = \"{'descr': '<f4', 'fortran_order': False, 'shape': (), }\"; h += ' ' * (63 - 10 - len(h)) + '\n'; [open(sys.argv[1] + '/x.rank%%d.npy' %% r, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<f', v)) for r, v in enumerate([1.5, 2.25])]" %t
// RUN: pld-run %s --ranks 2 --input 'arg0=%t/x.rank{rank}.npy' --check --output-dir %t/out | FileCheck %s
// RUN: python3 -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); print(d[10:74].decode().strip(), struct.unpack('<f', d[-4:])[0])" %t/out/result0.rank1.npy | FileCheck %s --check-prefix=OUT
// RUN: not pld-run %s --ranks 2 --input 'all_reduce0_buf=%t/x.rank{rank}.npy' 2>&1 | FileCheck %s --check-prefix=SHAPE

// CHECK: pld.tensor_allreduce at {{.*}}scalar-npy.mlir:{{[0-9]+}}:8: f32 x 1 (sum, two_shot), {{.*}}: ok on 2 ranks
// OUT: {'descr': '<f4', 'fortran_order': False, 'shape': (1,), } 3.75
// SHAPE: pld-run: error: '{{.*}}x.rank0.npy' (for 'all_reduce0_buf' on rank 0) has shape [], not the [1, 1] of what it fills

shard.grid @g(shape = 2)
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<f32> -> tensor<f32>
  return %r : tensor<f32>
}
