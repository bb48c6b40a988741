"""``search_photos``: a deterministic stand-in for the upstream's vector search.

Like the real backend it fetches at most ``fetch_cap`` candidates and cannot
know how many more would have matched, so its accounting is a lower bound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from stub_server.corpus import Corpus, Photo
from stub_server.photo_detail import analysis
from stub_server.photo_text import CONCEPTS, MODIFIER_CONCEPTS
from stub_server.tools import (
    DateRange,
    Flags,
    ToolContext,
    ToolError,
    ToolOutput,
    decode_cursor,
    encode_cursor,
    envelope,
)

_PATTERNS: dict[str, re.Pattern[str]] = {
    concept: re.compile(
        r"\b(?:" + "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True)) + r")\b"
    )
    for concept, phrases in CONCEPTS.items()
}
_STOPWORDS = frozenset(
    {
        "a", "an", "and", "any", "are", "at", "by", "find", "for", "from", "in", "is", "me",
        "of", "on", "or", "photo", "photos", "picture", "pictures", "show", "the", "there",
        "to", "where", "which", "with",
    }
)  # fmt: skip


class SearchPhotosArgs(DateRange):
    """The date range (``DateRange``, the one findings use too) is the day a photo was taken."""

    project_id: str | None = Field(
        default=None, min_length=1, max_length=100, description="Project id (see list_projects)."
    )
    query: str = Field(min_length=1, max_length=500, description="What the photos should show.")
    limit: int = Field(default=10, ge=1, le=50, description="Page size.")
    level_number: int | None = Field(
        default=None, ge=1, le=200, description="Only photos taken on this level."
    )
    cursor: str | None = Field(
        default=None, min_length=1, max_length=2000, description="From a previous page's cursor."
    )


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _terms(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z0-9]+", text)}


@dataclass(frozen=True, slots=True)
class _Doc:
    photo: Photo
    concepts: frozenset[str]
    terms: frozenset[str]
    hits: int


def _doc(photo: Photo) -> _Doc:
    text = f"{photo.title} {photo.description}".lower()
    found = {c for c, pattern in _PATTERNS.items() if pattern.search(text)}
    # A concept that did not match has no hits to count.
    hits = sum(len(_PATTERNS[c].findall(text)) for c in found if c not in MODIFIER_CONCEPTS)
    return _Doc(photo, frozenset(found), frozenset(_terms(text)), hits)


class SearchIndex:
    """A project's documents are made on its first search: a stub process that never
    searches (most started by a test) does not pay for the corpus's 1,700 photos."""

    def __init__(self, corpus: Corpus) -> None:
        self._photos: dict[str, list[Photo]] = {}
        for photo in corpus.photos:
            self._photos.setdefault(photo.project_id, []).append(photo)
        self._docs: dict[str, list[_Doc]] = {}

    def _project_docs(self, project_id: str) -> list[_Doc]:
        docs = self._docs.get(project_id)
        if docs is None:  # made twice at worst by two threads at once: the same list
            docs = self._docs[project_id] = [_doc(p) for p in self._photos.get(project_id, [])]
        return docs

    def candidates(
        self,
        project_id: str,
        query: str,
        fetch_cap: int,
        level_number: int | None = None,
        taken: DateRange | None = None,
    ) -> list[tuple[float, Photo]]:
        """Scored matches sorted by (-score, id), cut at the backend's fetch cap."""
        text = " ".join(query.lower().split())
        concepts = {c for c, pattern in _PATTERNS.items() if pattern.search(text)}
        rest = text
        for concept in concepts:
            rest = _PATTERNS[concept].sub(" ", rest)
        terms = {t for t in _terms(rest) if t not in _STOPWORDS}
        topical = concepts - MODIFIER_CONCEPTS
        modifiers = concepts & MODIFIER_CONCEPTS
        weight = len(topical) + 0.5 * len(terms) + 0.25 * len(modifiers)
        scored: list[tuple[float, Photo]] = []
        for doc in self._project_docs(project_id):
            if level_number is not None and doc.photo.level_number != level_number:
                continue  # the filters are applied by the backend, before its fetch cap
            if taken is not None and not taken.covers(doc.photo.taken_at):
                continue
            matched_topics = topical & doc.concepts
            matched_terms = terms & doc.terms
            if not matched_topics and not matched_terms:
                continue  # a modifier ("missing") never matches on its own
            got = len(matched_topics) + 0.5 * len(matched_terms)
            got += 0.25 * len(modifiers & doc.concepts)
            score = min(1.0, 0.9 * got / weight + 0.02 * min(doc.hits, 5))
            scored.append((round(score, 4), doc.photo))
        scored.sort(key=lambda pair: (-pair[0], pair[1].id))
        return scored[:fetch_cap]


def _item(ctx: ToolContext, score: float, photo: Photo, measured: bool) -> dict[str, Any]:
    project = ctx.corpus.project(photo.project_id)
    places = ctx.corpus.places.fields(photo.id, project) if project is not None else {}
    item = {
        "id": photo.id,
        "title": photo.title,
        "description": photo.description,
        "level_number": photo.level_number,
        "level_name": f"Level {photo.level_number}",
        "taken_at": photo.taken_at,
        "capture_id": photo.capture_id,
        "score": score,
        "thumbnail": f"{ctx.public_origin}/thumbs/{photo.id}.svg",
        **places,
    }
    if measured:
        item["analysis"] = analysis(photo)
    return item


def _section(k: int, item: dict[str, Any]) -> str:
    return (
        f"## Image #{k}\nID: {item['id']}\nTitle: {item['title']}\n"
        f"Level: {item['level_name']}\nTaken: {item['taken_at']}\nScore: {item['score']}\n"
        f"Description: {item['description']}\nThumbnail: {item['thumbnail']}"
        + (f"\nAnalysis:\n{item['analysis']}" if "analysis" in item else "")
    )


def _binding(project_id: str, args: SearchPhotosArgs) -> dict[str, Any]:
    """What a search cursor is bound to: the search itself, every filter included."""
    return {
        "p": project_id,
        "q": args.query,
        "l": args.level_number,
        "d": [args.date_from, args.date_to],
    }


def search_photos(
    ctx: ToolContext, index: SearchIndex, args: SearchPhotosArgs, flags: Flags
) -> ToolOutput:
    project = ctx.project(args.project_id)
    binding = _binding(project.id, args)
    offset = 0
    if args.cursor is not None:
        state = decode_cursor(args.cursor, "search")
        if {key: state.get(key) for key in binding} != binding:
            raise ToolError("Invalid cursor: it belongs to a different search.")
        offset = state["o"]
    fetch_cap = ctx.settings.fetch_cap
    found = (
        []
        if flags.zero_hits
        else index.candidates(project.id, args.query, fetch_cap, args.level_number, args)
    )
    lower_bound = len(found)
    if flags.cursor_drift and args.cursor is not None:
        # The backend re-ran the search: the floor moved and page 2 overlaps page 1.
        offset = max(0, offset - 3)
        lower_bound += 5
    page = found[offset : offset + args.limit]
    next_offset = offset + len(page)
    has_more = next_offset < len(found)
    cursor = encode_cursor({"t": "search", **binding, "o": next_offset})
    cursor_or_none = cursor if has_more else None
    items = [_item(ctx, score, photo, flags.measured) for score, photo in page]
    accounting = envelope(
        "search",
        returned=len(items),
        total_lower_bound=lower_bound,
        has_more=has_more,
        cursor=cursor_or_none,
    )
    lead = f'Search results for "{args.query}" in {project.name}: '
    lead += f"showing {len(items)} photos." if items else "no matching photos."
    text = "\n\n".join([lead, *(_section(k, item) for k, item in enumerate(items, start=1))])
    return ToolOutput(text, {**accounting, "items": items}, accounting)
