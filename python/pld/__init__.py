"""pld from Python: the compiler and the N-rank simulator as functions.

* :func:`opt` is ``pld-opt``: parse, verify, run a pass pipeline, print.
* :func:`translate` is ``pld-translate``: PTOAS text, or the builtin kernel
  packages.
* :func:`run` is ``pld-run``: a kernel (or a whole program) on N simulated
  ranks, its inputs numpy arrays, its outputs numpy arrays, with the checks,
  counters, deadlock and credit-leak reports as objects.
* :func:`explore` is ``pld-run --explore``: the protocol explorer's
  schedules and what they found.

Every function runs the same Rust code as the tool it is named after
(docs/embedding.md, "Python"), in this process, with the GIL released; an
error raises :class:`Error` with the MLIR diagnostics. Ctrl-C during
:func:`run` or :func:`explore` stops the simulated ranks and raises
``KeyboardInterrupt``.
"""

from __future__ import annotations

# Helpers under private names: `dir(pld)` shows only the API (`__all__`).
import numbers as _numbers
import os as _os
import warnings as _warnings
from collections.abc import Mapping as _Mapping
from pathlib import Path as _Path
from typing import Literal as _Literal
from typing import Union as _Union
from typing import overload as _overload

from numpy import bool_ as _np_bool

from . import _pld
from ._errors import (
    Diagnostic,
    DiagnosticWarning,
    Error,
    InputError,
    InputTypeError,
    TimeLimitError,
)
from ._inputs import DTYPES, GENERATORS
from ._results import (
    BlockedRank,
    Call,
    Counters,
    Deadlock,
    ExploreFinding,
    ExploreResult,
    Finding,
    Leak,
    RankCheck,
    RunError,
    RunResult,
    Stats,
    Uncheckable,
    WrongElement,
    WrongResult,
)
from ._results import explore_result as _explore_result
from ._results import run_result as _run_result

__all__ = [
    "BlockedRank",
    "Call",
    "Counters",
    "DTYPES",
    "Deadlock",
    "Diagnostic",
    "DiagnosticWarning",
    "Error",
    "ExploreFinding",
    "ExploreResult",
    "Finding",
    "GENERATORS",
    "InputError",
    "InputTypeError",
    "Inputs",
    "Leak",
    "MAX_RANKS",
    "RankCheck",
    "RunError",
    "RunResult",
    "Source",
    "Stats",
    "TimeLimitError",
    "Uncheckable",
    "WrongElement",
    "WrongResult",
    "explore",
    "opt",
    "run",
    "translate",
]

# `from __future__ import annotations` binds a name too; it is no API.
del annotations

# The classes are pld's, wherever they are defined.
for _name in __all__:
    if isinstance(globals().get(_name), type):
        globals()[_name].__module__ = __name__

__version__: str = _pld.__version__


def __dir__() -> list[str]:
    """What ``dir(pld)`` lists: the API (``__all__``) and the version, none
    of the helpers the package imports under private names."""
    return sorted([*__all__, "__version__"])


#: The most ranks a run may have.
MAX_RANKS: int = _pld.MAX_RANKS

#: MLIR source text, MLIR bytecode, or the path of a file holding either
#: (named by its path in diagnostics).
Source = _Union[str, bytes, _os.PathLike[str]]

#: What an input may be: an array of the buffer's shape (every rank gets
#: it), an array of shape ``(ranks, *shape)`` or a list of one array per
#: rank, or a generator's name (``zeros``, ``ones``, ``ramp``, ``rank``).
Inputs = _Mapping[str, object]


def _name(name: str | None) -> str | None:
    """``name=`` checked to be a str (or None)."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name is the source's name in diagnostics (a str), not "
                        f"{type(name).__name__}")
    return name


def _read(source: Source, name: str | None) -> tuple[bytes, str]:
    """The source's bytes and its name in diagnostics."""
    name = _name(name)
    if isinstance(source, _os.PathLike):
        path = _os.fspath(source)
        return _Path(path).read_bytes(), name or path
    if isinstance(source, str):
        named = source.strip()
        if named and "\n" not in named and _os.path.isfile(named):
            # A file's name alone (whitespace around it aside) is no MLIR:
            # say what was meant (it failed as "expected operation name in
            # quotes").
            raise ValueError(f"source is MLIR text when a str; '{named}' names a file: pass "
                             f"pathlib.Path('{named}') to read it")
        return source.encode(), name or "<source>"
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name or "<source>"
    raise TypeError(f"source is MLIR text, bytes or a path, not {type(source).__name__}")


def _text(source: Source, name: str | None) -> tuple[str, str]:
    data, name = _read(source, name)
    # As pld-run and pld-translate read files: bytes that are not UTF-8 do
    # not abort, bytecode is read by MLIR and printed back with its
    # locations.
    return _pld.source_text(data, name), name


def _whole(value: int, keyword: str) -> int:
    """``value`` checked to be an integer (an int or a numpy integer; not a
    bool, a float or a string)."""
    if isinstance(value, bool) or not isinstance(value, _numbers.Integral):
        raise TypeError(f"{keyword} is an int, not {type(value).__name__}")
    return int(value)


def _integer(value: int, keyword: str) -> int:
    """``value`` checked to be an integer the extension takes (64 bits)."""
    value = _whole(value, keyword)
    if value >= 2**64:
        # (What the extension takes is 64 bits wide.)
        raise ValueError(f"{keyword} is at most 2**64 - 1, not {value}")
    return value


def _ranks(ranks: int | None) -> int | None:
    # (Its own range, not the 64-bit one: `ranks=2**70` was told "at most
    # 2**64 - 1".)
    if ranks is None:
        return None
    ranks = _whole(ranks, "ranks")
    if not 1 <= ranks <= MAX_RANKS:
        raise ValueError(f"ranks must be 1 to {MAX_RANKS}, not {ranks}")
    return ranks


def _function(name: str | None, keyword: str) -> str | None:
    """A function's name as ``kernel=`` or ``entry=`` give it, with or
    without its ``@`` (a name that is no bare identifier also quoted as
    MLIR spells it, ``'@"sum four"'``)."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"{keyword} is a function's name (a str), not {type(name).__name__}")
    return name[1:] if name.startswith("@") else name


def _functions(kernel: str | None, entry: str | None) -> tuple[str | None, str | None]:
    """``kernel=`` and ``entry=``, of which at most one is given (as
    pld-run refuses ``--kernel`` with ``--entry``: one runs a device kernel
    alone, the other a program from its HOST orchestrator)."""
    if kernel is not None and entry is not None:
        raise ValueError("kernel= runs one device kernel alone and entry= a whole program from "
                         "its HOST orchestrator: give one of them, not both")
    return _function(kernel, "kernel"), _function(entry, "entry")


def _flag(value: bool, keyword: str) -> bool:
    """A yes-or-no keyword: a bool (or numpy's), never a string or a number
    (``check="no"`` read as true)."""
    if not isinstance(value, (bool, _np_bool)):
        raise TypeError(f"{keyword} is a bool, not {type(value).__name__}")
    return bool(value)


def _inputs(inputs: Inputs | None) -> Inputs | None:
    if inputs is not None and not isinstance(inputs, _Mapping):
        raise TypeError("inputs maps parameter (or buffer) names to arrays, not "
                        f"{type(inputs).__name__}")
    return inputs


# The most seconds a deadline or a time limit takes (u64::MAX, as pld-run);
# one below a nanosecond counts as a nanosecond.
_MOST_SECONDS = float(2**64 - 1)


def _seconds(deadline: float) -> float:
    if isinstance(deadline, bool) or not isinstance(deadline, _numbers.Real):
        raise TypeError(f"deadline is a number of seconds (an int or a float), not "
                        f"{type(deadline).__name__}")
    deadline = float(deadline)
    if not 0 < deadline <= _MOST_SECONDS:
        raise ValueError(f"deadline takes a positive number of seconds (at most about 1.8e19), "
                         f"not {deadline}")
    return deadline


def _time_limit(limit: float | None) -> float | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, _numbers.Real):
        raise TypeError(f"time_limit is a number of seconds (an int or a float) or None, not "
                        f"{type(limit).__name__}")
    limit = float(limit)
    if limit == float("inf"):
        return None
    if not 0 < limit <= _MOST_SECONDS:
        raise ValueError(f"time_limit takes a positive number of seconds (at most about 1.8e19), "
                         f"or None or infinity for no limit, not {limit}")
    return limit


@_overload
def opt(source: Source, pipeline: str | None = None, *, name: str | None = None,
        verify_each: bool = True, print_debug_info: bool = False,
        print_generic: bool = False, use_nameloc_as_prefix: bool = False,
        allow_unregistered_dialect: bool = False,
        emit_bytecode: _Literal[False] = False) -> str: ...


@_overload
def opt(source: Source, pipeline: str | None = None, *, name: str | None = None,
        verify_each: bool = True, print_debug_info: bool = False,
        print_generic: bool = False, use_nameloc_as_prefix: bool = False,
        allow_unregistered_dialect: bool = False,
        emit_bytecode: _Literal[True]) -> bytes: ...


def opt(source: Source, pipeline: str | None = None, *, name: str | None = None,
        verify_each: bool = True, print_debug_info: bool = False,
        print_generic: bool = False, use_nameloc_as_prefix: bool = False,
        allow_unregistered_dialect: bool = False,
        emit_bytecode: bool = False) -> str | bytes:
    """``pld-opt``: parses and verifies ``source``, runs ``pipeline``
    (``"builtin.module(pld-to-pto)"``, pld's passes and MLIR's upstream ones
    in one string, as ``--pass-pipeline``), verifies after every pass unless
    ``verify_each`` is false, and returns the module as pld-opt prints it
    (MLIR bytecode under ``emit_bytecode``). The printing flags are
    pld-opt's ``--mlir-print-debuginfo``, ``--mlir-print-op-generic`` and
    ``--mlir-use-nameloc-as-prefix``.

    Raises :class:`Error` with the diagnostics when the source does not
    parse or verify, the pipeline is invalid, or a pass fails. The
    warnings and remarks of a run that went through (which ``pld-opt``
    prints on standard error) are issued as :class:`DiagnosticWarning`\ s.
    """
    if pipeline is not None and not isinstance(pipeline, str):
        raise TypeError(f"pipeline is a pass pipeline (a str, as --pass-pipeline), not "
                        f"{type(pipeline).__name__}")
    data, name = _read(source, name)
    printing = (bool(print_debug_info), bool(print_generic), bool(use_nameloc_as_prefix))
    output, said = _pld.opt(data, pipeline, name, bool(verify_each), printing,
                            bool(allow_unregistered_dialect), bool(emit_bytecode))
    for text, diagnostic in said:
        _warnings.warn(DiagnosticWarning(text, diagnostic), stacklevel=2)
    return output if emit_bytecode else output.decode("utf-8", errors="replace")


@_overload
def translate(source: Source, emit: _Literal["pto"] = "pto", *, name: str | None = None,
              output_dir: None = None) -> str: ...


@_overload
def translate(source: Source, emit: _Literal["kernels"], *, name: str | None = None,
              output_dir: str | _os.PathLike[str]) -> list[_Path]: ...


def translate(source: Source, emit: str = "pto", *, name: str | None = None,
              output_dir: str | _os.PathLike[str] | None = None) -> str | list[_Path]:
    """``pld-translate``: ``emit="pto"`` returns the PTOAS text of a module
    lowered by ``pld-to-pto``; ``emit="kernels"`` writes the builtin kernel
    packages of its ``pld.builtin_*`` dispatches into ``output_dir`` (as
    ``-o DIR``) and returns the files written, sorted.

    Raises :class:`Error` with the diagnostics when the module does not
    parse, verify or translate.
    """
    text, name = _text(source, name)
    if emit == "pto":
        if output_dir is not None:
            raise ValueError("emit='pto' returns the text; output_dir is for emit='kernels'")
        return _pld.translate_pto(text, name)
    if emit == "kernels":
        if output_dir is None or _os.fspath(output_dir) == "":
            raise ValueError("emit='kernels' writes a directory of files; name it with output_dir")
        directory = _Path(output_dir)
        before = _stamps(directory)
        _pld.translate_kernels(text, name, directory)
        # The files this call wrote, not what the directory held before.
        return sorted(p for p, stamp in _stamps(directory).items() if before.get(p) != stamp)
    if not isinstance(emit, str):
        raise TypeError(f"emit is 'pto' or 'kernels' (a str), not {type(emit).__name__}")
    raise ValueError(f"emit is 'pto' or 'kernels', not {emit!r}")


def _stamps(directory: _Path) -> dict[_Path, tuple[int, int, int]]:
    """Every file under ``directory`` with its inode, size and change
    time (nanoseconds), to tell the files a call writes."""
    stamps = {}
    if directory.is_dir():
        for path in directory.rglob("*"):
            if path.is_file():
                stat = path.stat()
                stamps[path] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return stamps


def run(source: Source, *, ranks: int | None = None, inputs: Inputs | None = None,
        check: bool = False, kernel: str | None = None, entry: str | None = None,
        deadline: float = 2.0, time_limit: float | None = None,
        name: str | None = None) -> RunResult:
    """``pld-run``: lowers and compiles ``source`` and runs it on ``ranks``
    simulated ranks (by default 2, or a shard program's grid's device count,
    as ``pld-run`` without ``--ranks``). A module with a HOST orchestrator runs whole (``entry``
    names one of several), unless ``kernel`` names a device kernel to run
    alone; otherwise its only kernel runs. ``kernel`` and ``entry`` name a
    function with or without its ``@`` (``"allreduce"`` or ``"@allreduce"``;
    a name that is no bare identifier also quoted as MLIR writes it,
    ``'@"sum four"'``).

    ``inputs`` maps parameter names (``data``, ``%data``, ``arg0``, ``0``;
    a program's window buffers by name) to numpy arrays: the buffer's shape
    for the same data on every rank, ``(ranks, *shape)`` or a list for one
    per rank (``None`` for a device that does not hold a program's buffer,
    and only for it), or a generator's name. What is not given is filled as pld-run
    fills it: signals with zeros, the rest with its ramp. ``check`` compares
    every collective's result with a golden (``--check``); ``deadline`` is
    how long every live rank may wait before the run is a deadlock;
    ``time_limit`` how long the whole call may take (``--time-limit``;
    ``None``, the default, or infinity for no limit; 0 is refused, where
    the C API's ``pldRunOptionsSetTimeLimit`` reads it as no limit). The numeric keywords take ints
    (``deadline`` and ``time_limit`` an int or a float), never a string or
    a bool: anything else raises ``TypeError``.

    Returns a :class:`RunResult`: the outputs of every rank as numpy arrays,
    the calls and their checks, the counters, the deadlock, leaked credits
    and device errors (``result.findings``; ``result.ok`` when there are
    none). Raises :class:`Error` where pld-run stops with an error (a source
    that does not load, a kernel that does not exist, an input of the wrong
    shape), :class:`TimeLimitError` when the call goes over ``time_limit``
    (the run is stopped: its waits return and no further call starts), and
    ``KeyboardInterrupt`` after Ctrl-C.
    """
    text, name = _text(source, name)
    raw = _pld.run(text, name, _ranks(ranks), _inputs(inputs), _flag(check, "check"),
                   *_functions(kernel, entry), _seconds(deadline), _time_limit(time_limit))
    return _run_result(raw)


def explore(source: Source, *, ranks: int | None = None, schedules: int = 20, seed: int = 0,
            replay: int | None = None, inputs: Inputs | None = None, check: bool = False,
            kernel: str | None = None, entry: str | None = None, deadline: float = 2.0,
            time_limit: float | None = None, name: str | None = None) -> ExploreResult:
    """``pld-run --explore``: runs ``schedules`` seeded schedules of the
    protocol explorer (seeds ``seed`` onwards; ``replay`` runs exactly the
    schedule of one seed), one simulated thread at a time, checking
    happens-before on window memory. Each distinct finding (a race, a
    missing fence, Set and AtomicAdd mixed on a cell, a deadlock, a leaked
    credit, under ``check`` a wrong result) is kept once with the first seed
    that showed it. The other arguments are :func:`run`'s; ``time_limit``
    bounds the whole exploration: past it, :class:`TimeLimitError` is
    raised with what the schedules that ended found as its ``result``
    (an :class:`ExploreResult` with ``stopped`` set; ``None`` when the
    exploration did not come back in time).
    """
    _integer(schedules, "schedules")
    _integer(seed, "seed")
    text, name = _text(source, name)
    if replay is not None:
        if schedules != 20 or seed != 0:
            raise ValueError("replay names its one schedule; schedules and seed are for exploring")
        first, count = _integer(replay, "replay"), 1
    else:
        first, count = seed, schedules
    if count < 1:
        raise ValueError(f"schedules must be at least 1, not {count}")
    if not 0 <= first < 2**64:
        raise ValueError(f"a seed is an integer from 0 to 2**64 - 1, not {first}")
    if first + count - 1 >= 2**64:
        # As pld-run --seed with --explore: the seeds do not wrap around.
        raise ValueError(f"seed {first} with {count} schedules runs past the last seed, "
                         f"{2**64 - 1}")
    try:
        raw = _pld.explore(text, name, _ranks(ranks), _inputs(inputs), _flag(check, "check"),
                           *_functions(kernel, entry), _seconds(deadline),
                           _time_limit(time_limit), first, count)
    except TimeLimitError as stopped:
        partial = getattr(stopped, "partial", None)
        stopped.result = None if partial is None else _explore_result(partial)
        raise
    return _explore_result(raw)
