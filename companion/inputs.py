"""Inputs the table's hardware produces for the service's one queue.

Each input is a frozen dataclass naming its ``source`` (``"panel"`` for the GPIO buttons,
``"scoring-box"`` for the USB box). Adapters are given a ``submit(input)`` callable and call it
from their own threads; the service puts what it receives on its queue and decides what each
input means for the game (a die roll, accepting what the camera saw, undoing the last action).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

SOURCES = ("panel", "scoring-box")


@dataclass(frozen=True)
class Input:
    """Something a player did on the table's hardware."""

    source: str

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"unknown input source {self.source!r} (expected one of {', '.join(SOURCES)})")


@dataclass(frozen=True)
class RollRequested(Input):
    """A player pressed a die button: roll the Reinforcement Die."""


@dataclass(frozen=True)
class Confirm(Input):
    """A player pressed confirm: accept what the camera saw, or end the current step."""


@dataclass(frozen=True)
class UndoRequested(Input):
    """A player held the undo button long enough: take back the last action."""


Submit = Callable[[Input], None]
