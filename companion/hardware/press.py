"""Debounce and long-press logic for one push button, driven by an injectable clock.

gpiozero's mock pins ignore ``bounce_time``, and a real contact bounces for a few milliseconds,
so raw edges go through a ``PressTracker``: a change of level counts only once the previous
accepted change is ``debounce_s`` old; a level that settled while changes were being ignored is
picked up by the next ``poll``. A hold button reports ``"hold"`` once when held for ``hold_s``
(seen by ``poll`` or at release, whichever comes first) and ``"short"`` when let go too soon.
"""
from __future__ import annotations

import math


class PressTracker:
    """Turns raw pressed/released levels of one button into ``"press"``, ``"hold"`` or ``"short"`` events."""

    def __init__(self, debounce_s: float, hold_s: float | None = None):
        self.debounce_s = debounce_s
        self.hold_s = hold_s
        self.pressed = False  # the debounced level
        self._raw = False
        self._changed_at = -math.inf
        self._pressed_at = 0.0
        self._held = False

    def edge(self, pressed: bool, now: float) -> list[str]:
        """Record a raw level change seen at ``now``; return the events it completes."""
        self._raw = pressed
        return self._settle(now)

    def poll(self, now: float) -> list[str]:
        """Pick up a level that settled during the debounce window, and a hold that reached ``hold_s``."""
        events = self._settle(now)
        if self.pressed and self._reached_hold(now):
            self._held = True
            events.append("hold")
        return events

    def _reached_hold(self, now: float) -> bool:
        return self.hold_s is not None and not self._held and now - self._pressed_at >= self.hold_s

    def _settle(self, now: float) -> list[str]:
        if self._raw == self.pressed or now - self._changed_at < self.debounce_s:
            return []
        self.pressed = self._raw
        self._changed_at = now
        if self.pressed:
            self._pressed_at = now
            self._held = False
            return [] if self.hold_s is not None else ["press"]
        if self.hold_s is None or self._held:
            return []
        if self._reached_hold(now):
            self._held = True
            return ["hold"]
        return ["short"]
