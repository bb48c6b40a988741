"""Gate exit codes are one table (``harness.gate_exits``), rendered into ``--help`` and the
README; the prose that spelled them out in five places is gone (issue 31, item 8)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

import gates
import harness
from harness.gate_exits import EXIT_CODES, EXIT_TABLE, Outcome, exit_codes_line, exit_codes_markdown

ROOT = Path(harness.__file__).parent.parent
README = ROOT / "README.md"
# "0 open", "5 stale sweep", … written out by hand beside the table.
SPELLED = re.compile(r"\b[0125]\s+(open|failing evidence|usage|stale sweep)\b", re.IGNORECASE)


def test_the_readme_table_is_the_data() -> None:
    text = README.read_text()
    found = re.search(
        r"<!-- gate-exit-codes:begin -->\n(.*?)\n<!-- gate-exit-codes:end -->", text, re.S
    )
    assert found is not None and found.group(1) == exit_codes_markdown()


def test_every_outcome_has_one_code_and_five_means_a_stale_sweep() -> None:
    assert set(EXIT_TABLE) == set(Outcome)
    assert len(set(EXIT_CODES.values())) == len(EXIT_CODES)
    assert EXIT_CODES[Outcome.STALE] == 5


def test_gate_help_shows_the_table() -> None:
    import typer

    from gates.cli import register

    app = typer.Typer()
    register(app)
    for argv in (["gate", "--help"], ["gate", "observe", "--help"], ["gate", "promote", "--help"]):
        shown = CliRunner().invoke(app, argv, terminal_width=200)
        assert exit_codes_line() in " ".join(shown.output.split()), argv


def test_no_gate_module_or_doc_spells_the_codes_out() -> None:
    places = [
        *Path(gates.__file__).parent.glob("*.py"),
        Path(harness.__file__).parent / "gating.py",
        README,
    ]
    for path in places:
        text = path.read_text()
        text = re.sub(
            r"<!-- gate-exit-codes:begin -->.*?<!-- gate-exit-codes:end -->", "", text, flags=re.S
        )
        assert SPELLED.findall(text) == [], path
