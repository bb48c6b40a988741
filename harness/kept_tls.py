"""One default TLS context per process for httpx and httpx2 clients made without one.

httpx builds a fresh verifying context — the CA bundle read and parsed, ~23 ms of
CPU here — for every client made with its default ``verify``, and a one-shot call
(``httpx.get``, ``httpx.post``, ``httpx.stream``) makes a client each time. The
suite's tests and helpers make ~1,000 of them in a quarter of the e2e tests (21
CPU-s of one worker's). Beacon's own clients keep one context per process
(``beacon.wire.connections.client_tls``); this keeps httpx's default one the same
way in the processes that call ``keep_default_tls`` (the pytest workers), per CA
setting of the environment, so a test that points ``SSL_CERT_FILE`` or
``SSL_CERT_DIR`` elsewhere still gets a context built from it. Anything other than
the default (``verify=False``, a context, a path, a client certificate) is built as
httpx builds it.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable
from types import ModuleType
from typing import Any

_KEPT: dict[tuple[str, str | None, str | None], ssl.SSLContext] = {}


def _keeping(name: str, make: Callable[..., ssl.SSLContext]) -> Callable[..., ssl.SSLContext]:
    def create_ssl_context(
        verify: Any = True, cert: Any = None, trust_env: bool = True
    ) -> ssl.SSLContext:
        if verify is not True or cert is not None or trust_env is not True:
            return make(verify=verify, cert=cert, trust_env=trust_env)
        key = (name, os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
        kept = _KEPT.get(key)
        if kept is None:
            kept = _KEPT[key] = make(verify=verify, cert=cert, trust_env=trust_env)
        return kept

    create_ssl_context.kept = True  # type: ignore[attr-defined]
    return create_ssl_context


def keep_default_tls() -> None:
    """Idempotent. The transports look the function up in their own module."""
    import httpx._transports.default as httpx_transports
    import httpx2._transports.default as httpx2_transports

    for name, module in (("httpx", httpx_transports), ("httpx2", httpx2_transports)):
        _install(name, module)


def _install(name: str, module: ModuleType) -> None:
    made = getattr(module, "create_ssl_context")  # noqa: B009 (not re-exported)
    if not getattr(made, "kept", False):
        setattr(module, "create_ssl_context", _keeping(name, made))  # noqa: B010
