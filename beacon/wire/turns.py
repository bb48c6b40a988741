"""The request body of ``POST /v1/turns`` (SPEC §4)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# Bounds are part of the contract: an over-long field is a 422, never truncated.
MAX_MESSAGE_CHARS = 4000
MAX_NAME_CHARS = 200


class ViewContext(BaseModel):
    """What the host shows right now; every field optional, every string capped."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    project_id: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    project_name: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    level: str | None = Field(default=None, max_length=MAX_NAME_CHARS)
    panorama_id: str | None = Field(default=None, max_length=MAX_NAME_CHARS)


class TurnRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: str | None = Field(default=None, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    mode: Literal["chat", "single"] = "single"
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    view_context: ViewContext | None = None
    locale: Literal["en", "ko", "ja", "de", "es"] = "en"
    capability_hint: list[str] | None = Field(default=None, max_length=6)
