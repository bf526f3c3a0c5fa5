"""Domain errors of the rules engine. Each is also a ``ValueError`` so any caller can show it."""
from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid now: ``reason`` is a stable code, ``sentence`` what a player reads."""

    def __init__(self, reason: str, sentence: str):
        super().__init__(f"{reason}: {sentence}")
        self.reason = reason
        self.sentence = sentence


class RecordError(ValueError):
    """A record line that is not an action at all: bad JSON, unknown region, race or field."""


class Reason:
    """Why an action is illegal: a stable code and the sentence a player understands."""

    __slots__ = ("code", "sentence")

    def __init__(self, code: str, sentence: str):
        self.code = code
        self.sentence = sentence

    def __repr__(self) -> str:
        return f"Reason({self.code!r}, {self.sentence!r})"

    def __str__(self) -> str:
        return f"{self.code}: {self.sentence}"

    def error(self) -> IllegalAction:
        return IllegalAction(self.code, self.sentence)
