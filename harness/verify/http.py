"""The verifier's side of the wire: turns streamed and replayed, raw requests, forged tokens.

Everything here speaks only the frame protocol of SPEC §4 (``POST /v1/turns``,
``GET /v1/turns/{id}/events?after=``, ``GET /v1/sessions/{id}``) and the dev
endpoints of the stub (§2.4) when ``--mcp`` names one: no import reaches into
the server under test.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from beacon.wire.headers import SCENARIO_HEADER
from beacon.wire.sse import SseEvent, parse_sse
from harness.verify.bounded import (
    MAX_FRAMES,
    Overrun,
    Watchdog,
    late,
    lines,
    too_many_frames,
)

TURN_TIMEOUT_S = 90.0
REQUEST_TIMEOUT_S = 20.0  # the whole of a probe's request and answer, not one read
CONNECT_S = 5.0
REACH_S = 10.0
BODY_EXCERPT = 2_000  # bytes of a refusal kept as evidence: never the whole answer


class VerifyHttpError(RuntimeError):
    """The stub named by ``--mcp`` did not answer as SPEC §2.4 promises."""


@dataclass(frozen=True)
class Streamed:
    """One streamed request: its status, the frames read, or what went wrong."""

    status: int | None
    frames: list[SseEvent] = field(default_factory=list)
    body: str = ""  # the start of a non-stream answer
    error: str | None = None  # transport failure (connection, timeout, bad framing)
    content_type: str = ""

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.error is None


@dataclass(frozen=True, slots=True)
class Answer:
    status: int | None
    body: str
    error: str | None = None


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class Wire:
    """HTTP to the target (and, in controlled mode, to the stub at ``--mcp``)."""

    def __init__(self, target: str, deadline_s: float | None = None) -> None:
        self.target = target.rstrip("/")
        self.deadline_s = deadline_s  # the most one turn's stream may take (None: the read time)
        self._local = threading.local()
        self._clients: list[httpx.Client] = []
        self._lock = threading.Lock()
        self._ssl = httpx.create_ssl_context()  # made once: each bounded request has a client

    @property
    def client(self) -> httpx.Client:
        """One client per thread: turns run side by side."""
        client: httpx.Client | None = getattr(self._local, "client", None)
        if client is None:
            client = httpx.Client(timeout=httpx.Timeout(REQUEST_TIMEOUT_S, connect=5.0))
            self._local.client = client
            with self._lock:
                self._clients.append(client)
        return client

    def close(self) -> None:
        with self._lock:
            for client in self._clients:
                client.close()
            self._clients.clear()

    @staticmethod
    def _headers(token: str | None, scenario: str | None = None) -> dict[str, str]:
        # identity: a compressed stream would be inflated before any bound could see it.
        # Both media types: the stream routes answer events, the others (a session's
        # transcript) JSON; a server that negotiates answers 406 to a type it cannot send.
        headers = {
            "Accept": "text/event-stream, application/json;q=0.9",
            "Accept-Encoding": "identity",
        }
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if scenario is not None:
            headers[SCENARIO_HEADER] = scenario
        return headers

    def _fresh(self, timeout: httpx.Timeout) -> httpx.Client:
        """A client for one bounded request: its connection is its own, so the watchdog
        that learns its socket cuts nothing another request is using."""
        return httpx.Client(verify=self._ssl, timeout=timeout)

    def _stream(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        read_s: float = TURN_TIMEOUT_S,
        **kw: Any,
    ) -> Streamed:
        # A read timeout bounds each read, not the stream: a server that trickles
        # heartbeats forever would hold a turn for ever. The whole stream has a deadline,
        # from the request's start, that no byte the target sends moves.
        budget = self.deadline_s or read_s
        timeout = httpx.Timeout(min(read_s, budget), connect=min(CONNECT_S, budget))
        frames: list[SseEvent] = []
        status: int | None = None
        kind = ""
        with Watchdog(budget) as dog, self._fresh(timeout) as client:
            try:
                with client.stream(
                    method, url, headers=headers, extensions={"trace": dog.trace}, **kw
                ) as r:
                    status, kind = r.status_code, r.headers.get("content-type", "")
                    if status != 200 or not kind.startswith("text/event-stream"):
                        return Streamed(status, body=_excerpt(r, dog), content_type=kind)
                    for event in parse_sse(lines(r.iter_bytes(), dog)):
                        frames.append(event)
                        if len(frames) > MAX_FRAMES:
                            raise too_many_frames()
                    return Streamed(200, frames, content_type=kind)
            except Overrun as exc:
                return Streamed(status, frames, error=str(exc), content_type=kind)
            except (httpx.HTTPError, UnicodeDecodeError) as exc:
                if dog.fired:  # the watchdog cut a silent read at the deadline
                    return Streamed(status, frames, error=str(late(budget)), content_type=kind)
                return Streamed(None, frames, error=f"{type(exc).__name__}: {exc}")

    def reachable(self) -> str | None:
        """Why the target cannot be reached at all (connection refused, no such host,
        no answer within the connect time), or None: any HTTP answer is an answer
        (its body is never read)."""
        seconds = REACH_S
        timeout = httpx.Timeout(seconds, connect=CONNECT_S)
        with Watchdog(seconds) as dog, self._fresh(timeout) as client:
            try:
                with client.stream("GET", f"{self.target}/", extensions={"trace": dog.trace}):
                    return None
            except httpx.TransportError as exc:
                if dog.fired:
                    return f"no answer within {seconds:g} s"
                return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__

    def turn(
        self, body: Mapping[str, Any], token: str | None, scenario: str | None = None
    ) -> Streamed:
        return self._stream(
            "POST", f"{self.target}/v1/turns", self._headers(token, scenario), json=dict(body)
        )

    def replay(self, turn_id: str, token: str | None, after: str = "0") -> Streamed:
        url = f"{self.target}/v1/turns/{turn_id}/events"
        return self._stream(
            "GET", url, self._headers(token), REQUEST_TIMEOUT_S, params={"after": after}
        )

    def request(
        self,
        method: str,
        path: str,
        token: str | None,
        *,
        content: bytes | None = None,
        params: Mapping[str, str] | None = None,
    ) -> Answer:
        headers = self._headers(token)
        headers["Connection"] = "close"  # a probe may kill its connection: never reuse it
        if content is not None:
            headers["Content-Type"] = "application/json"
        timeout = httpx.Timeout(REQUEST_TIMEOUT_S, connect=CONNECT_S)
        with Watchdog(REQUEST_TIMEOUT_S) as dog, self._fresh(timeout) as client:
            try:
                with client.stream(
                    method,
                    f"{self.target}{path}",
                    headers=headers,
                    content=content,
                    params=params,
                    extensions={"trace": dog.trace},
                ) as r:
                    return Answer(r.status_code, _excerpt(r, dog))
            except Overrun as exc:
                return Answer(None, "", str(exc))
            except httpx.HTTPError as exc:
                if dog.fired:
                    return Answer(None, "", str(late(REQUEST_TIMEOUT_S)))
                return Answer(None, "", f"{type(exc).__name__}: {exc}")


def _excerpt(response: httpx.Response, watchdog: Watchdog, limit: int = BODY_EXCERPT) -> str:
    """The first ``limit`` bytes of a body, read no further (a stream is closed unread)."""
    taken = b""
    for chunk in response.iter_bytes():
        watchdog.check()
        taken += chunk
        if len(taken) >= limit:
            break
    return taken[:limit].decode("utf-8", errors="replace")


# --- the stub's dev endpoints (controlled mode) ------------------------------------------


class Stub:
    """``POST /dev/tokens``, ``GET /.well-known/jwks.json``, ``GET /dev/requests`` at the
    origin of ``--mcp`` (the streamable-HTTP endpoint itself lives at its path)."""

    def __init__(self, mcp_url: str, wire: Wire) -> None:
        self.origin = origin_of(mcp_url)
        self._wire = wire

    @property
    def client(self) -> httpx.Client:
        return self._wire.client

    def jwks(self) -> dict[str, Any]:
        try:
            r = self.client.get(self.jwks_url)
            loaded = r.json() if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError) as exc:
            raise VerifyHttpError(f"GET {self.jwks_url}: {exc}") from exc
        if not isinstance(loaded, dict):
            raise VerifyHttpError(f"GET {self.jwks_url} answered no key set")
        return loaded

    def token(
        self,
        sub: str,
        tiers: tuple[str, ...] = ("enterprise_ai",),
        ttl_s: int = 3600,
        expired_s: int | None = None,
    ) -> str:
        """A token from the stub: living ``ttl_s``, or expired ``expired_s`` seconds ago."""
        life = {"ttl_s": ttl_s} if expired_s is None else {"expired_s": expired_s}
        try:
            r = self.client.post(
                f"{self.origin}/dev/tokens", json={"sub": sub, "tiers": list(tiers), **life}
            )
        except httpx.HTTPError as exc:
            raise VerifyHttpError(f"POST {self.origin}/dev/tokens: {exc}") from exc
        token = r.json().get("token") if r.status_code == 200 else None
        if not isinstance(token, str):
            raise VerifyHttpError(f"POST {self.origin}/dev/tokens answered {r.status_code}")
        return token

    def requests(self) -> list[dict[str, Any]]:
        try:
            r = self.client.get(f"{self.origin}/dev/requests")
            entries = r.json().get("requests") if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError) as exc:
            raise VerifyHttpError(f"GET {self.origin}/dev/requests: {exc}") from exc
        if not isinstance(entries, list):
            raise VerifyHttpError(f"GET {self.origin}/dev/requests answered no request log")
        return [e for e in entries if isinstance(e, dict)]

    @property
    def jwks_url(self) -> str:
        return f"{self.origin}/.well-known/jwks.json"


# --- forged bearers -------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unverified(token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, claims) of a token, read without checking it; empty when unreadable."""
    try:
        header = dict(jwt.get_unverified_header(token))
        claims = dict(jwt.decode(token, options={"verify_signature": False}))
    except jwt.PyJWTError:
        return {}, {}
    return header, claims


def _forge(header: Mapping[str, Any], claims: Mapping[str, Any], key: bytes | None) -> str:
    signing_input = (
        f"{_b64(json.dumps(dict(header)).encode())}.{_b64(json.dumps(dict(claims)).encode())}"
    )
    signature = hmac.new(key, signing_input.encode(), hashlib.sha256).digest() if key else b""
    return f"{signing_input}.{_b64(signature)}"


def alg_none(token: str) -> str:
    """The caller's own claims, unsigned, under ``alg: none``."""
    header, claims = unverified(token)
    return _forge({**header, "alg": "none"}, claims or {"sub": "verify"}, None)


def hs256_with_public_key(token: str, public_pem: bytes) -> str:
    """The caller's own claims under HS256, keyed with the server's RS256 public key
    (the classic algorithm-confusion attack: a verifier that trusts ``alg`` accepts it)."""
    header, claims = unverified(token)
    return _forge({**header, "alg": "HS256"}, claims or {"sub": "verify"}, public_pem)


def public_pems(jwks: Mapping[str, Any], kid: str | None) -> list[bytes]:
    """The JWKS's RSA public keys as PEM, the token's own ``kid`` first."""
    keys = [k for k in jwks.get("keys", []) if isinstance(k, Mapping) and k.get("kty") == "RSA"]
    keys.sort(key=lambda k: k.get("kid") != kid)
    pems = []
    for key in keys:
        public = RSAAlgorithm.from_jwk(dict(key))
        if isinstance(public, rsa.RSAPublicKey):
            pems.append(
                public.public_bytes(
                    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
                )
            )
    return pems
