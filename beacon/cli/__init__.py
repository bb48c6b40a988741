"""The ``beacon`` command line (typer): ``beacon.cli.main`` holds the app.

Importing this package loads nothing else: ``beacon.cli.ask`` and
``beacon.cli.up`` are usable without building the app or loading the
commands other packages register.
"""
