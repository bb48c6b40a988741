"""The wheel carries what the product and its harness read at run time, and nothing of
the source tree is needed to load the boundary registry from it.

A real wheel is built from a copy of this tree (``pip wheel --no-deps``, its build
requirements from the configured indexes), unpacked into a folder
outside the checkout, and read there: the registry (103 boundary files, the schema,
the floor), the stub's scenarios, the panel and host assets.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from harness.workspace import copy_tree

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Built from a copy: setuptools writes build/ and *.egg-info beside the sources.
    source = copy_tree(tmp_path_factory.mktemp("src") / "beacon")
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (found,) = out.glob("beacon-*.whl")
    return found


def test_the_wheel_carries_the_registry_the_scenarios_and_the_panel(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    on_disk = {str(p.relative_to(ROOT)) for p in (ROOT / "boundaries/registry").rglob("*.yaml")}
    assert len(on_disk) == 103 and on_disk <= names
    assert {"boundaries/schema.json", "boundaries/floor.txt"} <= names
    scenarios = {str(p.relative_to(ROOT)) for p in (ROOT / "stub_server/scenarios").glob("*.yaml")}
    assert scenarios and scenarios <= names
    assert {"beacon/panel/index.html", "beacon/lexicon/grammar.py"} <= names
    assert not any(n.startswith(("suites/", ".ci/", "reports/")) for n in names)


def test_the_packaged_registry_validates_against_the_packaged_schema_outside_the_tree(
    wheel: Path, tmp_path: Path
) -> None:
    """The registry describes a checkout (its paths and evidence tests exist only there,
    so ``load_registry`` belongs to a source tree); what the wheel must carry whole is
    the registry's data and the schema that judges it."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); from pathlib import Path; "
        "import boundaries, jsonschema, yaml; "
        "here = Path(boundaries.__file__).resolve().parent; "
        "assert str(here).startswith(sys.argv[1]), here; "
        "schema = json.loads((here / 'schema.json').read_text()); "
        "files = sorted((here / 'registry').rglob('*.yaml')); "
        "[jsonschema.validate(yaml.safe_load(f.read_text()), schema) for f in files]; "
        "print(len(files), len((here / 'floor.txt').read_text().split()))"
    )
    ran = subprocess.run(
        [sys.executable, "-I", "-c", code, str(site)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,  # outside the checkout; -I keeps the working folder off sys.path
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    files, floor = (int(x) for x in ran.stdout.split())
    assert files == 103 and floor >= 103
