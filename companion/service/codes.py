"""Secret codes: the table code (setup, undo, override) and one short join code per seat."""
from __future__ import annotations

import hmac
import secrets

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read and to type


def new_code(length: int = 6) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalise(code: str) -> str:
    """What a player typed, as stored: upper case, spaces and dashes dropped."""
    return "".join(c for c in str(code).upper() if c.isalnum())


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two codes (after normalising both)."""
    return hmac.compare_digest(normalise(a).encode(), normalise(b).encode())
