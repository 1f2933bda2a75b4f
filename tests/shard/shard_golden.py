#!/usr/bin/env python3
"""Runs a shard program with pld-run and checks what it returns against the
semantics of the shard dialect, computed here (Python's standard library
only, nothing of pld).

    shard_golden.py PROGRAM --ranks N --work DIR [--pld-run PATH]
                    [--mlir-opt PATH] [--partition] [PLD_RUN_OPTIONS...]

1. `mlir-opt` (upstream; with `--partition` after
   `func.func(shard-partition)`) prints the program in generic form, which
   this script reads: the grid, the function's arguments and ops.
2. Every argument gets one input per device, written as
   `DIR/in/arg<i>.rank<d>.npy`: small integers (exact in f16 and f32) that
   depend on the device, the element and the argument. An argument that a
   pair of `shard.shard` ops reshards is a global tensor; each device gets
   its shard, padded along the split axis to the longest shard.
3. `pld-run PROGRAM --ranks N --input arg<i>=... --output-dir DIR/out`
   runs the program (its output is printed as it is).
4. The function is interpreted on every device: the shard collectives
   (all_reduce, all_gather, reduce_scatter, all_to_all, broadcast,
   all_slice), device indices, integer arith, tensor.cast,
   tensor.extract_slice and reshards. Each returned tensor is compared
   with `DIR/out/result<j>.rank<d>.npy` (the leading box of the buffer
   when a reshard pads it): copies exactly, sums and products of floats to
   a relative 1e-6 per device reduced.

Prints `golden: result<j> ok on N devices (E elements each)` per result,
or the first wrong elements, and exits 1 when anything is wrong.
"""

import argparse
import math
import os
import re
import struct
import subprocess
import sys

# --------------------------------------------------------------- tensors


class Tensor:
    def __init__(self, shape, data):
        self.shape = tuple(shape)
        self.data = list(data)
        assert len(self.data) == size(self.shape)


def size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def around(shape, axis):
    return size(shape[:axis]), shape[axis], size(shape[axis + 1:])


def take(t, axis, lo, hi):
    """Entries lo..hi of `axis`."""
    p, d, q = around(t.shape, axis)
    data = []
    for i in range(p):
        data += t.data[(i * d + lo) * q:(i * d + hi) * q]
    shape = list(t.shape)
    shape[axis] = hi - lo
    return Tensor(shape, data)


def concat(ts, axis):
    p, _, q = around(ts[0].shape, axis)
    data = []
    for i in range(p):
        for t in ts:
            d = t.shape[axis]
            data += t.data[i * d * q:(i + 1) * d * q]
    shape = list(ts[0].shape)
    shape[axis] = sum(t.shape[axis] for t in ts)
    return Tensor(shape, data)


def chunks(t, axis, n):
    c = t.shape[axis] // n
    return [take(t, axis, k * c, (k + 1) * c) for k in range(n)]


def pad(t, axis, length):
    p, d, q = around(t.shape, axis)
    data = []
    for i in range(p):
        data += t.data[i * d * q:(i + 1) * d * q] + [0] * ((length - d) * q)
    shape = list(t.shape)
    shape[axis] = length
    return Tensor(shape, data)


def box(t, offsets, sizes):
    """The box of `sizes` at `offsets`."""
    for axis, (o, s) in enumerate(zip(offsets, sizes)):
        t = take(t, axis, o, o + s)
    return t


FOLDS = {
    "sum": lambda a, b: a + b,
    "max": max,
    "min": min,
    "product": lambda a, b: a * b,
}


def fold(ts, kind):
    data = list(ts[0].data)
    for t in ts[1:]:
        data = [FOLDS[kind](a, b) for a, b in zip(data, t.data)]
    return Tensor(ts[0].shape, data)


# ------------------------------------------------------------------ .npy

DESCR = {"f32": ("<f4", "f", 4), "f16": ("<f2", "e", 2), "i32": ("<i4", "i", 4), "i8": ("|i1", "b", 1)}


def write_npy(path, t, elem):
    descr, code, _ = DESCR[elem]
    shape = "(" + "".join(f"{d}, " for d in t.shape).rstrip(" ") + ")"
    if len(t.shape) > 1:
        shape = "(" + ", ".join(str(d) for d in t.shape) + ")"
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(t.data)}{code}", *t.data))


def read_npy(path):
    raw = open(path, "rb").read()
    length = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + length].decode()
    descr = re.search(r"'descr': '([^']+)'", header).group(1)
    shape = tuple(int(d) for d in re.findall(r"\d+", re.search(r"'shape': \(([^)]*)\)", header).group(1)))
    code, width = {v[0]: (v[1], v[2]) for v in DESCR.values()}[descr]
    body = raw[10 + length:]
    return Tensor(shape, struct.unpack(f"<{len(body) // width}{code}", body))


# ---------------------------------------------------------- the program

OP = re.compile(r'^\s*(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\((.*?)\)\s*(<\{.*\}>)?\s*(\{.*\})?\s*:\s*(.*)$')
TENSOR = re.compile(r"tensor<((?:\d+x)*)(\w+)>")


def tensor_type(text):
    m = TENSOR.search(text)
    dims = [int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def wrap(x, w):
    """x at w bits, sign-interpreted."""
    x &= (1 << w) - 1
    return x - (1 << w) if x >> (w - 1) else x


def unsigned(x, w):
    return x & ((1 << w) - 1)


def toward_zero(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def ints(props, name):
    m = re.search(name + r" = array<i\d+(?:: ([-\d, ]+))?>", props)
    return [int(v) for v in m.group(1).split(",")] if m and m.group(1) else []


def scalar(props, name, default=None):
    m = re.search(name + r" = (-?\d+) : (?:index|i\d+)", props)
    return int(m.group(1)) if m else default


class Op:
    def __init__(self, m):
        self.result, count, self.name, operands, props, attrs, self.types = m.groups()
        self.count = int(count) if count else 1
        self.operands = [o.strip() for o in operands.split(",") if o.strip()]
        self.props = (props or "") + (attrs or "")


def read_program(text):
    grids, functions, current = {}, [], None
    for line in text.splitlines():
        bb = re.match(r"^\s*\^bb0\((.*)\):", line)
        if bb and current is not None and not current["args"]:
            current["args"] = [(a.split(":")[0].strip(), tensor_type(a)) for a in re.split(r",\s*(?=%)", bb.group(1))]
            continue
        function = re.match(r'^\s*"func.func"\(\) <\{.*sym_name = "(\w+)"', line)
        if function:
            current = {"name": function.group(1), "args": [], "ops": []}
            functions.append(current)
            continue
        m = OP.match(line)
        if not m:
            continue
        op = Op(m)
        if op.name == "shard.grid":
            grids[re.search(r'sym_name = "(\w+)"', op.props).group(1)] = ints(op.props, "shape")
        elif current is not None:
            current["ops"].append(op)
    # In a module with a grid every function with a body is a shard
    # program (convert-shard-to-pld converts or refuses each).
    shard = [f for f in functions if f["ops"]] if grids else []
    return grids, shard


class Grid:
    def __init__(self, shape):
        self.shape = shape
        self.n = size(shape)

    def coords(self, d):
        c = []
        for s in reversed(self.shape):
            c.append(d % s)
            d //= s
        return c[::-1]

    def linear(self, d, axes):
        c, k = self.coords(d), 0
        for a in axes:
            k = k * self.shape[a] + c[a]
        return k

    def group(self, d, axes):
        """The devices of d's group, in key order."""
        others = [a for a in range(len(self.shape)) if a not in axes]
        mine = [self.coords(d)[a] for a in others]
        members = [e for e in range(self.n) if [self.coords(e)[a] for a in others] == mine]
        return sorted(members, key=lambda e: self.linear(e, axes))


def sharding_of(ops, name):
    op = next(o for o in ops if o.result == name)
    lists = re.search(r"axisarray\[(.*)\]>", op.props).group(1)
    split = [[int(a) for a in re.findall(r"\d+", part)] for part in re.findall(r"\[([^\]]*)\]", lists)]
    return split, ints(op.props, "static_sharded_dims_offsets")


def shard_bounds(grid, split, offsets, shape):
    """(axis, grid axes, bounds) of a split sharding, None if replicated."""
    for axis, axes in enumerate(split):
        if axes:
            n = size([grid.shape[a] for a in axes])
            bounds = offsets or [k * shape[axis] // n for k in range(n + 1)]
            return axis, axes, bounds
    return None


def shard_range(grid, sharding, d):
    axis, axes, bounds = sharding
    k = grid.linear(d, axes)
    return bounds[k], bounds[k + 1]


# ---------------------------------------------------------- interpreter


class Interpreter:
    def __init__(self, grid, function):
        self.grid, self.f = grid, function
        self.env = [dict() for _ in range(grid.n)]
        self.padded = {}  # value -> (axis, length) of a padded reshard result

    def value(self, d, name):
        return self.env[d][name.split("#")[0] if "#" not in name else name]

    def set(self, op, values):
        """values[d] is a value or (for several results) a list."""
        for d in range(self.grid.n):
            if op.count == 1:
                self.env[d][op.result] = values[d]
            else:
                for i, v in enumerate(values[d]):
                    self.env[d][f"{op.result}#{i}"] = v

    def run(self, inputs):
        for d in range(self.grid.n):
            for (name, _), t in zip(self.f["args"], inputs[d]):
                self.env[d][name] = t
        for op in self.f["ops"]:
            if op.name == "func.return":
                return [[self.value(d, o) for o in op.operands] for d in range(self.grid.n)]
            handler = getattr(self, op.name.replace(".", "_"), None)
            if handler is None:
                raise SystemExit(f"shard_golden.py: cannot interpret {op.name}")
            handler(op)
        raise SystemExit("shard_golden.py: the function does not return")

    def collective(self, op, body):
        axes = ints(op.props, "grid_axes")
        out = []
        for d in range(self.grid.n):
            members = self.grid.group(d, axes)
            inputs = [self.value(m, op.operands[0]) for m in members]
            out.append(body(inputs, members.index(d), len(members)))
        self.set(op, out)

    def reduction(self, op):
        m = re.search(r"#shard<partial (\w+)>", op.props)
        return m.group(1) if m else "sum"

    def shard_all_reduce(self, op):
        kind = self.reduction(op)
        self.collective(op, lambda ins, k, n: fold(ins, kind))

    def shard_all_gather(self, op):
        axis = scalar(op.props, "gather_axis")
        self.collective(op, lambda ins, k, n: concat(ins, axis))

    def shard_reduce_scatter(self, op):
        kind, axis = self.reduction(op), scalar(op.props, "scatter_axis")
        self.collective(op, lambda ins, k, n: chunks(fold(ins, kind), axis, n)[k])

    def shard_all_to_all(self, op):
        split, cat = scalar(op.props, "split_axis"), scalar(op.props, "concat_axis")
        self.collective(op, lambda ins, k, n: concat([chunks(t, split, n)[k] for t in ins], cat))

    def shard_broadcast(self, op):
        # Each device reads its own root (indices written as SSA values
        # fill the dynamic entries in order) and gets the input of the
        # member of its group whose key, the multi-index over grid_axes in
        # their order, is that root.
        axes, static = ints(op.props, "grid_axes"), ints(op.props, "root")
        out = []
        for d in range(self.grid.n):
            dynamic = iter(self.value(d, o) for o in op.operands[1:])
            root = [next(dynamic) if r < -(2**62) else r for r in static]
            key = 0
            for a, r in zip(axes, root):
                key = key * self.grid.shape[a] + r
            members = self.grid.group(d, axes)
            out.append(self.value(members[key], op.operands[0]))
        self.set(op, out)

    def shard_all_slice(self, op):
        axis = scalar(op.props, "slice_axis")
        self.collective(op, lambda ins, k, n: chunks(ins[k], axis, n)[k])

    def shard_process_linear_index(self, op):
        self.set(op, list(range(self.grid.n)))

    def shard_process_multi_index(self, op):
        axes = ints(op.props, "axes") or list(range(len(self.grid.shape)))
        self.set(op, [[self.grid.coords(d)[a] for a in axes] if op.count > 1 else self.grid.coords(d)[axes[0]] for d in range(self.grid.n)])

    def shard_grid_shape(self, op):
        axes = ints(op.props, "axes") or list(range(len(self.grid.shape)))
        sizes = [self.grid.shape[a] for a in axes]
        self.set(op, [sizes if op.count > 1 else sizes[0]] * self.grid.n)

    # Integer arith as MLIR defines it: two's complement at the type's
    # width (index: 64 bits), values kept as Python ints sign-interpreted.
    def widths(self, op):
        """Bit widths of the operands' and the result's types."""
        def bits(t):
            t = t.strip()
            return 64 if t == "index" else int(t[1:])
        ins, _, out = op.types.rpartition("->")
        ins = [bits(t) for t in ins.strip().strip("()").split(",") if t.strip()]
        return ins, bits(out)

    def arith_constant(self, op):
        m = re.search(r"value = (-?\d+|true|false)", op.props)
        text = m.group(1)
        value = {"true": 1, "false": 0}.get(text, None)
        value = int(text) if value is None else value
        self.set(op, [wrap(value, self.widths(op)[1])] * self.grid.n)

    def binary(self, op, f):
        w = self.widths(op)[1]
        self.set(op, [wrap(f(self.value(d, op.operands[0]), self.value(d, op.operands[1]), w), w) for d in range(self.grid.n)])

    def arith_addi(self, op):
        self.binary(op, lambda a, b, w: a + b)

    def arith_subi(self, op):
        self.binary(op, lambda a, b, w: a - b)

    def arith_muli(self, op):
        self.binary(op, lambda a, b, w: a * b)

    def arith_divsi(self, op):
        self.binary(op, lambda a, b, w: toward_zero(a, b))

    def arith_remsi(self, op):
        self.binary(op, lambda a, b, w: a - b * toward_zero(a, b))

    def arith_floordivsi(self, op):
        self.binary(op, lambda a, b, w: a // b)

    def arith_ceildivsi(self, op):
        self.binary(op, lambda a, b, w: -((-a) // b))

    def arith_divui(self, op):
        self.binary(op, lambda a, b, w: unsigned(a, w) // unsigned(b, w))

    def arith_remui(self, op):
        self.binary(op, lambda a, b, w: unsigned(a, w) % unsigned(b, w))

    def arith_ceildivui(self, op):
        self.binary(op, lambda a, b, w: -((-unsigned(a, w)) // unsigned(b, w)))

    def arith_maxsi(self, op):
        self.binary(op, lambda a, b, w: max(a, b))

    def arith_minsi(self, op):
        self.binary(op, lambda a, b, w: min(a, b))

    def arith_maxui(self, op):
        self.binary(op, lambda a, b, w: a if unsigned(a, w) >= unsigned(b, w) else b)

    def arith_minui(self, op):
        self.binary(op, lambda a, b, w: a if unsigned(a, w) <= unsigned(b, w) else b)

    def arith_shli(self, op):
        self.binary(op, lambda a, b, w: a << b)

    def arith_shrsi(self, op):
        self.binary(op, lambda a, b, w: a >> b)

    def arith_shrui(self, op):
        self.binary(op, lambda a, b, w: unsigned(a, w) >> b)

    def arith_andi(self, op):
        self.binary(op, lambda a, b, w: a & b)

    def arith_ori(self, op):
        self.binary(op, lambda a, b, w: a | b)

    def arith_xori(self, op):
        self.binary(op, lambda a, b, w: a ^ b)

    def arith_cmpi(self, op):
        predicate = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"][scalar(op.props, "predicate")]
        w = self.widths(op)[0][0]
        def holds(a, b):
            if predicate[0] == "u":
                a, b = unsigned(a, w), unsigned(b, w)
            compare = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}
            return compare[predicate.lstrip("su")]
        self.set(op, [wrap(int(holds(self.value(d, op.operands[0]), self.value(d, op.operands[1]))), 1) for d in range(self.grid.n)])

    def arith_select(self, op):
        c, t, f = op.operands[:3]
        self.set(op, [self.value(d, t) if self.value(d, c) != 0 else self.value(d, f) for d in range(self.grid.n)])

    def cast(self, op, zero_extend):
        (w_in, *_), w_out = self.widths(op)
        def one(v):
            return wrap(unsigned(v, w_in) if zero_extend else v, w_out)
        self.set(op, [one(self.value(d, op.operands[0])) for d in range(self.grid.n)])

    def arith_index_cast(self, op):
        self.cast(op, False)

    def arith_extsi(self, op):
        self.cast(op, False)

    def arith_trunci(self, op):
        self.cast(op, False)

    def arith_index_castui(self, op):
        self.cast(op, True)

    def arith_extui(self, op):
        self.cast(op, True)

    def tensor_cast(self, op):
        self.set(op, [self.value(d, op.operands[0]) for d in range(self.grid.n)])

    def tensor_extract_slice(self, op):
        static, sizes = ints(op.props, "static_offsets"), ints(op.props, "static_sizes")
        out = []
        for d in range(self.grid.n):
            dynamic = iter(self.value(d, o) for o in op.operands[1:])
            offsets = [next(dynamic) if o < -(2**62) else o for o in static]
            sliced = box(self.value(d, op.operands[0]), offsets, sizes)
            # A rank-reducing slice drops unit dimensions: the result type's.
            out.append(Tensor(tensor_type(op.types.split("->")[-1])[0], sliced.data))
        self.set(op, out)

    def shard_sharding(self, op):
        self.set(op, [None] * self.grid.n)

    def shard_shard(self, op):
        """A reshard pair on an argument: the first op passes the (global)
        argument on; the second, annotate_for_users, reshards it."""
        source = op.operands[0]
        if "annotate_for_users" not in op.props:
            self.set(op, [self.value(d, source) for d in range(self.grid.n)])
            return
        shape = self.value(0, source).shape
        target = shard_bounds(self.grid, *sharding_of(self.f["ops"], op.operands[1]), shape)
        out = []
        for d in range(self.grid.n):
            whole = self.value(d, source)
            out.append(whole if target is None else take(whole, target[0], *shard_range(self.grid, target, d)))
        if target is not None:
            self.padded[op.result] = (target[0], max(b - a for a, b in zip(target[2], target[2][1:])))
        self.set(op, out)


# ------------------------------------------------------------- the run


def input_value(d, i, argnum, elem):
    if elem == "f16" or elem == "i8":
        return ((d * 37 + i * 11 + argnum * 101) % 251) - 125 if elem == "f16" else ((d * 37 + i * 11 + argnum * 5) % 201) - 100
    return ((d * 1009 + i * 7 + argnum * 13) % 8191) - 4095


def inputs_for(grid, function):
    """(per device: the argument values the function sees, the buffers
    pld-run gets) for every argument."""
    ops, seen, buffers = function["ops"], [[] for _ in range(grid.n)], [[] for _ in range(grid.n)]
    for argnum, (name, (dims, elem)) in enumerate(function["args"]):
        pair = next((o for o in ops if o.name == "shard.shard" and o.operands[0] == name), None)
        for d in range(grid.n):
            if pair is None:
                t = Tensor(dims, [input_value(d, i, argnum, elem) for i in range(size(dims))])
                seen[d].append(t)
                buffers[d].append(t)
                continue
            whole = Tensor(dims, [input_value(0, i, argnum, elem) for i in range(size(dims))])
            split = shard_bounds(grid, *sharding_of(ops, pair.operands[1]), dims)
            axis, _, bounds = split
            lo, hi = shard_range(grid, split, d)
            longest = max(b - a for a, b in zip(bounds, bounds[1:]))
            seen[d].append(whole)
            buffers[d].append(pad(take(whole, axis, lo, hi), axis, longest))
    return seen, buffers


def compare(name, expected, actual, elem, tolerance):
    """The wrong elements of the leading box of `actual` against `expected`."""
    wrong = []
    if len(actual.shape) != len(expected.shape):
        return [(0, f"shape {list(expected.shape)}", f"shape {list(actual.shape)}")]
    leading = box(actual, [0] * len(actual.shape), expected.shape)
    for i, (e, a) in enumerate(zip(expected.data, leading.data)):
        allowed = tolerance * max(1.0, abs(e)) if elem.startswith("f") else 0
        if abs(e - a) > allowed:
            wrong.append((i, e, a))
    return wrong


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--pld-run", default="pld-run")
    parser.add_argument("--mlir-opt", default="mlir-opt")
    parser.add_argument("--partition", action="store_true")
    args, rest = parser.parse_known_args()
    rest = [r for r in rest if r != "--"]

    pipeline = ["--pass-pipeline=builtin.module(func.func(shard-partition))"] if args.partition else []
    generic = subprocess.run([args.mlir_opt, "--mlir-print-op-generic", *pipeline, args.program],
                             check=True, capture_output=True, text=True).stdout
    grids, functions = read_program(generic)
    if len(functions) != 1 or len(grids) != 1:
        raise SystemExit("shard_golden.py: expected one grid and one shard function")
    grid, function = Grid(next(iter(grids.values()))), functions[0]
    if grid.n != args.ranks:
        raise SystemExit(f"shard_golden.py: the grid has {grid.n} devices, --ranks is {args.ranks}")

    seen, buffers = inputs_for(grid, function)
    os.makedirs(os.path.join(args.work, "in"), exist_ok=True)
    command = [args.pld_run, args.program, "--ranks", str(args.ranks), "--output-dir", os.path.join(args.work, "out")]
    for argnum, (_, (_, elem)) in enumerate(function["args"]):
        for d in range(grid.n):
            write_npy(os.path.join(args.work, "in", f"arg{argnum}.rank{d}.npy"), buffers[d][argnum], elem)
        command += ["--input", f"arg{argnum}=" + os.path.join(args.work, "in", f"arg{argnum}.rank{{rank}}.npy")]
    run = subprocess.run(command + rest, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print(f"golden: pld-run exited with status {run.returncode}")
        return 1

    results = Interpreter(grid, function).run(seen)
    reduces = sum(1 for o in function["ops"] if o.name in ("shard.all_reduce", "shard.reduce_scatter"))
    tolerance = 1e-6 * grid.n * max(1, reduces)
    status = 0
    for j in range(len(results[0])):
        elem = function["args"][0][1][1] if function["args"] else "f32"
        wrong_devices = 0
        for d in range(grid.n):
            actual = read_npy(os.path.join(args.work, "out", f"result{j}.rank{d}.npy"))
            wrong = compare(f"result{j}", results[d][j], actual, elem, tolerance)
            if wrong:
                wrong_devices += 1
                first = "; ".join(f"[{i}] expected {e}, got {a}" for i, e, a in wrong[:5])
                print(f"golden: result{j} WRONG on device {d}: {len(wrong)} elements; first: {first}")
        if wrong_devices == 0:
            print(f"golden: result{j} ok on {grid.n} devices ({len(results[0][j].data)} elements each)")
        else:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
