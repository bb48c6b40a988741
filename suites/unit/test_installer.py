"""Clean environments are installed with uv where it is, with pip otherwise
(``harness/installer.py``: the promote gate's wheel, the base-install tests' venvs)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from harness import installer


def test_uv_beside_the_interpreter_installs_into_the_target_venv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "tools" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "uv").write_text("", encoding="utf-8")
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    target = tmp_path / "clean"
    python = str(target / "bin" / "python")
    assert installer.install_command(target) == [
        str(bin_dir / "uv"), "pip", "install", "--quiet", "--python", python,
    ]  # fmt: skip
    # uv installs into it: the venv is made without bootstrapping pip.
    assert installer.venv_command(target) == [
        str(bin_dir / "python"), "-m", "venv", "--without-pip", str(target),
    ]  # fmt: skip


def test_without_uv_the_target_venvs_own_pip_installs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bin" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    target = tmp_path / "clean"
    assert installer.install_command(target) == [
        str(target / "bin" / "python"), "-m", "pip", "install", "--quiet",
    ]  # fmt: skip
    # Its pip installs: the venv is made with one.
    assert installer.venv_command(target) == [
        str(tmp_path / "bin" / "python"), "-m", "venv", str(target),
    ]  # fmt: skip
