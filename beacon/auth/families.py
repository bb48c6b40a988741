"""The two token families: end-user tokens and service tokens (CI, probes, integrations).

The family is the ``typ`` claim, not a second audience or issuer: both families
are for this one server and signed by the one key set it already trusts, so a
separate audience would only add a second setting to keep in step. An absent
``typ`` is a user token (every token minted before service tokens existed);
any other value than ``user`` or ``service`` is refused, never guessed at.

A service token carries a ``scope`` claim, space-separated as OAuth writes it
(RFC 8693 §4.2), each scope one this server knows; it carries no tiers and reads
no user's data (``beacon/server/access.py`` says which routes take which family).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from beacon.auth.errors import Reason, TokenRejected


class Family(StrEnum):
    USER = "user"
    SERVICE = "service"


# verify: CI checks against a deployed server; probe: liveness probes that prove
# a service credential works; metrics: scrapers (README "Identity").
SCOPES = frozenset({"verify", "probe", "metrics"})
MAX_SCOPES = 16


def family_of(claims: Mapping[str, Any]) -> Family:
    typ = claims.get("typ", Family.USER.value)
    if typ not in (Family.USER.value, Family.SERVICE.value):
        raise TokenRejected(Reason.BAD_TYPE, "the typ claim names no token family")
    return Family(typ)


def scopes_of(claims: Mapping[str, Any]) -> frozenset[str]:
    """A service token's scopes; an unknown one is refused, as an unknown tier is:
    issuer and server disagreeing about names must show, not grant less quietly."""
    scope = claims.get("scope")
    if not isinstance(scope, str):
        raise TokenRejected(Reason.BAD_SCOPE, "a service token carries a scope string")
    names = scope.split()
    if not names or len(names) > MAX_SCOPES or not all(name in SCOPES for name in names):
        raise TokenRejected(Reason.BAD_SCOPE, "the scope claim is not a list of known scopes")
    return frozenset(names)
