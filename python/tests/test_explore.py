"""pld.explore against pld-run --explore on the same kernels."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pld


def shown_findings(stdout: str) -> list[str]:
    """pld-run's findings: each `schedule N (--replay N): ...` paragraph."""
    findings: list[str] = []
    for line in stdout.splitlines():
        if re.match(r"schedule \d+ \(--replay \d+\): ", line):
            findings.append(line)
        elif findings and line.startswith(" "):
            findings[-1] += "\n" + line
    return findings


@pytest.mark.parametrize("corpus,ranks", [
    ("remote-load-without-wait.mlir", 2),
    ("set-and-add-mixed.mlir", 2),
    ("wait-one-credit-too-many.mlir", 3),
])
def test_findings_are_pld_runs(tool, root: Path, corpus: str, ranks: int) -> None:
    path = root / "tests" / "explore" / corpus
    done = tool("pld-run", path, "--ranks", ranks, "--explore", 10)
    assert done.returncode in (1, 3), done.stderr
    result = pld.explore(path, ranks=ranks, schedules=10)
    assert not result.ok and result.schedules == 10
    assert [str(f) for f in result.findings] == shown_findings(done.stdout)
    assert result.deadlock == (done.returncode == 3)
    # The seed of a finding replays it.
    first = result.findings[0]
    replayed = pld.explore(path, ranks=ranks, replay=first.seed)
    assert first.key in [f.key for f in replayed.findings]


def test_clean_kernels_and_programs(example) -> None:
    result = pld.explore(example("ring_allreduce.mlir"), ranks=4, schedules=5, check=True)
    assert result.ok and result.kind == "kernel" and result.schedules == 5 and result.steps > 0
    result = pld.explore(example("allreduce.mlir"), ranks=2, schedules=2, seed=100, check=True)
    assert result.ok and result.kind == "program" and result.name == "main"


def test_explore_refusals(example, root: Path) -> None:
    with pytest.raises(pld.Error, match="has 0 collectives; check=True needs exactly one"):
        pld.explore(root / "tests" / "explore" / "remote-load-without-wait.mlir", check=True)
    with pytest.raises(ValueError):
        pld.explore(example("barrier.mlir"), schedules=0)
    with pytest.raises(ValueError):
        pld.explore(example("barrier.mlir"), replay=3, seed=4)
    # The seeds do not wrap around past the last one (it ran 2**64 - 3 to
    # 2**64 + 2 where pld-run refuses).
    with pytest.raises(ValueError, match=r"^seed 18446744073709551613 with 6 schedules runs "
                       r"past the last seed, 18446744073709551615$"):
        pld.explore(example("barrier.mlir"), seed=2**64 - 3, schedules=6)


def test_explore_threads_is_read_as_pld_run_reads_it(root, monkeypatch) -> None:
    kernel = root / "examples" / "barrier.mlir"
    monkeypatch.setenv("PLD_EXPLORE_THREADS", "maybe")
    with pytest.raises(pld.Error, match="PLD_EXPLORE_THREADS=maybe: say 1, true, yes or on"):
        pld.explore(kernel, ranks=2, schedules=2)
    monkeypatch.setenv("PLD_EXPLORE_THREADS", "yes")
    assert pld.explore(kernel, ranks=2, schedules=2).ok


def test_a_schedule_that_cannot_end_ends_the_exploration(root: Path) -> None:
    """A kernel polling a flag no rank sets: pld.explore never returned
    (pld-run --explore ends the process with the schedule named); now the
    stalled schedule is the last finding, once no scheduling decision came
    for ``deadline``, and the next call runs (embed23 H2)."""
    poll = root / "tests/inputs/poll-unset-flag.mlir"
    result = pld.explore(poll, ranks=2, schedules=3, seed=7, deadline=1.0,
                         inputs={"flag": "zeros"})
    assert not result.ok and result.schedules == 0 and not result.stopped
    [finding] = result.findings
    assert finding.seed == 7 and finding.key == "a schedule that cannot end"
    assert finding.text.startswith("no progress: 1000000 decisions in a row in which no rank "
                                   "wrote"), finding.text
    assert str(finding).startswith("schedule 7 (--replay 7): no progress: "), str(finding)
    # The package still works; the stalled schedule's ranks stay parked.
    assert pld.explore(root / "examples" / "barrier.mlir", ranks=2, schedules=2).ok
