"""The store package's one exception root.

    StoreError                 the store cannot do what was asked
     ├── KeyringError          the key configuration is unusable: refuse to start
     ├── SealedRecordError     a sealed record does not open; ``reason`` says why
     ├── StoreUnavailable      the database cannot be reached now (a restart, a lost
     │                         connection): worth trying again, never a half-write
     ├── TurnTaken             a running turn was finished by another process
     ├── SessionNotOwned       (records.py) the session belongs to someone else
     └── SaveFailed            (records.py) the database refused the answer

A record that does not open is never returned as text: tampering, a record
moved to another session, a truncated write and a forgotten key all end here.
"""

from __future__ import annotations

from enum import StrEnum


class StoreError(Exception):
    """Root of every error raised by ``beacon.store``."""

    code = "store_error"


class KeyringError(StoreError):
    """A key is not 32 bytes, not base64, duplicated, or there is no key at all."""


class SealedReason(StrEnum):
    TRUNCATED = "truncated"
    UNSUPPORTED_VERSION = "unsupported_version"
    MALFORMED_HEADER = "malformed_header"
    UNKNOWN_KEY = "unknown_key"
    # Tampering and a wrong context are indistinguishable under GCM, by design.
    AUTHENTICATION_FAILED = "authentication_failed"
    NOT_TEXT = "not_text"
    # It opens, but is not the record its place holds (``beacon.store.records``).
    MALFORMED_RECORD = "malformed_record"


class SealedRecordError(StoreError):
    code = "record_unreadable"

    def __init__(self, reason: SealedReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class StoreUnavailable(StoreError):
    code = "store_unavailable"


class TurnTaken(StoreError):
    """Frames for turns this process no longer drives: another process found its
    lock gone and finished them (its terminal is in the store)."""

    code = "turn_taken"

    def __init__(self, turn_ids: list[str]) -> None:
        super().__init__(f"turns finished by another process: {', '.join(turn_ids)}")
        self.turn_ids = turn_ids
