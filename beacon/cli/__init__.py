"""The ``beacon`` command line (typer)."""

from beacon.cli.main import app, main

__all__ = ["app", "main"]
