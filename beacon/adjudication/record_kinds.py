"""What a count counted is read from its result, never assumed from the question.

"How many findings in Harbor Tower have photos?" went to a text-to-SQL tool that
counted photos: 1,500 of them, narrated as "exactly 1,500 findings" — a count of
another set, stated as the answer. The records a count is of are in its result: the
kind each cited record is (its id's prefix) and the tables the query it ran reads
(``sql``, as the tool reports it). When those name records and none of them is what
the question asked for, the question's record noun is a constraint the call did not
apply: the count is disclosed, not stated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from beacon.adjudication.constraints import UNREAD, Constraint, Scope
from beacon.wire.tools import CITED_AS, QUERIED_TABLES

# Every table a query reads its rows from ("FROM photos", "JOIN annotations").
_READS = re.compile(r"\b(?:from|join)\s+[\"`\[]?(\w+)", re.IGNORECASE)


def counted_kinds(cited: Iterable[str], result: Mapping[str, Any]) -> frozenset[str]:
    """The record kinds a result's count is of: by its cited records' kinds and by the
    tables its reported query reads; empty when it names none (an aggregate of a tool
    that reports no query)."""
    kinds = {CITED_AS[kind] for kind in cited if kind in CITED_AS}
    structured = result.get("structuredContent")
    sql = structured.get("sql") if isinstance(structured, Mapping) else None
    if isinstance(sql, str):
        tables = (table.casefold() for table in _READS.findall(sql))
        kinds |= {QUERIED_TABLES[table] for table in tables if table in QUERIED_TABLES}
    return frozenset(kinds)


def of_records(scope: Scope, asked: Constraint | None, kinds: frozenset[str]) -> Scope:
    """``scope`` with the question's record noun unapplied when the count's records are
    known and none is of the asked kind."""
    if asked is None or not kinds or asked.value in kinds:
        return scope
    # Unread: no argument asks a tool for other records, so no correction asks for one.
    return replace(scope, unapplied=(*scope.unapplied, replace(asked, value=UNREAD)))
