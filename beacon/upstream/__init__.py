"""The MCP client edge: the official SDK over streamable HTTP."""
