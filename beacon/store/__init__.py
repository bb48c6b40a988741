"""Storage at rest: records sealed with AES-256-GCM under rotating key slots.

Its names load with their modules on first use (``beacon.lazy``): importing one
of its modules alone loads that module alone."""

from typing import TYPE_CHECKING

from beacon.lazy import exported

if TYPE_CHECKING:
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

if not TYPE_CHECKING:  # mypy reads the imports above; an unknown name stays an error
    __getattr__, __dir__ = exported(__name__, __all__, ["crypto", "errors"])
