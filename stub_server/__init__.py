"""The stub upstream: an MCP tool server over a seeded construction corpus, with fault scenarios."""
