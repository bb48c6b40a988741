"""Chat server settings, read once from the environment at start-up.

A missing or malformed setting refuses the start with a message naming it:
no silent default for anything that decides who may see what.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from beacon.adjudication import sentinel_from_env
from beacon.store.crypto import Keyring, keyring_from_env
from beacon.store.errors import KeyringError


class SettingsError(ValueError):
    """A required setting is missing or malformed: the server refuses to start."""


@dataclass(frozen=True, slots=True)
class Settings:
    mcp_url: str
    llm_base_url: str
    llm_api_key: str
    llm_model: str
    sentinel: int
    mcp_timeout_s: float
    llm_timeout_s: float
    jwks: str
    jwt_issuer: str
    jwt_audience: str
    db_path: Path
    keyring: Keyring
    answer_deadline_s: float
    heartbeat_s: float


def _seconds(environ: dict[str, str], name: str, default: float) -> float:
    raw = environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise SettingsError(f"{name} must be a number of seconds, got {raw!r}") from exc
    if not 0 < value <= 600:
        raise SettingsError(f"{name} must be in (0, 600], got {raw!r}")
    return value


def settings_from_env(environ: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if environ is None else environ)
    required = ("BEACON_MCP_URL", "BEACON_LLM_BASE_URL", "BEACON_JWKS", "BEACON_DB", "BEACON_KEYS")
    missing = [name for name in required if not env.get(name)]
    if missing:
        raise SettingsError(f"missing settings: {', '.join(missing)}")
    try:
        keyring = keyring_from_env(env)
    except KeyringError as exc:
        raise SettingsError(f"BEACON_KEYS: {exc}") from exc
    return Settings(
        mcp_url=env["BEACON_MCP_URL"],
        llm_base_url=env["BEACON_LLM_BASE_URL"],
        llm_api_key=env.get("BEACON_LLM_API_KEY", "beacon-local"),
        llm_model=env.get("BEACON_LLM_MODEL", "beacon-rules"),
        sentinel=sentinel_from_env(env),
        mcp_timeout_s=_seconds(env, "BEACON_MCP_TIMEOUT_S", 30.0),
        llm_timeout_s=_seconds(env, "BEACON_LLM_TIMEOUT_S", 60.0),
        jwks=env["BEACON_JWKS"],
        jwt_issuer=env.get("BEACON_JWT_ISSUER", "beacon-stub"),
        jwt_audience=env.get("BEACON_JWT_AUDIENCE", "beacon"),
        db_path=Path(env["BEACON_DB"]),
        keyring=keyring,
        answer_deadline_s=_seconds(env, "BEACON_ANSWER_DEADLINE_S", 120.0),
        heartbeat_s=_seconds(env, "BEACON_HEARTBEAT_S", 10.0),
    )
