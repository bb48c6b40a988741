"""Gate entry points (observe, promote): thin, exit-code contracts (SPEC §6).

``beacon gate observe`` and ``beacon gate promote --from dev --to qa|prod``
(registered by ``gates.cli``) gate for real: each maps every outcome of
``harness.gating`` to its exit code (one table: ``harness.gate_exits``),
and stamps its evidence, with any ``--bypass`` reason, into ``reports/gates/``.
"""
