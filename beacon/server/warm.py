"""What a process does once before it serves, so that no user's turn does it.

Measured (py-spy at 1 kHz on a fresh ``beacon serve``: its first three turns
against the next three): the first turn of a process paid ~100 ms on the event
loop that no later turn pays — a TLS context built twice (the CA bundle, for the
JWKS fetch's client and the MCP session's, 35 + 32 ms), CLDR's plural data for
the answer's words (17 ms), the question readers' regular expressions (~18 ms) —
and every other turn of that process waited behind it. Done here, before the
server accepts its first request, it costs ~60 ms of start-up instead.

Pure reads only: nothing here opens a connection or writes (the JWKS is fetched
on the first bearer, as before: a fetch refused at start-up would arm its backoff
against the first user).
"""

from __future__ import annotations

from beacon.adjudication.constraints import read_constraints
from beacon.lexicon.clock import today
from beacon.lexicon.locales import LOCALES
from beacon.lexicon.plurals import plural_category
from beacon.loop.intent import needed_tools
from beacon.loop.sets import field_question
from beacon.wire.connections import client_tls

# A question of each shape the readers tell apart (a count on a level, photos of a
# thing, a list, a date), in each locale's words.
SAMPLE_QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "Photos of missing hard hats in Harbor Tower since last week",
    "List all panoramas in Harbor Tower",
    "¿Cuántas fotos hay desde la semana pasada?",
    "Wie viele Fotos gibt es seit letzter Woche?",
    "先週からの写真は何枚ですか？",
    "지난주부터 사진은 몇 장인가요?",
)


def warm_process() -> None:
    """Builds, once per process, what the first turn would otherwise build."""
    client_tls()
    for locale in LOCALES:
        plural_category(1, locale)
    for question in SAMPLE_QUESTIONS:
        read_constraints(question, projects=(), today=today())
        field_question(question)
        needed_tools(question)
