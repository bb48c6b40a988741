"""Gate entry points (observe, promote): thin, exit-code contracts (SPEC §6).

Arrives with the harness issue; nothing here yet may claim to gate anything.
"""
