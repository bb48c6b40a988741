"""HTTP headers every hop of a turn shares (chat server, its MCP and LLM
clients, the stubs, the CLI and the bench).

Defined once, here: the value is a wire contract between processes (the
registry pins it, ``mirror:scenario-header``), and each hop used to spell it
itself.
"""

from __future__ import annotations

# Which stub scenario a turn runs under; the chat server forwards it to both stubs.
SCENARIO_HEADER = "X-Beacon-Scenario"
# Names the turn on every upstream request, so a stub can count requests per turn.
TURN_HEADER = "X-Beacon-Turn"
