"""The compile cache from Python: the environment sets it as it sets
pld-run's (docs/tools/pld-run.md, "The compile cache"). Each case runs in a
fresh interpreter: a process reads the environment once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

KERNEL = """
func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
"""

SCRIPT = """
import sys, pld
try:
    result = pld.run(sys.stdin.read(), ranks=2, check=True)
    print("ok" if result.ok else "wrong")
except pld.Error as e:
    print("pld.Error:", e)
"""


def run(**env: str) -> str:
    """pld.run of KERNEL in a new interpreter with `env` added."""
    done = subprocess.run([sys.executable, "-c", SCRIPT], input=KERNEL, text=True,
                          capture_output=True, env={**os.environ, **env}, check=True)
    return done.stdout.strip()


def test_the_cache_keeps_entries_where_the_environment_says(tmp_path: Path) -> None:
    assert run(PLD_CACHE_DIR=str(tmp_path / "c"), PLD_NO_CACHE="no") == "ok"
    assert sorted(p.suffix for p in (tmp_path / "c").iterdir()) == [".lowered", ".object"]


def test_pld_no_cache_turns_it_off_and_a_meaningless_value_is_an_error(tmp_path: Path) -> None:
    assert run(PLD_CACHE_DIR=str(tmp_path / "off"), PLD_NO_CACHE="TRUE") == "ok"
    assert not (tmp_path / "off").exists()
    refused = run(PLD_CACHE_DIR=str(tmp_path / "bad"), PLD_NO_CACHE="maybe")
    assert refused.startswith("pld.Error:") and "PLD_NO_CACHE=maybe: say 1, true" in refused
    refused = run(PLD_CACHE_DIR=str(tmp_path / "bad"), PLD_CACHE_MAX_BYTES="1e6")
    assert "PLD_CACHE_MAX_BYTES=1e6" in refused


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("precious")
    assert run(PLD_CACHE_DIR=str(tmp_path / "afile" / "sub")) == "ok"
    assert run(PLD_CACHE_DIR="/dev/null") == "ok"
    assert (tmp_path / "afile").read_text() == "precious"
