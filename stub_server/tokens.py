"""Dev tokens: an RS256 key made at process start, a JWKS, minting and verification.

The key never leaves the process; restarting the stub invalidates every token
it minted, which is what a test wants from a dev issuer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

ISSUER = "beacon-stub"
AUDIENCE = "beacon"
KID = "stub-1"
ALGORITHM = "RS256"
SERVICE_TYP = "service"
DEFAULT_TTL_S = 3600
MAX_TTL_S = 7 * 24 * 3600


class InvalidToken(Exception):
    """A bearer the MCP endpoint refuses; ``reason`` is a stable snake_case code."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(detail or reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Claims:
    sub: str
    tiers: tuple[str, ...]
    exp: int


_REASONS: tuple[tuple[type[jwt.PyJWTError], str], ...] = (
    (jwt.ExpiredSignatureError, "expired"),
    (jwt.ImmatureSignatureError, "not_yet_valid"),
    (jwt.InvalidAudienceError, "wrong_audience"),
    (jwt.InvalidIssuerError, "wrong_issuer"),
    (jwt.MissingRequiredClaimError, "missing_claim"),
    (jwt.InvalidSignatureError, "bad_signature"),
    (jwt.DecodeError, "malformed"),
)


EXPIRED_LIFE_S = 60  # an expired token lived a minute, ending -ttl_s seconds ago


def _life(ttl_s: int) -> dict[str, int]:
    """``iat``/``nbf``/``exp`` for a life of ``ttl_s`` from now; a negative ``ttl_s`` is a
    token that expired that long ago, issued a minute before its expiry (never after it)."""
    now = int(time.time())
    if ttl_s < 0:
        return {
            "iat": now + ttl_s - EXPIRED_LIFE_S,
            "nbf": now + ttl_s - EXPIRED_LIFE_S,
            "exp": now + ttl_s,
        }
    return {"iat": now, "nbf": now, "exp": now + ttl_s}


class TokenIssuer:
    def __init__(self) -> None:
        self._key = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def jwks(self) -> dict[str, Any]:
        jwk = dict(RSAAlgorithm.to_jwk(self._key.public_key(), as_dict=True))
        jwk.update({"kid": KID, "alg": ALGORITHM, "use": "sig"})
        return {"keys": [jwk]}

    def mint(
        self,
        sub: str,
        tiers: list[str],
        ttl_s: int = DEFAULT_TTL_S,
        questions_per_day: int | None = None,
    ) -> str:
        times = _life(ttl_s)
        claims: dict[str, Any] = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": sub,
            "tiers": list(tiers),
            **times,
        }
        if questions_per_day is not None:  # the chat server's question quota (optional)
            claims["questions_per_day"] = questions_per_day
        return jwt.encode(claims, self._key, algorithm=ALGORITHM, headers={"kid": KID})

    def mint_service(self, sub: str, scopes: list[str], ttl_s: int = DEFAULT_TTL_S) -> str:
        """A service token (README "Identity"): ``typ`` service, a space-separated
        ``scope`` and no tiers; the MCP endpoint here refuses it, as it has no tiers."""
        times = _life(ttl_s)
        claims: dict[str, Any] = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": sub,
            "typ": SERVICE_TYP,
            "scope": " ".join(scopes),
            **times,
        }
        return jwt.encode(claims, self._key, algorithm=ALGORITHM, headers={"kid": KID})

    def verify(self, token: str) -> Claims:
        try:
            header = jwt.get_unverified_header(token)
            if header.get("kid") != KID or header.get("alg") != ALGORITHM:
                raise InvalidToken("unknown_key", "the token was not signed by this stub's key")
            claims = jwt.decode(
                token,
                self._key.public_key(),
                algorithms=[ALGORITHM],
                audience=AUDIENCE,
                issuer=ISSUER,
                options={"require": ["exp", "iat", "nbf", "sub", "aud", "iss"]},
            )
        except jwt.PyJWTError as exc:
            reason = next((r for kind, r in _REASONS if isinstance(exc, kind)), "invalid")
            raise InvalidToken(reason, str(exc)) from exc
        tiers = claims.get("tiers")
        if not isinstance(tiers, list) or not all(isinstance(t, str) for t in tiers):
            raise InvalidToken("missing_claim", "the token carries no list of tiers")
        return Claims(sub=str(claims["sub"]), tiers=tuple(tiers), exp=int(claims["exp"]))
