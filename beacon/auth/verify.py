"""RS256 bearer verification: the header is judged before any key is looked up.

Order matters. The algorithm is checked from the header *before* a key is
chosen, so ``alg: none`` and HS256-signed-with-the-public-key never reach a
verifier; signature before claims, so no claim of an unsigned token is read.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from beacon.auth.errors import Reason, TokenRejected
from beacon.auth.families import Family, family_of, scopes_of
from beacon.auth.jwks import JwksCache

ALGORITHM = "RS256"
MAX_TOKEN_CHARS = 8192  # bounds the work an unauthenticated caller can make us do
DEFAULT_MAX_LIFETIME_S = 24 * 3600.0
_REQUIRED = ("exp", "sub", "iss", "aud")
MAX_QUESTIONS = 1_000_000

# Most specific first: InvalidSignatureError is a DecodeError subclass.
_REASONS: tuple[tuple[type[jwt.PyJWTError], Reason], ...] = (
    (jwt.InvalidSignatureError, Reason.BAD_SIGNATURE),
    (jwt.InvalidAlgorithmError, Reason.ALG_NOT_ALLOWED),
    (jwt.ExpiredSignatureError, Reason.EXPIRED),
    (jwt.ImmatureSignatureError, Reason.NOT_YET_VALID),
    (jwt.InvalidAudienceError, Reason.WRONG_AUDIENCE),
    (jwt.InvalidIssuerError, Reason.WRONG_ISSUER),
    (jwt.MissingRequiredClaimError, Reason.MISSING_CLAIM),
)


@dataclass(frozen=True, slots=True)
class Identity:
    sub: str
    tiers: frozenset[str]
    expires_at: datetime
    # The token's ``questions_per_day`` claim (README "Quota"); None: the server's setting.
    questions_per_day: int | None = None
    # README "Identity": a service token has scopes and no tiers, and reads no user's data.
    family: Family = Family.USER
    scopes: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class TokenPolicy:
    issuer: str
    audience: str
    known_tiers: frozenset[str]
    leeway_s: float = 30.0
    # The longest a token may live, by its own claims (exp - iat) and from now
    # (exp - now): a token minted for a century is refused, not trusted for one.
    max_lifetime_s: float = DEFAULT_MAX_LIFETIME_S


def bearer_token(authorization: str | None) -> str:
    """The token from an ``Authorization: Bearer …`` header value."""
    if not authorization:
        raise TokenRejected(Reason.MISSING_TOKEN, "no bearer token was sent")
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenRejected(Reason.MALFORMED, "the Authorization header is not 'Bearer <token>'")
    return token.strip()


def token_kid(token: str) -> str:
    """The header's ``kid`` after the header alone has been judged acceptable."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS or token.count(".") != 2:
        raise TokenRejected(Reason.MALFORMED, "the token is not a compact JWS")
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError as exc:
        raise TokenRejected(Reason.MALFORMED, "the token header cannot be decoded") from exc
    alg = header.get("alg")
    if alg != ALGORITHM:
        raise TokenRejected(Reason.ALG_NOT_ALLOWED, f"only {ALGORITHM} tokens are accepted")
    kid = header.get("kid")
    if kid is None:
        raise TokenRejected(Reason.UNKNOWN_KID, "the token names no key id")
    if not isinstance(kid, str) or not kid:
        raise TokenRejected(Reason.MALFORMED, "the token's key id is not a string")
    return kid


def verify_with_keys(token: str, keys: Mapping[str, RSAPublicKey], policy: TokenPolicy) -> Identity:
    """The whole verdict against a key set already in hand (the sync, file-loaded path)."""
    kid = token_kid(token)
    key = keys.get(kid)
    if key is None:
        raise TokenRejected(Reason.UNKNOWN_KID, "the token's key id is not in the key set")
    return verify_signed(token, key, policy)


def verify_signed(token: str, key: RSAPublicKey, policy: TokenPolicy) -> Identity:
    """Signature, then registered claims, then ``sub``, the family and its claims; pure."""
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            key,
            algorithms=[ALGORITHM],  # never taken from the header
            audience=policy.audience,
            issuer=policy.issuer,
            leeway=policy.leeway_s,
            options={"require": list(_REQUIRED)},
        )
    except jwt.PyJWTError as exc:
        reason = next((r for kind, r in _REASONS if isinstance(exc, kind)), Reason.MALFORMED)
        raise TokenRejected(reason, _message(reason)) from exc
    _check_lifetime(claims, policy)
    sub = claims["sub"]
    if not isinstance(sub, str) or not sub.strip():
        raise TokenRejected(Reason.MISSING_CLAIM, "the token carries no subject")
    expires_at = datetime.fromtimestamp(int(claims["exp"]), tz=UTC)
    if family_of(claims) is Family.SERVICE:
        return Identity(sub, frozenset(), expires_at, None, Family.SERVICE, scopes_of(claims))
    return Identity(
        sub=sub,
        tiers=_tiers(claims, policy.known_tiers),
        expires_at=expires_at,
        questions_per_day=_questions_per_day(claims),
    )


def _questions_per_day(claims: Mapping[str, Any]) -> int | None:
    """The optional per-user question quota; a claim that is not a whole number in
    [0, 1,000,000] is refused (0 asks nothing), never read as "no quota"."""
    if "questions_per_day" not in claims:
        return None
    value = claims["questions_per_day"]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_QUESTIONS:
        raise TokenRejected(Reason.MALFORMED, "the questions_per_day claim is not a whole number")
    return int(value)


def _check_lifetime(claims: Mapping[str, Any], policy: TokenPolicy) -> None:
    """PyJWT has read ``exp`` (and ``iat`` if sent) as integers; judge their span in
    integers (a 400-digit ``exp`` is refused here, never overflows a float)."""
    exp = int(claims["exp"])
    iat = claims.get("iat")
    from_now = exp - int(time.time()) > int(policy.max_lifetime_s + policy.leeway_s)
    if from_now or (iat is not None and exp - int(iat) > int(policy.max_lifetime_s)):
        raise TokenRejected(Reason.LIFETIME_TOO_LONG, _message(Reason.LIFETIME_TOO_LONG))


def _tiers(claims: Mapping[str, Any], known: frozenset[str]) -> frozenset[str]:
    if "tiers" not in claims:
        raise TokenRejected(Reason.MISSING_CLAIM, "the token carries no tiers claim")
    tiers = claims["tiers"]
    # An unknown name is refused rather than ignored: it means issuer and server
    # disagree about the tier names, and silently granting less hides that.
    if not isinstance(tiers, list) or not all(isinstance(t, str) and t in known for t in tiers):
        raise TokenRejected(Reason.BAD_TIERS, "the tiers claim is not a list of known tiers")
    return frozenset(tiers)


def _message(reason: Reason) -> str:
    return {
        Reason.BAD_SIGNATURE: "the token's signature does not verify",
        Reason.ALG_NOT_ALLOWED: f"only {ALGORITHM} tokens are accepted",
        Reason.EXPIRED: "the token has expired",
        Reason.NOT_YET_VALID: "the token is not valid yet",
        Reason.WRONG_AUDIENCE: "the token is for another audience",
        Reason.WRONG_ISSUER: "the token is from another issuer",
        Reason.MISSING_CLAIM: "the token lacks a required claim",
        Reason.LIFETIME_TOO_LONG: "the token lives longer than this server accepts",
    }.get(reason, "the token is malformed")


VERIFIED_MAX = 4096  # bearers remembered per process (oldest forgotten first)


class Verifier:
    """Verifies bearers against a JWKS file or URL; async because the URL fetch is."""

    def __init__(
        self,
        jwks_source: str | JwksCache,
        *,
        issuer: str,
        audience: str,
        known_tiers: frozenset[str],
        leeway_s: float = 30.0,
        ttl_s: float = 300.0,
        max_lifetime_s: float = DEFAULT_MAX_LIFETIME_S,
    ) -> None:
        self.keys = (
            jwks_source
            if isinstance(jwks_source, JwksCache)
            else JwksCache(jwks_source, ttl_s=ttl_s)
        )
        self.policy = TokenPolicy(
            issuer, audience, frozenset(known_tiers), leeway_s, max_lifetime_s
        )
        # Bearers already verified, by their text, with the key that verified them: a
        # session's requests carry one token, and its signature and claims need
        # checking once (~0.3 ms a request). A key the JWKS no longer serves is a miss.
        self._verified: dict[str, tuple[RSAPublicKey, int, Identity]] = {}

    async def verify(self, token: str) -> Identity:
        kid = token_kid(token)  # judged before any fetch: junk never costs a JWKS request
        key = await self.keys.key(kid)
        known = self._verified.get(token)
        if known is not None and known[0] is key:
            # Only expiry changes with time (a token past its nbf, its iat and the
            # lifetime cap stays past them); judged as PyJWT judges it.
            if known[1] <= time.time() - self.policy.leeway_s:
                del self._verified[token]
                raise TokenRejected(Reason.EXPIRED, _message(Reason.EXPIRED))
            return known[2]
        identity = verify_signed(token, key, self.policy)
        if len(self._verified) >= VERIFIED_MAX:
            self._verified.pop(next(iter(self._verified)))  # the oldest
        self._verified[token] = (key, int(identity.expires_at.timestamp()), identity)
        return identity

    async def verify_header(self, authorization: str | None) -> Identity:
        return await self.verify(bearer_token(authorization))
