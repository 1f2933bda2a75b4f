"""Atomic-add stores of every rank into rank 0's buffer, and their golden,
independently of pld (the Python standard library only).

  accumulate.py make DIR P DTYPE   writes DIR/accum.mlir (every rank adds
                                   its %src into rank 0's %acc, then a
                                   barrier) and DIR/{src,acc}.rank{r}.npy
  accumulate.py check DIR P DTYPE OUT
                                   compares OUT/acc.rank0.npy with rank 0's
                                   %acc plus every rank's %src: prints
                                   `P DTYPE: N of N elements right`

DTYPE is f32 or f16. Every value is a multiple of 1/2 below 512, and so is
every partial sum, so each is exact in f16 and the sum does not depend on
the order of the adds; every %src element is at least 1/2, so a lost add
always shows.
"""

import ast
import struct
import sys

COLS = 4096
FORMAT = {"f32": ("<f4", "<f"), "f16": ("<f2", "<e")}

KERNEL = """func.func @accum(%src: tensor<1x{n}x{t}>, %acc: tensor<1x{n}x{t}, #pld.dist>, %sig: tensor<{p}x1xi32, #pld.dist>) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %c0 = arith.constant 0 : index
  %p0 = arith.constant 0 : i32
  %t = "pld.tile_load"(%src, %c0, %c0) {{operandSegmentSizes = array<i32: 1, 2, 0>}} : (tensor<1x{n}x{t}>, index, index) -> tensor<1x{n}x{t}, #pld.tile>
  "pld.tile_remote_store"(%t, %acc, %p0, %c0, %c0) {{atomic = #pld.atomic_type<"add">}} : (tensor<1x{n}x{t}, #pld.tile>, tensor<1x{n}x{t}, #pld.dist>, i32, index, index) -> ()
  %r = "pld.tensor_barrier"(%sig) : (tensor<{p}x1xi32, #pld.dist>) -> tensor<{p}x1xi32, #pld.dist>
  return
}}
"""


def src(rank, i):
    return 0.5 * (1 + (i * (2 * rank + 1) + 3 * rank) % 100)


def acc(rank, i):
    return 0.5 * (i % 37) if rank == 0 else 0.0


def write(path, dtype, values):
    descr, code = FORMAT[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (1, %d), }" % (descr, len(values))
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(b"".join(struct.pack(code, v) for v in values))


def read(path, dtype):
    data = open(path, "rb").read()
    assert data[:8] == b"\x93NUMPY\x01\x00", "a version 1.0 .npy file"
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10 : 10 + length].decode("latin1"))
    descr, code = FORMAT[dtype]
    assert header["descr"] == descr, header
    body = data[10 + length :]
    return [v for (v,) in struct.iter_unpack(code, body)]


def make(folder, p, dtype):
    t = dtype
    with open(folder + "/accum.mlir", "w") as f:
        f.write(KERNEL.format(n=COLS, t=t, p=p))
    for r in range(p):
        write("%s/src.rank%d.npy" % (folder, r), dtype, [src(r, i) for i in range(COLS)])
        write("%s/acc.rank%d.npy" % (folder, r), dtype, [acc(r, i) for i in range(COLS)])


def check(folder, p, dtype, out):
    got = read(out + "/acc.rank0.npy", dtype)
    want = [acc(0, i) + sum(src(r, i) for r in range(p)) for i in range(COLS)]
    right = sum(1 for g, w in zip(got, want) if g == w)
    print("%d %s: %d of %d elements right" % (p, dtype, right, len(want)))


if __name__ == "__main__":
    verb, folder, p, dtype = sys.argv[1:5]
    if verb == "make":
        make(folder, int(p), dtype)
    else:
        check(folder, int(p), dtype, sys.argv[5])
