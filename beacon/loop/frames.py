"""Frame construction with seq numbering and the one-terminal rule.

Every frame is validated against its wire model as it is made, so a frame the
panel cannot read never leaves the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from beacon.wire import frames as wire

_MODELS: dict[str, type[BaseModel]] = {
    "start": wire.StartData,
    "plan": wire.PlanData,
    "tool_call": wire.ToolCallData,
    "tool_result": wire.ToolResultData,
    "references": wire.ReferencesData,
    "delta": wire.DeltaData,
    "notice": wire.NoticeData,
    "heartbeat": wire.HeartbeatData,
    "done": wire.DoneData,
    "error": wire.ErrorData,
}


class FrameOrderError(RuntimeError):
    """A frame was made after the turn's terminal, or before its start."""


@dataclass(frozen=True, slots=True)
class Frame:
    type: str
    seq: int
    data: dict[str, Any]

    def encode(self) -> bytes:
        body = wire_json(self.data)
        return f"event: {self.type}\nid: {self.seq}\ndata: {body}\n\n".encode()


def wire_json(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class FrameMaker:
    def __init__(self, turn_id: str) -> None:
        self.turn_id = turn_id
        self._seq = 0
        self.terminal: str | None = None

    def make(self, frame_type: str, **fields: Any) -> Frame:
        if self.terminal is not None:
            raise FrameOrderError(f"{frame_type} after terminal {self.terminal}")
        if self._seq == 0 and frame_type != "start":
            raise FrameOrderError(f"{frame_type} before start")
        self._seq += 1
        model = _MODELS[frame_type](turn_id=self.turn_id, seq=self._seq, **fields)
        if frame_type in wire.TERMINAL_FRAMES:
            self.terminal = frame_type
        return Frame(frame_type, self._seq, model.model_dump(mode="json"))
