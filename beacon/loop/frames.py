"""Frame construction with seq numbering and the one-terminal rule.

Every frame is validated against its wire model as it is made, so a frame the
panel cannot read never leaves the server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from beacon.loop.errors import LoopError
from beacon.loop.frame_table import TurnState, frame_step
from beacon.wire import frames as wire

if TYPE_CHECKING:
    from beacon.store.records import AnswerRows

_MODELS = wire.FRAME_MODELS


class FrameOrderError(LoopError):
    """The frame table refuses this frame in the turn's current state: a bug in
    Beacon, so the turn ends as ``internal``; the message names only the row."""

    code = "internal"

    def __init__(self, row_id: str) -> None:
        super().__init__(f"the turn failed inside Beacon: the frame table refused {row_id}")
        self.row_id = row_id


@dataclass(frozen=True, slots=True)
class Frame:
    type: str
    seq: int
    data: dict[str, Any]
    # The SSE bytes, made once: the store seals them and the stream sends them.
    encoded: bytes = field(init=False, repr=False, compare=False)
    # The answer this frame publishes, stored in the same commit as the frame (the
    # answer's first frame carries it; its batch runs through the terminal).
    saves: AnswerRows | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        body = wire_json(self.data)
        text = f"event: {self.type}\nid: {self.seq}\ndata: {body}\n\n"
        object.__setattr__(self, "encoded", text.encode())

    def encode(self) -> bytes:
        return self.encoded


def wire_json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class FrameMaker:
    def __init__(self, turn_id: str) -> None:
        self.turn_id = turn_id
        self._seq = 0
        self.state = TurnState.IDLE

    def allows(self, frame_type: str) -> bool:
        return frame_step(self.state, frame_type).legal

    def make(self, frame_type: str, *, saves: AnswerRows | None = None, **fields: Any) -> Frame:
        row = frame_step(self.state, frame_type)
        if not row.legal:
            raise FrameOrderError(row.id)
        model = _MODELS[frame_type](turn_id=self.turn_id, seq=self._seq + 1, **fields)
        self._seq += 1
        self.state = row.target
        return Frame(frame_type, self._seq, model.model_dump(mode="json"), saves)


def terminal_error(turn_id: str, seq: int, code: str, message: str) -> Frame:
    """An ``error`` frame made outside the turn's own emitter: the terminal of a turn
    that cannot finish itself (its frame was not stored; its process died)."""
    data = _MODELS["error"](turn_id=turn_id, seq=seq, code=code, message=message)
    return Frame("error", seq, data.model_dump(mode="json"))
