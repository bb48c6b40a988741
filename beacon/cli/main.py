"""``beacon``: the command table (``commands.py``) with the product's own commands
registered on it in the order ``--help`` lists them — up and serve (``serve_cmd.py``),
token, ask and demo (``ask_cmd.py``), report, store — then those the installed
packages add through the ``beacon.commands`` entry points."""

from __future__ import annotations

import sys

from beacon.cli.ask_cmd import ask, demo, token
from beacon.cli.commands import app, load_commands
from beacon.cli.errors import FLAGS
from beacon.cli.report import report
from beacon.cli.serve_cmd import serve, up
from beacon.cli.store_cmd import store_app
from beacon.extras import extra_for, install_hint

for command in (up, serve, token, ask, demo, report):
    app.command()(command)
app.add_typer(store_app, name="store")
load_commands(app)


def main() -> None:
    try:
        app(prog_name="beacon")
    except ModuleNotFoundError as exc:
        # A command of the harness or the PostgreSQL tooling run without its extra.
        extra = extra_for(exc)
        if extra is None or FLAGS.debug:
            raise
        command = " ".join(arg for arg in sys.argv[1:3] if not arg.startswith("-"))
        print(f"beacon {command}: {install_hint(extra, exc.name or extra)}", file=sys.stderr)
        sys.exit(2)
    except Exception as exc:  # unforeseen: one line; --debug shows where it came from
        if FLAGS.debug:
            raise
        print(
            f"beacon: unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
            "(run again with `beacon --debug …` for the traceback)",
            file=sys.stderr,
        )
        sys.exit(1)


if __name__ == "__main__":
    main()
