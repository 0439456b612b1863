"""PEP 517 backend: scikit-build-core, plus a source distribution that carries the core.

Inside the repository the extension is built from ../../core and ../../swig (see
CMakeLists.txt), so the core sources are never committed twice. ``build_sdist`` copies
them into ``_vendor/`` (git-ignored) for the duration of the sdist build, so the sdist
builds anywhere: no repository and no system SWIG (swig comes from PyPI).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from scikit_build_core import build as _skbuild
from scikit_build_core.build import *  # noqa: F401,F403 (every PEP 517/660 hook)

HERE = Path(__file__).resolve().parent.parent  # bindings/python
REPO = HERE.parent.parent
VENDOR = HERE / "_vendor"


def _vendor_core() -> bool:
    """Copies the core into _vendor/; False when there is nothing to copy (an sdist)."""
    if not (REPO / "core" / "src").is_dir() or not (REPO / "swig" / "fbe.i").is_file():
        if (VENDOR / "core" / "src").is_dir():
            return False  # building an sdist from an sdist: the copy is already here
        raise RuntimeError("fbe: the libfbe core sources are neither in ../../core nor in _vendor/")
    if VENDOR.exists():
        shutil.rmtree(VENDOR)
    subprocess.run([sys.executable, str(REPO / "core" / "vendor.py"), str(VENDOR)], check=True,
                   stdout=subprocess.DEVNULL)  # the one way every package copies the core
    (VENDOR / "swig").mkdir(parents=True)
    for name in ("fbe.i", "python.i"):
        shutil.copy2(REPO / "swig" / name, VENDOR / "swig" / name)
    shutil.copy2(REPO / "LICENSE", VENDOR / "LICENSE")
    return True


def build_sdist(sdist_directory: str, config_settings: dict | None = None) -> str:
    made = _vendor_core()
    try:
        return _skbuild.build_sdist(sdist_directory, config_settings)
    finally:
        if made and not os.environ.get("FBE_KEEP_VENDOR"):
            shutil.rmtree(VENDOR, ignore_errors=True)
