"""Shared fixtures of the pld package's tests.

The tests compare the package with the tools it wraps, run as separate
processes: ``pld-opt``, ``pld-translate`` and ``pld-run`` from
``$PLD_BIN_DIR`` (``make test`` sets it), else from the Cargo target
directory (``$CARGO_TARGET_DIR/debug``, ``target/debug``).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bin_dir() -> Path:
    if "PLD_BIN_DIR" in os.environ:
        return Path(os.environ["PLD_BIN_DIR"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "debug"


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository."""
    return ROOT


@pytest.fixture(scope="session")
def tool():
    """Runs a pld tool: ``tool("pld-run", *args)`` -> CompletedProcess."""
    directory = _bin_dir()
    for name in ("pld-opt", "pld-translate", "pld-run"):
        if not (directory / name).exists():
            pytest.fail(f"{directory / name} does not exist: build the tools (cargo build "
                        "--workspace) or set PLD_BIN_DIR")

    def run(name: str, *args: object, input: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([str(directory / name), *map(str, args)], input=input,
                              capture_output=True, text=True, cwd=ROOT)

    return run


@pytest.fixture(scope="session")
def example(root: Path):
    """The text of ``examples/<name>``."""

    def read(name: str) -> str:
        return (root / "examples" / name).read_text()

    return read
