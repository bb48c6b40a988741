"""AES-256-GCM sealing of records at rest, with key slots and rotation.

Record layout (bytes)::

    0x02 | len(key_id) | key_id (ascii) | nonce (12) | ciphertext + tag (16)

The header (version, key id) is bound into the associated data with the
caller's context, so neither can be swapped without failing authentication;
the context (e.g. owner + session id + record kind) makes a record copied into
another session, or a row handed to another owner, fail to open instead of
appearing there. Version 2 records bind the owner (the store puts it first in
the context); version 1 records, sealed before, open only with the context the
store gives as ``legacy_context`` (theirs did not hold the owner).
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from beacon.store.errors import KeyringError, SealedReason, SealedRecordError

VERSION = 2  # the store's context binds the record's owner
LEGACY_VERSION = 1  # sealed before owners were bound: opened with the legacy context
KEY_BYTES = 32
NONCE_BYTES = 12  # 96-bit random nonces: safe for well under 2**32 records per key
TAG_BYTES = 16
KEYS_ENV = "BEACON_KEYS"
_KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
HEADER_MAX = 2 + 32  # version, id length, the longest key id


@dataclass(frozen=True, slots=True)
class Keyring:
    """Keys by id; ``active`` seals, every key opens (retired keys stay for reading)."""

    keys: Mapping[str, bytes] = field(repr=False)  # a repr in a log must not leak keys
    active: str
    _ciphers: Mapping[str, AESGCM] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.keys:
            raise KeyringError("the keyring holds no key")
        for kid, key in self.keys.items():
            if not _KEY_ID.match(kid):
                raise KeyringError(f"key id {kid!r} is not 1-32 of [A-Za-z0-9_-]")
            if len(key) != KEY_BYTES:
                raise KeyringError(f"key {kid!r} is {len(key)} bytes; AES-256 needs {KEY_BYTES}")
        if self.active not in self.keys:
            raise KeyringError(f"the active key {self.active!r} is not in the ring")
        frozen = MappingProxyType(dict(self.keys))
        object.__setattr__(self, "keys", frozen)
        object.__setattr__(
            self, "_ciphers", MappingProxyType({k: AESGCM(v) for k, v in frozen.items()})
        )

    def rotated(self, kid: str, key: bytes) -> Keyring:
        """A ring whose new active key is ``kid``; the old ones stay, for reading."""
        if kid in self.keys:
            raise KeyringError(f"key id {kid!r} is already in the ring")
        return Keyring({**self.keys, kid: key}, active=kid)

    def cipher(self, kid: str) -> AESGCM | None:
        return self._ciphers.get(kid)


def generate_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def format_key(kid: str, key: bytes) -> str:
    """One ``id:base64`` slot, the form ``BEACON_KEYS`` takes."""
    return f"{kid}:{base64.b64encode(key).decode('ascii')}"


def new_key_slot(kid: str) -> str:
    """A fresh slot to put first in ``BEACON_KEYS`` (rotation = prepend one)."""
    return format_key(kid, generate_key())


def parse_keys(spec: str) -> Keyring:
    """``"k2:<base64>,k1:<base64>"``: the first slot is active, the rest are retired."""
    slots = [s.strip() for s in spec.split(",") if s.strip()]
    keys: dict[str, bytes] = {}
    for slot in slots:
        kid, sep, encoded = slot.partition(":")
        if not sep:
            raise KeyringError("a key slot is not 'id:base64'")
        if kid in keys:
            raise KeyringError(f"key id {kid!r} appears twice")
        try:
            # altchars accepts the URL-safe alphabet too; validate refuses stray bytes
            keys[kid] = base64.b64decode(encoded.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise KeyringError(f"key {kid!r} is not valid base64") from exc
    if not keys:
        raise KeyringError("no key slots given")
    return Keyring(keys, active=next(iter(keys)))


def keyring_from_env(environ: Mapping[str, str] | None = None) -> Keyring:
    env = os.environ if environ is None else environ
    spec = env.get(KEYS_ENV, "")
    if not spec.strip():
        raise KeyringError(
            f"{KEYS_ENV} is not set; make a slot with beacon.store.new_key_slot('k1')"
        )
    return parse_keys(spec)


def record_context(*parts: str) -> bytes:
    """Associated data from context fields, length-prefixed so ("a|b",) != ("a", "b")."""
    out = bytearray()
    for part in parts:
        encoded = part.encode("utf-8")
        out += len(encoded).to_bytes(4, "big") + encoded
    return bytes(out)


def seal(ring: Keyring, plaintext: bytes | str, *, context: bytes) -> bytes:
    data = plaintext.encode("utf-8") if isinstance(plaintext, str) else plaintext
    header = _header(ring.active)
    nonce = os.urandom(NONCE_BYTES)
    cipher = ring.cipher(ring.active)
    assert cipher is not None  # the ring guarantees its active key
    return header + nonce + cipher.encrypt(nonce, data, header + context)


def unseal(
    ring: Keyring, record: bytes, *, context: bytes, legacy_context: bytes | None = None
) -> bytes:
    kid, body_at = _read_header(record)
    if record[0] == LEGACY_VERSION:
        if legacy_context is None:
            raise SealedRecordError(
                SealedReason.UNSUPPORTED_VERSION, "a version 1 record needs its legacy context"
            )
        context = legacy_context
    cipher = ring.cipher(kid)
    if cipher is None:
        raise SealedRecordError(SealedReason.UNKNOWN_KEY, f"no key {kid!r} in the ring")
    nonce, sealed = record[body_at : body_at + NONCE_BYTES], record[body_at + NONCE_BYTES :]
    try:
        return cipher.decrypt(nonce, sealed, record[:body_at] + context)
    except InvalidTag as exc:
        raise SealedRecordError(
            SealedReason.AUTHENTICATION_FAILED, "the record was altered or belongs elsewhere"
        ) from exc


def unseal_text(
    ring: Keyring, record: bytes, *, context: bytes, legacy_context: bytes | None = None
) -> str:
    try:
        return unseal(ring, record, context=context, legacy_context=legacy_context).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SealedRecordError(SealedReason.NOT_TEXT, "the record holds bytes, not text") from exc


def sealed_key_id(record: bytes) -> str:
    return _read_header(record)[0]


def needs_reseal(ring: Keyring, record: bytes) -> bool:
    """True when sealed under a retired key: ``beacon store reseal`` re-seals it."""
    return sealed_key_id(record) != ring.active


def _header(kid: str) -> bytes:
    encoded = kid.encode("ascii")
    return bytes([VERSION, len(encoded)]) + encoded


def header_key_id(prefix: bytes) -> str:
    """The key id in a record's first ``HEADER_MAX`` bytes (or more): what counting
    records per key reads, without fetching whole records."""
    if len(prefix) < 2:
        raise SealedRecordError(SealedReason.TRUNCATED, "the record is shorter than its header")
    if prefix[0] not in (VERSION, LEGACY_VERSION):
        raise SealedRecordError(
            SealedReason.UNSUPPORTED_VERSION,
            f"record version {prefix[0]} is not {VERSION} (or {LEGACY_VERSION})",
        )
    body_at = 2 + prefix[1]
    if len(prefix) < body_at:
        raise SealedRecordError(SealedReason.TRUNCATED, "the record is cut short")
    try:
        kid = prefix[2:body_at].decode("ascii")
    except UnicodeDecodeError as exc:
        raise SealedRecordError(SealedReason.MALFORMED_HEADER, "the key id is not ascii") from exc
    if not _KEY_ID.match(kid):
        raise SealedRecordError(SealedReason.MALFORMED_HEADER, "the key id is malformed")
    return kid


def _read_header(record: bytes) -> tuple[str, int]:
    kid = header_key_id(record)
    body_at = 2 + record[1]
    if len(record) < body_at + NONCE_BYTES + TAG_BYTES:
        raise SealedRecordError(SealedReason.TRUNCATED, "the record is cut short")
    return kid, body_at
