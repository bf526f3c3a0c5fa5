"""Floods: what keeps a guessing client, a phone repeating a refused action or a scoring box sending
garbage from drowning the table. Each takes an injectable clock (tests and benches use their own).

- ``Backoff``: per-client failures (wrong table or seat codes). The first ``free`` in an hour cost
  nothing (a few typos at a real table); each later one doubles the wait before the next attempt,
  up to ``max_s``. See docs/service.md for the guesses an attacker gets per hour.
- ``Window``: how many events one key had in the last ``window_s`` seconds (refused actions of a
  phone: past ``limit`` it is slowed down, its refusals no longer evaluated nor broadcast).
- ``Summary``: count events and log one line per period ("312 garbled lines from the scoring box in
  the last minute") instead of one line each.
"""
from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Callable, Hashable

Clock = Callable[[], float]
MAX_KEYS = 4096  # clients remembered at once; the oldest are forgotten first


class Backoff:
    """Failures per client over the last ``period_s``: ``wait(key)`` is how long it must wait now."""

    def __init__(self, free: int = 5, base_s: float = 2.0, max_s: float = 600.0, period_s: float = 3600.0,
                 clock: Clock = time.monotonic):
        self.free, self.base_s, self.max_s, self.period_s, self.clock = free, base_s, max_s, period_s, clock
        self._failures: collections.OrderedDict[Hashable, list[float]] = collections.OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, key: Hashable, now: float) -> list[float]:
        times = [t for t in self._failures.get(key, ()) if now - t < self.period_s]
        if times:
            self._failures[key] = times
            self._failures.move_to_end(key)
        else:
            self._failures.pop(key, None)
        return times

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` failures in the period."""
        over = failures - self.free
        return 0.0 if over < 0 else min(self.max_s, self.base_s * 2 ** min(over, 30))

    def wait(self, key: Hashable) -> float:
        """Seconds before ``key`` may try again (0: now)."""
        with self._lock:
            now = self.clock()
            times = self._recent(key, now)
            if not times:
                return 0.0
            return max(0.0, times[-1] + self.delay(len(times)) - now)

    def failed(self, key: Hashable) -> None:
        with self._lock:
            now = self.clock()
            self._recent(key, now)
            self._failures.setdefault(key, []).append(now)
            self._failures.move_to_end(key)
            while len(self._failures) > MAX_KEYS:
                self._failures.popitem(last=False)

    def succeeded(self, key: Hashable) -> None:
        with self._lock:
            self._failures.pop(key, None)

    def guesses_per_hour(self) -> int:
        """How many guesses one client can make in an hour, waiting exactly as long as told."""
        t, n = 0.0, 0
        while True:
            n += 1  # a guess at time t
            t += self.delay(n)
            if t >= self.period_s:
                return n


class Window:
    """Events per key in the last ``window_s`` seconds."""

    def __init__(self, limit: int, window_s: float, clock: Clock = time.monotonic):
        self.limit, self.window_s, self.clock = limit, window_s, clock
        self._events: dict[Hashable, collections.deque] = {}

    def count(self, key: Hashable) -> int:
        events = self._events.get(key)
        if not events:
            return 0
        now = self.clock()
        while events and now - events[0] >= self.window_s:
            events.popleft()
        return len(events)

    def over(self, key: Hashable) -> bool:
        """Whether ``key`` already had ``limit`` events in the window."""
        return self.count(key) >= self.limit

    def add(self, key: Hashable) -> None:
        if len(self._events) > MAX_KEYS:
            self._events.clear()
        self._events.setdefault(key, collections.deque(maxlen=self.limit * 4)).append(self.clock())


class Summary:
    """Count a noisy event: the first ``burst`` of a period are logged in full (``first % detail``),
    the rest as one line when the period is over (``many % count``), never one line each."""

    def __init__(self, log: logging.Logger, first: str, many: str, period_s: float = 60.0, burst: int = 5,
                 clock: Clock = time.monotonic, level: int = logging.WARNING):
        self.log, self.first, self.many, self.period_s, self.burst, self.clock, self.level = \
            log, first, many, period_s, burst, clock, level
        self._since: float | None = None
        self._shown = 0
        self._count = 0

    def add(self, detail: str = "", now: float | None = None, level: int | None = None) -> None:
        now = self.clock() if now is None else now
        self.flush(now)
        if self._since is None:
            self._since, self._shown = now, 0
        if self._shown < self.burst:
            self._shown += 1
            self.log.log(self.level if level is None else level, self.first, detail[:160])
        else:
            self._count += 1

    def flush(self, now: float | None = None) -> None:
        """Log the count of a period that is over (called by ``add``, and by a quiet link's loop)."""
        now = self.clock() if now is None else now
        if self._since is None or now - self._since < self.period_s:
            return
        if self._count:
            self.log.log(self.level, self.many, self._count + self._shown)
        self._since, self._shown, self._count = None, 0, 0
