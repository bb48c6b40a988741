"""Stream tickets: a browser's ``EventSource`` cannot send ``Authorization``, so a
caller holding a bearer mints a ticket for one turn it owns and puts that in the
event stream's URL (``?ticket=…``) instead.

A URL is logged (proxies, access logs, browser history), so what goes in one must
be worth little when it leaks: a ticket opens the events of **one turn**, for
**minutes** (never past the bearer it was minted with), read-only. The long-lived
bearer itself is never accepted in a query string.

A ticket is sealed (AES-256-GCM, so authentic and opaque: the caller's ``sub``
is not readable from a log) under a key derived from the store's key ring
(``BEACON_KEYS``), so every process sharing the ring opens every other's tickets,
and a rotated-out key still opens the tickets it sealed until they expire. The
derivation (HKDF, its own label) keeps a ticket from ever being a store record.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from beacon.auth.errors import Reason, TokenRejected
from beacon.auth.verify import Identity
from beacon.store.crypto import Keyring

TICKET_TTL_S = 300  # long enough to open (and reopen) a stream, short enough to leak
MAX_TICKET_CHARS = 1024
_PREFIX = "st1"
_LABEL = b"beacon stream ticket v1"
_NONCE_BYTES = 12


class TicketRejected(TokenRejected):
    """A ticket (or a bearer where a ticket belongs) refused: 401 with its own code,
    so a client can tell a stale ticket (mint another) from a wrong one."""

    def __init__(self, code: str, message: str, reason: Reason = Reason.MALFORMED) -> None:
        super().__init__(reason, message)
        self._code = code

    @property
    def code(self) -> str:
        return self._code


@dataclass(frozen=True, slots=True)
class Minted:
    ticket: str
    expires_in: int


@dataclass(frozen=True, slots=True)
class TicketKeys:
    """AES-GCM ciphers derived from each key of the ring (the active one seals)."""

    ring: Keyring
    _ciphers: dict[str, AESGCM] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        derived = {kid: AESGCM(_derive(key)) for kid, key in self.ring.keys.items()}
        object.__setattr__(self, "_ciphers", derived)

    def mint(self, identity: Identity, turn_id: str, *, now: float | None = None) -> Minted:
        at = int(time.time() if now is None else now)
        expires = min(at + TICKET_TTL_S, int(identity.expires_at.timestamp()))
        claims = {"t": turn_id, "s": identity.sub, "r": sorted(identity.tiers), "e": expires}
        kid = self.ring.active
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._ciphers[kid].encrypt(nonce, json.dumps(claims).encode(), _aad(kid))
        body = base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=").decode("ascii")
        return Minted(f"{_PREFIX}.{kid}.{body}", max(expires - at, 0))

    def open(self, ticket: str, turn_id: str, *, now: float | None = None) -> Identity:
        """The identity a ticket carries, if it opens, is for ``turn_id`` and is alive."""
        if ticket.startswith("eyJ") and ticket.count(".") == 2:
            raise TicketRejected(
                "bearer_in_query",
                "a bearer token is never accepted in a URL; "
                "mint a stream ticket with POST /v1/turns/{turn_id}/ticket",
            )
        claims = self._claims(ticket)
        if claims["t"] != turn_id:
            raise TicketRejected("ticket_other_turn", "this ticket is for another turn")
        if int(time.time() if now is None else now) >= claims["e"]:
            raise TicketRejected("ticket_expired", "the stream ticket has expired", Reason.EXPIRED)
        return Identity(
            sub=claims["s"],
            tiers=frozenset(claims["r"]),
            expires_at=datetime.fromtimestamp(claims["e"], tz=UTC),
        )

    def _claims(self, ticket: str) -> dict[str, Any]:
        invalid = TicketRejected("ticket_invalid", "the stream ticket is not valid here")
        if len(ticket) > MAX_TICKET_CHARS:
            raise invalid
        prefix, _, rest = ticket.partition(".")
        kid, _, body = rest.partition(".")
        cipher = self._ciphers.get(kid)
        if prefix != _PREFIX or cipher is None:
            raise invalid
        try:
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
            opened = cipher.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], _aad(kid))
        except (binascii.Error, ValueError, InvalidTag):
            raise invalid from None
        claims: dict[str, Any] = json.loads(opened)  # sealed by us: its shape is ours
        return claims


def _derive(key: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_LABEL).derive(key)


def _aad(kid: str) -> bytes:
    return _LABEL + b"|" + kid.encode("ascii")
