"""Sealed records: open only with their key and in their own context, or fail typed."""

from __future__ import annotations

import base64
from types import ModuleType

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import given
from hypothesis import strategies as st

import beacon.store
from beacon.store import (
    KEYS_ENV,
    Keyring,
    KeyringError,
    SealedReason,
    SealedRecordError,
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

K1, K2 = generate_key(), generate_key()
RING = Keyring({"k1": K1}, active="k1")
CTX = record_context("session-a", "transcript")


def reason(record: bytes, ring: Keyring = RING, context: bytes = CTX) -> SealedReason:
    with pytest.raises(SealedRecordError) as caught:
        unseal_text(ring, record, context=context)
    return caught.value.reason


def test_text_round_trips_and_the_record_does_not_contain_it() -> None:
    record = seal(RING, "the crane on level 3 is unsafe", context=CTX)
    assert b"crane" not in record
    assert unseal_text(RING, record, context=CTX) == "the crane on level 3 is unsafe"


def test_the_same_text_seals_differently_each_time() -> None:
    assert seal(RING, "x", context=CTX) != seal(RING, "x", context=CTX)


def test_the_record_names_its_key_and_a_version() -> None:
    record = seal(RING, "x", context=CTX)
    assert record[0] == 2 and sealed_key_id(record) == "k1"


def test_a_record_moved_to_another_session_does_not_open() -> None:
    record = seal(RING, "secret", context=CTX)
    other = record_context("session-b", "transcript")
    assert reason(record, context=other) is SealedReason.AUTHENTICATION_FAILED


def test_a_record_of_one_kind_does_not_open_as_another() -> None:
    record = seal(RING, "secret", context=CTX)
    feedback = record_context("session-a", "feedback")
    assert reason(record, context=feedback) is SealedReason.AUTHENTICATION_FAILED


def test_context_parts_cannot_be_regrouped() -> None:
    assert record_context("a|b", "c") != record_context("a", "b|c")
    assert record_context("ab", "c") != record_context("a", "bc")


def test_records_sealed_under_a_retired_key_still_open_after_rotation() -> None:
    old = seal(RING, "before rotation", context=CTX)
    rotated = RING.rotated("k2", K2)
    new = seal(rotated, "after rotation", context=CTX)
    assert sealed_key_id(new) == "k2"
    assert unseal_text(rotated, old, context=CTX) == "before rotation"
    assert needs_reseal(rotated, old) and not needs_reseal(rotated, new)


def test_a_record_whose_key_left_the_ring_is_an_unknown_key() -> None:
    record = seal(Keyring({"k2": K2}, active="k2"), "x", context=CTX)
    assert reason(record) is SealedReason.UNKNOWN_KEY


def test_swapping_the_key_id_to_another_key_in_the_ring_fails() -> None:
    ring = Keyring({"k1": K1, "k2": K2}, active="k1")
    record = bytearray(seal(ring, "x", context=CTX))
    record[3] = ord("2")  # header: version, length, "k1" → "k2"
    assert reason(bytes(record), ring) is SealedReason.AUTHENTICATION_FAILED


def test_the_key_id_is_authenticated_even_when_two_ids_hold_the_same_key() -> None:
    # An operator re-adding a key under a new id must not make headers rewritable.
    ring = Keyring({"k1": K1, "k2": K1}, active="k1")
    record = bytearray(seal(ring, "x", context=CTX))
    record[3] = ord("2")
    assert reason(bytes(record), ring) is SealedReason.AUTHENTICATION_FAILED


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        pytest.param(b"", SealedReason.TRUNCATED, id="empty"),
        pytest.param(b"\x01", SealedReason.TRUNCATED, id="version-only"),
        pytest.param(b"\x01\x02k1" + b"\x00" * 27, SealedReason.TRUNCATED, id="no-room-for-a-tag"),
        pytest.param(b"\x03\x02k1" + b"\x00" * 40, SealedReason.UNSUPPORTED_VERSION, id="v3"),
        pytest.param(b"\x01\x02\xff\xfe" + b"\x00" * 40, SealedReason.MALFORMED_HEADER, id="kid"),
        pytest.param(b"\x01\x02k!" + b"\x00" * 40, SealedReason.MALFORMED_HEADER, id="kid-char"),
    ],
)
def test_a_broken_record_fails_with_its_reason(record: bytes, expected: SealedReason) -> None:
    assert reason(record) is expected


def test_a_version_1_record_opens_only_with_its_legacy_context() -> None:
    # Sealed as version 1 wrote it: the same bytes with the first one set to 1.
    legacy = bytearray(seal(RING, "old", context=CTX))
    legacy[0] = 1
    header_len = 2 + legacy[1]
    nonce = bytes(legacy[header_len : header_len + 12])
    cipher = AESGCM(RING.keys["k1"])
    body = cipher.encrypt(nonce, b"old", bytes(legacy[:header_len]) + CTX)
    record = bytes(legacy[: header_len + 12]) + body
    owner_bound = record_context("alice", "session-a", "transcript")
    assert unseal_text(RING, record, context=owner_bound, legacy_context=CTX) == "old"
    with pytest.raises(SealedRecordError) as refused:
        unseal(RING, record, context=owner_bound)
    assert refused.value.reason is SealedReason.UNSUPPORTED_VERSION


def test_a_record_cut_short_by_one_byte_fails() -> None:
    record = seal(RING, "hello", context=CTX)
    assert reason(record[:-1]) is SealedReason.AUTHENTICATION_FAILED


def test_bytes_sealed_as_bytes_are_refused_as_text() -> None:
    record = seal(RING, b"\xff\xfe", context=CTX)
    assert unseal(RING, record, context=CTX) == b"\xff\xfe"
    assert reason(record) is SealedReason.NOT_TEXT


@given(text=st.text(), context=st.lists(st.text(), max_size=4))
def test_any_text_round_trips_in_any_context(text: str, context: list[str]) -> None:
    ctx = record_context(*context)
    assert unseal_text(RING, seal(RING, text, context=ctx), context=ctx) == text


@given(text=st.text(max_size=64), data=st.data())
def test_any_single_byte_flip_fails_typed_never_as_garbage(text: str, data: st.DataObject) -> None:
    record = bytearray(seal(RING, text, context=CTX))
    at = data.draw(st.integers(0, len(record) - 1), label="at")
    record[at] ^= data.draw(st.integers(1, 255), label="mask")
    with pytest.raises(SealedRecordError):
        unseal_text(RING, bytes(record), context=CTX)


# --- keyrings from configuration --------------------------------------------


def test_the_first_slot_in_the_env_is_active_and_the_rest_retired() -> None:
    env = {KEYS_ENV: f"{format_key('k2', K2)}, {format_key('k1', K1)}"}
    ring = keyring_from_env(env)
    assert ring.active == "k2" and dict(ring.keys) == {"k2": K2, "k1": K1}


def test_url_safe_base64_is_accepted() -> None:
    key = bytes(range(200, 232))  # has bytes that encode to + and / in standard base64
    slot = "k1:" + base64.urlsafe_b64encode(key).decode()
    assert parse_keys(slot).keys["k1"] == key


def test_a_generated_slot_parses_back() -> None:
    ring = parse_keys(new_key_slot("k7"))
    assert ring.active == "k7" and len(ring.keys["k7"]) == 32


@pytest.mark.parametrize(
    "spec",
    [
        pytest.param("", id="empty"),
        pytest.param("k1", id="no-colon"),
        pytest.param("k1:" + base64.b64encode(b"x" * 16).decode(), id="16-byte-key"),
        pytest.param("k1:" + base64.b64encode(b"x" * 33).decode(), id="33-byte-key"),
        pytest.param("k1:not*base64", id="not-base64"),
        pytest.param(f"{format_key('k1', K1)},{format_key('k1', K2)}", id="duplicate-id"),
        pytest.param(format_key("bad id", K1), id="id-with-space"),
    ],
)
def test_an_unusable_key_configuration_is_refused(spec: str) -> None:
    with pytest.raises(KeyringError):
        keyring_from_env({KEYS_ENV: spec})


def test_a_ring_without_its_active_key_is_refused() -> None:
    with pytest.raises(KeyringError):
        Keyring({"k1": K1}, active="k2")


def test_rotating_to_an_id_already_in_the_ring_is_refused() -> None:
    with pytest.raises(KeyringError):
        RING.rotated("k1", K2)


def test_the_ring_does_not_print_its_keys() -> None:
    assert repr(K1)[2:-1] not in repr(RING) and "k1" in repr(RING)


def test_the_public_surface_is_complete() -> None:
    # Submodules show up as attributes once anything imported them: not API.
    exported = {
        n
        for n in dir(beacon.store)
        if not n.startswith("_") and not isinstance(getattr(beacon.store, n), ModuleType)
    }
    assert set(beacon.store.__all__) == exported
