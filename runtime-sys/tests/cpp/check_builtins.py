#!/usr/bin/env python3
"""Standalone check of pld's builtin kernel templates (development aid).

Renders every builtin variant from builtins/templates/ (each builtin's own
templates and the shared ones under common/) with plain {{key}}
replacement (a key the template uses but is not given, or the reverse, is
an error), puts the shared header common/pld_collective.h next to every
kernel as a package has it, compiles each rendered kernel and entry with
clang++ (C++17, -Wall -Wextra -Werror) against runtime-sys/include and the
pto-isa shims in runtime-sys/include/pto-sim, also the CHIP-only
indexed_all_to_all_v kernel (compiled here; the simulator's tests run it),
links the rest with a
test-only implementation of pld_sim.h (sim_stub.cpp) and the test driver
(harness.cpp), and runs the driver. With --pto-isa DIR it also checks
every kernel against the real pto-isa headers of DIR (their CPU simulation
mode, syntax and template instantiation only; the A5-only
indexed_all_to_all_v kernel with URMA enabled, -DPTO_URMA_SUPPORTED, as an
__NPU_ARCH__ 3510 build defines it).

Usage: check_builtins.py [--out DIR] [--jobs N] [--cxx PATH] [--keep] [--templates DIR] [--pto-isa DIR] [-- --quick]
No network; needs only python3 and clang++.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
TEMPLATES = os.path.join(ROOT, "builtins", "templates")
INCLUDE = os.path.join(ROOT, "runtime-sys", "include")
PTO_SIM_INCLUDE = os.path.join(INCLUDE, "pto-sim")
# The header every kernel includes; each package has a copy next to its kernel.
HEADER = os.path.join("common", "pld_collective.h")

PACKAGE_PREFIX = "pypto.runtime.builtins.collectives."
RUNTIME = "tensormap_and_ringbuffer"
CORE_METHOD = "set_block_num"

# The template each file of each builtin is rendered from (a builtin's own
# or a shared one under common/), and exactly the keys each template uses
# (builtins/templates/README.md).
# Builtins launched as the mesh allreduce is (core_num lanes), through its entry.
SHARES_MESH_ENTRY = ["allreduce_two_shot"]
ONE_BLOCK = ["allreduce_ring", "barrier", "broadcast", "reduce_scatter", "reduce", "allgather", "all_to_all"]


def template_of(builtin, name):
    """The template path (relative to TEMPLATES) of file `name` of a builtin."""
    if name == "kernel_config.py.in" or (name == "entry.cpp.in" and builtin in ONE_BLOCK):
        return "common/" + name
    if name == "entry.cpp.in" and builtin in SHARES_MESH_ENTRY:
        return "allreduce/" + name
    return f"{builtin}/{name}"


_NAMES = ["variant", "entry", "kernel_name", "template_package", "runtime"]
KEYS = {
    "common/entry.cpp.in": _NAMES + ["tensor_dirs", "scalar_count", "scalar_names"],
    "common/kernel_config.py.in": _NAMES + ["signature"],
    "allreduce/entry.cpp.in": _NAMES + ["launch_core_count_method"],
    "all_to_all_v/entry.cpp.in": ["variant", "entry", "template_package", "runtime", "launch_core_count_method"],
    "allreduce/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp", "op_cpp", "reduce_inst"],
    "allreduce_ring/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp", "op_cpp"],
    "allreduce_two_shot/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp", "op_cpp"],
    "barrier/kernel.cpp.in": ["kernel_name", "template_package"],
    "broadcast/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp", "root_cpp"],
    "reduce_scatter/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp", "op_cpp"],
    "reduce/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp", "op_cpp"],
    "allgather/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp"],
    "all_to_all/kernel.cpp.in": ["kernel_name", "template_package", "dtype_cpp"],
    "all_to_all_v/kernel.cpp.in": ["dtype_cpp", "template_package"],
}

# The dispatch's tensor directions (spec 11.2), from which the shared
# templates' `signature` and `tensor_dirs` are rendered.
TENSOR_DIRS = {
    "allreduce": ["INOUT", "INOUT"],
    "allreduce_ring": ["INOUT", "INOUT"],
    "allreduce_two_shot": ["INOUT", "INOUT"],
    "barrier": ["INOUT"],
    "broadcast": ["INOUT", "INOUT"],
    "reduce_scatter": ["INOUT", "INOUT"],
    "reduce": ["INOUT", "INOUT"],
    "allgather": ["IN", "INOUT", "INOUT"],
    "all_to_all": ["IN", "INOUT", "INOUT"],
    "all_to_all_v": ["IN", "INOUT", "INOUT", "IN", "INOUT"],
}
CPP_DIRS = {"IN": "Dir::kIn", "INOUT": "Dir::kInOut"}
# The scalars an entry passes after the tensors (spec 10.3; a reduce's
# root is a run-time scalar).
SCALARS = {"reduce": ["nranks", "CommContext*", "root"]}
DEFAULT_SCALARS = ["nranks", "CommContext*"]

OPS = {"sum": ("ReduceOp::kSum", "TADD"), "max": ("ReduceOp::kMax", "TMAX"),
       "min": ("ReduceOp::kMin", "TMIN"), "prod": ("ReduceOp::kProd", "TMUL")}
DTYPES = {"fp32": "float", "fp16": "half", "int8": "int8_t"}

KEY_RE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def render(text, values, what):
    used = set(KEY_RE.findall(text))
    given = set(values)
    missing = used - given
    extra = given - used
    if missing or extra:
        raise SystemExit(f"{what}: template keys {sorted(used)}; missing {sorted(missing)}, "
                         f"extra {sorted(extra)}")
    return KEY_RE.sub(lambda m: str(values[m.group(1)]), text)


def variants():
    """(builtin, variant string, template variables) for every rendered variant."""
    out = []
    for op in ["sum", "max", "min", "prod"]:
        for dt in ["fp16", "fp32"]:
            out.append(("allreduce", f"builtin.tensor.allreduce__{op}__{dt}",
                        {"dtype_cpp": DTYPES[dt], "op_cpp": OPS[op][0], "reduce_inst": OPS[op][1],
                         "launch_core_count_method": CORE_METHOD}))
    for op in ["sum", "max", "min", "prod"]:
        for dt in ["fp16", "fp32"]:
            out.append(("allreduce_two_shot", f"builtin.tensor.allreduce_two_shot__{op}__{dt}",
                        {"dtype_cpp": DTYPES[dt], "op_cpp": OPS[op][0],
                         "launch_core_count_method": CORE_METHOD}))
    out.append(("allreduce_ring", "builtin.tensor.allreduce_ring__sum__fp32",
                {"dtype_cpp": "float", "op_cpp": OPS["sum"][0]}))
    out.append(("barrier", "builtin.tensor.barrier__fp32", {}))
    for root in range(4):
        out.append(("broadcast", f"builtin.tensor.broadcast__root{root}__fp32",
                    {"dtype_cpp": "float", "root_cpp": str(root)}))
    out.append(("reduce_scatter", "builtin.tensor.reduce_scatter__sum__fp32",
                {"dtype_cpp": "float", "op_cpp": OPS["sum"][0]}))
    for op in ["sum", "max", "min", "prod"]:
        for dt in ["fp16", "fp32"]:
            out.append(("reduce", f"builtin.tensor.reduce__{op}__{dt}",
                        {"dtype_cpp": DTYPES[dt], "op_cpp": OPS[op][0]}))
    out.append(("allgather", "builtin.tensor.allgather__fp32", {"dtype_cpp": "float"}))
    out.append(("all_to_all", "builtin.tensor.all_to_all__fp32", {"dtype_cpp": "float"}))
    for dt in ["fp32", "int8"]:
        out.append(("all_to_all_v", f"builtin.tensor.all_to_all_v__{dt}",
                    {"dtype_cpp": DTYPES[dt], "launch_core_count_method": CORE_METHOD}))
    result = []
    for builtin, variant, extra in out:
        entry = variant.replace(".", "_")
        values = {
            "variant": variant,
            "entry": entry,
            "kernel_name": entry + "_kernel",
            "template_package": PACKAGE_PREFIX + builtin,
            "runtime": RUNTIME,
            "signature": ", ".join(f'"{d}"' for d in TENSOR_DIRS[builtin]),
            "tensor_dirs": ", ".join(CPP_DIRS[d] for d in TENSOR_DIRS[builtin]),
            "scalar_count": str(len(SCALARS.get(builtin, DEFAULT_SCALARS))),
            "scalar_names": ", ".join(SCALARS.get(builtin, DEFAULT_SCALARS)),
        }
        values.update(extra)
        result.append((builtin, variant, values))
    return result


# The name every kernel exports on the device (kernel_config.py's
# function_name); PLD_KERNEL_ENTRY renames it where kernels share a binary.
DEVICE_ENTRY = "kernel_entry"


def kernel_symbol(builtin, values):
    """The kernel's name where several kernels link into one binary."""
    if builtin == "all_to_all_v":
        return "builtin_all_to_all_v_kernel__" + values["dtype_cpp"]
    return values["kernel_name"]


def ship_header(kernel_dir):
    """Copies the shared header next to a rendered kernel, as pld-translate does."""
    text = open(os.path.join(TEMPLATES, HEADER)).read()
    render(text, {}, HEADER)  # it takes no keys
    with open(os.path.join(kernel_dir, os.path.basename(HEADER)), "w") as f:
        f.write(text)


def render_chip_only(out_dir):
    """The CHIP-only indexed_all_to_all_v kernel, fp32 and int8, as its
    sub-build holds it: compiled here (the simulator's tests run it, on its
    model of A5 URMA). (source, object, flags) jobs."""
    jobs = []
    kdir = os.path.join(out_dir, "chip", "kernels", "aiv")
    os.makedirs(kdir, exist_ok=True)
    ship_header(kdir)
    text = open(os.path.join(TEMPLATES, "indexed_all_to_all_v", "kernel.cpp.in")).read()
    for dt in ["fp32", "int8"]:
        values = {"dtype_cpp": DTYPES[dt], "template_package": PACKAGE_PREFIX + "indexed_all_to_all_v"}
        src = os.path.join(kdir, f"__builtin_indexed_all_to_all_v__{dt}.cpp")
        with open(src, "w") as f:
            f.write(render(text, values, "indexed_all_to_all_v/kernel.cpp.in"))
        symbol = "builtin_indexed_all_to_all_v_kernel__" + values["dtype_cpp"]
        jobs.append((src, os.path.join(out_dir, "obj", symbol + ".o"), [f"-DPLD_KERNEL_ENTRY={symbol}"], None))
    return jobs


# Kernels for A5 only: checked with URMA enabled, as the real headers
# define it for __NPU_ARCH__ 3510 (the kernel refuses to build without it).
A5_ONLY = ["__builtin_indexed_all_to_all_v__"]


def check_real_pto_isa(cxx, pto_isa, kernels, jobs):
    """Every rendered kernel against the real pto-isa headers in their CPU
    simulation mode (__CPU_SIM; C++20, which those headers need): a
    syntax and instantiation check, nothing is linked or run; the A5-only
    kernels with -DPTO_URMA_SUPPORTED. Returns the failures as (source, log)."""
    flags = ["-std=c++20", "-fsyntax-only", "-D__CPU_SIM", "-I", os.path.join(pto_isa, "include"), "-I", INCLUDE]

    def check(src):
        a5 = ["-DPTO_URMA_SUPPORTED"] if any(k in os.path.basename(src) for k in A5_ONLY) else []
        p = subprocess.run([cxx] + flags + a5 + [src], capture_output=True, text=True)
        return src, p.returncode, p.stdout + p.stderr

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return [(src, log) for src, rc, log in pool.map(check, kernels) if rc != 0]


def render_variant(out_dir, builtin, variant, values):
    files = {}
    for name in ["kernel.cpp.in", "entry.cpp.in", "kernel_config.py.in"]:
        template = template_of(builtin, name)
        with open(os.path.join(TEMPLATES, template)) as f:
            text = f.read()
        files[name] = render(text, {k: values[k] for k in KEYS[template]}, template)
    vdir = os.path.join(out_dir, "next_levels", variant)
    paths = {
        "entry": os.path.join(vdir, "orchestration", values["entry"] + ".cpp"),
        "kernel": os.path.join(vdir, "kernels", "aiv", values["kernel_name"] + ".cpp"),
        "config": os.path.join(vdir, "kernel_config.py"),
    }
    for key, name in [("entry", "entry.cpp.in"), ("kernel", "kernel.cpp.in"), ("config", "kernel_config.py.in")]:
        os.makedirs(os.path.dirname(paths[key]), exist_ok=True)
        with open(paths[key], "w") as f:
            f.write(files[name])
    ship_header(os.path.dirname(paths["kernel"]))
    # kernel_config.py must at least be valid Python with the expected tables.
    scope = {}
    exec(compile(files["kernel_config.py.in"], paths["config"], "exec"), scope)
    for table in ["RUNTIME_CONFIG", "ORCHESTRATION", "KERNELS"]:
        if table not in scope:
            raise SystemExit(f"{paths['config']}: no {table}")
    if scope["KERNELS"][0]["function_name"] != DEVICE_ENTRY:
        raise SystemExit(f"{paths['config']}: function_name {scope['KERNELS'][0]['function_name']}")
    return paths, files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cxx", default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--templates", default=None,
                    help="template directory to check instead of builtins/templates (e.g. a copy broken on purpose)")
    ap.add_argument("--pto-isa", default=None,
                    help="a pto-isa checkout: also check every kernel against its real headers (CPU simulation mode)")
    ap.add_argument("harness_args", nargs="*")
    args = ap.parse_args()
    global TEMPLATES
    if args.templates:
        TEMPLATES = os.path.abspath(args.templates)

    cxx = args.cxx or shutil.which("clang++-22") or "/usr/lib/llvm-22/bin/clang++"
    out_dir = args.out or tempfile.mkdtemp(prefix="pld-builtin-check-")
    os.makedirs(out_dir, exist_ok=True)
    flags = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", "-pthread",
             "-I", INCLUDE, "-I", PTO_SIM_INCLUDE]

    vs = variants()
    jobs = []  # (source, object, extra flags)
    decls, table = [], []
    a2av_kernels = {}
    for builtin, variant, values in vs:
        paths, files = render_variant(out_dir, builtin, variant, values)
        entry = values["entry"]
        if builtin == "all_to_all_v":
            a2av_kernels[values["dtype_cpp"]] = files["kernel.cpp.in"]
            # The CHIP rail renders the same kernel with the same two keys:
            # the text must be byte-identical.
            chip = render(open(os.path.join(TEMPLATES, template_of(builtin, "kernel.cpp.in"))).read(),
                          {"dtype_cpp": values["dtype_cpp"], "template_package": values["template_package"]},
                          "all_to_all_v/kernel.cpp.in (CHIP)")
            assert chip == files["kernel.cpp.in"]
        obj_k = os.path.join(out_dir, "obj", entry + "_kernel.o")
        obj_e = os.path.join(out_dir, "obj", entry + "_entry.o")
        ksym = kernel_symbol(builtin, values)
        jobs.append((paths["kernel"], obj_k, [f"-DPLD_KERNEL_ENTRY={ksym}"], None))
        jobs.append((paths["entry"], obj_e,
                     [f"-Daicpu_orchestration_entry=pld_orch_entry__{entry}",
                      f"-Daicpu_orchestration_config=pld_orch_config__{entry}"], None))
        decls.append(f'extern "C" void {entry}(const ChipTaskArgs &);')
        decls.append(f'extern "C" PTO2OrchestrationConfig pld_orch_config__{entry}(const ChipTaskArgs &);')
        decls.append(f'extern "C" void {ksym}(int64_t *);')
        table.append(f'  {{"{variant}", "{builtin}", &{entry}, &pld_orch_config__{entry}, &{ksym}}},')
    if len(set(a2av_kernels.values())) != len(a2av_kernels):
        raise SystemExit("all_to_all_v kernels of different dtypes rendered identically")

    # Compile-only check of the Ascend950 launch-spec spelling.
    b, v, values = vs[0]
    alt = dict(values, launch_core_count_method="set_core_num")
    alt_text = render(open(os.path.join(TEMPLATES, template_of(b, "entry.cpp.in"))).read(),
                      {k: alt[k] for k in KEYS[template_of(b, "entry.cpp.in")]}, "allreduce/entry.cpp.in (set_core_num)")
    alt_path = os.path.join(out_dir, "entry_set_core_num.cpp")
    with open(alt_path, "w") as f:
        f.write(alt_text)

    gen = os.path.join(out_dir, "variants.inc")
    with open(gen, "w") as f:
        f.write("// Generated by check_builtins.py\n")
        f.write("\n".join(decls) + "\n\n")
        f.write("static const VariantEntry kVariants[] = {\n" + "\n".join(table) + "\n};\n")

    os.makedirs(os.path.join(out_dir, "obj"), exist_ok=True)
    chip_jobs = render_chip_only(out_dir)
    jobs.append((os.path.join(HERE, "sim_stub.cpp"), os.path.join(out_dir, "obj", "sim_stub.o"), [], None))
    jobs.append((os.path.join(HERE, "pto_sim_unit.cpp"), os.path.join(out_dir, "obj", "pto_sim_unit.o"),
                 ["-I", HERE], None))
    jobs.append((os.path.join(HERE, "harness.cpp"), os.path.join(out_dir, "obj", "harness.o"),
                 ["-I", out_dir, "-I", HERE], None))

    kernels = [j[0] for j in jobs if j[0].endswith("_kernel.cpp")] + [j[0] for j in chip_jobs]

    def build(job):
        src, obj, extra, _ = job
        cmd = [cxx] + flags + extra + ["-c", src, "-o", obj]
        p = subprocess.run(cmd, capture_output=True, text=True)
        return src, p.returncode, p.stdout + p.stderr

    failed = False
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(build, jobs + chip_jobs))
        p = subprocess.run([cxx] + flags + ["-fsyntax-only", alt_path], capture_output=True, text=True)
        results.append((alt_path, p.returncode, p.stdout + p.stderr))
    for src, rc, log in results:
        if rc != 0:
            failed = True
            print(f"COMPILE FAILED: {src}\n{log}", file=sys.stderr)
    if failed:
        print(f"rendered sources kept in {out_dir}", file=sys.stderr)
        return 1
    print(f"rendered and compiled {len(vs)} variants and {len(chip_jobs)} CHIP-only kernels "
          f"({len(jobs) + len(chip_jobs) + 1} translation units) in {out_dir}")
    if args.pto_isa:
        failures = check_real_pto_isa(cxx, args.pto_isa, kernels, args.jobs)
        for src, log in failures:
            print(f"REAL PTO-ISA CHECK FAILED: {src}\n{log}", file=sys.stderr)
        if failures:
            return 1
        print(f"{len(kernels)} kernels pass a syntax check against the real pto-isa headers in {args.pto_isa}")

    exe = os.path.join(out_dir, "builtin_check")
    objs = [j[1] for j in jobs]
    p = subprocess.run([cxx] + flags + objs + ["-o", exe], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stdout + p.stderr, file=sys.stderr)
        return 1
    rc = subprocess.run([exe] + args.harness_args).returncode
    if rc == 0 and not args.keep and args.out is None:
        shutil.rmtree(out_dir, ignore_errors=True)
    elif rc != 0:
        print(f"build kept in {out_dir}", file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
