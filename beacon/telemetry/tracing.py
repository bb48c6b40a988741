"""OpenTelemetry spans: one per turn, gathering round, tool call, model request and
answer stage, each carrying the turn id (README "Metrics and traces").

The process has one SDK tracer provider. It exports over OTLP/HTTP when
``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) is set,
configured by the standard ``OTEL_*`` variables, and needs the ``otlp`` extra for
it (without it: one line naming the extra, and no export). Otherwise nothing is
exported and nothing is sampled unless the caller's ``traceparent`` says so. A
W3C ``traceparent`` on ``POST /v1/turns`` is the turn span's parent, and the turn's
context travels on to the MCP upstream and the model endpoint (``inject``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, MutableMapping

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ParentBased
from opentelemetry.trace import Span, Tracer
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from beacon.extras import missing_extra

log = logging.getLogger(__name__)

TRACER_NAME = "beacon"
ENDPOINT_ENVS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
OTLP_MODULE = "opentelemetry.exporter.otlp.proto.http.trace_exporter"

# Span names and attribute keys: code-made values only (no question, argument or token).
TURN_SPAN = "beacon.turn"
ROUND_SPAN = "beacon.round"
TOOL_SPAN = "beacon.tool_call"
MODEL_SPAN = "beacon.model_request"
ANSWER_SPAN = "beacon.answer"
TURN_ID = "beacon.turn_id"

_W3C = TraceContextTextMapPropagator()
_provider: TracerProvider | None = None
# The provider's tracer, made once per provider: get_tracer builds a new Tracer
# (with its instrumentation scope) on every call, ~0.1 ms, eight times a turn.
_tracer: tuple[TracerProvider, Tracer] | None = None


def exporting(environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    return any(env.get(name) for name in ENDPOINT_ENVS)


def _new_provider() -> TracerProvider:
    resource = Resource.create({"service.name": "beacon"})  # OTEL_SERVICE_NAME wins
    if not exporting():
        # Nothing leaves the process: a span is recorded only under a sampled caller.
        return TracerProvider(sampler=ParentBased(ALWAYS_OFF), resource=resource)
    provider = TracerProvider(resource=resource)  # OTEL_TRACES_SAMPLER applies
    hint = missing_extra("otlp")
    if hint is not None:
        log.warning("OTEL_EXPORTER_OTLP_ENDPOINT is set but spans are not exported: %s", hint)
        return provider
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return provider


def configure_tracing() -> TracerProvider:
    """The process's provider, made once from the environment."""
    global _provider
    if _provider is None:
        _provider = _new_provider()
    return _provider


def use_provider(provider: TracerProvider | None) -> None:
    """Replace the process's provider (tests: one with an in-memory exporter)."""
    global _provider
    _provider = provider


def shutdown_tracing() -> None:
    """Flush what is batched (the server's shutdown)."""
    if _provider is not None:
        _provider.force_flush()


def tracer() -> Tracer:
    global _tracer
    provider = configure_tracing()
    if _tracer is None or _tracer[0] is not provider:
        _tracer = (provider, provider.get_tracer(TRACER_NAME))
    return _tracer[1]


def extract(headers: Mapping[str, str]) -> Context:
    """The caller's W3C trace context (``traceparent``/``tracestate``); empty if none."""
    return _W3C.extract(dict(headers.items()))


def inject(headers: MutableMapping[str, str], span: Span | None = None) -> None:
    """Add ``traceparent`` (and ``tracestate``) for ``span``, or for the current span."""
    context = trace.set_span_in_context(span) if span is not None else None
    _W3C.inject(headers, context=context)
