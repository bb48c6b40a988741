"""The panel's vocabulary is generated from the Python source, never mirrored.

``beacon/panel/vocabulary.js`` is written by ``beacon.server.vocabulary`` and
checked in; these tests fail when it is stale (with the command that fixes
it), when a panel module keeps a copy of its own, and when the panel's count
line words a count differently from the server's count slot.
"""

from __future__ import annotations

import difflib
import json
import re
import subprocess
from pathlib import Path

import pytest

from beacon.adjudication import Grade
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.slots import PHRASES, render_slot
from beacon.server import vocabulary as generator
from beacon.wire.frames import FRAME_TYPES, TERMINAL_FRAMES
from beacon.wire.turns import LOCALES
from harness.checks.base import CheckContext
from harness.checks.values import generated_file
from harness.refs import CheckFailed

ROOT = Path(__file__).resolve().parents[2]
PANEL = ROOT / "beacon" / "panel"
VOCABULARY = PANEL / "vocabulary.js"
FIX = "make vocabulary"
# Panel modules that speak the server's vocabulary and must import it.
SPEAKERS = ("copy.js", "reducer.js", "state_table.js", "host.js", "chrome.js")
NODE_TIMEOUT_S = 30


def _stale_message(actual: str, expected: str) -> str:
    diff = difflib.unified_diff(
        actual.splitlines(), expected.splitlines(), "checked in", "generated", lineterm="", n=1
    )
    shown = "\n".join(list(diff)[:40])
    return f"beacon/panel/vocabulary.js is stale: run `{FIX}`\n{shown}"


def test_the_checked_in_vocabulary_is_what_the_generator_writes() -> None:
    actual = VOCABULARY.read_text(encoding="utf-8")
    expected = generator.render()
    assert actual == expected, _stale_message(actual, expected)
    # The generator writes the file this test reads (no second path to drift).
    assert generator.TARGET == VOCABULARY


def test_the_vocabulary_carries_the_python_source() -> None:
    data = generator.vocabulary()
    assert data["FRAME_TYPES"] == list(FRAME_TYPES)
    assert set(data["TERMINAL_FRAMES"]) == TERMINAL_FRAMES
    assert data["LOCALES"] == list(LOCALES) == ["en", "ko", "ja", "de", "es"]
    assert data["GRADES"] == [str(g) for g in Grade]
    # A notice kind and a tier the spec names, read from the wire model and policy.
    assert "counter_question" in data["NOTICE_KINDS"]
    assert data["TIER_CAPABILITIES"]["essentials"] == ["core"]


def test_check_mode_names_the_fix_when_the_file_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "vocabulary.js"
    monkeypatch.setattr(generator, "TARGET", target)
    assert generator.main(["--check"]) == 1  # missing
    assert generator.main([]) == 0
    assert generator.main(["--check"]) == 0
    target.write_text(target.read_text(encoding="utf-8").replace("정확히 {n}", "정확히 {n}건"))
    capsys.readouterr()
    assert generator.main(["--check"]) == 1
    assert f"run `{FIX}`" in capsys.readouterr().err


def test_the_generator_refuses_a_locale_without_its_slot_phrases(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    phrases = {k: v for k, v in PHRASES.items() if k != "ja"}
    monkeypatch.setattr(generator, "PHRASES", phrases)
    with pytest.raises(generator.VocabularyError, match="ja"):
        generator.render()


def test_the_sweep_check_fails_on_a_hand_edited_copy(tmp_path: Path) -> None:
    params = {
        "generator": "beacon.server.vocabulary:render",
        "file": "beacon/panel/vocabulary.js",
        "command": FIX,
    }
    generated_file(params, CheckContext(ROOT, "mirror:panel-vocabulary"))
    edited = tmp_path / "beacon" / "panel" / "vocabulary.js"
    edited.parent.mkdir(parents=True)
    edited.write_text(VOCABULARY.read_text(encoding="utf-8").replace('"ko", ', ""))
    with pytest.raises(CheckFailed, match=re.escape(f"run `{FIX}`")):
        generated_file(params, CheckContext(tmp_path, "mirror:panel-vocabulary"))


def _code(path: Path) -> str:
    """JS source without its comments (a comment may name the words it does not define)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)


def _hand_written_js() -> list[Path]:
    files = [*PANEL.glob("*.js"), *(ROOT / "beacon" / "hosts").rglob("*.js")]
    return sorted(p for p in files if p != VOCABULARY)


@pytest.mark.parametrize("name", SPEAKERS)
def test_each_panel_module_that_speaks_the_vocabulary_imports_it(name: str) -> None:
    assert re.search(r'from\s+"\./vocabulary\.js"', _code(PANEL / name)), name


@pytest.mark.parametrize("path", _hand_written_js(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_hand_written_panel_or_host_module_keeps_a_copy(path: Path) -> None:
    code = _code(path)
    data = generator.vocabulary()
    for body in re.findall(r"\[([^\[\]]*)\]", code):
        strings = set(re.findall(r"[\"']([^\"']*)[\"']", body))
        lists = {
            "LOCALES": data["LOCALES"],
            "FRAME_TYPES": data["FRAME_TYPES"],
            "GRADES": data["GRADES"],
            "NOTICE_KINDS": data["NOTICE_KINDS"],
        }
        for name, words in lists.items():
            assert len(strings & set(words)) < 3, (
                f"{path.name} lists {name} itself: {sorted(strings)}"
            )
    for tier in data["TIER_CAPABILITIES"]:
        assert not re.search(rf"\b{tier}\s*:", code), f"{path.name} maps tier {tier} itself"
    for locale, phrases in data["GRADE_PHRASES"].items():
        for grade, phrase in phrases.items():
            before = phrase.split("{n}")[0]
            copied = re.escape(before) + r"\$\{"
            assert not re.search(copied, code), f"{path.name} words {locale} {grade} itself"


def _panel_count_lines(cases: list[dict[str, object]]) -> list[str]:
    script = (
        f"const {{ countLine }} = await import({json.dumps((PANEL / 'countline.js').as_uri())});"
        f"const {{ copyFor }} = await import({json.dumps((PANEL / 'copy.js').as_uri())});"
        "const cases = JSON.parse(await new Response(process.stdin).text());"
        "const lines = cases.map((c) => countLine([c.count], copyFor(c.locale)).text);"
        "console.log(JSON.stringify(lines));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_S,
        check=True,
    )
    lines: list[str] = json.loads(done.stdout)
    return lines


def test_the_count_line_words_a_count_as_the_server_slot_does() -> None:
    """For every locale and counted grade, the panel's count line (nothing on screen
    beyond the count) is exactly what the server renders a count slot as."""
    cases: list[dict[str, object]] = []
    expected: list[str] = []
    for locale in LOCALES:
        for grade, value in ((Grade.EXACT, 7961), (Grade.LOWER_BOUND, 3000), (Grade.SHOWN, 1234)):
            displayed = value if grade is Grade.SHOWN else 0
            count = {
                "source": "query_data",
                "slot": "c1",
                "grade": str(grade),
                "total": None if grade is Grade.SHOWN else value,
                "displayed": displayed,
                "has_more": grade is not Grade.EXACT,
                "total_is_lower_bound": grade is Grade.LOWER_BOUND,
            }
            cases.append({"locale": locale, "count": count})
            rendered = render_slot("count", Counted("c1", grade, value, displayed), locale)
            assert rendered is not None
            expected.append(rendered)
    assert _panel_count_lines(cases) == expected
