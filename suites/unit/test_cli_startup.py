"""`beacon` starts without loading what only some of its commands use: every command
(`--version` too) loads the command table first, and the suite starts ~300 of them."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from types import ModuleType

import pytest

import beacon.auth
import beacon.store
from beacon.cli.store_cmd import RESEAL_BATCH
from beacon.store.reseal import DEFAULT_BATCH

# Libraries some commands need and the command table does not: the HTTP client, the
# wire's models, the cipher, the JWT library, the console, the MCP SDK, the web stack.
NOT_AT_START = (
    "httpx",
    "pydantic",
    "cryptography",
    "jwt",
    "rich.console",
    "mcp",
    "fastapi",
    "uvicorn",
    "starlette.applications",
    "psycopg",
)


def loaded_after(*imports: str) -> set[str]:
    """The modules a fresh interpreter holds after importing ``imports``."""
    code = "import json, sys\n" + "".join(f"import {m}\n" for m in imports)
    code += "print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(json.loads(done.stdout))


def test_the_command_table_loads_none_of_the_libraries_only_some_commands_use() -> None:
    # beacon.cli.main is what the `beacon` console script imports before any command runs.
    loaded = loaded_after("beacon.cli.main")
    assert "beacon.cli.main" in loaded
    assert sorted(loaded & set(NOT_AT_START)) == []


def test_a_module_of_the_store_or_auth_packages_loads_alone() -> None:
    loaded = loaded_after("beacon.store.backends", "beacon.store.errors", "beacon.auth.families")
    assert {"beacon.store.backends", "beacon.auth.families"} <= loaded
    assert not {"cryptography", "jwt", "httpx", "beacon.store.crypto", "beacon.auth.jwks"} & loaded


def _modules_of(package: ModuleType) -> list[ModuleType]:
    return [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
    ]


@pytest.mark.parametrize("package", [beacon.auth, beacon.store], ids=lambda p: p.__name__)
def test_every_name_a_package_lists_is_the_object_its_module_defines(package: ModuleType) -> None:
    modules = _modules_of(package)
    for name in package.__all__:
        value = getattr(package, name)
        homes = [m for m in modules if m.__dict__.get(name) is value]
        assert homes, f"{package.__name__}.{name} is no module's {name}"
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        _ = package.nothing_here


def test_a_module_is_still_imported_through_its_package() -> None:
    from beacon.store import backends

    assert backends.is_postgres("postgresql://x/y") and not backends.is_postgres("a.sqlite3")


def test_store_reseal_batch_default_is_the_resealers() -> None:
    assert RESEAL_BATCH == DEFAULT_BATCH == 500
