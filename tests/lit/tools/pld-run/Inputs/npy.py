"""Writes and shows .npy files by their raw element bits, independently of
pld (the Python standard library only), for pld-run's golden tests.

  npy.py write PATH DTYPE ROWS,COLS BITS   every element BITS (hex), or
                                           each its own: BITS,BITS,...
  npy.py show PATH                         the elements' bits, run-length:
                                           `<f2 (4, 8): 7c00 x 8, 7b53 x 24`

DTYPE is f2, f4, i1 or i4 (little-endian).
"""

import ast
import struct
import sys

WIDTH = {"f2": 2, "f4": 4, "i1": 1, "i4": 4}
DESCR = {"f2": "<f2", "f4": "<f4", "i1": "|i1", "i4": "<i4"}


def write(path, dtype, shape, bits):
    shape = tuple(int(d) for d in shape.split(","))
    count = 1
    for d in shape:
        count *= d
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        DESCR[dtype],
        repr(shape),
    )
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    elements = [int(b, 16).to_bytes(WIDTH[dtype], "little") for b in bits.split(",")]
    if len(elements) == 1:
        elements *= count
    assert len(elements) == count, "one BITS, or one per element"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1") + b"".join(elements))


def show(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x93NUMPY\x01\x00", "a version 1.0 .npy file"
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10 : 10 + length].decode("latin1"))
    width = int(header["descr"][2:])
    body = data[10 + length :]
    runs = []
    for i in range(0, len(body), width):
        bits = int.from_bytes(body[i : i + width], "little")
        if runs and runs[-1][0] == bits:
            runs[-1][1] += 1
        else:
            runs.append([bits, 1])
    shown = ", ".join("%0*x x %d" % (2 * width, b, n) for b, n in runs)
    print("%s %s: %s" % (header["descr"], header["shape"], shown))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(*sys.argv[2:6])
    else:
        show(sys.argv[2])
