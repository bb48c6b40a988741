"""What the turn store hands back, and the refusals it raises (apart from how it stores)."""

from __future__ import annotations

from dataclasses import dataclass

from beacon.store.errors import StoreError

__all__ = ["Message", "SaveFailed", "SessionNotOwned", "TurnRecord"]


class SessionNotOwned(StoreError):
    """The session exists and belongs to someone else."""

    code = "session_not_found"


class SaveFailed(StoreError):
    """The database refused to persist the answer."""

    code = "save_failed"


@dataclass(frozen=True, slots=True)
class Message:
    turn_id: str
    role: str
    text: str


@dataclass(frozen=True, slots=True)
class TurnRecord:
    id: str
    session_id: str | None
    owner: str
    mode: str
    status: str
