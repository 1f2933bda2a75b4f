"""An allreduce's inputs and its golden, independently of pld (the Python
standard library only).

  allreduce_golden.py write DIR DTYPE ROWS,COLS RANKS
      writes DIR/x.rank<r>.npy: element i of rank r is a half-integer that
      depends on r and i (exact in f16 and f32 through any sum of 8 ranks)
  allreduce_golden.py check DIR PARAM DTYPE ROWS,COLS RANKS OP
      reads DIR/PARAM.rank<r>.npy (as pld-run --output-dir writes them) and
      compares every element of every rank with OP (sum, max, min, prod)
      over the ranks' inputs; prints `ok: RANKS ranks x COUNT elements` or
      the first wrong element, and exits 1 on a mismatch
  allreduce_golden.py check DIR PARAM DTYPE ROWS,COLS RANKS OP VROWS,VCOLS
      the same for a target whose valid_shape is [VROWS, VCOLS]: the
      elements of that box hold OP over the ranks, every other element
      the rank's own input

DTYPE is f2 or f4 (little-endian).
"""

import ast
import struct
import sys

FORMAT = {"f2": "e", "f4": "f"}


def value(op, rank, i):
    k = (i * 7 + rank * 13) % 11
    if op == "prod":
        return [0.5, 1.0, 1.5, -1.0, 2.0, -0.5, 1.0, 0.75, -2.0, 1.25, 1.0][k]
    return k - 5.0 + rank * 0.5


def count_of(shape):
    count = 1
    for d in shape:
        count *= d
    return count


def write(directory, dtype, shape, ranks, op):
    header = "{'descr': '<%s', 'fortran_order': False, 'shape': %s, }" % (
        dtype,
        repr(shape),
    )
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    for rank in range(ranks):
        values = [value(op, rank, i) for i in range(count_of(shape))]
        body = struct.pack("<%d%s" % (len(values), FORMAT[dtype]), *values)
        with open("%s/x.rank%d.npy" % (directory, rank), "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
            f.write(header.encode("latin1") + body)


def read(path, dtype):
    data = open(path, "rb").read()
    assert data[:8] == b"\x93NUMPY\x01\x00", "a version 1.0 .npy file"
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10 : 10 + length].decode("latin1"))
    assert header["descr"] == "<" + dtype, header
    body = data[10 + length :]
    count = count_of(header["shape"])
    return struct.unpack("<%d%s" % (count, FORMAT[dtype]), body)


def fold(op, values):
    result = values[0]
    for v in values[1:]:
        if op == "sum":
            result += v
        elif op == "max":
            result = max(result, v)
        elif op == "min":
            result = min(result, v)
        else:
            result *= v
    return result


def inside(shape, valid, i):
    """Whether flat element i of a [ROWS, COLS] tensor is in the valid box."""
    if valid is None:
        return True
    return i // shape[1] < valid[0] and i % shape[1] < valid[1]


def check(directory, param, dtype, shape, ranks, op, valid=None):
    count = count_of(shape)
    # f16 products round at each step: allow one f16 ulp per rank.
    ulp = 1.0 / 1024 if dtype == "f2" else 1.0 / 8388608
    for rank in range(ranks):
        got = read("%s/%s.rank%d.npy" % (directory, param, rank), dtype)
        for i in range(count):
            if inside(shape, valid, i):
                want = fold(op, [value(op, r, i) for r in range(ranks)])
            else:
                want = value(op, rank, i)
            if abs(got[i] - want) > ulp * ranks * max(abs(want), 1.0):
                print("rank %d element %d: got %r, want %r" % (rank, i, got[i], want))
                sys.exit(1)
    print("ok: %d ranks x %d elements" % (ranks, count))


def main(argv):
    if argv[1] == "write":
        directory, dtype, shape, ranks = argv[2], argv[3], argv[4], int(argv[5])
        op = argv[6] if len(argv) > 6 else "sum"
        write(directory, dtype, tuple(int(d) for d in shape.split(",")), ranks, op)
    else:
        directory, param, dtype, shape = argv[2], argv[3], argv[4], argv[5]
        ranks, op = int(argv[6]), argv[7]
        valid = tuple(int(d) for d in argv[8].split(",")) if len(argv) > 8 else None
        check(directory, param, dtype, tuple(int(d) for d in shape.split(",")), ranks, op, valid)


main(sys.argv)
