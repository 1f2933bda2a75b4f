"""Whole programs that go wrong, through pld.run and through pld-run: the
programs of tests/lit/tools/pld-run/program-faults.mlir."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pld


@pytest.fixture(scope="module")
def faults(root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `//--- name.mlir` files of program-faults.mlir, written out."""
    directory = tmp_path_factory.mktemp("program-faults")
    text = (root / "tests/lit/tools/pld-run/program-faults.mlir").read_text()
    for name, body in re.findall(r"^//--- (\S+)\n(.*?)(?=^//--- |\Z)", text, re.S | re.M):
        (directory / name).write_text(body)
    return directory


def test_a_deadlocked_program(tool, faults: Path) -> None:
    done = tool("pld-run", faults / "deadlock.mlir", "--ranks", 3, "--deadline", 0.2)
    assert done.returncode == 3
    result = pld.run(faults / "deadlock.mlir", ranks=3, deadline=0.2)
    assert result.deadlock is not None and result.kind == "program"
    assert "pld-run: " + result.deadlock.message == done.stderr.strip()
    assert [(b.rank, b.buffer, b.index) for b in result.deadlock.blocked] == \
        [(1, "flags", (0, 0)), (2, "flags", (0, 0))]


def test_a_program_that_leaks(tool, faults: Path) -> None:
    done = tool("pld-run", faults / "leak.mlir", "--ranks", 2)
    assert done.returncode == 1
    result = pld.run(faults / "leak.mlir", ranks=2)
    assert ["pld-run: " + leak.message for leak in result.leaks] == \
        [line for line in done.stderr.splitlines() if "credit leak" in line]
    # The kernel alone, as --kernel runs it.
    result = pld.run(faults / "leak.mlir", ranks=2, kernel="stray")
    assert result.kind == "kernel"
    assert sorted((leak.rank, leak.buffer, leak.index) for leak in result.leaks) == \
        [(0, "sig", (1, 0)), (1, "sig", (0, 0))]


def test_a_program_with_a_wrong_result(tool, faults: Path) -> None:
    done = tool("pld-run", faults / "wrong.mlir", "--ranks", 2, "--check")
    assert done.returncode == 1
    result = pld.run(faults / "wrong.mlir", ranks=2, check=True)
    wrong = [f for f in result.findings if isinstance(f, pld.WrongResult)]
    assert [(w.call.kernel, w.check.rank, w.check.wrong) for w in wrong] == \
        [("corrupt", 0, 8), ("corrupt", 1, 8)]
    first = wrong[0].check.first_wrong[0]
    assert (first.index, first.got, first.expected_text) == ((2, 8), 0.0, "-1.5")
    shown = re.search(r"rank 0: (8 wrong elements; first: .*)", done.stdout)
    assert shown is not None
    assert f"{list(first.index)} expected {first.expected_text}" in shown[1]


def test_a_program_the_builtin_refuses(tool, faults: Path) -> None:
    done = tool("pld-run", faults / "cores.mlir", "--ranks", 4)
    assert done.returncode == 1
    shown = "pld.tensor_all_to_all_v has core_num = 32768; the builtin entry takes 1 to 32767"
    assert shown in done.stderr
    # Refused when the program is planned, before any rank runs: an error
    # at the collective, as pld-run shows it.
    with pytest.raises(pld.Error) as raised:
        pld.run(faults / "cores.mlir", ranks=4)
    assert str(raised.value) in done.stderr
    first = raised.value.diagnostics[0]
    assert (first.file, first.line, first.message) == (str(faults / "cores.mlir"), 35, shown)
