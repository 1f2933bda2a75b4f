"""Little-endian f32 .npy files without numpy (the Python standard library
only), for tests that check a kernel's numbers by hand.

  npy.py fill PATH ROWS,COLS VALUE   writes a ROWS x COLS array of VALUE
  npy.py range PATH...               prints each file's minimum and maximum
"""

import ast
import struct
import sys


def fill(path, shape, value):
    rows, cols = (int(d) for d in shape.split(","))
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % (rows * cols), *([float(value)] * (rows * cols))))


def values(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10 : 10 + length].decode())
    if header["descr"] != "<f4":
        sys.exit("%s: expected <f4, got %s" % (path, header["descr"]))
    body = data[10 + length :]
    return struct.unpack("<%df" % (len(body) // 4), body)


def main(argv):
    if argv[:1] == ["fill"] and len(argv) == 4:
        fill(argv[1], argv[2], argv[3])
    elif argv[:1] == ["range"]:
        for path in argv[1:]:
            v = values(path)
            print("%s %s" % (min(v), max(v)))
    else:
        sys.exit(__doc__)


main(sys.argv[1:])
