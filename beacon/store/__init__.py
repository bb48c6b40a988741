"""Storage at rest: records sealed with AES-256-GCM under rotating key slots."""

from beacon.store.crypto import (
    KEYS_ENV,
    Keyring,
    format_key,
    generate_key,
    keyring_from_env,
    needs_reseal,
    new_key_slot,
    parse_keys,
    record_context,
    seal,
    sealed_key_id,
    unseal,
    unseal_text,
)
from beacon.store.errors import KeyringError, SealedReason, SealedRecordError, StoreError

__all__ = [
    "KEYS_ENV",
    "Keyring",
    "KeyringError",
    "SealedReason",
    "SealedRecordError",
    "StoreError",
    "format_key",
    "generate_key",
    "keyring_from_env",
    "needs_reseal",
    "new_key_slot",
    "parse_keys",
    "record_context",
    "seal",
    "sealed_key_id",
    "unseal",
    "unseal_text",
]
