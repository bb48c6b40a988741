"""What the Makefile's targets hand to every command they run (issue 32, suite time).

These machines set PYTHONDONTWRITEBYTECODE, so every Python process the suite starts
compiled Beacon's modules and the test tools from source again, and every pytest
worker rewrote every test module's asserts again. The Makefile exports it empty
(Python's "unset") for all its targets; a recipe added to the real Makefile through
``--eval`` reads what its commands inherit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_make_targets_python_keeps_its_bytecode_where_the_shell_says_not_to() -> None:
    probe = f'probe: ; @{sys.executable} -c "import sys; print(sys.dont_write_bytecode)"'
    done = subprocess.run(
        ["make", "-s", "--no-print-directory", f"--eval={probe}", "probe"],
        cwd=ROOT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
