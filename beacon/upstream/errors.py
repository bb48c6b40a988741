"""The upstream package's one exception root.

    UpstreamError             the MCP upstream could not answer a call
     ├── UpstreamAuthError    the transport said 401/403: our bearer was refused
     ├── UpstreamUnavailable  no connection, or no answer within the deadline
     └── UpstreamProtocolError a JSON-RPC error for a request

An in-band failure (a 200 whose body is an error) is *not* raised here: it is a
result, and the adjudication layer judges it.
"""


class UpstreamError(Exception):
    code = "upstream_error"


class UpstreamAuthError(UpstreamError):
    code = "upstream_auth"


class UpstreamUnavailable(UpstreamError):
    code = "upstream_unavailable"


class UpstreamProtocolError(UpstreamError):
    code = "upstream_protocol"
