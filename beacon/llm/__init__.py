"""The model edge: any OpenAI-compatible chat-completions endpoint."""
