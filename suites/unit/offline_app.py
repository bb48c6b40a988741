"""The chat app built as ``beacon serve`` builds it, its upstreams on a closed port: for
tests that read its routes and OpenAPI document without serving a turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI

from beacon.server import app as server_app
from beacon.server.settings import settings_from_env
from beacon.store.crypto import new_key_slot


def offline_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metrics: str = "on") -> FastAPI:
    monkeypatch.setenv("BEACON_METRICS", metrics)
    env = {
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/.well-known/jwks.json",
        "BEACON_DB": str(tmp_path / "beacon.sqlite3"),
        "BEACON_KEYS": new_key_slot("t1"),
    }
    return server_app.create_app(settings_from_env(env))
