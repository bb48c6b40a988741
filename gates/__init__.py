"""Gate entry points (observe, promote): thin, exit-code contracts (SPEC §6).

``beacon gate observe`` and ``beacon gate promote --from dev --to qa|prod``
(registered by ``gates.cli``) gate for real: each maps every outcome of
``harness.gating`` to 0 open, 1 failing evidence, 2 usage or 5 stale sweep,
and stamps its evidence, with any ``--bypass`` reason, into ``reports/gates/``.
"""
