"""What the package carries: its libMLIR-C.so next to the extension module
(found through the module's $ORIGIN run path, not the build tree), one
libMLIR.so in the process, and its type information."""

from __future__ import annotations

from pathlib import Path

import pld
from pld import _pld


def mapped_libraries() -> set[Path]:
    """The shared libraries this process has mapped."""
    libraries = set()
    for line in Path("/proc/self/maps").read_text().splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) == 6 and ".so" in parts[5]:
            libraries.add(Path(parts[5].strip()))
    return libraries


def test_the_module_carries_its_mlir_c_api() -> None:
    pld.opt('func.func @f() {\n  return\n}\n')
    package = Path(_pld.__file__).resolve().parent
    assert (package / "libMLIR-C.so").is_file()
    loaded = {p for p in mapped_libraries() if p.name.startswith("libMLIR")}
    c_api = [p for p in loaded if p.name == "libMLIR-C.so"]
    assert [p.resolve() for p in c_api] == [(package / "libMLIR-C.so").resolve()]
    # One MLIR in the process: Debian's.
    assert [p.name for p in loaded if p.name.startswith("libMLIR.so")] == ["libMLIR.so.22.1"]


def test_the_package_is_typed() -> None:
    package = Path(pld.__file__).resolve().parent
    assert (package / "py.typed").is_file()
    assert (package / "_pld.pyi").is_file()
    for name in pld.__all__:
        assert hasattr(pld, name), name
    assert pld.Error.__module__ == "pld" and pld.RunResult.__module__ == "pld"


def test_the_namespace_is_the_api() -> None:
    """``dir(pld)`` and ``from pld import *`` show ``__all__`` (and the
    version), no helper the package imports."""
    # (Private helpers were listed too: `_os`, `_pld`, `_Mapping`, ...)
    listed = set(dir(pld))
    expected = set(pld.__all__) | {"__version__"}
    assert listed == expected, listed ^ expected
    namespace: dict[str, object] = {}
    exec("from pld import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(pld.__all__)
