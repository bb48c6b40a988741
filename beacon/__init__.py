"""Beacon: an LLM chat whose model narrates only.

Counts, absences and failures are graded by code from structured upstream
fields before the model speaks (see ARCHITECTURE.md for the layers).
"""

__version__ = "0.1.0"
