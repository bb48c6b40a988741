"""Operations: the Prometheus series (``metrics``) and the OpenTelemetry spans
(``tracing``). A leaf: it imports nothing of Beacon but ``beacon.extras``, and the
verdict makers (``beacon.adjudication``) never import it."""
