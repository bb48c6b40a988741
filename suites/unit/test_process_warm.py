"""A chat server process builds what every first turn would otherwise build on the
event loop — its TLS context and CLDR's plural data for the five locales — before
it answers its first request."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from offline_app import offline_app

from beacon.lexicon import plurals
from beacon.wire.connections import client_tls


def test_a_served_process_has_built_its_tls_context_and_plural_data_before_any_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client_tls.cache_clear()
    plurals._locale.cache_clear()
    app = offline_app(tmp_path, monkeypatch)
    assert client_tls.cache_info().currsize == 0

    with TestClient(app):  # the lifespan's start-up, no request made
        assert client_tls.cache_info().currsize == 1
        # en, ko, ja, de, es (SPEC §4)
        assert plurals._locale.cache_info().currsize == 5


def test_every_client_of_a_process_shares_its_one_tls_context() -> None:
    assert client_tls() is client_tls()
    assert client_tls().verify_mode.name == "CERT_REQUIRED"
