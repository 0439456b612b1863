"""The type stubs: `mypy --strict` over an example that uses every public call, and
the example itself runs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SCHEMAS

HERE = Path(__file__).resolve().parent


def test_example_runs() -> None:
    out = subprocess.run([sys.executable, str(HERE / "typing_example.py"), str(SCHEMAS)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    example = tmp_path / "typing_example.py"
    shutil.copy(HERE / "typing_example.py", example)  # away from the sources: check the installed stubs
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
         str(example)],
        capture_output=True, text=True, cwd=tmp_path, env=env, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success" in out.stdout
