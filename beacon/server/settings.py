"""Chat server settings, read once from the environment at start-up.

A missing or malformed setting refuses the start with a message naming it:
no silent default for anything that decides who may see what.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from beacon.adjudication import sentinel_from_env
from beacon.loop.filters import NO_FILTERS, FilterError, Filters, load_filters
from beacon.store.crypto import Keyring, keyring_from_env
from beacon.store.errors import KeyringError
from beacon.wire.contract import ContractError, UpstreamContract, load_contract


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
    # A file path (SQLite, one process) or a postgresql:// URL (several processes).
    db: str
    keyring: Keyring
    answer_deadline_s: float
    heartbeat_s: float
    # Limits before work (README "Limits"): a body over the cap is a 413, read no
    # further; the request head (line and headers) over its cap is refused by h11.
    max_body_bytes: int = 256 * 1024
    max_header_bytes: int = 32 * 1024
    # Connection limits (beacon/server/limits.py): a request head not complete within
    # head_timeout_s is closed; an idle keep-alive connection after keep_alive_s; open
    # connections past max_connections are answered 503. None: derived from the fd limit.
    head_timeout_s: float = 10.0
    keep_alive_s: int = 5  # whole seconds: uvicorn's timeout_keep_alive is an int
    max_connections: int | None = None
    # Admission control: past this many turns running in this process, a new turn is
    # answered 503 busy with Retry-After at once, not started late (README "Limits").
    max_turns: int = 100
    # The longest a bearer may live (exp - iat, and exp - now): a token minted for
    # a century is a stolen credential waiting to happen.
    token_max_lifetime_s: float = 24 * 3600.0
    # `X-Beacon-Scenario` is a development switch: refused (400) unless allowed.
    scenarios_allowed: bool = False
    # How long a turn waits for an unreachable store (a restart) before save_failed.
    store_retry_s: float = 30.0
    # Turns started and load-mores, as token buckets (README "Limits"; 0 = off): per
    # user (its `sub`; shared by every process on PostgreSQL) and per process. The
    # bursts hold a load bench's 200 turns at once; the refill is what a person never reaches.
    rate_turns_per_minute: int = 60
    rate_turns_burst: int = 300
    rate_process_turns_per_minute: int = 600
    rate_process_turns_burst: int = 600
    # An upstream Beacon did not write (README "Front another MCP server"): its declared
    # contract (BEACON_UPSTREAM_CONTRACT, a YAML file), the bearer it is sent
    # (BEACON_UPSTREAM_TOKEN; none by default: a caller's token never leaves Beacon), and
    # the tools a start-up drift disabled (BEACON_UPSTREAM_DISABLED, comma-separated,
    # set by `beacon serve --allow-drift`). None: the stub, with Beacon's own envelope.
    upstream_contract: UpstreamContract | None = None
    upstream_token: str | None = None
    upstream_disabled: frozenset[str] = frozenset()
    # Questions a user may ask a UTC day (README "Quota"); a token's questions_per_day
    # claim overrides it. None (BEACON_QUOTA_PER_DAY unset): no quota.
    quota_per_day: int | None = None
    # Safety filters (README "Safety filters"): BEACON_FILTERS' module:attribute names and
    # the beacon.filters entry points, loaded once here so a bad name refuses the start.
    filters: Filters = NO_FILTERS


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


def _bounded_int(environ: dict[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = environ.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise SettingsError(f"{name} must be a whole number in [{low}, {high}], got {raw!r}")
    return int(raw)


def _scenarios(environ: dict[str, str]) -> bool:
    raw = environ.get("BEACON_SCENARIOS", "")
    if raw not in {"", "allow", "deny"}:
        raise SettingsError(f"BEACON_SCENARIOS must be 'allow' or 'deny', got {raw!r}")
    return raw == "allow"


def _contract(environ: dict[str, str]) -> UpstreamContract | None:
    path = environ.get("BEACON_UPSTREAM_CONTRACT")
    if not path:
        return None
    try:
        return load_contract(path)
    except ContractError as exc:
        raise SettingsError(f"BEACON_UPSTREAM_CONTRACT: {exc}") from exc


def _disabled(environ: dict[str, str], contract: UpstreamContract | None) -> frozenset[str]:
    names = frozenset(n.strip() for n in environ.get("BEACON_UPSTREAM_DISABLED", "").split(","))
    names -= {""}
    unknown = sorted(names - set(contract.tools if contract else ()))
    if unknown:
        raise SettingsError(
            f"BEACON_UPSTREAM_DISABLED names tools the upstream contract does not: {unknown}"
        )
    return names


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
    contract = _contract(env)
    try:
        filters = load_filters(env.get("BEACON_FILTERS"))
    except FilterError as exc:
        raise SettingsError(str(exc)) from exc
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
        db=env["BEACON_DB"],
        keyring=keyring,
        answer_deadline_s=_seconds(env, "BEACON_ANSWER_DEADLINE_S", 120.0),
        heartbeat_s=_seconds(env, "BEACON_HEARTBEAT_S", 10.0),
        max_body_bytes=_bounded_int(env, "BEACON_MAX_BODY_BYTES", 256 * 1024, 1024, 64 << 20),
        max_header_bytes=_bounded_int(env, "BEACON_MAX_HEADER_BYTES", 32 * 1024, 16384, 1 << 20),
        head_timeout_s=_seconds(env, "BEACON_HEAD_TIMEOUT_S", 10.0),
        keep_alive_s=_bounded_int(env, "BEACON_KEEP_ALIVE_S", 5, 1, 600),
        max_connections=(
            _bounded_int(env, "BEACON_MAX_CONNECTIONS", 0, 1, 1 << 20)
            if "BEACON_MAX_CONNECTIONS" in env
            else None
        ),
        max_turns=_bounded_int(env, "BEACON_MAX_TURNS", 100, 1, 100_000),
        token_max_lifetime_s=_bounded_int(
            env, "BEACON_TOKEN_MAX_LIFETIME_S", 24 * 3600, 60, 30 * 24 * 3600
        ),
        scenarios_allowed=_scenarios(env),
        store_retry_s=_seconds(env, "BEACON_STORE_RETRY_S", 30.0),
        rate_turns_per_minute=_bounded_int(env, "BEACON_RATE_TURNS_PER_MINUTE", 60, 0, 100_000),
        rate_turns_burst=_bounded_int(env, "BEACON_RATE_TURNS_BURST", 300, 1, 100_000),
        rate_process_turns_per_minute=_bounded_int(
            env, "BEACON_RATE_PROCESS_TURNS_PER_MINUTE", 600, 0, 1_000_000
        ),
        rate_process_turns_burst=_bounded_int(
            env, "BEACON_RATE_PROCESS_TURNS_BURST", 600, 1, 1_000_000
        ),
        upstream_contract=contract,
        upstream_token=env.get("BEACON_UPSTREAM_TOKEN") or None,
        upstream_disabled=_disabled(env, contract),
        quota_per_day=(
            _bounded_int(env, "BEACON_QUOTA_PER_DAY", 0, 1, 1_000_000)
            if env.get("BEACON_QUOTA_PER_DAY")
            else None
        ),
        filters=filters,
    )
