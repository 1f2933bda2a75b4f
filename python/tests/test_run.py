"""pld.run: results against numpy computed here, outputs and counters
against pld-run's for the same run, the findings, and the errors."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import pld

RANKS = 4
rng = np.random.default_rng(21)


def integers(shape: tuple[int, ...], dtype: type, low: int = -50, high: int = 50) -> np.ndarray:
    """Random small integers: sums of them are exact in any float type."""
    return rng.integers(low, high, size=shape).astype(dtype)


def kernel(body: str, *params: str) -> str:
    """An InCore kernel @k with `params` and `body`."""
    return (f"func.func @k({', '.join(params)}) attributes "
            f'{{pld.kind = #pld.func_kind<"incore">}} {{\n{body}\n  return\n}}\n')


# --- numbers against numpy ---------------------------------------------------

def mesh_allreduce(ranks: int, elements: int) -> str:
    """A mesh allreduce (Sum) of [1, elements] FP32 on `ranks` ranks."""
    data = f"tensor<1x{elements}xf32, #pld.dist>"
    signal = f"tensor<{ranks}x1xi32, #pld.dist>"
    return kernel(f'  %r = "pld.tensor_allreduce"(%data, %signal) {{op = #pld.reduce_op<"sum">}} '
                  f": ({data}, {signal}) -> {data}", f"%data: {data}", f"%signal: {signal}")


@pytest.mark.parametrize("mode,ranks", [("ring", 4), ("mesh", 2), ("mesh", 8)])
def test_allreduce_sums_per_rank_inputs(example, mode: str, ranks: int) -> None:
    source = example("ring_allreduce.mlir") if mode == "ring" else mesh_allreduce(ranks, 4097)
    data = [integers((1, 4097), np.float32) for _ in range(ranks)]
    result = pld.run(source, ranks=ranks, inputs={"data": data}, check=True)
    expected = np.sum(np.stack(data), axis=0)
    for rank in range(ranks):
        np.testing.assert_array_equal(result.outputs[rank]["data"], expected)
    assert result.ok, result.findings
    assert [c.ok for c in result.calls[0].checks] == [True] * ranks
    assert (result.calls[0].mode, result.calls[0].auto) == (mode, False)


def test_inputs_stacked_per_rank_and_broadcast(example) -> None:
    source = example("ring_allreduce.mlir")
    stacked = integers((RANKS, 1, 4097), np.float32)
    result = pld.run(source, ranks=RANKS, inputs={"%data": stacked})
    np.testing.assert_array_equal(result.stacked("data"),
                                  np.broadcast_to(stacked.sum(axis=0), stacked.shape))
    same = integers((1, 4097), np.float32)
    result = pld.run(source, ranks=RANKS, inputs={"arg0": same})
    np.testing.assert_array_equal(result.outputs[3]["data"], same * RANKS)
    # A safe cast (float16 into f32) is taken as it is.
    result = pld.run(source, ranks=RANKS, inputs={"0": same.astype(np.float16)})
    np.testing.assert_array_equal(result.outputs[0]["data"], same * RANKS)
    # stacked() names a parameter as inputs= does (it took "data" only).
    for name in ("%data", "arg0", "0", 0):
        np.testing.assert_array_equal(result.stacked(name), result.stacked("data"))
    for name in ("arg9", "arg00"):
        with pytest.raises(KeyError, match=f"no output '{name}'"):
            result.stacked(name)


def test_allgather_and_all_to_all(example) -> None:
    rows = [integers((1, 24), np.float32) for _ in range(RANKS)]
    result = pld.run(example("allgather.mlir"), ranks=RANKS, inputs={"input": rows}, check=True)
    for rank in range(RANKS):
        np.testing.assert_array_equal(result.outputs[rank]["target"], np.concatenate(rows))
    assert result.ok
    assert (result.calls[0].mode, result.calls[0].auto) == (None, False)
    blocks = [integers((RANKS, 24), np.float32) for _ in range(RANKS)]
    result = pld.run(example("all_to_all.mlir"), ranks=RANKS, inputs={"input": blocks},
                     check=True)
    for d in range(RANKS):
        expected = np.stack([blocks[s][d] for s in range(RANKS)])
        np.testing.assert_array_equal(result.outputs[d]["target"], expected)
    assert result.ok


def test_broadcast_reduce_and_reduce_scatter(example) -> None:
    data = [integers((2, 40), np.float32) for _ in range(RANKS)]
    result = pld.run(example("broadcast.mlir"), ranks=RANKS, inputs={"target": data})
    for rank in range(RANKS):  # root = 2
        np.testing.assert_array_equal(result.outputs[rank]["target"], data[2])
    data = [integers((3, 1000), np.float32) for _ in range(RANKS)]
    result = pld.run(example("reduce.mlir"), ranks=RANKS, inputs={"target": data}, check=True)
    for rank in range(RANKS):  # max into root 1; the others unchanged
        expected = np.max(np.stack(data), axis=0) if rank == 1 else data[rank]
        np.testing.assert_array_equal(result.outputs[rank]["target"], expected)
    assert result.ok
    data = [integers((RANKS, 24), np.float32) for _ in range(RANKS)]
    result = pld.run(example("reduce_scatter.mlir"), ranks=RANKS, inputs={"target": data})
    total = np.sum(np.stack(data), axis=0)
    for rank in range(RANKS):  # row r of rank r is the sum of row r
        np.testing.assert_array_equal(result.outputs[rank]["target"][rank], total[rank])


@pytest.mark.parametrize("dtype,mlir", [(np.int32, "i32"), (np.float16, "f16"),
                                        (np.int8, "i8")])
def test_reduce_scatter_in_other_dtypes(dtype, mlir: str) -> None:
    target = f"tensor<4x8x{mlir}, #pld.dist>"
    signal = "tensor<4x1xi32, #pld.dist>"
    source = kernel(f'  %r = "pld.tensor_reduce_scatter"(%t, %s) {{op = #pld.reduce_op<"sum">}} '
                    f": ({target}, {signal}) -> {target}", f"%t: {target}", f"%s: {signal}")
    data = [integers((4, 8), dtype, -20, 20) for _ in range(4)]
    result = pld.run(source, ranks=4, inputs={"t": data}, check=True)
    assert result.outputs[0]["t"].dtype == dtype
    total = np.sum(np.stack(data).astype(np.int64), axis=0)
    for rank in range(4):
        np.testing.assert_array_equal(result.outputs[rank]["t"][rank].astype(np.int64),
                                      total[rank])
    assert result.ok


def test_a_whole_program(example) -> None:
    result = pld.run(example("allreduce.mlir"), ranks=RANKS, check=True)
    assert result.kind == "program" and result.name == "main"
    assert result.ok, result.findings
    assert result.stats.round_trips == [2] * RANKS
    assert [c.kind for c in result.calls] == ["pld.tensor_allreduce"] * 2
    assert all(c.ok for c in result.calls)


TWO_COLLECTIVES = """
!x = tensor<1x8xf32, #pld.dist>
!s = tensor<2x1xi32, #pld.dist>
func.func @two(%x: !x, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!x, !s) -> !x
  %b = "pld.tensor_allreduce"(%a, %s) {op = #pld.reduce_op<"max">} : (!x, !s) -> !x
  return
}
func.func @step(%x: !x, %s: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @two(%x, %s) : (!x, !s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %xb = arith.constant 32 : i64
  %sb = arith.constant 8 : i64
  %xp = "pld.tensor_alloc_window_buffer"(%xb) {name = "x"} : (i64) -> !pld.ptr
  %sp = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xp) : (!pld.ptr) -> !x
  %s = "pld.tensor_window"(%sp) : (!pld.ptr) -> !s
  scf.for %d = %c0 to %c2 step %c1 {
    "pld.dispatch"(%d) ({
      func.call @step(%x, %s) : (!x, !s) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
"""


def test_a_check_that_cannot_be_made_is_a_finding() -> None:
    """embed26 M1: a program whose kernel holds two collectives was ok=True
    under check=True, where pld-run --check fails: each of its calls is an
    Uncheckable finding now."""
    result = pld.run(TWO_COLLECTIVES, ranks=2, check=True)
    assert [c.reduce for c in result.calls] == ["sum", "max"]
    # recheck27 L1: both are at the kernel call; each op is written elsewhere.
    assert result.calls[0].location == result.calls[1].location
    assert [c.op_location.split(":")[-2:] for c in result.calls] == [["5", "8"], ["6", "8"]]
    assert not result.ok
    found = [f for f in result.findings if isinstance(f, pld.Uncheckable)]
    assert len(found) == 2, result.findings
    assert "@two has 2 collectives" in str(found[1]), str(found[1])
    assert str(found[0]).startswith("check cannot compare pld.tensor_allreduce at ")
    plain = pld.run(TWO_COLLECTIVES, ranks=2, check=False)
    assert plain.ok, plain.findings




def test_a_calls_mode_is_its_schedule_and_says_whether_auto_chose_it(root: Path) -> None:
    """progs26 LOW 1: no report said an allreduce's schedule (the program
    of tests/lit/tools/pld-run/report-schedule.mlir)."""
    source = root / "tests/lit/tools/pld-run/Inputs/four-modes.mlir"
    result = pld.run(source, ranks=4, check=True)
    assert result.ok, result.findings
    assert [(c.mode, c.auto) for c in result.calls][:3] == [
        ("two_shot", False), ("mesh", True), ("mesh", False)]
    assert result.calls[3].auto and result.calls[3].mode in ("mesh", "two_shot")


# --- the same run through pld-run --------------------------------------------

def read_outputs(directory: Path, ranks: int) -> list[dict[str, np.ndarray]]:
    outputs: list[dict[str, np.ndarray]] = [{} for _ in range(ranks)]
    for path in directory.glob("*.npy"):
        match = re.fullmatch(r"(.*)\.rank(\d+)\.npy", path.name)
        if match:
            outputs[int(match[2])][match[1]] = np.load(path)
    return outputs


def assert_same_outputs(mine: list[dict[str, np.ndarray]], theirs: list[dict[str, np.ndarray]]):
    assert [sorted(r) for r in mine] == [sorted(r) for r in theirs]
    for rank, (a, b) in enumerate(zip(mine, theirs)):
        for name in a:
            assert a[name].dtype == b[name].dtype and a[name].shape == b[name].shape
            assert a[name].tobytes() == b[name].tobytes(), (rank, name)


@pytest.mark.parametrize("example,ranks", [
    ("ring_allreduce.mlir", 4), ("allgather.mlir", 4), ("all_to_all_v.mlir", 4),
    ("allreduce.mlir", 4), ("two_domains.mlir", 4), ("chip_all_to_all_v.mlir", 2),
])
def test_outputs_and_counters_are_pld_runs(tool, root: Path, tmp_path: Path, example: str,
                                           ranks: int) -> None:
    path = root / "examples" / example
    done = tool("pld-run", path, "--ranks", ranks, "--check", "--stats", "--per-rank",
                "--output-dir", tmp_path)
    assert done.returncode == 0, done.stderr
    result = pld.run(path, ranks=ranks, check=True)
    assert result.ok, result.findings
    assert_same_outputs(result.outputs, read_outputs(tmp_path, ranks))
    # The --stats --per-rank table: rank, [round trips,] notifies, waits,
    # remote bytes read, remote bytes written.
    rows = [line.split() for line in done.stdout.splitlines()]
    rows = [r for r in rows if r and r[0].isdigit() and len(r) in (5, 6)]
    assert len(rows) == ranks
    for counters, row in zip(result.stats.per_rank, rows):
        assert [counters.notifies, counters.waits, counters.remote_bytes_read,
                counters.remote_bytes_written] == [int(x) for x in row[-4:]]
        if len(row) == 6:
            assert result.stats.round_trips[int(row[0])] == int(row[1])


def test_numpy_inputs_are_pld_runs_npy_inputs(tool, root: Path, tmp_path: Path) -> None:
    path = root / "examples" / "all_to_all.mlir"
    blocks = [integers((RANKS, 24), np.float32) for _ in range(RANKS)]
    for rank, block in enumerate(blocks):
        np.save(tmp_path / f"in.rank{rank}.npy", block)
    done = tool("pld-run", path, "--ranks", RANKS, "--check", "--input",
                f"input={tmp_path}/in.rank{{rank}}.npy", "--output-dir", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    result = pld.run(path, ranks=RANKS, check=True, inputs={"input": blocks})
    assert_same_outputs(result.outputs, read_outputs(tmp_path / "out", RANKS))


def test_generators_are_pld_runs(tool, root: Path, tmp_path: Path) -> None:
    path = root / "examples" / "reduce.mlir"
    done = tool("pld-run", path, "--ranks", RANKS, "--input", "target=rank", "--output-dir",
                tmp_path)
    assert done.returncode == 0, done.stderr
    result = pld.run(path, ranks=RANKS, inputs={"target": "rank"})
    assert_same_outputs(result.outputs, read_outputs(tmp_path, RANKS))
    assert float(result.outputs[1]["target"].max()) == RANKS - 1


# --- findings ----------------------------------------------------------------

DEADLOCK = kernel("""\
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<4x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %skip = arith.cmpi eq, %me, %c0 : i32
  scf.if %skip {
  } else {
    %r = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  }""", "%sig: tensor<4x1xi32, #pld.dist>")

LEAK = kernel("""\
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %peer = arith.subi %c1, %me : index
  %one = arith.constant 1 : i32
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()""",
                "%sig: tensor<2x1xi32, #pld.dist>")

# A broadcast whose kernel then zeroes the first row of its result.
WRONG = kernel("""\
  %r = "pld.tensor_broadcast"(%t, %s) {root = 0 : i64} : (tensor<2x8xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<2x8xf32, #pld.dist>
  %c0 = arith.constant 0 : index
  %z = "pld.tile_create"() : () -> tensor<1x8xf32, #pld.tile>
  "pld.tile_store"(%z, %r, %c0, %c0) : (tensor<1x8xf32, #pld.tile>, tensor<2x8xf32, #pld.dist>, index, index) -> ()""",
                 "%t: tensor<2x8xf32, #pld.dist>", "%s: tensor<2x1xi32, #pld.dist>")


def test_a_deadlock_names_the_waiting_ranks_as_pld_run_does(tool, tmp_path: Path) -> None:
    path = tmp_path / "deadlock.mlir"
    path.write_text(DEADLOCK)
    done = tool("pld-run", path, "--ranks", 3, "--deadline", 0.2)
    assert done.returncode == 3
    result = pld.run(path, ranks=3, deadline=0.2)
    assert not result.ok and result.deadlock is not None
    assert "pld-run: " + result.deadlock.message == done.stderr.strip()
    assert result.deadlock.finished == [0]
    assert [(b.rank, b.buffer, b.index, b.cmp, b.expected, b.actual)
            for b in result.deadlock.blocked] == [(1, "sig", (0, 0), ">=", 1, 0),
                                                  (2, "sig", (0, 0), ">=", 1, 0)]
    assert result.findings == [result.deadlock]


def test_leaked_credits_are_pld_runs(tool, tmp_path: Path) -> None:
    path = tmp_path / "leak.mlir"
    path.write_text(LEAK)
    done = tool("pld-run", path, "--ranks", 2)
    assert done.returncode == 1
    result = pld.run(path, ranks=2)
    assert sorted((leak.rank, leak.buffer, leak.index, leak.value) for leak in result.leaks) == \
        [(0, "sig", (1, 0), 1), (1, "sig", (0, 0), 1)]
    shown = sorted(line for line in done.stderr.splitlines() if "credit leak" in line)
    assert sorted("pld-run: " + leak.message for leak in result.leaks) == shown
    assert not result.ok


def test_wrong_elements_are_reported(tool, tmp_path: Path) -> None:
    data = [integers((2, 8), np.float32, 1, 9) for _ in range(2)]
    result = pld.run(WRONG, ranks=2, inputs={"t": data}, check=True)
    wrong = [f for f in result.findings if isinstance(f, pld.WrongResult)]
    assert [w.check.rank for w in wrong] == [0, 1]
    first = wrong[0].check.first_wrong[0]
    assert (first.index, first.got, first.expected) == ((0, 0), 0.0, float(data[0][0, 0]))
    assert wrong[0].check.wrong == 8
    # pld-run says the same of the same inputs.
    for rank, block in enumerate(data):
        np.save(tmp_path / f"t.rank{rank}.npy", block)
    (tmp_path / "wrong.mlir").write_text(WRONG)
    done = tool("pld-run", tmp_path / "wrong.mlir", "--ranks", 2, "--check", "--input",
                f"t={tmp_path}/t.rank{{rank}}.npy")
    assert done.returncode == 1
    assert "rank 0: WRONG" in done.stdout and "8 wrong elements" in done.stdout


def test_device_faults_are_errors_of_the_result() -> None:
    # On three ranks the hand-made barrier's rank 2 computes peer -1: its
    # wait names row -1 of the two-row signal.
    result = pld.run(LEAK, ranks=3)
    assert any("leaves its pto.make_tensor_view (elements -1..0 of dimension 0" in e
               for e in result.errors)
    assert isinstance(result.findings[0], pld.RunError)
    # Each names its rank and op apart from the text (they were None).
    for fault in (f for f in result.findings if isinstance(f, pld.RunError)):
        assert fault.rank == 2, fault
        assert fault.location is not None and fault.location.split(":")[-2] in ("9", "10"), fault


# --- errors ------------------------------------------------------------------

def test_a_source_that_does_not_load(tool, tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(kernel('  %r = "pld.tensor_barrier"(%s) : (tensor<4x1xi32>) -> tensor<4x1xi32>',
                           "%s: tensor<4x1xi32>"))
    done = tool("pld-run", path, "--ranks", 4)
    assert done.returncode == 1
    with pytest.raises(pld.Error) as raised:
        pld.run(path, ranks=4)
    first = raised.value.diagnostics[0]
    assert (first.file, first.line) == (str(path), 2)
    assert f"{first.file}:{first.line}:{first.column}: error: {first.message}" in done.stderr
    assert str(raised.value) in done.stderr


@pytest.mark.parametrize("arguments,message", [
    ({"kernel": "nope"}, "has no device kernel @nope"),
    ({"inputs": {"nope": "zeros"}},
     "@ring_allreduce has no parameter 'nope'; its parameters are %data (arg0), %signal (arg1)"),
    ({"inputs": {"data": np.zeros((1, 4096), np.float32)}}, "has shape (1, 4096)"),
    ({"inputs": {"data": np.zeros((1, 4097), np.float64)}}, "is float64, but the parameter"),
    ({"inputs": {"data": "random"}}, "is no generator"),
    ({"inputs": {"data": "zeros", "arg0": "ones"}}, "twice"),
    ({"inputs": {"data": [np.zeros((1, 4097), np.float32)] * 3}}, "3 arrays for 4 ranks"),
    ({"ranks": 3}, "signal"),
])
def test_refusals_are_errors(example, arguments: dict, message: str) -> None:
    arguments = {"ranks": 4, **arguments}
    with pytest.raises(pld.Error, match=re.escape(message)):
        pld.run(example("ring_allreduce.mlir"), **arguments)


@pytest.mark.parametrize("inputs,kind", [
    ({"data": np.zeros((1, 4096), np.float32)}, ValueError),
    ({"data": [np.zeros((1, 4097), np.float32)] * 3}, ValueError),
    ({"nope": "zeros"}, ValueError),
    ({"data": "random"}, ValueError),
    ({"data": np.zeros((1, 4097), np.float64)}, TypeError),
    ({"data": [["a"]]}, TypeError),
    # Python numbers the f32 buffer cannot hold (they became inf, or were
    # rounded, with the run "ok").
    ({"data": [[1e300] * 4097]}, ValueError),
    ({"data": [[2**30 + 1] * 4097]}, ValueError),
    ({"data": [[2**80] * 4097]}, ValueError),
])
def test_input_refusals_are_value_and_type_errors(example, inputs: dict, kind: type) -> None:
    # What an input entry gets wrong is the Python error of its kind, and a
    # pld.Error still (it was a pld.Error only).
    with pytest.raises(kind) as raised:
        pld.run(example("ring_allreduce.mlir"), ranks=4, inputs=inputs)
    assert isinstance(raised.value, pld.Error)
    expected = pld.InputError if kind is ValueError else pld.InputTypeError
    assert isinstance(raised.value, expected)


def test_bad_arguments_are_python_errors(example) -> None:
    source = example("ring_allreduce.mlir")
    with pytest.raises(ValueError):
        pld.run(source, ranks=0)
    with pytest.raises(ValueError, match=r"^ranks must be 1 to 64, not 1180591620717411303424$"):
        pld.run(source, ranks=2**70)
    with pytest.raises(ValueError):
        pld.run(source, deadline=0)
    with pytest.raises(TypeError):
        pld.run(source, inputs=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        pld.run(12)  # type: ignore[arg-type]


BIG = """func.func @k(%data: tensor<3x1000000000000xf32, #pld.dist>, %sig: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {mode = "ring", op = #pld.reduce_op<"sum">} : (tensor<3x1000000000000xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<3x1000000000000xf32, #pld.dist>
  return
}
"""


def test_a_refused_kernel_is_a_located_error_as_pld_run_prints_it(tmp_path: Path) -> None:
    """A kernel the simulator refuses when it loads it (a buffer past 16 GiB)
    is an error at its function, as pld-run prints it (it was
    ``big.mlir: big.mlir:1:1: @k: ...``, without diagnostics)."""
    path = tmp_path / "big.mlir"
    path.write_text(BIG)
    with pytest.raises(pld.Error) as raised:
        pld.run(path, ranks=4)
    message = "@k: parameter #0 is larger than the simulator's 16 GiB per buffer"
    assert str(raised.value).startswith(f"{path}:1:1: error: {message}\n"), str(raised.value)
    found = [(d.file, d.line, d.column, d.message) for d in raised.value.diagnostics]
    assert found == [(str(path), 1, 1, message)]


HUGE = """func.func @k(%data: tensor<32768x32768xf32, #pld.dist>, %sig: tensor<64x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<32768x32768xf32, #pld.dist>, tensor<64x1xi32, #pld.dist>) -> tensor<32768x32768xf32, #pld.dist>
  return
}
"""


def test_a_run_larger_than_memory_is_refused_before_it_allocates() -> None:
    """4 GiB per rank on 64 ranks, as inputs, windows, results and goldens:
    refused up front as pld-run and the C API refuse it (the host was
    OOM-killed filling the inputs, or failed seconds later under ulimit)."""
    with pytest.raises(pld.Error) as raised:
        pld.run(HUGE, ranks=64)
    message = str(raised.value)
    assert "the run on 64 ranks (4.0 GiB of buffers per rank, as inputs, windows, results and goldens) needs 1024.0 GiB of memory; the machine has" in message, message




@pytest.mark.parametrize("check", [False, True])
def test_a_programs_memory_is_estimated_as_pld_run_estimates_it(root: Path, check) -> None:
    """A loop of 100 allreduces over an 8 GiB buffer on 2 devices: the
    package counted 4 copies of the buffers and no window, and none of the
    check's snapshots of every task's operands; now pld-run's estimate."""
    with pytest.raises(pld.Error) as raised:
        pld.run((root / "tests/inputs/big-loop.mlir").read_text(), ranks=2, check=check)
    snapshots = "; checking keeps every task's operands before and after it: 3248.0 GiB" if check else ""
    need = "3296.0" if check else "48.0"
    expected = (
        "@main on 2 devices (8.0 GiB of window buffers per device, as inputs and as read after the run, "
        f"and a window of 8.0 GiB per device{snapshots}) needs {need} GiB of memory; the machine has"
    )
    assert expected in str(raised.value), str(raised.value)


def test_bytecode_runs_and_translates_as_its_text(example) -> None:
    text = example("ring_allreduce.mlir")
    bytecode = pld.opt(text, emit_bytecode=True)
    assert bytecode.startswith(b"ML\xefR")
    result = pld.run(bytecode, ranks=4, check=True)
    assert result.ok, result.findings
    converted = pld.opt(text, "builtin.module(pld-to-pto)")
    assert pld.translate(pld.opt(converted, emit_bytecode=True)) == pld.translate(converted)


def test_a_file_name_given_as_text_says_to_pass_a_path(root) -> None:
    # It failed as MLIR text: "expected operation name in quotes".
    name = str(root / "examples" / "allreduce.mlir")
    for call in (pld.opt, lambda s: pld.run(s, ranks=2), pld.translate):
        with pytest.raises(ValueError, match=r"pass pathlib\.Path\("):
            call(name)


def test_damaged_bytecode_fails_with_its_diagnostics_everywhere(example) -> None:
    # run and translate raised pld.Error with the message but no
    # diagnostics, where opt had them.
    cut = pld.opt(example("allreduce.mlir"), emit_bytecode=True)[:200]
    for call in (pld.opt, lambda s: pld.run(s, ranks=4), pld.translate):
        with pytest.raises(pld.Error) as raised:
            call(cut)
        diagnostics = raised.value.diagnostics
        assert len(diagnostics) == 1, (call, str(raised.value))
        assert diagnostics[0].severity == "error"
        assert "bytecode" in diagnostics[0].notes[0].message, diagnostics[0].notes


@pytest.mark.parametrize("keyword, value", [
    ("ranks", "4"), ("ranks", 4.0), ("ranks", True),
    ("deadline", "1"), ("deadline", True), ("deadline", None),
])
def test_every_numeric_keyword_of_run_checks_its_type(example, keyword: str,
                                                      value: object) -> None:
    with pytest.raises(TypeError, match=f"^{keyword} is "):
        pld.run(example("ring_allreduce.mlir"), **{keyword: value})


@pytest.mark.parametrize("keyword, value", [
    ("ranks", "4"), ("deadline", "1"), ("schedules", "3"), ("schedules", 3.0),
    ("seed", "0"), ("seed", False), ("replay", "7"), ("replay", 7.5),
])
def test_every_numeric_keyword_of_explore_checks_its_type(example, keyword: str,
                                                          value: object) -> None:
    with pytest.raises(TypeError, match=f"^{keyword} is "):
        pld.explore(example("ring_allreduce.mlir"), **{keyword: value})


@pytest.mark.parametrize("call", [pld.run, pld.explore])
@pytest.mark.parametrize("value", ["no", 1, None])
def test_check_is_a_bool(example, call, value: object) -> None:
    """check="no" ran with the check on (any truthy value did)."""
    with pytest.raises(TypeError, match="^check is a bool, not "):
        call(example("ring_allreduce.mlir"), check=value)


@pytest.mark.parametrize("call", [pld.run, pld.explore])
def test_kernel_with_entry_is_refused_as_pld_run_refuses_it(example, call) -> None:
    """The program ran whole and kernel= was dropped without a word."""
    with pytest.raises(ValueError, match="give one of them, not both"):
        call(example("allreduce.mlir"), ranks=4, entry="main", kernel="reduce_kernel")


def test_numpy_integers_and_ints_for_a_deadline_are_numbers(example) -> None:
    result = pld.run(example("ring_allreduce.mlir"), ranks=np.int64(4), deadline=2)
    assert result.ok and result.ranks == 4


def test_a_function_is_named_with_or_without_its_sigil(example) -> None:
    result = pld.run(example("ring_allreduce.mlir"), ranks=4, kernel="@ring_allreduce")
    assert result.ok and result.name == "ring_allreduce"
    result = pld.run(example("allreduce.mlir"), ranks=2, entry="@main")
    assert result.ok and result.name == "main"
    with pytest.raises(pld.Error) as refused:
        pld.run(example("ring_allreduce.mlir"), ranks=4, kernel="@nope")
    assert "@nope" in str(refused.value) and "@@" not in str(refused.value)


def test_errors_name_the_keywords_of_run(example, root: Path) -> None:
    with pytest.raises(pld.Error) as refused:
        pld.run(example("ring_allreduce.mlir"), ranks=4, kernel="nope")
    message = str(refused.value)
    assert "has no device kernel @nope (kernel= names an InCore" in message, message
    assert "without kernel=)" in message and "--" not in message, message
    with pytest.raises(pld.Error) as refused:
        pld.run(example("ring_allreduce.mlir"), ranks=4, entry="@nope")
    message = str(refused.value)
    assert "entry='nope': the program has no HOST orchestrator (entry= names the HOST " \
        "orchestrator to run; kernel= names a kernel)" in message, message
    with pytest.raises(pld.Error, match="has 0 collectives; check=True needs exactly one"):
        pld.run(root / "tests" / "explore" / "remote-load-without-wait.mlir", check=True)


def test_argument_mistakes_name_their_keyword(example) -> None:
    source = example("ring_allreduce.mlir")
    with pytest.raises(TypeError, match="^name is the source's name in diagnostics"):
        pld.run(source, ranks=4, name=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^pipeline is a pass pipeline \(a str"):
        pld.opt(source, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^emit is 'pto' or 'kernels' \(a str\), not int"):
        pld.translate(source, 5)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match=r"^schedules is at most 2\*\*64 - 1, not "):
        pld.explore(source, ranks=4, schedules=2**70)


@pytest.mark.parametrize("value, message", [
    (None, "input 'data' is None: give an array, a list of one per rank or a generator's name"),
    ([np.zeros((1, 4097), np.float32), "ones", np.zeros((1, 4097), np.float32),
      np.zeros((1, 4097), np.float32)],
     "input 'data' mixes arrays with a str: a list gives one array per rank"),
])
def test_inputs_that_are_no_arrays_are_named(example, value: object, message: str) -> None:
    with pytest.raises(pld.Error, match=re.escape(message)):
        pld.run(example("ring_allreduce.mlir"), ranks=4, inputs={"data": value})


def test_an_environment_mistake_is_not_blamed_on_the_source(example, monkeypatch) -> None:
    monkeypatch.setenv("PLD_CACHE_MAX_BYTES", "lots")
    with pytest.raises(pld.Error, match="^PLD_CACHE_MAX_BYTES=lots: the compile cache's bound"):
        pld.run(example("ring_allreduce.mlir"), ranks=4)


def test_text_as_deep_as_the_tools_take_runs_and_deeper_text_is_an_error() -> None:
    # 990 nested scf.if around a barrier: within the 1000 levels the tools
    # take, so pld.run's worker thread has the stack for it (it had 2 MiB
    # and crashed the interpreter).
    depth = 990
    body = "  %t = arith.constant true\n" + "scf.if %t {\n" * depth
    body += '%r = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> ' \
        "tensor<2x1xi32, #pld.dist>\n" + "}\n" * depth
    source = kernel(body, "%sig: tensor<2x1xi32, #pld.dist>")
    result = pld.run(source, ranks=2)
    assert result.ok, result.findings
    assert not pld.explore(source, ranks=2, schedules=2).findings
    # A type nested 1001 levels deep is refused where it goes too deep.
    deep = "func.func private @f(%a: " + "tuple<" * 1001 + "i32" + ">" * 1001 + ")\n"
    for call in (lambda: pld.opt(deep), lambda: pld.run(deep, ranks=2)):
        with pytest.raises(pld.Error, match=r"<source>:1:6025: error: nesting deeper than 1000"):
            call()


def test_python_numbers_the_buffer_holds_are_taken(example) -> None:
    """Floats round to the nearest f32 as literals do; integers an f32
    holds exactly are kept."""
    values = [[0.1 * i for i in range(4097)]]
    result = pld.run(example("ring_allreduce.mlir"), ranks=4, inputs={"data": values})
    expected = np.float32(4) * np.asarray(values, np.float32)
    np.testing.assert_allclose(result.outputs[0]["data"], expected, rtol=1e-6)
    result = pld.run(example("ring_allreduce.mlir"), ranks=4, inputs={"data": [[2**24] * 4097]})
    assert np.all(result.outputs[0]["data"] == np.float32(4 * 2**24))


def test_an_error_at_a_location_without_a_place_has_its_diagnostic(tmp_path: Path) -> None:
    """A HOST error at loc("bar") raised pld.Error with no diagnostics and
    a message saying "unknown location" (recheck24b M2, M3): now the
    diagnostic of the file, without a line, as pld-opt prints it."""
    path = tmp_path / "host.mlir"
    path.write_text(
        'func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {\n'
        '  %c0 = arith.constant 0 : i64\n'
        '  %c256 = arith.constant 256 : i64\n'
        '  %q = arith.divsi %c256, %c0 : i64 loc("bar")\n'
        '  return\n'
        '}\n')
    with pytest.raises(pld.Error) as raised:
        pld.run(path, ranks=2)
    assert str(raised.value).startswith(f"{path}: error: loc(\"bar\"): 'arith.divsi' divides by zero")
    [diagnostic] = raised.value.diagnostics
    assert (diagnostic.file, diagnostic.line, diagnostic.column) == (str(path), None, None)
    assert diagnostic.message.startswith('loc("bar"): ')
