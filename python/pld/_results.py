"""What ``pld.run`` and ``pld.explore`` return.

Each class mirrors a part of what ``pld-run`` prints: the outputs it writes
with ``--output-dir``, the calls and checks of ``--check``, the counters of
``--stats``, the deadlock, credit-leak and explorer reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from ._inputs import DTYPES

Index = tuple[int, ...]


@dataclass(frozen=True)
class Counters:
    """A rank's traffic (``pld-run --stats``)."""

    notifies: int = 0
    waits: int = 0
    remote_bytes_read: int = 0
    remote_bytes_written: int = 0

    def __add__(self, other: Counters) -> Counters:
        return Counters(
            self.notifies + other.notifies,
            self.waits + other.waits,
            self.remote_bytes_read + other.remote_bytes_read,
            self.remote_bytes_written + other.remote_bytes_written,
        )


@dataclass(frozen=True)
class Stats:
    """Counters per rank, L3 -> L2 round trips per device (a program), and
    the phase times in seconds (``lower``, ``compile``, ``fill``, ``run``,
    ``kernels``, ``check``; ``plan`` for a program)."""

    per_rank: list[Counters]
    round_trips: list[int] | None
    times: dict[str, float]

    @property
    def total(self) -> Counters:
        """The counters summed over the ranks."""
        total = Counters()
        for counters in self.per_rank:
            total = total + counters
        return total


@dataclass(frozen=True)
class WrongElement:
    """An element outside what the check allows: its index in the result,
    the golden's value and the rank's (widened to float), and the tolerance
    it was held to (``None`` where it must be exact)."""

    index: Index
    expected: float
    got: float
    tolerance: float | None
    #: The values as pld-run prints them (NaN with its bits).
    expected_text: str
    got_text: str


@dataclass(frozen=True)
class RankCheck:
    """One rank's result against the golden: the worst difference and
    where, how many elements are wrong, and the first of them."""

    rank: int
    ok: bool
    worst: float
    at: Index
    wrong: int
    first_wrong: list[WrongElement]


@dataclass(frozen=True)
class Call:
    """One collective call: the op, its source location, the kernel it is
    in, its result's type and shape, and its check per rank (``checks``),
    or why it has none (``unchecked``)."""

    kind: str
    location: str
    kernel: str | None
    dtype: str
    elements: int
    shape: Index
    reduce: str | None
    root: int | None
    ranks: int
    time: float
    checks: list[RankCheck] | None
    unchecked: str | None
    #: ``check=True`` asked for a comparison this call cannot have
    #: (``unchecked`` says why): an ``Uncheckable`` finding.
    uncheckable: bool = False
    #: The device of each rank of its comm domain (``devices[r]`` runs rank
    #: r; a check's ``rank`` counts within the domain).
    devices: tuple[int, ...] = ()
    #: An allreduce's schedule as its ``mode`` attribute spells it
    #: (``"mesh"``, ``"ring"``, ``"two_shot"``); ``None`` for other
    #: collectives.
    mode: str | None = None
    #: Where the collective op itself is written (``location`` is the kernel
    #: call's for a collective inside a kernel a program calls).
    op_location: str = ""
    #: The allreduce was written ``mode = "auto"``, which chose ``mode`` (or
    #: kept mesh where the sizes were known only at run time).
    auto: bool = False

    @property
    def ok(self) -> bool:
        """Checked, and right on every rank."""
        return self.checks is not None and all(c.ok for c in self.checks)


@dataclass(frozen=True)
class BlockedRank:
    """A rank (or a block of a builtin kernel's launch) waiting at a
    deadlock: on which cell (``buffer`` and ``index``, when the cell is in a
    known buffer), for which value, in which op."""

    rank: int
    block: tuple[int, int] | None
    kernel: str
    buffer: str | None
    index: Index | None
    cmp: str
    expected: int
    actual: int
    op: str | None
    location: str | None


@dataclass(frozen=True)
class Deadlock:
    """Every live rank waited longer than the deadline; ``message`` is
    pld-run's report."""

    message: str
    blocked: list[BlockedRank]
    finished: list[int]

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Leak:
    """A signal cell left non-zero after the run (a leaked credit)."""

    buffer: str
    index: Index
    rank: int
    value: int
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class WrongResult:
    """A checked call that is wrong on a rank."""

    call: Call
    check: RankCheck

    def __str__(self) -> str:
        first = "; ".join(
            f"{list(w.index)} expected {w.expected_text}, got {w.got_text}"
            for w in self.check.first_wrong
        )
        rank = self.check.rank
        devices = self.call.devices
        on = f"rank {rank}"
        if rank < len(devices) and devices[rank] != rank:
            on = f"device {devices[rank]} (rank {rank} of its comm domain)"
        return (
            f"wrong result of {self.call.kind} at {self.call.location} on {on}: "
            f"{self.check.wrong} wrong elements; first: {first}"
        )


@dataclass(frozen=True)
class Uncheckable:
    """A call ``check=True`` cannot compare with a golden (a kernel holding
    several collectives, members making it from different places): a
    finding, as ``pld-run --check`` fails on it."""

    call: Call

    def __str__(self) -> str:
        return (
            f"check cannot compare {self.call.kind} at {self.call.location}: "
            f"{self.call.unchecked}"
        )


@dataclass(frozen=True)
class RunError:
    """A fault the simulator caught in a rank (an address outside every
    window, a violated constraint, a kernel that panicked): ``message`` as
    pld-run prints it, ``rank`` and the op's ``location``
    (``file:line:col``) where it names them (``None`` otherwise)."""

    message: str
    rank: int | None = None
    location: str | None = None

    def __str__(self) -> str:
        return self.message


Finding = Union[Deadlock, Leak, WrongResult, Uncheckable, RunError]


@dataclass(frozen=True)
class RunResult:
    """What ``pld.run`` found.

    ``outputs[rank]`` maps every parameter of the kernel (by its SSA name
    without ``%``), or every window buffer of the program, to its contents
    after the run, as pld-run's ``--output-dir`` writes them.
    """

    kind: str
    name: str
    ranks: int
    outputs: list[dict[str, np.ndarray]]
    calls: list[Call]
    deadlock: Deadlock | None
    leaks: list[Leak]
    errors: list[str]
    stats: Stats
    #: Each error's (rank, location), where it names them.
    error_places: list[tuple[int | None, str | None]] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        """Everything that went wrong: errors, the deadlock, leaked
        credits, wrong results (empty for a clean run)."""
        places = self.error_places or [(None, None)] * len(self.errors)
        found: list[Finding] = [RunError(e, r, at) for e, (r, at) in zip(self.errors, places)]
        if self.deadlock is not None:
            found.append(self.deadlock)
        found.extend(self.leaks)
        for call in self.calls:
            for check in call.checks or []:
                if not check.ok:
                    found.append(WrongResult(call, check))
            if call.uncheckable:
                found.append(Uncheckable(call))
        return found

    @property
    def ok(self) -> bool:
        """No finding (checked calls right, where checked)."""
        return not self.findings

    def stacked(self, name: str | int) -> np.ndarray:
        """The output ``name`` of every rank, stacked: ``(ranks, *shape)``;
        a kernel's parameter also as ``inputs=`` names it (``%data``,
        ``arg0``, ``0``)."""
        name = self._key(name)
        missing = [rank for rank, outputs in enumerate(self.outputs) if name not in outputs]
        if missing or not self.outputs:
            names = sorted({n for outputs in self.outputs for n in outputs})
            if any(name in outputs for outputs in self.outputs):
                raise KeyError(f"output '{name}' is not on every rank (not on rank "
                               f"{', '.join(map(str, missing))}: a buffer of some devices only); "
                               f"read outputs[rank]['{name}'] on the others")
            raise KeyError(f"no output '{name}' (outputs: {', '.join(names) or 'none'})")
        return np.stack([outputs[name] for outputs in self.outputs])

    def _key(self, name: str | int) -> str:
        """``name`` as the outputs are keyed: a kernel's parameter by its
        name, also written ``%data``, ``arg0`` or ``0`` (its position, also
        as an int), a name written in the source first."""
        name = str(name)
        keys = list(self.outputs[0]) if self.outputs else []
        if name in keys or self.kind != "kernel":
            return name
        if name.startswith("%") and name[1:] in keys:
            return name[1:]
        number = name[3:] if name.startswith("arg") else name
        if number.isdigit() and str(int(number)) == number and int(number) < len(keys):
            return keys[int(number)]
        return name


@dataclass(frozen=True)
class ExploreFinding:
    """A finding of the protocol explorer, with the first seed that showed
    it (``pld.explore(..., replay=seed)`` runs that schedule again)."""

    seed: int
    key: str
    text: str

    def __str__(self) -> str:
        return f"schedule {self.seed} (--replay {self.seed}): {self.text}"


@dataclass(frozen=True)
class ExploreResult:
    """What ``pld.explore`` found over its schedules."""

    kind: str
    name: str
    schedules: int
    steps: int
    findings: list[ExploreFinding] = field(default_factory=list)
    deadlock: bool = False
    #: The exploration was stopped by its ``time_limit`` after
    #: ``schedules`` schedules (the result of a :class:`TimeLimitError`).
    stopped: bool = False

    @property
    def ok(self) -> bool:
        """No race, missing fence, mixed notify, leak, wrong result or
        deadlock in any schedule."""
        return not self.findings


def _index(value: Any) -> Index:
    return tuple(int(i) for i in value)


def _check(raw: dict[str, Any]) -> RankCheck:
    return RankCheck(
        rank=raw["rank"],
        ok=raw["ok"],
        worst=raw["worst"],
        at=_index(raw["at"]),
        wrong=raw["wrong"],
        first_wrong=[
            WrongElement(_index(i), e, g, t, et, gt)
            for (i, e, g, t, et, gt) in raw["first_wrong"]
        ],
    )


def _call(raw: dict[str, Any]) -> Call:
    checks = raw["checks"]
    return Call(
        kind=raw["kind"],
        location=raw["location"],
        kernel=raw["kernel"],
        dtype=raw["dtype"],
        elements=raw["elements"],
        shape=_index(raw["shape"]),
        reduce=raw["reduce"],
        root=raw["root"],
        ranks=raw["ranks"],
        time=raw["time"],
        checks=None if checks is None else [_check(c) for c in checks],
        unchecked=raw["unchecked"],
        uncheckable=raw.get("uncheckable", False),
        devices=tuple(raw.get("devices", ())),
        mode=raw.get("mode"),
        op_location=raw.get("op_location", raw["location"]),
        auto=raw.get("auto", False),
    )


def _deadlock(raw: dict[str, Any] | None) -> Deadlock | None:
    if raw is None:
        return None
    blocked = []
    for b in raw["blocked"]:
        cell, site = b["cell"], b["site"]
        blocked.append(BlockedRank(
            rank=b["rank"],
            block=None if b["block"] is None else tuple(b["block"]),
            kernel=b["kernel"],
            buffer=None if cell is None else cell[0],
            index=None if cell is None else _index(cell[1]),
            cmp=b["cmp"],
            expected=b["expected"],
            actual=b["actual"],
            op=None if site is None else site[0],
            location=None if site is None else site[1],
        ))
    return Deadlock(raw["message"], blocked, list(raw["finished"]))


def _array(shape: list[int], dtype: str, raw: np.ndarray) -> np.ndarray:
    return raw.view(DTYPES[dtype]).reshape(shape)


def run_result(raw: dict[str, Any]) -> RunResult:
    """The result of the extension module's ``run``."""
    return RunResult(
        kind=raw["kind"],
        name=raw["name"],
        ranks=raw["ranks"],
        outputs=[
            {name: _array(shape, dtype, data) for (name, shape, dtype, data) in rank}
            for rank in raw["outputs"]
        ],
        calls=[_call(c) for c in raw["calls"]],
        deadlock=_deadlock(raw["deadlock"]),
        leaks=[Leak(b, _index(i), r, v, m) for (b, i, r, v, m) in raw["leaks"]],
        errors=list(raw["errors"]),
        error_places=[(r, at) for (r, at) in raw["error_places"]],
        stats=Stats(
            per_rank=[Counters(*c) for c in raw["counters"]],
            round_trips=None if raw["round_trips"] is None else list(raw["round_trips"]),
            times=dict(raw["times"]),
        ),
    )


def explore_result(raw: dict[str, Any]) -> ExploreResult:
    """The result of the extension module's ``explore``."""
    return ExploreResult(
        kind=raw["kind"],
        name=raw["name"],
        schedules=raw["schedules"],
        steps=raw["steps"],
        findings=[ExploreFinding(s, k, t) for (s, k, t) in raw["findings"]],
        deadlock=raw["deadlock"],
        stopped=raw.get("stopped", False),
    )
