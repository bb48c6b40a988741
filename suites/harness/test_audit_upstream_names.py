"""How the upstream audit reads a tool's name: its words, whatever the case convention."""

from __future__ import annotations

import pytest

from harness.audit_upstream.names import LIST_VERBS, tokens


@pytest.mark.parametrize(
    ("name", "words"),
    [
        pytest.param("list_log_lines", ["list", "log", "lines"], id="snake-case"),
        pytest.param("listRecords", ["list", "records"], id="camel-case"),
        pytest.param("read-file", ["read", "file"], id="kebab-case"),
        pytest.param("git_log", ["git", "log"], id="a-noun-first"),
    ],
)
def test_a_tool_name_reads_as_its_words_in_any_case_convention(name: str, words: list[str]) -> None:
    assert tokens(name) == words


def test_a_listing_verb_is_a_word_of_the_name_not_a_substring() -> None:
    assert tokens("listRecords")[0] in LIST_VERBS
    assert not set(tokens("playlist_items")) & LIST_VERBS
