"""The router adds no slashes: an API path ending in one is a 404, never a redirect
onto a route (an id ending in an escaped "/" was sent to its id route); the panel's
and the demo hosts' bare folder names still lead into their folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from offline_app import offline_app


def test_an_api_path_with_a_trailing_slash_is_no_route_and_no_redirect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(offline_app(tmp_path, monkeypatch)) as client:
        assert client.get("/healthz/", follow_redirects=False).status_code == 404
        # Without a bearer the edge refuses first (with one: suites/e2e/test_id_routes.py).
        for path in ("/v1/projects/", "/v1/sessions/s_1/"):
            reply = client.get(path, follow_redirects=False)
            assert reply.status_code == 401 and "location" not in reply.headers, path


def test_the_panel_and_hosts_folders_are_entered_from_their_bare_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(offline_app(tmp_path, monkeypatch)) as client:
        panel = client.get("/panel?lang=de", follow_redirects=False)
        hosts = client.get("/hosts", follow_redirects=False)
        page = client.get("/panel/")
    assert (panel.status_code, panel.headers["location"]) == (307, "/panel/?lang=de")
    assert (hosts.status_code, hosts.headers["location"]) == (307, "/hosts/")
    assert page.status_code == 200 and "<html" in page.text.lower()
