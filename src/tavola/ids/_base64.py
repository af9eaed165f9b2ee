"""gnubg's keys in base64: little-endian bytes written as standard base64 without ``=`` padding.

gnubg packs a key so that bit k of the key is bit k % 8 of byte k // 8; the
bytes are then written in base64 (:mod:`base64`), the padding left out. Keys
are handled here as Python ints whose bit k is bit k of the key.

>>> _base64_from_key(1, 2, 3), _key_from_base64("AQA", 2, "match ID")
('AQA', 1)
"""

from __future__ import annotations

import base64
import binascii
import re

from tavola.errors import InvalidIdError
from tavola.i18n import N_, _
from tavola.ids._checks import _shown

_NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/]")
"""A character base64 does not use (the padding ``=`` included: gnubg leaves it out)."""

_BASE64_ERRORS: dict[str, tuple[str, str]] = {
    "position ID": (
        N_("position ID {id}: {char} (character {index}) is not a base64 character (A-Z, a-z, 0-9, + or /)"),
        N_("position ID {id}: bits left over in its last character (the last {padding} bits must be zero)"),
    ),
    "match ID": (
        N_("match ID {id}: {char} (character {index}) is not a base64 character (A-Z, a-z, 0-9, + or /)"),
        N_("match ID {id}: bits left over in its last character (the last {padding} bits must be zero)"),
    ),
}
"""What is wrong with the base64 text of an ID, by the kind of ID: a stray character, bits left over."""


def _key_from_base64(text: str, key_bytes: int, what: str) -> int:
    """The little-endian key of ``key_bytes`` bytes that ``text`` encodes, checking every character.

    The bits that pad the last character beyond the key must be zero. ``what``
    is the kind of ID, a key of :data:`_BASE64_ERRORS`.
    """
    stray = _NOT_BASE64.search(text)
    if stray is not None:
        message = _(_BASE64_ERRORS[what][0]).format(
            id=_shown(text), char=repr(stray.group()), index=stray.start() + 1
        )
        raise InvalidIdError(message)
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error:  # a length no whole number of bytes has: the callers check the length first
        data = b""
    if len(data) != key_bytes or base64.b64encode(data).decode("ascii").rstrip("=") != text:
        padding = 6 * len(text) - 8 * key_bytes
        raise InvalidIdError(_(_BASE64_ERRORS[what][1]).format(id=_shown(text), padding=padding))
    return int.from_bytes(data, "little")


def _base64_from_key(key: int, key_bytes: int, length: int) -> str:
    """Write a little-endian key of ``key_bytes`` bytes as its ``length`` base64 characters."""
    text = base64.b64encode(key.to_bytes(key_bytes, "little")).decode("ascii").rstrip("=")
    assert len(text) == length, (text, length)
    return text
