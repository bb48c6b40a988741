"""Locale data: the words of five locales that name a constraint, and the one clock.

One home for what a question's words mean — level words, statuses, kinds,
categories, months, relative dates ("last week", "letzten Monat", "先週") —
read by adjudication (the constraint reader), the loop and the stub's rules
model alike. Data and small pure lookups only; it imports nothing of Beacon.
"""
