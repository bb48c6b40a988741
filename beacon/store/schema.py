"""The turn store's tables, in SQLite's and PostgreSQL's words, kept apart from the
code that reads them.

The two schemas hold the same columns; where a table has no key that orders it
(messages, audit rows), SQLite's ``rowid`` does and PostgreSQL gets an identity
column ``n``. ``worker`` is the process driving a running turn (a later column:
databases made before it get it on start).
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
"""
# Added after the first schema: ALTERed into a database that lacks it.
SQLITE_WORKER_COLUMN = "ALTER TABLE turns ADD COLUMN worker INTEGER"

POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS turns (
  id TEXT PRIMARY KEY, session_id TEXT, owner TEXT NOT NULL, mode TEXT NOT NULL,
  status TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL);
ALTER TABLE turns ADD COLUMN IF NOT EXISTS worker BIGINT;
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
