"""Hand-forged bearer tokens: every way a token can be wrong, and a key to sign them.

Shared by the unit tests of the verifier and the auth matrix over HTTP, so
both refuse exactly the same tokens. PyJWT will not make the malicious ones
(``alg: none``, HS256 keyed with the public PEM), so those are assembled here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import RSAAlgorithm

from beacon.auth import Reason, TokenPolicy

ISS, AUD = "beacon-stub", "beacon"
KNOWN_TIERS = frozenset({"essentials", "professional", "enterprise", "enterprise_ai"})
POLICY = TokenPolicy(ISS, AUD, KNOWN_TIERS, leeway_s=30)


def _rsa() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


KEY_1, KEY_2, OTHER = _rsa(), _rsa(), _rsa()


def jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    entry = dict(RSAAlgorithm.to_jwk(key.public_key(), as_dict=True))
    entry.update({"kid": kid, "alg": "RS256", "use": "sig"})
    return entry


def jwks(*pairs: tuple[rsa.RSAPrivateKey, str]) -> dict[str, Any]:
    return {"keys": [jwk(key, kid) for key, kid in pairs]}


def claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    base: dict[str, Any] = {
        "iss": ISS,
        "aud": AUD,
        "sub": "user-1",
        "tiers": ["professional"],
        "iat": now,
        "nbf": now,
        "exp": now + 600,
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not _DROP}


_DROP = object()


def mint(key: Any = KEY_1, kid: str | None = "k1", alg: str = "RS256", **overrides: Any) -> str:
    headers = {"kid": kid} if kid is not None else {}
    return jwt.encode(claims(**overrides), key, algorithm=alg, headers=headers)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def forge(header: dict[str, Any], payload: dict[str, Any], sign: Any = None) -> str:
    """A token assembled by hand: PyJWT refuses to make the malicious ones for us."""
    signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(payload).encode())}"
    signature = sign(signing_input.encode()) if sign else b""
    return f"{signing_input}.{_b64(signature)}"


PUBLIC_PEM = KEY_1.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
)
# --- rejected, one reason code each -----------------------------------------


def now() -> int:
    """The time a token is minted at: a case minted ten minutes "in the future" must be
    in the future when it is checked, however long after import a loaded run gets to it."""
    return int(time.time())


def _hs256_with_public_pem(data: bytes) -> bytes:
    return hmac.new(PUBLIC_PEM, data, hashlib.sha256).digest()


REJECTIONS = [
    pytest.param(lambda: mint(exp=now() - 120), Reason.EXPIRED, id="expired-past-leeway"),
    pytest.param(
        lambda: mint(exp=now() + 2 * 24 * 3600), Reason.LIFETIME_TOO_LONG, id="lives-two-days"
    ),
    pytest.param(lambda: mint(nbf=now() + 600), Reason.NOT_YET_VALID, id="nbf-in-the-future"),
    pytest.param(lambda: mint(iat=now() + 600), Reason.NOT_YET_VALID, id="iat-in-the-future"),
    pytest.param(lambda: mint(kid="k9"), Reason.UNKNOWN_KID, id="unknown-kid"),
    pytest.param(lambda: mint(kid=None), Reason.UNKNOWN_KID, id="no-kid-header"),
    pytest.param(
        lambda: forge({"alg": "none", "kid": "k1"}, claims()),
        Reason.ALG_NOT_ALLOWED,
        id="alg-none",
    ),
    pytest.param(
        lambda: forge({"alg": "HS256", "kid": "k1"}, claims(), _hs256_with_public_pem),
        Reason.ALG_NOT_ALLOWED,
        id="hs256-signed-with-the-public-key",
    ),
    pytest.param(lambda: mint(alg="RS512"), Reason.ALG_NOT_ALLOWED, id="rs512"),
    pytest.param(lambda: mint(alg="PS256"), Reason.ALG_NOT_ALLOWED, id="ps256-same-rsa-key"),
    pytest.param(
        lambda: mint(key=ec.generate_private_key(ec.SECP256R1()), alg="ES256"),
        Reason.ALG_NOT_ALLOWED,
        id="es256",
    ),
    pytest.param(lambda: mint(key=OTHER), Reason.BAD_SIGNATURE, id="signed-by-another-key"),
    pytest.param(
        lambda: forge(
            {"alg": "RS256", "kid": "k1", "jwk": jwk(OTHER, "k1")},
            claims(),
            lambda data: jwt.get_algorithm_by_name("RS256").sign(data, OTHER),
        ),
        Reason.BAD_SIGNATURE,
        id="embedded-jwk-header-is-never-trusted",
    ),
    pytest.param(
        lambda: _swap_payload(mint(), claims(tiers=["enterprise_ai"])),
        Reason.BAD_SIGNATURE,
        id="payload-swapped-after-signing",
    ),
    pytest.param(lambda: mint(aud="someone-else"), Reason.WRONG_AUDIENCE, id="wrong-audience"),
    pytest.param(lambda: mint(iss="evil"), Reason.WRONG_ISSUER, id="wrong-issuer"),
    pytest.param(lambda: mint(sub=_DROP), Reason.MISSING_CLAIM, id="missing-sub"),
    pytest.param(lambda: mint(sub="  "), Reason.MISSING_CLAIM, id="blank-sub"),
    pytest.param(lambda: mint(exp=_DROP), Reason.MISSING_CLAIM, id="missing-exp"),
    pytest.param(lambda: mint(aud=_DROP), Reason.MISSING_CLAIM, id="missing-aud"),
    pytest.param(lambda: mint(iss=_DROP), Reason.MISSING_CLAIM, id="missing-iss"),
    pytest.param(lambda: mint(tiers=_DROP), Reason.MISSING_CLAIM, id="missing-tiers"),
    pytest.param(lambda: mint(tiers="enterprise_ai"), Reason.BAD_TIERS, id="tiers-a-string"),
    pytest.param(lambda: mint(tiers=["platinum"]), Reason.BAD_TIERS, id="tiers-unknown-name"),
    pytest.param(lambda: mint(tiers=["core"]), Reason.BAD_TIERS, id="tiers-a-capability-name"),
    pytest.param(lambda: mint(tiers=[1]), Reason.BAD_TIERS, id="tiers-not-strings"),
    pytest.param(lambda: mint(tiers={"a": 1}), Reason.BAD_TIERS, id="tiers-an-object"),
    pytest.param(lambda: mint(typ="robot"), Reason.BAD_TYPE, id="typ-of-no-family"),
    pytest.param(lambda: mint(typ="service"), Reason.BAD_SCOPE, id="service-without-scope"),
    pytest.param(
        lambda: mint(typ="service", scope="probe admin"), Reason.BAD_SCOPE, id="scope-unknown"
    ),
    pytest.param(lambda: mint(sub=42), Reason.MALFORMED, id="sub-not-a-string"),
    pytest.param(lambda: mint(exp="soon"), Reason.MALFORMED, id="exp-not-a-number"),
    pytest.param(lambda: "", Reason.MALFORMED, id="empty-string"),
    pytest.param(lambda: "not-a-jwt", Reason.MALFORMED, id="no-dots"),
    pytest.param(lambda: "a.b.c", Reason.MALFORMED, id="three-junk-segments"),
    pytest.param(lambda: mint() + ".x", Reason.MALFORMED, id="four-segments"),
    pytest.param(lambda: "e" * 9000 + ".a.b", Reason.MALFORMED, id="oversized"),
    pytest.param(
        lambda: forge({"alg": "RS256", "kid": 7}, claims()), Reason.MALFORMED, id="kid-not-str"
    ),
]


def _swap_payload(token: str, payload: dict[str, Any]) -> str:
    header, _, signature = token.split(".")
    return f"{header}.{_b64(json.dumps(payload).encode())}.{signature}"
