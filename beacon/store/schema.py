"""The turn store's tables, in SQLite's and PostgreSQL's words, kept apart from the
code that reads them.

The two schemas hold the same columns; where a table has no key that orders it
(messages, audit rows), SQLite's ``rowid`` does and PostgreSQL gets an identity
column ``n``. ``worker`` is the process driving a running turn (a later column:
databases made before it get it on start), as are the turn's end: ``code`` (the
error frame's code, ``None`` for ``done``), ``first_answer_at`` (the commit of its
first ``delta`` or of its terminal: what a user waits for) and ``ended_at``.

``tool_calls`` is an analyst's row per call (no content: the arguments as a
sha256 digest); with ``audit`` (the PEP's verdicts) and ``narration_audit`` (the
guard's) it is what ``beacon report`` reads.
"""

from __future__ import annotations

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS turns (
  id TEXT PRIMARY KEY, session_id TEXT, owner TEXT NOT NULL, mode TEXT NOT NULL,
  status TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS frames (
  turn_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, body BLOB NOT NULL,
  PRIMARY KEY (turn_id, seq));
CREATE TABLE IF NOT EXISTS answers (
  turn_id TEXT PRIMARY KEY, body BLOB NOT NULL, sources BLOB NOT NULL, saved_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
  session_id TEXT NOT NULL, turn_id TEXT NOT NULL, role TEXT NOT NULL, body BLOB NOT NULL,
  created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS audit (
  turn_id TEXT NOT NULL, sub TEXT NOT NULL, tool TEXT NOT NULL, capability TEXT,
  allowed INTEGER NOT NULL, reason TEXT NOT NULL, hint_present INTEGER NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS narration_audit (
  turn_id TEXT NOT NULL, kind TEXT NOT NULL, rule TEXT NOT NULL, token TEXT NOT NULL,
  at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS narration_audit_by_turn ON narration_audit (turn_id);
CREATE TABLE IF NOT EXISTS narrowing (
  session_id TEXT PRIMARY KEY, body BLOB NOT NULL, updated_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
  turn_id TEXT NOT NULL, slot TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (turn_id, slot));
CREATE TABLE IF NOT EXISTS feedback (
  turn_id TEXT PRIMARY KEY, owner TEXT NOT NULL, rating TEXT NOT NULL, body BLOB NOT NULL,
  at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages (session_id, created_at);
CREATE TABLE IF NOT EXISTS tool_calls (
  turn_id TEXT NOT NULL, call_id TEXT NOT NULL, tool TEXT NOT NULL, args_digest TEXT NOT NULL,
  duration_ms REAL, verdict TEXT NOT NULL, grade TEXT NOT NULL, returned INTEGER,
  total INTEGER, total_is_lower_bound INTEGER NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS tool_calls_by_turn ON tool_calls (turn_id);
CREATE INDEX IF NOT EXISTS tool_calls_by_at ON tool_calls (at);
CREATE INDEX IF NOT EXISTS turns_by_created ON turns (created_at);
CREATE INDEX IF NOT EXISTS audit_by_at ON audit (at);
CREATE INDEX IF NOT EXISTS narration_audit_by_at ON narration_audit (at);
"""
# Added after the first schema: ALTERed into a database that lacks them.
SQLITE_WORKER_COLUMN = "ALTER TABLE turns ADD COLUMN worker INTEGER"
SQLITE_LATER_COLUMNS = {
    "worker": SQLITE_WORKER_COLUMN,
    "code": "ALTER TABLE turns ADD COLUMN code TEXT",
    "first_answer_at": "ALTER TABLE turns ADD COLUMN first_answer_at REAL",
    "ended_at": "ALTER TABLE turns ADD COLUMN ended_at REAL",
}

POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS turns (
  id TEXT PRIMARY KEY, session_id TEXT, owner TEXT NOT NULL, mode TEXT NOT NULL,
  status TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL);
ALTER TABLE turns ADD COLUMN IF NOT EXISTS worker BIGINT;
ALTER TABLE turns ADD COLUMN IF NOT EXISTS code TEXT;
ALTER TABLE turns ADD COLUMN IF NOT EXISTS first_answer_at DOUBLE PRECISION;
ALTER TABLE turns ADD COLUMN IF NOT EXISTS ended_at DOUBLE PRECISION;
CREATE INDEX IF NOT EXISTS turns_by_created ON turns (created_at);
CREATE INDEX IF NOT EXISTS turns_running ON turns (status) WHERE status = 'running';
CREATE TABLE IF NOT EXISTS frames (
  turn_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, body BYTEA NOT NULL,
  PRIMARY KEY (turn_id, seq));
CREATE TABLE IF NOT EXISTS answers (
  turn_id TEXT PRIMARY KEY, body BYTEA NOT NULL, sources BYTEA NOT NULL,
  saved_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
  n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id TEXT NOT NULL, turn_id TEXT NOT NULL, role TEXT NOT NULL, body BYTEA NOT NULL,
  created_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS audit (
  n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  turn_id TEXT NOT NULL, sub TEXT NOT NULL, tool TEXT NOT NULL, capability TEXT,
  allowed INTEGER NOT NULL, reason TEXT NOT NULL, hint_present INTEGER NOT NULL, at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS audit_by_turn ON audit (turn_id);
CREATE TABLE IF NOT EXISTS narration_audit (
  n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  turn_id TEXT NOT NULL, kind TEXT NOT NULL, rule TEXT NOT NULL, token TEXT NOT NULL,
  at DOUBLE PRECISION NOT NULL);
CREATE INDEX IF NOT EXISTS narration_audit_by_turn ON narration_audit (turn_id);
CREATE TABLE IF NOT EXISTS narrowing (
  session_id TEXT PRIMARY KEY, body BYTEA NOT NULL, updated_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
  turn_id TEXT NOT NULL, slot TEXT NOT NULL, body BYTEA NOT NULL, PRIMARY KEY (turn_id, slot));
CREATE TABLE IF NOT EXISTS feedback (
  turn_id TEXT PRIMARY KEY, owner TEXT NOT NULL, rating TEXT NOT NULL, body BYTEA NOT NULL,
  at DOUBLE PRECISION NOT NULL);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages (session_id, created_at);
CREATE TABLE IF NOT EXISTS tool_calls (
  n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  turn_id TEXT NOT NULL, call_id TEXT NOT NULL, tool TEXT NOT NULL, args_digest TEXT NOT NULL,
  duration_ms DOUBLE PRECISION, verdict TEXT NOT NULL, grade TEXT NOT NULL, returned BIGINT,
  total BIGINT, total_is_lower_bound INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL);
CREATE INDEX IF NOT EXISTS tool_calls_by_turn ON tool_calls (turn_id);
CREATE INDEX IF NOT EXISTS tool_calls_by_at ON tool_calls (at);
CREATE INDEX IF NOT EXISTS audit_by_at ON audit (at);
CREATE INDEX IF NOT EXISTS narration_audit_by_at ON narration_audit (at);
"""

AUDIT_COLUMNS = (
    "turn_id",
    "sub",
    "tool",
    "capability",
    "allowed",
    "reason",
    "hint_present",
    "at",
)
AUDIT_INSERT = (
    f"INSERT INTO audit ({', '.join(AUDIT_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in AUDIT_COLUMNS)})"
)

TOOL_CALL_COLUMNS = (
    "turn_id",
    "call_id",
    "tool",
    "args_digest",
    "duration_ms",
    "verdict",
    "grade",
    "returned",
    "total",
    "total_is_lower_bound",
    "at",
)
TOOL_CALL_INSERT = (
    f"INSERT INTO tool_calls ({', '.join(TOOL_CALL_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in TOOL_CALL_COLUMNS)})"
)
