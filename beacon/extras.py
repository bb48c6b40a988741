"""Which optional part of Beacon a missing module belongs to, and the one line that says so.

A plain ``pip install beacon`` is the chat server, its stubs and its CLI. Three
parts are extras (pyproject.toml): ``beacon[postgres]`` (psycopg with its
bundled libpq, for a shared store), ``beacon[harness]`` (JSON Schema, the
import-graph reader and the wheel builder, for sweep, gates, audit, probes and
verify) and ``beacon[otlp]`` (the OTLP/HTTP span exporter, for
OTEL_EXPORTER_OTLP_ENDPOINT). A command that reaches one without it gets this
line, never a traceback; a server without ``otlp`` logs it once and keeps serving.
"""

from __future__ import annotations

from importlib.util import find_spec

# The top-level module each extra installs → the extra's name.
EXTRA_OF_MODULE: dict[str, str] = {
    "psycopg": "postgres",
    "psycopg_pool": "postgres",
    "jsonschema": "harness",
    "grimp": "harness",
    "build": "harness",
    # Dotted: the API and SDK share the top-level package and are always installed.
    "opentelemetry.exporter.otlp.proto.http": "otlp",
}


def extra_for(exc: ModuleNotFoundError) -> str | None:
    """The extra whose absence raised ``exc``; None for any other missing module."""
    parts = (exc.name or "").split(".")
    for end in range(len(parts), 0, -1):
        extra = EXTRA_OF_MODULE.get(".".join(parts[:end]))
        if extra is not None:
            return extra
    return None


def install_hint(extra: str, module: str) -> str:
    return f"needs the {extra!r} extra ({module} is not installed): pip install 'beacon[{extra}]'"


def missing_extra(extra: str) -> str | None:
    """The one-line hint when a module of ``extra`` is not importable here, else None."""
    for module, owner in EXTRA_OF_MODULE.items():
        if owner == extra and find_spec(module) is None:
            return install_hint(extra, module)
    return None
