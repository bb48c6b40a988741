"""The turn store's tables (SQLite DDL), kept apart from the code that reads them."""

from __future__ import annotations

SCHEMA = """
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

AUDIT_INSERT = (
    "INSERT INTO audit VALUES (:turn_id, :sub, :tool, :capability, :allowed, :reason, "
    ":hint_present, :at)"
)
