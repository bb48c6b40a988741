"""The boundary registry (SPEC §6): one data file per boundary, a schema, a floor.

from boundaries import load_registry
registry = load_registry(repo_root)   # problems are values, never exceptions
"""

from boundaries.loader import (
    EXPECTED_COUNTS,
    FLOOR_FILE,
    KINDS,
    REGISTRY_DIR,
    Boundary,
    Problem,
    Registry,
    load_registry,
    read_floor,
)

__all__ = [
    "EXPECTED_COUNTS",
    "FLOOR_FILE",
    "KINDS",
    "REGISTRY_DIR",
    "Boundary",
    "Problem",
    "Registry",
    "load_registry",
    "read_floor",
]
