"""The suite's workers keep httpx's default TLS context (harness/kept_tls.py): every
client made with the default ``verify`` shares one context, per CA setting of the
environment, and anything else is built as httpx builds it."""

from __future__ import annotations

import ssl
from pathlib import Path

import certifi
import httpx
import httpx2
import pytest

from harness.kept_tls import keep_default_tls


def _context(client: httpx.Client | httpx2.Client) -> ssl.SSLContext:
    # The one place each library keeps it: its transport's connection pool.
    context = client._transport._pool._ssl_context  # type: ignore[union-attr]
    assert isinstance(context, ssl.SSLContext)
    return context


@pytest.fixture(autouse=True)
def _kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    keep_default_tls()


def test_clients_made_with_the_default_share_one_verifying_context() -> None:
    for library in (httpx, httpx2):
        with library.Client() as first, library.Client() as second:
            assert _context(first) is _context(second)
            assert _context(first).verify_mode is ssl.CERT_REQUIRED
            assert _context(first).check_hostname


def test_a_ca_file_named_by_the_environment_gets_its_own_context(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with httpx.Client() as plain:
        default = _context(plain)
    bundle = tmp_path / "ca.pem"
    bundle.write_bytes(Path(certifi.where()).read_bytes())
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    with httpx.Client() as pointed, httpx.Client() as again:
        assert _context(pointed) is not default
        assert _context(pointed) is _context(again)
    monkeypatch.delenv("SSL_CERT_FILE")
    with httpx.Client() as back:
        assert _context(back) is default


def test_anything_but_the_default_is_built_as_httpx_builds_it() -> None:
    own = ssl.create_default_context()
    with httpx.Client(verify=own) as given:
        assert _context(given) is own
    with httpx.Client(verify=False) as first, httpx.Client(verify=False) as second:
        assert _context(first) is not _context(second)
        assert _context(first).verify_mode is ssl.CERT_NONE
    with httpx.Client(trust_env=False) as untrusting, httpx.Client() as trusting:
        assert _context(untrusting) is not _context(trusting)
