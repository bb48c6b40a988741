"""The HTTP/SSE edge: FastAPI app, settings, static panel."""
