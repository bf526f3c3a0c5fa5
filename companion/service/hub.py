"""Server-Sent Events: each open stream is a subscriber on a channel ("table" or "seat:N").

The owner's listener hands every ``Published`` snapshot to the hub, which queues for each
subscriber only what its channel may see. A stream sends a keepalive comment every
``keepalive_s`` so that waitress frees the thread of a closed tab.
"""
from __future__ import annotations

import json
import queue
import threading
from typing import Iterator

from .owner import Published

_CLOSED = object()


def channel_payload(published: Published, channel: str) -> dict | None:
    """The event data one channel sees: the public view, plus the seat's private part."""
    if channel == "table":
        return published.public
    if channel.startswith("seat:"):
        seat = int(channel.split(":", 1)[1])
        if seat >= len(published.seats):
            return None
        return {"public": published.public, "me": published.seats[seat]}
    return None


def sse(event: str, data: dict, event_id: int | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


class Hub:
    """Subscribers by channel; ``publish`` is the owner's listener."""

    def __init__(self, keepalive_s: float = 15.0, max_queue: int = 64):
        self.keepalive_s = keepalive_s
        self.max_queue = max_queue
        self._lock = threading.Lock()
        self._subs: dict[queue.Queue, tuple[str, int | None]] = {}
        self.latest: Published | None = None
        self.closed = False

    def publish(self, published: Published) -> None:
        with self._lock:
            self.latest = published
            subs = list(self._subs.items())
        for q, (channel, game) in subs:
            if game is not None and published.game_id != game:
                q.put(_CLOSED)  # a new game: the seat's join code no longer holds
                continue
            payload = channel_payload(published, channel)
            if payload is None:
                continue
            if q.qsize() >= self.max_queue:  # a stalled client: drop it rather than grow
                q.put(_CLOSED)
                continue
            q.put(sse("state", payload, published.version))

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._subs)

    def stream(self, channel: str, game: int | None = None) -> Iterator[str]:
        """The text of one event stream: the current state at once, then every change."""
        q: queue.Queue = queue.Queue()
        with self._lock:
            if self.closed:
                return
            self._subs[q] = (channel, game)
            latest = self.latest
        try:
            yield "retry: 2000\n\n"
            if latest is not None:
                payload = channel_payload(latest, channel)
                if payload is not None:
                    yield sse("state", payload, latest.version)
            while True:
                try:
                    item = q.get(timeout=self.keepalive_s)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                if item is _CLOSED:
                    return
                yield item
        finally:
            with self._lock:
                self._subs.pop(q, None)

    def close(self) -> None:
        """End every stream (at shutdown)."""
        with self._lock:
            self.closed = True
            subs = list(self._subs)
        for q in subs:
            q.put(_CLOSED)
