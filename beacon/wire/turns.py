"""The request body of ``POST /v1/turns`` (SPEC §4) and its view context."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

# The five locales live with their words (beacon.lexicon); the request validates against them.
from beacon.lexicon.locales import DEFAULT_LOCALE as DEFAULT_LOCALE
from beacon.lexicon.locales import LOCALES as LOCALES
from beacon.lexicon.locales import Locale as Locale

# Bounds are part of the contract: an over-long field is a 422, never truncated.
MAX_MESSAGE_CHARS = 4000
MAX_NAME_CHARS = 200
MAX_ID_CHARS = 100
# A frame's seq, as a client may send it back (``?after=``, ``Last-Event-ID``):
# at most nine ASCII digits, so it is never out of any integer's range ("³" and
# "٣" are digits to str.isdigit, not to this pattern).
MAX_SEQ = 999_999_999
LAST_EVENT_ID_PATTERN = r"^[0-9]{1,9}$"
# The host trims its annotation list to this many before sending; a list that
# arrives at the cap may have been cut, and the answer must say so.
VIEW_ANNOTATIONS_CAP = 50


def _whole_number(value: Any) -> Any:
    """JSON's integer: 3 and 3.0 are the same number; "3" and true are not numbers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# JSON Schema calls 172.0 an integer; strict pydantic would not: accept exactly
# that. Bounds go before the validator: after it, pydantic cannot place them on the
# integer and the published schema would carry no minimum/maximum at all (a
# fuzzer then rightly calls the 422 for level 11978 a rejected valid request).
LevelNumber = Annotated[int, Field(ge=-10, le=300), BeforeValidator(_whole_number)]


# Whitespace to every reader of the schema: Python's ``\s`` and ECMAScript's agree on
# these (they differ on U+0085, U+FEFF, U+001C–U+001F), so the published pattern
# accepts and refuses exactly what the server does, whichever engine reads it.
_BLANK = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# A question holds at least one character that is not whitespace (JSON Schema
# patterns search, they are not anchored).
QUESTION_PATTERN = f"[^{_BLANK}]"
_HAS_TEXT = re.compile(QUESTION_PATTERN)


def _not_blank(value: str) -> str:
    # A blank question is refused here, not answered: the model would be asked about nothing.
    if _HAS_TEXT.search(value) is None:
        raise ValueError("the question is blank (whitespace only)")
    return value


# The pattern travels in the schema; the validator words the refusal for a person.
Question = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_MESSAGE_CHARS,
        json_schema_extra={"pattern": QUESTION_PATTERN},
    ),
    AfterValidator(_not_blank),
]


class _Strict(BaseModel):
    # strict: "3" is not a level number and true is not a count — no silent coercion.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ViewAnnotation(_Strict):
    id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    title: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    status: str | None = Field(default=None, max_length=40)
    category: str | None = Field(default=None, max_length=80)


class ViewContext(_Strict):
    """What the host shows right now; every field optional, every string capped."""

    project_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    project_name: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    review_name: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    team_name: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    capture_label: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    capture_time: str | None = Field(default=None, max_length=40)
    level: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    level_number: LevelNumber | None = None
    panorama_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    selected_annotation_id: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    annotations: list[ViewAnnotation] | None = Field(default=None, max_length=VIEW_ANNOTATIONS_CAP)


# A session is a chat's: a ``session_id`` beside ``mode: "single"`` (the default) is
# refused, never ignored — the caller believes the turn joined a session it did not.
# The schema says so too, so a client generating bodies from it never sends one.
SESSION_NEEDS_CHAT: dict[str, Any] = {
    "anyOf": [
        {"properties": {"mode": {"const": "chat"}}, "required": ["mode"]},
        {"properties": {"session_id": {"type": "null"}}},
    ]
}


# Turn and session ids are the server's (``t_…``, ``s_…``): letters, digits, "_" and
# "-". An id with a NUL or any other control byte is refused before any store sees it.
ID_PATTERN = r"^[A-Za-z0-9_-]+$"
ID_MAX = 64


class TurnRequest(_Strict):
    model_config = ConfigDict(json_schema_extra=SESSION_NEEDS_CHAT)

    session_id: str | None = Field(default=None, max_length=ID_MAX, pattern=ID_PATTERN)
    mode: Literal["chat", "single"] = "single"
    message: Question
    view_context: ViewContext | None = None
    locale: Locale = DEFAULT_LOCALE
    capability_hint: list[str] | None = Field(default=None, max_length=6)

    @model_validator(mode="after")
    def _session_only_in_chat(self) -> TurnRequest:
        if self.session_id is not None and self.mode != "chat":
            raise PydanticCustomError(
                "session_in_single_mode",
                'session_id belongs to mode "chat": a "single" turn has no session',
            )
        return self


class MoreRequest(_Strict):
    """``POST /v1/turns/{turn_id}/more``: the next page of one counted source."""

    slot: str = Field(pattern=r"^c[0-9]{1,3}$")


class FeedbackRequest(_Strict):
    """``POST /v1/turns/{turn_id}/feedback``: the user's verdict on one answer."""

    rating: Literal["up", "down"]
    comment: str = Field(default="", max_length=2000)
