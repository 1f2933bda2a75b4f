"""The Python section of docs/embedding.md: its examples run as shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def python_blocks(root: Path) -> list[str]:
    text = (root / "docs" / "embedding.md").read_text()
    section = re.search(r"^## Python\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, "docs/embedding.md has a section 'Python'"
    return re.findall(r"^```python\n(.*?)^```", section.group(1), re.S | re.M)


def test_the_worked_example_feeds_numpy_in_and_asserts_against_numpy(root: Path) -> None:
    blocks = python_blocks(root)
    assert blocks, "the Python section shows a worked example"
    example = "\n".join(blocks)
    for needed in ("pld.run(", "inputs=", "np.testing.assert_array_equal", "pld.Error"):
        assert needed in example


def test_the_python_blocks_run(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(root)
    namespace: dict[str, object] = {}
    for index, block in enumerate(python_blocks(root)):
        exec(compile(block, f"docs/embedding.md (python block {index + 1})", "exec"), namespace)
