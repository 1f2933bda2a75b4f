"""The GIL is released while ranks run, Ctrl-C stops a run with
KeyboardInterrupt, and runs in several Python threads at once are right."""

from __future__ import annotations

import os
import signal
import threading

import numpy as np
import pytest

import pld

# Rank 0 skips the barrier its peers enter: every other rank waits until
# the deadline.
DEADLOCK = """\
func.func @divergent(%sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<4x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %skip = arith.cmpi eq, %me, %c0 : i32
  scf.if %skip {
  } else {
    %r = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  }
  return
}
"""


def test_ctrl_c_raises_keyboard_interrupt_and_the_next_run_is_whole(example) -> None:
    # The timer's thread can send the signal only while pld.run has
    # released the GIL; the deadline is far beyond it.
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            pld.run(DEADLOCK, ranks=3, deadline=120)
    finally:
        timer.cancel()
    result = pld.run(example("ring_allreduce.mlir"), ranks=4, check=True)
    assert result.ok, result.findings


def test_ctrl_c_stops_an_exploration(root) -> None:
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            pld.explore(DEADLOCK, ranks=3, schedules=10**9)
    finally:
        timer.cancel()


def test_runs_in_several_threads_at_once(example) -> None:
    source = example("ring_allreduce.mlir")
    results: dict[int, pld.RunResult] = {}
    errors: list[BaseException] = []
    inputs = {t: np.full((1, 4097), t + 1, np.float32) for t in range(4)}

    def work(t: int) -> None:
        try:
            results[t] = pld.run(source, ranks=4, inputs={"data": inputs[t]}, check=True)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for t, result in results.items():
        assert result.ok
        np.testing.assert_array_equal(result.outputs[2]["data"], inputs[t] * 4)
