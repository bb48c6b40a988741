"""Verified identity: RS256 bearer tokens checked against a JWKS (file or URL).

Its names load with their modules on first use (``beacon.lazy``): importing one
of its modules alone loads that module alone."""

from typing import TYPE_CHECKING

from beacon.lazy import exported

if TYPE_CHECKING:
    from beacon.auth.errors import AuthError, JwksUnavailable, Reason, TokenRejected
    from beacon.auth.families import SCOPES, Family
    from beacon.auth.jwks import JwksCache, KeySet, load_jwks_file, parse_jwks
    from beacon.auth.verify import (
        Identity,
        TokenPolicy,
        Verifier,
        bearer_token,
        token_kid,
        verify_signed,
        verify_with_keys,
    )

__all__ = [
    "SCOPES",
    "AuthError",
    "Family",
    "Identity",
    "JwksCache",
    "JwksUnavailable",
    "KeySet",
    "Reason",
    "TokenPolicy",
    "TokenRejected",
    "Verifier",
    "bearer_token",
    "load_jwks_file",
    "parse_jwks",
    "token_kid",
    "verify_signed",
    "verify_with_keys",
]

if not TYPE_CHECKING:  # mypy reads the imports above; an unknown name stays an error
    __getattr__, __dir__ = exported(__name__, __all__, ["errors", "families", "jwks", "verify"])
