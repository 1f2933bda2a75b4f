// Integer arith on device indices as MLIR defines it: two's complement at
// the type's width (index: 64 bits). Signed divisions round as their names
// say with a negative divisor too (floordivsi(-1, -3) is 0, ceildivsi
// (1, -3) is 0), the unsigned ops read the bits as unsigned (d - 2 at
// d = 0 is the largest index for maxui, minui, divui, remui, cmpi ult), i8
// and i32 products wrap, and shifts, bitwise ops, cmpi, select, i1
// constants and the zero-extending casts are evaluated per device (the
// minimum remsi -1 is 0, as MLIR folds it). Before, floordivsi and
// ceildivsi were wrong for a negative divisor, the u ops compared and
// divided as signed, narrow types did not wrap (exit 0 with wrong slices)
// and shifts, bitwise ops, cmpi and select were refused. The golden
// (tests/shard/shard_golden.py) evaluates the same ops itself; the values
// each device should take are in the comments of the program.
// RUN: split-file %s %t
// RUN: python3 %S/../../../shard/shard_golden.py %t/arith.mlir --ranks 4 --work %t/run | FileCheck %s
// CHECK: @arith on 4 devices: 0 collective calls
// CHECK-COUNT-14: golden: result{{[0-9]+}} ok on 4 devices (1 elements each)
// CHECK-NOT: WRONG

//--- arith.mlir
shard.grid @g(shape = 4)

func.func @arith(%x: tensor<64xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %d = shard.process_linear_index on @g : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %cm3 = arith.constant -3 : index
  %big = arith.constant 4611686018427387904 : index
  %dm2 = arith.subi %d, %c2 : index
  // 4, 4, 4, 3 and 5, 5, 4, 4: signed division by a negative divisor.
  %fq = arith.floordivsi %dm2, %cm3 : index
  %o0 = arith.addi %fq, %c4 : index
  %cq = arith.ceildivsi %dm2, %cm3 : index
  %o1 = arith.addi %cq, %c4 : index
  // d - 2 as unsigned: -2 and -1 are the largest values.
  %mx = arith.maxui %dm2, %c3 : index
  %o2 = arith.remui %mx, %c7 : index
  %o3 = arith.minui %dm2, %c3 : index
  %o4 = arith.divui %dm2, %big : index
  // i8 wraps: d * 100 is 0, 100, -56, 44.
  %d8 = arith.index_cast %d : index to i8
  %h8 = arith.constant 100 : i8
  %p8 = arith.muli %d8, %h8 : i8
  %z = arith.index_castui %p8 : i8 to index
  %c61 = arith.constant 61 : index
  %o5 = arith.remui %z, %c61 : index
  %e32 = arith.extsi %p8 : i8 to i32
  %c64i = arith.constant 64 : i32
  %e64 = arith.addi %e32, %c64i : i32
  %c60i = arith.constant 60 : i32
  %r32 = arith.remsi %e64, %c60i : i32
  %o6 = arith.index_cast %r32 : i32 to index
  // Shifts at 8 bits: d << 6 is 0, 64, -128, -64.
  %s6 = arith.constant 6 : i8
  %s4 = arith.constant 4 : i8
  %l8 = arith.shli %d8, %s6 : i8
  %u8 = arith.shrui %l8, %s4 : i8
  %a8 = arith.shrsi %l8, %s4 : i8
  %e8 = arith.constant 8 : i8
  %b8 = arith.addi %a8, %e8 : i8
  %sum8 = arith.addi %u8, %b8 : i8
  %o7 = arith.extui %sum8 : i8 to i64
  %o7i = arith.index_cast %o7 : i64 to index
  // Bitwise: (d xor 5) or 8, and 15.
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %x5 = arith.xori %d, %c5 : index
  %or8 = arith.ori %x5, %c8 : index
  %o8 = arith.andi %or8, %c15 : index
  // Comparisons and select: d - 2 <u 2 holds on devices 2 and 3 only.
  %lt = arith.cmpi ult, %dm2, %c2 : index
  %d10 = arith.addi %d, %c10 : index
  %o9 = arith.select %lt, %d, %d10 : index
  %slt = arith.cmpi slt, %dm2, %c0 : index
  %d20 = arith.addi %d10, %c10 : index
  %o10 = arith.select %slt, %d20, %d : index
  // i32 wraps: (d * 2^30) * 4 is 0, plus d; ceildivui(3d + 1, 4).
  %d32 = arith.index_cast %d : index to i32
  %k = arith.constant 1073741824 : i32
  %c4i = arith.constant 4 : i32
  %c3i = arith.constant 3 : i32
  %c1i = arith.constant 1 : i32
  %m1 = arith.muli %d32, %k : i32
  %m2 = arith.muli %m1, %c4i : i32
  %w = arith.addi %m2, %d32 : i32
  %w3 = arith.muli %w, %c3i : i32
  %w31 = arith.addi %w3, %c1i : i32
  %cu = arith.ceildivui %w31, %c4i : i32
  %o11 = arith.index_castui %cu : i32 to index
  // An i1 constant: extui of true is 1; the i8 minimum remsi -1 is 0.
  %true = arith.constant true
  %one = arith.extui %true : i1 to i64
  %onei = arith.index_cast %one : i64 to index
  %o12 = arith.addi %onei, %d : index
  %m8 = arith.constant -128 : i8
  %n1 = arith.constant -1 : i8
  %r8 = arith.remsi %m8, %n1 : i8
  %r8i = arith.index_cast %r8 : i8 to index
  %o13 = arith.addi %r8i, %d : index
  %s0 = tensor.extract_slice %x[%o0] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s1 = tensor.extract_slice %x[%o1] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s2 = tensor.extract_slice %x[%o2] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s3 = tensor.extract_slice %x[%o3] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s4x = tensor.extract_slice %x[%o4] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s5 = tensor.extract_slice %x[%o5] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s6x = tensor.extract_slice %x[%o6] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s7 = tensor.extract_slice %x[%o7i] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s8 = tensor.extract_slice %x[%o8] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s9 = tensor.extract_slice %x[%o9] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s10 = tensor.extract_slice %x[%o10] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s11 = tensor.extract_slice %x[%o11] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s12 = tensor.extract_slice %x[%o12] [1] [1] : tensor<64xf32> to tensor<1xf32>
  %s13 = tensor.extract_slice %x[%o13] [1] [1] : tensor<64xf32> to tensor<1xf32>
  return %s0, %s1, %s2, %s3, %s4x, %s5, %s6x, %s7, %s8, %s9, %s10, %s11, %s12, %s13 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}
