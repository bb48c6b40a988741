"""The ``beacon`` command line (typer): ``beacon.cli.commands`` holds the command
table, ``beacon.cli.main`` registers the commands on it and runs it.

Importing this package loads nothing else: ``beacon.cli.ask`` and
``beacon.cli.up`` are usable without building the app or loading the
commands other packages register.
"""
