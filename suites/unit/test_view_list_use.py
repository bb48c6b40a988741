"""The view list's "may not be all" disclosure belongs to an answer that used the list."""

from __future__ import annotations

from beacon.loop.view_list import used_view_list, view_list_disclosure
from beacon.wire.turns import ViewContext

FULL = 50  # the wire's cap, written out


def view(size: int, title: str = "Loose rebar cap") -> ViewContext:
    listed = [{"id": f"ann-{n:06d}", "title": f"{title} {n}"} for n in range(1, size + 1)]
    return ViewContext.model_validate({"annotations": listed})


def test_an_answer_naming_a_listed_title_or_id_used_the_list() -> None:
    assert used_view_list(view(FULL), "Loose rebar cap 7 needs a look.")
    assert used_view_list(view(FULL), "See ann-000012 first.")


def test_an_answer_naming_nothing_listed_did_not_use_it() -> None:
    assert not used_view_list(view(FULL), "Harbor Tower has exactly 102 photos on level 2.")
    assert not used_view_list(None, "Loose rebar cap 7")


def test_a_one_letter_title_is_not_named_by_every_word_that_holds_the_letter() -> None:
    short = ViewContext.model_validate({"annotations": [{"id": "ann-1", "title": "x"}]})
    assert not used_view_list(short, "The next search covers everything again.")
    assert used_view_list(short, "Finding x is open.")


def test_the_disclosure_is_made_only_for_a_used_list_at_its_cap() -> None:
    said = view_list_disclosure(view(FULL), "Loose rebar cap 7 needs a look.", "de")
    assert said is not None and "50" in said and "nicht alle" in said
    assert view_list_disclosure(view(FULL), "Nothing from the list.", "en") is None
    assert view_list_disclosure(view(12), "Loose rebar cap 7 needs a look.", "en") is None
