"""The names upstreams give paging and accounting fields, and the words that mark a
write (data only; issue 28 lists the common spellings seen in the wild)."""

from __future__ import annotations

import re

from beacon.upstream.items import ITEM_FIELDS, flat, folded

__all__ = ["ITEM_FIELDS", "flat", "folded"]

# Arguments that bound how many items come back.
PAGE_SIZE_ARGS = frozenset(
    {
        "limit",
        "max_results",
        "maxresults",
        "max_count",
        "maxcount",
        "count",
        "head",
        "n",
        "top",
        "page_size",
        "pagesize",
        "per_page",
        "perpage",
        "top_k",
        "topk",
        "max_items",
        "maxitems",
        "num_results",
        "numresults",
        "size",
    }
)
# An integer argument whose description says it bounds the result is one too.
BOUND_DESCRIPTION = re.compile(
    r"\b(max(imum)?\s+(number|count|results?|items?|entries|rows|records|matches|commits)"
    r"|number of (results|items|entries|rows|records|matches|commits|hits)"
    r"|how many (results|items|entries|rows|records|matches)|page size|at most)\b",
    re.IGNORECASE,
)
DEFAULT_IN_DESCRIPTION = re.compile(r"\bdefault(?:s to|:|\s+is|\s+of)?\s*(\d+)\b", re.IGNORECASE)
# Arguments that carry a position in the result: a token, or an offset.
CURSOR_ARGS = frozenset(
    {"cursor", "next_cursor", "nextcursor", "page_token", "pagetoken", "after", "continuation"}
)
OFFSET_ARGS = frozenset({"offset", "next_offset", "nextoffset", "skip", "start"})
# Arguments that carry free text to match.
QUERY_ARGS = frozenset(
    {
        "query",
        "q",
        "question",
        "search",
        "search_query",
        "searchquery",
        "keyword",
        "keywords",
        "term",
        "terms",
        "pattern",
        "text_query",
        "prompt_query",
    }
)
# Fields of a result that account for it.
TOTAL_FIELDS = frozenset({"total", "total_count", "totalcount", "total_results", "totalresults"})
LOWER_BOUND_FIELDS = frozenset({"total_lower_bound", "totallowerbound"})
HAS_MORE_FIELDS = frozenset({"has_more", "hasmore", "more", "truncated", "is_truncated"})
NEXT_CURSOR_FIELDS = frozenset(
    {
        "next_cursor",
        "nextcursor",
        "cursor",
        "next_page_token",
        "nextpagetoken",
        "next_offset",
        "nextoffset",
        "next",
    }
)
# Where items usually sit in a structured result, in order of preference.
# Fields that identify an item (for page overlap).
ID_FIELDS = ("id", "uuid", "key", "uri", "url", "path", "name", "sha", "hash")

# A name token or annotation that says the tool changes something.
WRITE_WORDS = frozenset(
    {
        "create",
        "update",
        "delete",
        "write",
        "remove",
        "insert",
        "drop",
        "set",
        "put",
        "post",
        "add",
        "edit",
        "modify",
        "move",
        "rename",
        "patch",
        "upload",
        "send",
        "commit",
        "push",
        "reset",
        "checkout",
        "merge",
        "clear",
        "destroy",
        "kill",
        "append",
        "save",
        "store",
        "upsert",
        "execute",
        "exec",
        "run",
        "apply",
        "publish",
        "install",
        "truncate",
        "init",
    }
)
# The verbs of a tool that reads one thing it is given.
LOOKUP_VERBS = frozenset({"get", "read", "fetch", "describe", "show", "open", "view", "info"})
# What a reading verb with nothing to name reads whole (``read_graph``): a list.
WHOLE_NOUNS = frozenset({"graph", "tree", "all", "log", "history", "index", "catalog"})
LIST_VERBS = frozenset({"list", "ls", "enumerate", "browse", "tree"})
SEARCH_VERBS = frozenset({"search", "find", "query", "lookup", "grep", "match"})

# Argument names that identify one thing, or a place.
PATH_ARGS = frozenset({"path", "paths", "directory", "dir", "root", "folder", "repo_path"})
ID_SUFFIXES = ("id", "ids", "uuid", "key", "name", "names", "uri", "url", "path", "sha")

# Axes the contract maps filter arguments onto (beacon.wire.frames.ScopeAxis), by the
# argument names upstreams use for them.
AXIS_ARGS: dict[str, frozenset[str]] = {
    "project": frozenset({"project_id", "projectid", "project", "workspace_id", "workspaceid"}),
    "level": frozenset({"level", "level_number", "levelnumber", "floor", "level_id", "levelid"}),
    "status": frozenset({"status", "state"}),
    "category": frozenset({"category", "categories"}),
    "company": frozenset({"company", "contractor", "vendor", "organization", "organisation"}),
    "kind": frozenset({"kind", "type", "record_type", "recordtype"}),
    "date": frozenset(
        {
            "date_from",
            "date_to",
            "datefrom",
            "dateto",
            "since",
            "until",
            "after_date",
            "before_date",
            "start_date",
            "end_date",
            "startdate",
            "enddate",
            "time_from",
            "time_to",
            "timefrom",
            "timeto",
            "created_after",
            "created_before",
        }
    ),
    "person": frozenset({"person", "inspector", "author", "assignee", "user", "owner"}),
    "topic": frozenset({"query", "q", "search", "keyword", "keywords", "term", "terms", "topic"}),
}


def tokens(name: str) -> list[str]:
    """The words of a tool or argument name: ``git_log`` / ``listDirectory`` / ``read-file``."""
    return [t for t in re.split(r"[_\W]+", folded(name)) if t]


def in_names(name: str, names: frozenset[str]) -> bool:
    return folded(name) in names or flat(name) in names
