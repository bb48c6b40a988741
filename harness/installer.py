"""The command that installs packages into a clean virtual environment.

uv where it is installed beside the running interpreter (``make setup`` puts it
in the project's venv) or on PATH: the same versions pip resolves, in a tenth of
the time (a wheel and its ~120 dependencies: ~3 s against ~25 s). pip, from the
target environment itself, everywhere else.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def uv_command() -> str | None:
    beside = Path(sys.executable).with_name("uv")
    return str(beside) if beside.is_file() else shutil.which("uv")


def venv_command(venv: Path) -> list[str]:
    """Creates the clean virtual environment: without pip when uv installs into it
    (bootstrapping pip is ~4 s of CPU that nothing then uses)."""
    bare = ["--without-pip"] if uv_command() is not None else []
    return [sys.executable, "-m", "venv", *bare, str(venv)]


def install_command(venv: Path) -> list[str]:
    """``[...]`` to which the requirements (a wheel, ``-e path[extras]``) are appended."""
    python = str(venv / "bin" / "python")
    uv = uv_command()
    if uv is not None:
        return [uv, "pip", "install", "--quiet", "--python", python]
    return [python, "-m", "pip", "install", "--quiet"]
