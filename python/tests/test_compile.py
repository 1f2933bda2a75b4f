"""pld.opt and pld.translate against pld-opt and pld-translate run on the
same input, and their errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pld

PIPELINES = [
    "builtin.module(pld-to-pto)",
    "builtin.module(pld-host-pipeline)",
    "builtin.module(pld-verify,canonicalize,func.func(cse))",
]

EXAMPLES = ["allreduce.mlir", "ring_allreduce.mlir", "chip_all_to_all_v.mlir", "two_domains.mlir"]

# An error on line 4: a HOST allreduce of a plain (not window-bound) tensor.
BAD_VERIFY = """\
func.func @host(%d: tensor<1x16xf32>) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %n = arith.constant 4 : index
  %r = "pld.tensor_allreduce"(%d) {op = #pld.reduce_op<"sum">} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return
}
"""

# A syntax error on line 2.
BAD_PARSE = """\
func.func @k() {
  %x = = 1
  return
}
"""


@pytest.mark.parametrize("example", EXAMPLES)
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_opt_prints_what_pld_opt_prints(tool, root: Path, example: str, pipeline: str) -> None:
    path = root / "examples" / example
    expected = tool("pld-opt", path, f"--pass-pipeline={pipeline}")
    assert expected.returncode == 0, expected.stderr
    assert pld.opt(path, pipeline) == expected.stdout


def test_opt_without_a_pipeline_and_with_printing_flags(tool, root: Path) -> None:
    path = root / "examples" / "allreduce.mlir"
    assert pld.opt(path) == tool("pld-opt", path).stdout
    flags = ["--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix", "--mlir-print-op-generic"]
    expected = tool("pld-opt", path, "--pass-pipeline=builtin.module(pld-to-pto)", *flags)
    assert expected.returncode == 0, expected.stderr
    got = pld.opt(path, "builtin.module(pld-to-pto)", print_debug_info=True,
                  use_nameloc_as_prefix=True, print_generic=True)
    assert got == expected.stdout


def test_opt_reads_and_writes_bytecode(example) -> None:
    text = example("ring_allreduce.mlir")
    bytecode = pld.opt(text, emit_bytecode=True)
    assert isinstance(bytecode, bytes) and bytecode.startswith(b"ML\xefR")
    assert pld.opt(bytecode) == pld.opt(text)


@pytest.mark.parametrize("source,line", [(BAD_PARSE, 2), (BAD_VERIFY, 4)])
def test_errors_carry_the_diagnostics_pld_opt_prints(tool, tmp_path: Path, source: str,
                                                      line: int) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(source)
    expected = tool("pld-opt", path, "--pass-pipeline=builtin.module(pld-to-pto)")
    assert expected.returncode == 1
    with pytest.raises(pld.Error) as raised:
        pld.opt(path, "builtin.module(pld-to-pto)")
    error = raised.value
    assert str(error) + "\n" == expected.stderr
    # pld-opt's first line: <path>:<line>:<column>: error: <message>
    shown = re.match(r"(.*):(\d+):(\d+): error: (.*)", expected.stderr.splitlines()[0])
    assert shown is not None and int(shown[2]) == line
    first = error.diagnostics[0]
    assert (first.severity, first.file, first.line, first.column, first.message) == \
        ("error", str(path), line, int(shown[3]), shown[4])
    assert str(first) == expected.stderr.splitlines()[0]


UNREGISTERED = 'func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n'


def test_an_unregistered_op_names_the_keyword_not_the_flag() -> None:
    """MLIR's advice names pld-opt's -allow-unregistered-dialect; pld.opt
    says its keyword, and with it reads the op."""
    with pytest.raises(pld.Error) as raised:
        pld.opt(UNREGISTERED, name="u.mlir")
    message = raised.value.diagnostics[0].message
    assert message == (
        "operation being parsed with an unregistered dialect (pld.opt(..., "
        "allow_unregistered_dialect=True) reads such ops in the generic form)"
    )
    assert "-allow-unregistered-dialect" not in str(raised.value)
    assert '"foo.bar"()' in pld.opt(UNREGISTERED, allow_unregistered_dialect=True)


def test_a_source_without_a_file_is_named_as_asked() -> None:
    with pytest.raises(pld.Error) as raised:
        pld.opt(BAD_PARSE, name="mine.mlir")
    assert raised.value.diagnostics[0].file == "mine.mlir"
    assert str(raised.value).startswith("mine.mlir:2:")


def test_an_invalid_pipeline_is_an_error_without_diagnostics(example) -> None:
    with pytest.raises(pld.Error) as raised:
        pld.opt(example("ring_allreduce.mlir"), "builtin.module(no-such-pass)")
    assert str(raised.value).startswith("invalid pass pipeline: ")
    assert "no-such-pass" in str(raised.value)
    assert raised.value.diagnostics == []




def test_a_schedule_that_cannot_end_is_an_error_not_the_end_of_python(root: Path) -> None:
    """pld-explore-protocol on a kernel polling a flag nobody sets: the
    pass's watchdog ended the interpreter (status 1, no exception, no
    atexit); now pld.Error at the kernel after the pass's 10 s, and the
    interpreter goes on (embed23 H1)."""
    poll = (root / "tests/inputs/poll-unset-flag.mlir").read_text()
    pipeline = "builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=2})"
    with pytest.raises(pld.Error) as raised:
        pld.opt(poll, pipeline, name="poll.mlir")
    message = str(raised.value)
    assert message.startswith("poll.mlir:5:1: error: protocol explorer, 2 ranks, schedule seed 0"), message
    assert "no progress: 1000000 decisions in a row" in message, message
    assert "the pass stops exploring" in message, message
    # The package still works.
    assert "pld.tensor_read" in pld.opt(poll)


@pytest.mark.parametrize("example", ["allreduce.mlir", "ring_allreduce.mlir"])
def test_translate_pto_is_pld_translates(tool, root: Path, tmp_path: Path, example: str) -> None:
    lowered = tmp_path / "lowered.mlir"
    done = tool("pld-opt", root / "examples" / example,
                "--pass-pipeline=builtin.module(pld-to-pto)", "-o", lowered)
    assert done.returncode == 0, done.stderr
    expected = tool("pld-translate", "--emit=pto", lowered)
    assert expected.returncode == 0, expected.stderr
    assert pld.translate(lowered) == expected.stdout
    assert pld.translate(lowered.read_text(), emit="pto") == expected.stdout


def test_translate_kernels_writes_what_pld_translate_writes(tool, root: Path,
                                                           tmp_path: Path) -> None:
    lowered = pld.opt(root / "examples" / "allreduce.mlir", "builtin.module(pld-to-pto)")
    (tmp_path / "lowered.mlir").write_text(lowered)
    done = tool("pld-translate", "--emit=kernels", tmp_path / "lowered.mlir", "-o",
                tmp_path / "tool")
    assert done.returncode == 0, done.stderr
    written = pld.translate(lowered, "kernels", output_dir=tmp_path / "mine")
    expected = sorted(p.relative_to(tmp_path / "tool")
                      for p in (tmp_path / "tool").rglob("*") if p.is_file())
    assert [p.relative_to(tmp_path / "mine") for p in written] == expected
    assert expected, "the allreduce example dispatches a builtin kernel"
    for relative in expected:
        assert (tmp_path / "mine" / relative).read_bytes() == \
            (tmp_path / "tool" / relative).read_bytes()


def test_translate_kernels_lists_only_the_files_it_wrote(tmp_path: Path, root: Path) -> None:
    # A directory that holds other files already: they are not "written"
    # (every file under the directory was listed).
    lowered = pld.opt(root / "examples" / "allreduce.mlir", "builtin.module(pld-to-pto)")
    (tmp_path / "mine.txt").write_text("mine")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "f").write_text("f")
    written = pld.translate(lowered, "kernels", output_dir=tmp_path)
    assert written, "the allreduce example dispatches a builtin kernel"
    assert tmp_path / "mine.txt" not in written
    assert tmp_path / "sub" / "f" not in written
    assert any(p.name == "kernels.json" for p in written)


def test_translate_errors(example, tmp_path: Path) -> None:
    # Not lowered: the HOST allreduce names no builtin kernel yet.
    with pytest.raises(pld.Error) as raised:
        pld.translate(example("allreduce.mlir"), "kernels", output_dir=tmp_path, name="a.mlir")
    assert any("names no builtin kernel yet" in d.message for d in raised.value.diagnostics)
    assert all(d.file == "a.mlir" for d in raised.value.diagnostics)
    with pytest.raises(pld.Error) as raised:
        pld.translate(BAD_PARSE)
    assert raised.value.diagnostics[0].line == 2
    with pytest.raises(ValueError):
        pld.translate(example("allreduce.mlir"), "kernels")
    with pytest.raises(ValueError):  # '' walked the whole current directory
        pld.translate(example("allreduce.mlir"), "kernels", output_dir="")
    with pytest.raises(ValueError):
        pld.translate(example("allreduce.mlir"), "c++")  # type: ignore[call-overload]


def test_a_str_naming_a_file_is_refused(root: Path) -> None:
    # A str is MLIR text: one that only names a file says to pass a Path,
    # with whitespace around the name too (a trailing newline failed to
    # parse as "expected operation name in quotes": embed25 LOW-2).
    path = str(root / "examples" / "barrier.mlir")
    for source in [path, path + "\n", f"  {path}\t\n"]:
        with pytest.raises(ValueError, match=r"names a file: pass pathlib\.Path\("):
            pld.opt(source)
    # A comment before it makes it MLIR text, which does not parse.
    with pytest.raises(pld.Error):
        pld.opt(f"// the example\n{path}")


AUTO = """func.func @k(%d: tensor<1x1024xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}
"""


def test_warnings_and_remarks_are_python_warnings(tool, tmp_path: Path) -> None:
    """What pld-opt prints on standard error of a run that went through
    (a pass's remark, the explorer's time-limit warning) was dropped by
    pld.opt (embed23 M3): each is a pld.DiagnosticWarning, its text as
    pld-opt prints it."""
    path = tmp_path / "auto.mlir"
    path.write_text(AUTO)
    pipeline = "builtin.module(pld-select-allreduce-modes{remarks=true})"
    printed = tool("pld-opt", path, f"--pass-pipeline={pipeline}", "-o", "/dev/null")
    assert printed.returncode == 0, printed.stderr
    with pytest.warns(pld.DiagnosticWarning) as caught:
        output = pld.opt(path, pipeline)
    assert "pld.auto_mode" in output
    [warning] = [w.message for w in caught]
    assert str(warning) == printed.stderr.rstrip("\n")
    diagnostic = warning.diagnostic
    assert (diagnostic.severity, diagnostic.file, diagnostic.line) == ("remark", str(path), 2)
    assert diagnostic.message.startswith('mode = "auto" chose "mesh" for 4096 bytes on 4 ranks')
    # Without remarks, nothing is said.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pld.opt(path, "builtin.module(pld-select-allreduce-modes)")
