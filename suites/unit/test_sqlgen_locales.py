"""The stub's text-to-SQL reads a question in any of the five locales.

A hosted model may pass the user's German or Japanese question straight to
``query_data``; the upstream's text-to-SQL then has to read it, or the count
falls back to UNKNOWN. The expected clauses are written out by hand.
"""

from __future__ import annotations

import pytest

from stub_server.sqlgen import Filters, UntranslatableQuestion, to_sql

OPEN_SAFETY_ON_3 = (
    "SELECT COUNT(*) AS count FROM annotations WHERE project_id = ? AND kind = 'safety' "
    "AND status = 'open' AND level_number = 3"
)


@pytest.mark.parametrize(
    "question",
    [
        "How many open safety findings are on level 3?",
        "Wie viele offene Sicherheitsbefunde gibt es auf Ebene 3?",
        "¿Cuántos hallazgos de seguridad abiertos hay en el nivel 3?",
        "3층의 미해결 안전 지적 사항은 몇 건인가요?",
        "3階の未対応の安全指摘は何件ですか",
    ],
)
def test_a_count_with_its_filters_is_read_in_every_locale(question: str) -> None:
    query = to_sql(question, "prj-x")
    assert (query.sql, query.is_aggregate) == (OPEN_SAFETY_ON_3, True)


@pytest.mark.parametrize(
    ("question", "table"),
    [
        ("Zeige alle Fotos von Ebene 2", "photos"),
        ("Muestra todas las panorámicas", "captures"),
        ("指摘をすべて見せてください", "annotations"),
    ],
)
def test_a_listing_names_its_table_in_every_locale(question: str, table: str) -> None:
    query = to_sql(question, "prj-x")
    assert f"FROM {table} " in query.sql and not query.is_aggregate


def test_fire_safety_is_a_category_not_the_safety_kind() -> None:
    sql = to_sql("How many fire safety findings are open?", "prj-x").sql
    assert "category = 'fire safety'" in sql and "kind =" not in sql


def test_a_record_id_is_a_lookup_of_that_row() -> None:
    query = to_sql("What is the status of ann-000123?", "prj-x")
    assert "FROM annotations " in query.sql and "id = 'ann-000123'" in query.sql


def test_a_time_of_day_filters_captures_and_wraps_past_midnight() -> None:
    morning = to_sql("List all panoramas", "prj-x", Filters(time_from="06:00", time_to="11:59"))
    assert "(substr(captured_at, 12, 5) >= ? AND substr(captured_at, 12, 5) <= ?)" in morning.sql
    assert morning.params[-2:] == ("06:00", "11:59")
    night = to_sql("List all panoramas", "prj-x", Filters(time_from="22:00", time_to="05:59"))
    assert "(substr(captured_at, 12, 5) >= ? OR substr(captured_at, 12, 5) <= ?)" in night.sql
    with pytest.raises(UntranslatableQuestion, match="no time of day"):
        to_sql("List all photos", "prj-x", Filters(time_from="06:00", time_to="11:59"))
