"""pld.Error and the MLIR diagnostics it carries."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Diagnostic:
    """One MLIR diagnostic: ``file:line:col: severity: message``.

    ``file``, ``line`` and ``column`` are ``None`` for a diagnostic at an
    unknown location; ``notes`` are the notes MLIR attached to it.
    """

    severity: str
    file: str | None
    line: int | None
    column: int | None
    message: str
    notes: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        where = self.file or "<unknown>"
        if self.line is not None and self.column is not None:
            where = f"{where}:{self.line}:{self.column}"
        return f"{where}: {self.severity}: {self.message}"


class Error(Exception):
    """What pld-opt, pld-translate or pld-run would report as an error.

    ``str(error)`` is the tool's message (diagnostics with the source line
    they point at); ``diagnostics`` holds them one by one, each with its
    file, line, column and message (empty when the error is not at a place
    of the source, such as an unknown kernel).
    """

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics: list[Diagnostic] = list(diagnostics or [])

    def __str__(self) -> str:
        return self.message


class DiagnosticWarning(UserWarning):
    """A warning or remark MLIR emitted while ``pld.opt`` ran (a pass's
    remark, the explorer's warning that its time limit cut the
    schedules short), issued with :func:`warnings.warn` where ``pld-opt``
    prints it on standard error. ``str()`` is what ``pld-opt`` prints;
    ``diagnostic`` is the :class:`Diagnostic`."""

    def __init__(self, message: str, diagnostic: Diagnostic) -> None:
        super().__init__(message)
        self.diagnostic = diagnostic


class TimeLimitError(Error, TimeoutError):
    """A run (or an exploration) that went over its ``time_limit`` and was
    stopped, as ``pld-run --time-limit`` stops one: its waits returned and
    no further call or schedule started. A run's results are not returned;
    an exploration's findings so far are its ``result`` (an
    ``ExploreResult`` with ``stopped`` set, or ``None``)."""

    #: What ``pld.explore`` found before the limit (``None`` for a run).
    result: object = None


class InputError(Error, ValueError):
    """An ``inputs`` entry that does not fit what it fills (a shape, the
    number of per-rank arrays, an unknown name, a generator that does not
    exist): a :class:`ValueError` as well as a :class:`pld.Error`."""


class InputTypeError(Error, TypeError):
    """An ``inputs`` entry of a dtype that does not convert to the
    buffer's without loss, or that is no array: a :class:`TypeError` as
    well as a :class:`pld.Error`."""
