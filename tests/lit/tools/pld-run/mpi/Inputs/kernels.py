#!/usr/bin/env python3
"""Writes one InCore kernel per collective kind for P ranks into DIR.

Usage: kernels.py P DIR

Every kernel's shapes follow from P (a row per rank where the collective
needs one); the tests run each on P threads and on P MPI processes and
compare the output files byte for byte.
"""

import os
import sys

KIND = '{pld.kind = #pld.func_kind<"incore">}'


def dist(shape, dtype="f32"):
    return "tensor<%sx%s, #pld.dist>" % ("x".join(str(d) for d in shape), dtype)


def plain(shape, dtype="f32"):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), dtype)


def kernel(params, op, operands, attrs, result):
    sig = ", ".join("%%%s: %s" % (n, t) for n, t in params)
    types = ", ".join(t for n, t in params if n in operands)
    ordered = [t for o in operands for n, t in params if n == o]
    return (
        "func.func @k(%s) attributes %s {\n"
        '  %%r = "pld.tensor_%s"(%s)%s : (%s) -> %s\n'
        "  return\n}\n"
    ) % (sig, KIND, op, ", ".join("%" + o for o in operands), attrs, ", ".join(ordered), result)


def kernels(p):
    sig = dist([p, 1], "i32")
    ring = dist([2 * (p - 1), p], "i32")
    rows = dist([p, 24])
    out = {}
    out["allreduce_mesh"] = kernel(
        [("t", dist([2, 40])), ("s", sig)], "allreduce", ["t", "s"],
        ' {op = #pld.reduce_op<"sum">}', dist([2, 40]))
    out["allreduce_max"] = kernel(
        [("t", dist([1, 33])), ("s", sig)], "allreduce", ["t", "s"],
        ' {op = #pld.reduce_op<"max">}', dist([1, 33]))
    out["allreduce_ring"] = kernel(
        [("t", dist([1, 24 * p + 8])), ("s", ring)], "allreduce", ["t", "s"],
        ' {mode = "ring", op = #pld.reduce_op<"sum">}', dist([1, 24 * p + 8]))
    out["barrier"] = kernel([("s", sig)], "barrier", ["s"], "", sig)
    out["broadcast"] = kernel(
        [("t", dist([2, 40])), ("s", sig)], "broadcast", ["t", "s"],
        " {root = %d : i64}" % (p - 1), dist([2, 40]))
    out["reduce"] = kernel(
        [("t", rows), ("s", sig)], "reduce", ["t", "s"],
        ' {op = #pld.reduce_op<"sum">, root = 1 : i64}', rows)
    out["reduce_scatter"] = kernel(
        [("t", rows), ("s", sig)], "reduce_scatter", ["t", "s"],
        ' {op = #pld.reduce_op<"sum">}', rows)
    out["allgather"] = kernel(
        [("i", plain([1, 24])), ("t", rows), ("s", sig)], "allgather", ["i", "t", "s"], "", rows)
    out["all_to_all"] = kernel(
        [("i", plain([p, 24])), ("t", rows), ("s", sig)], "all_to_all", ["i", "t", "s"], "", rows)
    cap = dist([2 * p, 8])
    out["all_to_all_v"] = kernel(
        [("i", plain([2 * p, 8])), ("t", cap), ("s", sig), ("c", plain([p], "i32")),
         ("rc", sig)],
        "all_to_all_v", ["i", "t", "s", "c", "rc"], "", cap)
    return out


def main():
    p, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    for name, text in kernels(p).items():
        with open(os.path.join(directory, name + ".mlir"), "w") as f:
            f.write(text)
    print(" ".join(sorted(kernels(p))))


if __name__ == "__main__":
    main()
