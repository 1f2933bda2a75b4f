# The extension module pld._pld (python/src/lib.rs). Private: the package's
# functions in pld/__init__.py check the arguments and build the result
# classes from the dictionaries these return.
from pathlib import Path
from typing import Any

import numpy as np

__version__: str
MAX_RANKS: int

def opt(
    source: bytes,
    pipeline: str | None,
    name: str,
    verify_each: bool,
    printing: tuple[bool, bool, bool],
    allow_unregistered_dialect: bool,
    emit_bytecode: bool,
) -> tuple[bytes, list[tuple[str, Any]]]: ...
def source_text(source: bytes, name: str) -> str: ...
def translate_pto(source: str, name: str) -> str: ...
def translate_kernels(source: str, name: str, directory: Path) -> None: ...
def run(
    source: str,
    name: str,
    ranks: int | None,
    inputs: Any,
    check: bool,
    kernel: str | None,
    entry: str | None,
    deadline: float,
    time_limit: float | None,
) -> dict[str, Any]: ...
def explore(
    source: str,
    name: str,
    ranks: int | None,
    inputs: Any,
    check: bool,
    kernel: str | None,
    entry: str | None,
    deadline: float,
    time_limit: float | None,
    first: int,
    count: int,
) -> dict[str, Any]: ...
