"""The llm package's one exception root.

LlmError                 the model call did not produce a usable answer
 ├── LlmUnavailable      no connection, a 5xx, or no answer within the deadline
 ├── LlmRefused          400/401/402/403/422/429: retrying cannot help
 └── LlmProtocolError    the stream broke the OpenAI wire (bad JSON, bad tool call)
"""


class LlmError(Exception):
    code = "llm_error"


class LlmUnavailable(LlmError):
    code = "llm_unavailable"


class LlmRefused(LlmError):
    code = "llm_refused"

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class LlmProtocolError(LlmError):
    code = "llm_protocol"
