"""Narrations a test registers (``POST /dev/narrations``) for ``scripted:narrates`` to
give, keyed by the exact question, optionally as the exact chunks the stream carries."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, model_validator

# A registered narration is test data, bounded like any input.
MAX_QUESTION_CHARS = 4_000
MAX_NARRATION_CHARS = 64_000
MAX_NARRATION_CHUNKS = 512


class NarrationIn(BaseModel):
    """``POST /dev/narrations``: the answer ``scripted:narrates`` gives to ``question``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    text: str | None = Field(default=None, max_length=MAX_NARRATION_CHARS)
    chunks: list[str] | None = Field(default=None, min_length=1, max_length=MAX_NARRATION_CHUNKS)

    @model_validator(mode="after")
    def _text_or_chunks(self) -> NarrationIn:
        if self.text is None and self.chunks is None:
            raise ValueError("give `text`, `chunks`, or both")
        if self.chunks is not None:
            joined = "".join(self.chunks)
            if len(joined) > MAX_NARRATION_CHARS:
                raise ValueError(f"the chunks exceed {MAX_NARRATION_CHARS} characters")
            if self.text is not None and self.text != joined:
                raise ValueError("`text` must equal the concatenated `chunks`")
        if not self.question.strip():
            raise ValueError("`question` must not be blank")
        return self


@dataclass(frozen=True, slots=True)
class Narration:
    text: str
    chunks: tuple[str, ...] | None  # None: chunked like every other answer


class NarrationBook:
    """Registered narrations by exact (stripped) question, so concurrent tests never collide."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_question: dict[str, Narration] = {}

    def register(self, wanted: NarrationIn) -> Narration:
        chunks = tuple(wanted.chunks) if wanted.chunks is not None else None
        text = wanted.text if wanted.text is not None else "".join(chunks or ())
        narration = Narration(text, chunks)
        with self._lock:
            self._by_question[wanted.question.strip()] = narration
        return narration

    def get(self, question: str) -> Narration | None:
        with self._lock:
            return self._by_question.get(question.strip())

    def forget(self, question: str | None = None) -> None:
        with self._lock:
            if question is None:
                self._by_question.clear()
            else:
                self._by_question.pop(question.strip(), None)

    def questions(self) -> list[str]:
        with self._lock:
            return sorted(self._by_question)
