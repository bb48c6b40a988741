"""The auth package's one exception root, and the stable reason codes.

    AuthError                  no verified identity could be produced
     ├── TokenRejected         the bearer is refused: the caller's fault (401)
     └── JwksUnavailable       our key source could not be read: the system's
                               fault (503), never blamed on the token

Every error carries a ``reason`` from :class:`Reason`; the server answers
``{"error": {"code": "auth_<reason>", "message": ...}}`` using ``.code`` and
``.http_status``. Messages never echo token content back to the caller.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Stable reason codes: clients and probes match on these, never on messages."""

    MISSING_TOKEN = "missing_token"
    MALFORMED = "malformed"
    ALG_NOT_ALLOWED = "alg_not_allowed"
    UNKNOWN_KID = "unknown_kid"
    BAD_SIGNATURE = "bad_signature"
    EXPIRED = "expired"
    NOT_YET_VALID = "not_yet_valid"
    WRONG_AUDIENCE = "wrong_audience"
    WRONG_ISSUER = "wrong_issuer"
    MISSING_CLAIM = "missing_claim"
    BAD_TIERS = "bad_tiers"
    BAD_TYPE = "bad_type"
    BAD_SCOPE = "bad_scope"
    LIFETIME_TOO_LONG = "lifetime_too_long"
    JWKS_UNAVAILABLE = "jwks_unavailable"


class AuthError(Exception):
    """Root of every error raised by ``beacon.auth``."""

    http_status = 401

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    @property
    def code(self) -> str:
        return f"auth_{self.reason.value}"

    def to_body(self) -> dict[str, dict[str, str]]:
        """The JSON error body the HTTP edge sends."""
        return {"error": {"code": self.code, "message": self.message}}


class TokenRejected(AuthError):
    """The token failed a check; retrying the same token can never succeed."""


class JwksUnavailable(AuthError):
    """The JWKS could not be fetched or parsed.

    503 rather than 401: a 401 tells clients to throw their token away, but the
    token may be fine — it is our key source that is down. Still fail closed.
    """

    http_status = 503

    def __init__(self, message: str) -> None:
        super().__init__(Reason.JWKS_UNAVAILABLE, message)
