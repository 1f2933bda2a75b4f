#!/usr/bin/env python3
"""pld.run against pld-run: the same 64 MiB FP32 allreduce (Sum, mesh, the
golden check on), run both ways in one process, alternating, and the ratio
of the median wall-clock times (bench/README.md, "python-run").

pld-run's time is the whole process (start, lower, compile, fill, run,
check, exit); pld.run's the call (the same phases, plus reading the inputs
from numpy and handing the outputs back as numpy arrays). Two cases: the
default inputs (pld-run's ramp, both ways) and per-rank numpy arrays
(``.npy`` files for pld-run, the arrays for pld.run).

    target/python-venv/bin/python bench/python_run.py [--ranks 4] [--runs 5]

Run it with the interpreter the package is installed in (release mode for
numbers that mean something: ``pip install ./python``); pld-run is taken
from $PLD_BIN_DIR, else the release build, else the debug build.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import pld

ROOT = Path(__file__).resolve().parents[1]
ELEMENTS = 16 * 1024 * 1024  # 64 MiB of f32


def pld_run_binary() -> Path:
    if "PLD_BIN_DIR" in os.environ:
        return Path(os.environ["PLD_BIN_DIR"]) / "pld-run"
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        if (target / profile / "pld-run").exists():
            return target / profile / "pld-run"
    sys.exit("no pld-run: build it (cargo build --release -p pld-tools) or set PLD_BIN_DIR")


def kernel(ranks: int) -> str:
    data = f"tensor<1x{ELEMENTS}xf32, #pld.dist>"
    signal = f"tensor<{ranks}x1xi32, #pld.dist>"
    return (f"func.func @allreduce(%data: {data}, %signal: {signal}) attributes "
            f'{{pld.kind = #pld.func_kind<"incore">}} {{\n'
            f'  %r = "pld.tensor_allreduce"(%data, %signal) {{op = #pld.reduce_op<"sum">}} '
            f": ({data}, {signal}) -> {data}\n  return\n}}\n")


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def measure(name: str, cli, python, runs: int) -> float:
    """Alternating runs after one of each untimed; prints the medians and
    returns the ratio."""
    cli()
    python()
    cli_times, python_times = [], []
    for _ in range(runs):
        cli_times.append(timed(cli))
        python_times.append(timed(python))
    a, b = statistics.median(cli_times), statistics.median(python_times)
    print(f"{name:<24} pld-run {a * 1e3:8.1f} ms   pld.run {b * 1e3:8.1f} ms   "
          f"ratio {b / a:5.3f}   (medians of {runs}; min {min(cli_times) * 1e3:.1f} / "
          f"{min(python_times) * 1e3:.1f} ms)")
    return b / a


def count(least: int, most: int):
    """An argparse type: a whole number from `least` to `most`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"must be {least} to {most}, not {value}")
        return value

    return parse


def main() -> None:
    summary = " ".join(__doc__.split("\n\n")[0].split())
    parser = argparse.ArgumentParser(description=summary)
    parser.add_argument("--ranks", type=count(1, 64), default=4,
                        help="simulated ranks (default 4)")
    parser.add_argument("--runs", type=count(1, 1000), default=5,
                        help="timed runs of each way (default 5; one untimed run first)")
    args = parser.parse_args()
    binary = pld_run_binary()
    print(f"pld-run: {binary}")
    print(f"pld:     {Path(pld._pld.__file__)}")
    print(f"a 64 MiB FP32 allreduce (Sum, mesh) on {args.ranks} ranks, --check\n")
    with tempfile.TemporaryDirectory(prefix="pld-bench-python-") as scratch:
        directory = Path(scratch)
        path = directory / "allreduce.mlir"
        path.write_text(kernel(args.ranks))
        command = [str(binary), str(path), "--ranks", str(args.ranks), "--check"]

        def cli(*extra: str) -> None:
            done = subprocess.run(command + list(extra), capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"pld-run failed:\n{done.stdout}{done.stderr}")

        def python(**inputs: object) -> None:
            result = pld.run(path, ranks=args.ranks, check=True, inputs=inputs or None)
            if not result.ok:
                sys.exit(f"pld.run found: {result.findings}")

        ratios = [measure("default inputs (ramp)", cli, python, args.runs)]
        rng = np.random.default_rng(0)
        arrays = [rng.integers(-8, 8, size=(1, ELEMENTS)).astype(np.float32)
                  for _ in range(args.ranks)]
        for rank, array in enumerate(arrays):
            np.save(directory / f"data.rank{rank}.npy", array)
        npy = f"data={directory}/data.rank{{rank}}.npy"
        ratios.append(measure("numpy inputs", lambda: cli("--input", npy),
                              lambda: python(data=arrays), args.runs))
    print(f"\nworst ratio {max(ratios):.3f} (goal: at most 1.1)")


if __name__ == "__main__":
    main()
