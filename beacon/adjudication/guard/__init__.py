"""The narration guard: what of the model's answer may be published.

``markup`` rejects an answer that is a tool call; ``judge`` drops each sentence that
states a number, an "all" or a "none" the turn's ``standing`` does not grant (its
claims: ``claims``; its numerals in five locales: ``numerals``); ``slots`` renders
what survives, each count from its one record (``counted``).
"""
