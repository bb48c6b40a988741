"""The turn: planner ↔ responder over the MCP upstream, emitting SSE frames."""
