"""Which upstream tools carry a result contract (their results can be counted)."""

from __future__ import annotations

# Tools whose answers are result sets with accounting. Others (a single record,
# prose) are their own answer and are never graded or judged empty.
RESULT_CONTRACT_TOOLS: frozenset[str] = frozenset(
    {
        "search_photos",
        "query_data",
        "list_projects",
        "list_levels",
        "list_annotations",
        "search_documents",
        "get_progress_summary",
        "get_clash_report",
    }
)


def has_result_contract(tool: str) -> bool:
    return tool in RESULT_CONTRACT_TOOLS
