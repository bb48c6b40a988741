"""A bearer is verified once per key, and its expiry is judged on every request
(``Verifier.verify``'s memory of verified bearers, issue 32)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import beacon.auth.verify as verify_module
from beacon.auth import JwksCache, Reason, TokenRejected, Verifier
from harness.forged_tokens import AUD, ISS, KEY_1, KEY_2, KNOWN_TIERS, jwks, mint


def _verifier(path: Path) -> Verifier:
    return Verifier(JwksCache(path, ttl_s=300), issuer=ISS, audience=AUD, known_tiers=KNOWN_TIERS)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    checked: list[str] = []
    real = verify_module.verify_signed

    def counted(token: str, key: Any, policy: Any) -> Any:
        checked.append(token)
        return real(token, key, policy)

    monkeypatch.setattr(verify_module, "verify_signed", counted)
    return checked


async def test_a_sessions_bearer_has_its_signature_checked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(jwks((KEY_1, "k1"))))
    verifier, checked = _verifier(path), _counting(monkeypatch)
    token, other = mint(), mint(sub="user-2")
    for _ in range(3):
        assert (await verifier.verify(token)).sub == "user-1"
    assert (await verifier.verify(other)).sub == "user-2"
    assert checked == [token, other]


async def test_a_remembered_bearer_is_refused_once_it_expires(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(jwks((KEY_1, "k1"))))
    verifier = _verifier(path)
    issued = int(time.time())
    token = mint(iat=issued, nbf=issued, exp=issued + 60)
    assert (await verifier.verify(token)).sub == "user-1"
    monkeypatch.setattr("beacon.auth.verify.time.time", lambda: issued + 60 + 29)
    assert (await verifier.verify(token)).sub == "user-1"  # within the leeway
    # 60 s of life and the 30 s leeway later, as PyJWT itself would judge it.
    monkeypatch.setattr("beacon.auth.verify.time.time", lambda: issued + 60 + 30 + 1)
    with pytest.raises(TokenRejected) as caught:
        await verifier.verify(token)
    assert caught.value.reason is Reason.EXPIRED


async def test_a_bearer_remembered_under_one_key_is_checked_again_under_its_successor(
    tmp_path: Path,
) -> None:
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(jwks((KEY_1, "k1"))))
    clock = [1000.0]
    verifier = Verifier(
        JwksCache(path, ttl_s=300, clock=lambda: clock[0]),
        issuer=ISS,
        audience=AUD,
        known_tiers=KNOWN_TIERS,
    )
    token = mint()
    assert (await verifier.verify(token)).sub == "user-1"
    # The issuer replaces the key behind kid k1: the remembered verdict no longer holds.
    path.write_text(json.dumps(jwks((KEY_2, "k1"))))
    clock[0] += 301
    with pytest.raises(TokenRejected) as caught:
        await verifier.verify(token)
    assert caught.value.reason is Reason.BAD_SIGNATURE
