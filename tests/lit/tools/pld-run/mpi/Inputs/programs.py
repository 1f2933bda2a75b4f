#!/usr/bin/env python3
"""Writes one whole program (a HOST orchestrator) per collective for P
devices into DIR.

Usage: programs.py P DIR

The HOST-rail programs call one collective each from the HOST
orchestrator (the builtin kernels run them); chip_all_to_all_v dispatches
a CHIP orchestrator on every device whose all_to_all_v becomes a managed
builtin task between two InCore kernels. Every shape follows from P; the
tests run each program on P threads and on P MPI processes and compare
the output files byte for byte.
"""

import os
import sys

HOST = '{pld.kind = #pld.func_kind<"host">}'


def dist(shape, dtype="f32"):
    return "tensor<%sx%s, #pld.dist>" % ("x".join(str(d) for d in shape), dtype)


def nbytes(shape, dtype="f32"):
    n = {"f32": 4, "i32": 4, "f16": 2}[dtype]
    for d in shape:
        n *= d
    return n


def host(buffers, op, operands, attrs, result):
    """A HOST orchestrator allocating `buffers` [(name, shape, dtype)] and
    calling pld.tensor_<op> on `operands` (buffer names)."""
    lines = ["func.func @main() attributes %s {" % HOST]
    types = {}
    for name, shape, dtype in buffers:
        t = dist(shape, dtype)
        types[name] = t
        lines.append("  %%%s_bytes = arith.constant %d : i64" % (name, nbytes(shape, dtype)))
        lines.append(
            '  %%%s_buf = "pld.tensor_alloc_window_buffer"(%%%s_bytes) {name = "%s"} '
            ": (i64) -> !pld.ptr" % (name, name, name))
        lines.append('  %%%s = "pld.tensor_window"(%%%s_buf) : (!pld.ptr) -> %s' % (name, name, t))
    lines.append('  %%r = "pld.tensor_%s"(%s)%s : (%s) -> %s' % (
        op, ", ".join("%" + o for o in operands), attrs,
        ", ".join(types[o] for o in operands), types[result]))
    lines.append("  return\n}\n")
    return "\n".join(lines)


def chip_all_to_all_v(p):
    cap = 2
    rows = dist([p * cap, 16])
    flat = dist([1, p * cap * 16])
    ar = dist([8, 1], "i32")
    sig = dist([p, 8], "i32")
    sc = dist([p], "i32")
    rc = dist([p, 1], "i32")
    names = [("send", rows), ("recv", rows), ("stage_signal", ar), ("consume_signal", ar),
             ("signal", sig), ("send_counts", sc), ("recv_counts", rc)]
    sizes = {"send": p * cap * 64, "recv": p * cap * 64, "stage_signal": 32,
             "consume_signal": 32, "signal": p * 32, "send_counts": 4 * p, "recv_counts": 4 * p}
    out = []
    for f, op in [("stage", "sum"), ("consume", "max")]:
        out.append(
            'func.func @%s(%%rows: %s, %%signal: %s) attributes {pld.kind = #pld.func_kind<"incore">} {\n'
            '  %%r = "pld.tensor_allreduce"(%%rows, %%signal) {op = #pld.reduce_op<"%s">} : (%s, %s) -> %s\n'
            "  return\n}\n" % (f, flat, ar, op, flat, ar, flat))
    out.append(
        "func.func @pipeline(%%send: %s, %%recv: %s, %%send_flat: %s, %%recv_flat: %s, %%ss: %s, "
        "%%cs: %s, %%signal: %s, %%sc: %s, %%rc: %s) attributes {pld.kind = #pld.func_kind<\"chip\">} {\n"
        "  func.call @stage(%%send_flat, %%ss) : (%s, %s) -> ()\n"
        "  %%core_num = arith.constant 5 : index\n"
        '  %%got = "pld.tensor_all_to_all_v"(%%send, %%recv, %%signal, %%sc, %%rc, %%core_num) '
        ": (%s, %s, %s, %s, %s, index) -> %s\n"
        "  func.call @consume(%%recv_flat, %%cs) : (%s, %s) -> ()\n"
        "  return\n}\n" % (rows, rows, flat, flat, ar, ar, sig, sc, rc, flat, ar,
                           rows, rows, sig, sc, rc, rows, flat, ar))
    body = ["func.func @main() attributes %s {" % HOST,
            "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
            '  %ws = "pld.system_world_size"() : () -> i64',
            "  %devices = arith.index_cast %ws : i64 to index"]
    for name, t in names:
        body.append("  %%%s_bytes = arith.constant %d : i64" % (name, sizes[name]))
        body.append('  %%%s_buf = "pld.tensor_alloc_window_buffer"(%%%s_bytes) {name = "%s"} '
                    ": (i64) -> !pld.ptr" % (name, name, name))
        body.append('  %%%s = "pld.tensor_window"(%%%s_buf) : (!pld.ptr) -> %s' % (name, name, t))
    body.append('  %%send_flat = "pld.tensor_window"(%%send_buf) : (!pld.ptr) -> %s' % flat)
    body.append('  %%recv_flat = "pld.tensor_window"(%%recv_buf) : (!pld.ptr) -> %s' % flat)
    args = "%send, %recv, %send_flat, %recv_flat, %stage_signal, %consume_signal, %signal, %send_counts, %recv_counts"
    types = ", ".join([rows, rows, flat, flat, ar, ar, sig, sc, rc])
    body.append("  scf.for %%r = %%c0 to %%devices step %%c1 {\n"
                '    "pld.dispatch"(%%r) ({\n'
                "      func.call @pipeline(%s) : (%s) -> ()\n"
                "      gpu.yield\n    }) : (index) -> ()\n  }" % (args, types))
    body.append("  return\n}\n")
    return "\n".join(out) + "\n".join(body)


def programs(p):
    # Barrier, broadcast, reduce and reduce_scatter take a rank-1 signal on the
    # HOST rail; allgather and all_to_all one row per rank.
    sig = ("sig", [p], "i32")
    sig2 = ("sig", [p, 1], "i32")
    rows = ("rows", [p, 24], "f32")
    out = {}
    out["allreduce_mesh"] = host(
        [("data", [2, 40], "f32")], "allreduce", ["data"],
        ' {op = #pld.reduce_op<"sum">, mode = "mesh"}', "data")
    # The ring takes an explicit signal: 2 * (P - 1) + 1 rows of P lanes.
    out["allreduce_ring"] = host(
        [("data", [1, 24 * p], "f32"), ("ring_sig", [2 * (p - 1) + 1, p], "i32")],
        "allreduce", ["data", "ring_sig"],
        ' {op = #pld.reduce_op<"sum">, mode = "ring"}', "data")
    out["allreduce_two_shot"] = host(
        [("data", [1, 1001], "f16")], "allreduce", ["data"],
        ' {op = #pld.reduce_op<"max">, mode = "two_shot", core_num = 3 : i64}', "data")
    out["barrier"] = host([sig], "barrier", ["sig"], "", "sig")
    out["broadcast"] = host(
        [("data", [2, 40], "f32"), sig], "broadcast", ["data", "sig"],
        " {root = %d : i64}" % (p - 1), "data")
    out["reduce_scatter"] = host(
        [rows, sig], "reduce_scatter", ["rows", "sig"], ' {op = #pld.reduce_op<"sum">}', "rows")
    out["reduce"] = host(
        [rows, sig], "reduce", ["rows", "sig"],
        ' {op = #pld.reduce_op<"prod">, root = %d : i64}' % (p - 1), "rows")
    out["allgather"] = host(
        [("row", [1, 24], "f32"), ("out", [p, 24], "f32"), sig2], "allgather",
        ["row", "out", "sig"], "", "out")
    out["all_to_all"] = host(
        [rows, ("out", [p, 24], "f32"), sig2], "all_to_all", ["rows", "out", "sig"], "", "out")
    # Two rows of capacity per sender; the counts are whatever the fill
    # writes, clamped to that capacity by the collective.
    out["all_to_all_v"] = host(
        [("vin", [2 * p, 8], "f32"), ("vout", [2 * p, 8], "f32"), ("vsig", [p, 1], "i32"),
         ("cnt", [p], "i32"), ("rcv", [p, 1], "i32")],
        "all_to_all_v", ["vin", "vout", "vsig", "cnt", "rcv"], "", "vout")
    out["chip_all_to_all_v"] = chip_all_to_all_v(p)
    return out


def main():
    p, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    for name, text in programs(p).items():
        with open(os.path.join(directory, name + ".mlir"), "w") as f:
            f.write(text)
        print(name)


if __name__ == "__main__":
    main()
