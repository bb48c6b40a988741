"""The JWKS: parsed into RSA public keys by ``kid``, fetched from a file or URL, cached.

Only RSA signing keys are kept. An ``oct`` (HMAC) entry is dropped on purpose:
a shared secret published in a key set is the raw material of an algorithm
confusion attack, and RS256 is the only algorithm we verify anyway.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from jwt.algorithms import RSAAlgorithm

from beacon.auth.errors import JwksUnavailable, Reason, TokenRejected
from beacon.wire.connections import client_tls

KeySet = Mapping[str, RSAPublicKey]

MIN_RSA_BITS = 2048
MAX_JWKS_BYTES = 256 * 1024  # a key set is a few KiB; anything larger is not one
DEFAULT_TTL_S = 300.0
DEFAULT_REFETCH_INTERVAL_S = 30.0  # unknown-kid refetches: at most one per interval
DEFAULT_FAILURE_BACKOFF_S = 1.0  # after a failed fetch: short, so a cold start recovers fast
DEFAULT_TIMEOUT_S = 5.0


def parse_jwks(document: bytes | str | Mapping[str, Any]) -> KeySet:
    """RSA signing keys by ``kid``; a document that is not a key set is unavailable keys."""
    try:
        data = json.loads(document) if isinstance(document, bytes | str) else document
    except ValueError as exc:
        raise JwksUnavailable("the JWKS is not JSON") from exc
    keys = data.get("keys") if isinstance(data, Mapping) else None
    if not isinstance(keys, list):
        raise JwksUnavailable("the JWKS has no 'keys' list")
    found: dict[str, RSAPublicKey] = {}
    for entry in keys:
        key = _rsa_key(entry)
        if key is not None:
            found[entry["kid"]] = key
    return MappingProxyType(found)


def _rsa_key(entry: object) -> RSAPublicKey | None:
    if not isinstance(entry, Mapping) or entry.get("kty") != "RSA":
        return None
    if not isinstance(entry.get("kid"), str) or not entry["kid"]:
        return None
    if entry.get("use", "sig") != "sig" or entry.get("alg", "RS256") != "RS256":
        return None
    try:
        key = RSAAlgorithm.from_jwk(dict(entry))
    except Exception:  # PyJWT raises several types for a bad JWK; one bad entry is skipped
        return None
    if not isinstance(key, RSAPublicKey) or key.key_size < MIN_RSA_BITS:
        return None  # a private JWK or a weak key is not a verification key
    return key


def load_jwks_file(path: str | Path) -> KeySet:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise JwksUnavailable(f"cannot read the JWKS file: {exc.strerror}") from exc
    if len(raw) > MAX_JWKS_BYTES:
        raise JwksUnavailable("the JWKS file is too large")
    return parse_jwks(raw)


class JwksCache:
    """Keys from ``source`` (an http(s) URL or a file path), refreshed on TTL or unknown kid.

    Fail closed: when the TTL has run out and the refresh fails, no stale key is
    used (a key removed from the set must stop verifying within one TTL).
    """

    def __init__(
        self,
        source: str | Path,
        *,
        ttl_s: float = DEFAULT_TTL_S,
        refetch_interval_s: float = DEFAULT_REFETCH_INTERVAL_S,
        failure_backoff_s: float = DEFAULT_FAILURE_BACKOFF_S,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        clock: Callable[[], float] = time.monotonic,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._source = str(source)
        self._is_url = self._source.startswith(("http://", "https://"))
        self._ttl_s = ttl_s
        self._refetch_interval_s = refetch_interval_s
        self._failure_backoff_s = failure_backoff_s
        self._timeout_s = timeout_s
        self._clock = clock
        self._transport = transport
        self._keys: KeySet | None = None
        self._fetched_at = -float("inf")
        self._attempted_at = -float("inf")
        self._lock = asyncio.Lock()
        self.fetches = 0  # observable, so tests can prove the rate limit

    async def key(self, kid: str) -> RSAPublicKey:
        if self._keys is None or self._clock() - self._fetched_at >= self._ttl_s:
            await self._refresh(forced=True)
        keys = self._keys
        if keys is not None and kid in keys:
            return keys[kid]
        # A kid we have not seen may be a rotation we have not fetched yet.
        await self._refresh(forced=False)
        keys = self._keys
        if keys is not None and kid in keys:
            return keys[kid]
        raise TokenRejected(Reason.UNKNOWN_KID, "the token's key id is not in the key set")

    async def _refresh(self, *, forced: bool) -> None:
        """``forced``: the cache is empty or past its TTL; else an unknown kid asks."""
        async with self._lock:
            now = self._clock()
            fresh = self._keys is not None and now - self._fetched_at < self._ttl_s
            if forced and fresh:
                return  # another task refreshed while we waited for the lock
            wait = self._failure_backoff_s if self._keys is None else self._refetch_interval_s
            if now - self._attempted_at < wait:
                if not fresh:
                    raise JwksUnavailable("the JWKS could not be fetched; backing off")
                return  # rate-limited: answer from the keys we hold
            self._attempted_at = now
            self.fetches += 1
            try:
                keys = await self._fetch()
            except JwksUnavailable:
                if not fresh:
                    self._keys = None  # fail closed: never verify with keys past their TTL
                raise
            self._keys, self._fetched_at = keys, now

    async def _fetch(self) -> KeySet:
        if not self._is_url:
            return load_jwks_file(self._source)
        try:
            async with httpx.AsyncClient(
                timeout=self._timeout_s,
                transport=self._transport,
                follow_redirects=False,
                verify=client_tls(),
            ) as client:
                response = await client.get(self._source)
        except httpx.HTTPError as exc:
            raise JwksUnavailable(f"cannot fetch the JWKS: {type(exc).__name__}") from exc
        if response.status_code != 200:
            raise JwksUnavailable(f"the JWKS endpoint answered {response.status_code}")
        if len(response.content) > MAX_JWKS_BYTES:
            raise JwksUnavailable("the JWKS document is too large")
        return parse_jwks(response.content)
