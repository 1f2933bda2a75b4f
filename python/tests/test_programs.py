"""Whole programs that go wrong, through pld.run and through pld-run: the
programs of tests/lit/tools/pld-run/program-faults.mlir."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
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


PAIR13 = """
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c256 = arith.constant 256 : i64
  %c8 = arith.constant 8 : i64
  "pld.comm_domain"() ({
    %pbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "pair_buf"} : (i64) -> !pld.ptr
    %psbuf = "pld.tensor_alloc_window_buffer"(%c8) {name = "pair_sig"} : (i64) -> !pld.ptr
    %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
    %psig = "pld.tensor_window"(%psbuf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
    %p = "pld.tensor_allreduce"(%pair, %psig) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
    gpu.yield
  }) {name = "pair", devices = array<i64: 1, 3>, slots = ["pair_buf", "pair_sig"]} : () -> ()
  return
}
"""


def test_a_buffer_is_filled_on_its_comm_domain_only() -> None:
    """As pld-run fills it (tests/lit/tools/pld-run/domain-inputs.mlir):
    pair_buf lives on devices 1 and 3 of 4, so those two arrays are all the
    caller gives (None for devices 0 and 2), and their sum, 1 + 2, is on
    both; a device of the domain without an array is refused by name."""
    ones, twos = np.ones(64, np.float32), np.full(64, 2, np.float32)
    result = pld.run(PAIR13, ranks=4, check=True, inputs={"pair_buf": [None, ones, None, twos]})
    for device in (1, 3):
        np.testing.assert_array_equal(result.outputs[device]["pair_buf"], np.full(64, 3, np.float32))
    assert "pair_buf" not in result.outputs[0] and "pair_buf" not in result.outputs[2]
    with pytest.raises(pld.Error, match="gives no array for rank 3, which holds the window "
                       r"buffer 'pair_buf' \(held on devices 1, 3;"):
        pld.run(PAIR13, ranks=4, inputs={"pair_buf": [None, ones, None, None]})


def test_an_array_for_a_device_outside_the_domain_is_refused() -> None:
    """As the C API refuses it: pair_buf is not on device 0, so an array for
    device 0 would be dropped; it is refused in the C API's words."""
    ones = np.ones(64, np.float32)
    with pytest.raises(pld.Error, match=re.escape(
            "input 'pair_buf' names rank 0 of 'pair_buf', which is not in that buffer's comm "
            "domain")):
        pld.run(PAIR13, ranks=4, inputs={"pair_buf": [ones, ones, None, ones]})


def test_one_row_per_rank_for_a_buffer_on_some_devices_is_refused() -> None:
    """A stacked (ranks, *shape) array for pair_buf, held on devices 1 and 3
    of 4, would have its rows 0 and 2 dropped: refused, pointing at the list
    form; one array for every device that holds it still fills both."""
    stacked = np.arange(4 * 64, dtype=np.float32).reshape(4, 64)
    with pytest.raises(pld.Error, match=re.escape(
            "input 'pair_buf' has one row per rank, but the window buffer 'pair_buf' is held "
            "on devices 1, 3 only")):
        pld.run(PAIR13, ranks=4, inputs={"pair_buf": stacked})
    result = pld.run(PAIR13, ranks=4, check=True, inputs={"pair_buf": np.ones(64, np.float32)})
    for device in (1, 3):
        np.testing.assert_array_equal(result.outputs[device]["pair_buf"], np.full(64, 2, np.float32))


def test_a_shard_program_runs_as_pld_run_runs_it(tool, root: Path) -> None:
    """A module holding a shard.grid runs as the pld program
    convert-shard-to-pld makes of it, as pld-run runs it (pld.run said it
    "has no InCore kernel"); its grid decides the rank count."""
    shard = root / "examples/shard.mlir"
    done = tool("pld-run", shard, "--ranks", 8, "--check")
    assert done.returncode == 0, done.stderr
    result = pld.run(shard, ranks=8, check=True)
    assert result.kind == "program" and result.ok
    shown = [line for line in done.stdout.splitlines()
             if line.startswith("  pld.tensor_") and ": ok on " in line]
    assert len(result.calls) == len(shown) > 0
    with pytest.raises(pld.Error, match="the shard program runs on a grid of 8 devices; "
                       "run it on 8 ranks, not 4"):
        pld.run(shard, ranks=4)
    # Without ranks, on its grid's devices, as pld-run without --ranks (it
    # ran on 2 and was refused); a pld program still runs on 2.
    implied = pld.run(shard, check=True)
    assert implied.ok and implied.ranks == 8
    assert pld.explore(shard, schedules=1).ok
    assert pld.run(root / "examples/allreduce.mlir").ranks == 2


def test_the_dispatch_limit_holds_in_python(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A loop that would plan a billion dispatches is refused at the
    dispatch past PLD_MAX_DISPATCHES, as pld-run refuses it
    (tests/lit/tools/pld-run/dispatch-limit.mlir)."""
    text = (root / "tests/lit/tools/pld-run/dispatch-limit.mlir").read_text()
    files = dict(re.findall(r"^//--- (\S+)\n(.*?)(?=^//--- |\Z)", text, re.S | re.M))
    many = tmp_path / "many.mlir"
    many.write_text(files["many.mlir"])
    monkeypatch.setenv("PLD_MAX_DISPATCHES", "10")
    with pytest.raises(pld.Error) as raised:
        pld.run(many, ranks=2)
    first = raised.value.diagnostics[0]
    assert (first.line, first.column) == (6, 3)
    assert "goes past the limit of 10 dispatches in one run" in first.message
    monkeypatch.setenv("PLD_MAX_DISPATCHES", "none")
    with pytest.raises(pld.Error, match="PLD_MAX_DISPATCHES=none: say how many"):
        pld.run(many, ranks=2)


def test_stacked_says_which_ranks_lack_an_output() -> None:
    """pair_buf is on devices 1 and 3 only: stacked() names the ranks that
    lack it (it said "no output 'pair_buf'" while listing pair_buf)."""
    result = pld.run(PAIR13, ranks=4)
    with pytest.raises(KeyError, match=re.escape(
            "output 'pair_buf' is not on every rank (not on rank 0, 2: a buffer of some devices "
            "only)")):
        result.stacked("pair_buf")
    with pytest.raises(KeyError, match=re.escape("no output 'nope' (outputs: ")):
        result.stacked("nope")


def test_an_allocated_buffer_no_task_takes_is_said_as_pld_run_says_it(tool, root: Path) -> None:
    source = root / "tests/lit/tools/pld-run/unused-buffer.mlir"
    done = tool("pld-run", source, "--ranks", 2, "--input", "w=ones")
    assert done.returncode == 1
    with pytest.raises(pld.InputError) as refused:
        pld.run(source, ranks=2, inputs={"w": np.ones((1, 8), np.float32)})
    # It said "the program has no window buffer 'w' (its buffers: ...)".
    assert "pld-run: error: " + str(refused.value) == done.stderr.strip()
