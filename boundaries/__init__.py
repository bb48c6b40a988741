"""The boundary registry (data) and its loader/schema (SPEC §6).

Arrives with the harness issue.
"""
