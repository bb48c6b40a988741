"""The check kinds, one module per concern, each failing on what it guards by field."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.checks.base import CheckContext
from harness.checks.docs import doc_citation
from harness.checks.gates import gate_callers
from harness.checks.values import dependency_pin
from harness.checks.wire import produced_shape
from harness.refs import CheckFailed

ROOT = Path(__file__).resolve().parents[2]
CTX = CheckContext(ROOT, "mirror:test")


def test_a_doc_citation_of_text_the_doc_no_longer_holds_names_the_citation() -> None:
    cites = [{"text": "Beacon"}, {"text": "a sentence no document of ours holds"}]
    with pytest.raises(CheckFailed) as caught:
        doc_citation({"file": "README.md", "cites": cites}, CTX)
    assert caught.value.field == "check.cites[1].text"


def test_a_producer_the_harness_does_not_know_is_named() -> None:
    with pytest.raises(CheckFailed) as caught:
        produced_shape({"producer": "no-such-producer", "schema": {}}, CTX)
    assert caught.value.field == "check.producer"


def test_a_pin_on_a_package_the_project_does_not_declare_is_named() -> None:
    with pytest.raises(CheckFailed) as caught:
        dependency_pin({"package": "no-such-package", "requires": [">=1"]}, CTX)
    assert caught.value.field == "check.package"


def test_a_gate_the_harness_does_not_know_has_no_caller() -> None:
    with pytest.raises(CheckFailed) as caught:
        gate_callers({"called_by": {"no-such-gate": ".ci/run"}}, CTX)
    assert caught.value.field == "check.called_by.no-such-gate"
