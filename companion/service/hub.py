"""Server-Sent Events: each open stream is a subscriber on a channel ("table" or "seat:N").

The owner's listener hands every ``Published`` snapshot to the hub, which offers each subscriber
only what its channel may see (the text of one event, made once per channel). Every event is the
whole state, so a subscriber that falls behind needs only the newest: an asyncio subscriber
(``Subscription``, the server's streams) keeps just that one, and so never grows however slow its
client; a thread's stream (``stream()``, for a plain WSGI server and the tests) is dropped when its
queue fills. A stream sends a keepalive comment every ``keepalive_s``.
"""
from __future__ import annotations

import asyncio
import json
import queue
import threading
from typing import Iterator

from .owner import Published

_CLOSED = object()
RETRY = "retry: 2000\n\n"  # the browser's EventSource reconnects 2 s after a stream ends
KEEPALIVE = ": keepalive\n\n"
# the ASGI scope's key where the events view names the channel for the server's front (asgi.py)
SLOT = "companion.stream"


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


def event_text(published: Published, channel: str) -> str | None:
    payload = channel_payload(published, channel)
    return None if payload is None else sse("state", payload, published.version)


class Hub:
    """Subscribers by channel; ``publish`` is the owner's listener (called on the owner's thread)."""

    def __init__(self, keepalive_s: float = 15.0, max_queue: int = 64):
        self.keepalive_s = keepalive_s
        self.max_queue = max_queue
        self._lock = threading.Lock()
        self._subs: dict[object, tuple[str, int | None]] = {}
        self.latest: Published | None = None
        self.closed = False

    def publish(self, published: Published) -> None:
        with self._lock:
            self.latest = published
            subs = list(self._subs.items())
        texts: dict[str, str | None] = {}
        on_loops: dict[asyncio.AbstractEventLoop, list] = {}  # one wake-up per event loop, not per stream
        for sub, (channel, game) in subs:
            if game is not None and published.game_id != game:
                text = None  # a new game: the seat's join code no longer holds
            else:
                if channel not in texts:
                    texts[channel] = event_text(published, channel)
                text = texts[channel]
                if text is None:
                    continue
            if isinstance(sub, Subscription):
                on_loops.setdefault(sub.loop, []).append((sub, text))
            elif text is None:
                sub.end()
            else:
                sub.offer(text)
        for loop, items in on_loops.items():
            try:
                loop.call_soon_threadsafe(_deliver, items)
            except RuntimeError:  # the loop is closed: the server has stopped
                pass

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._subs)

    def _add(self, sub, channel: str, game: int | None) -> str | None:
        """Register ``sub``; the current state's event for it (None: nothing yet, or the hub is closed)."""
        with self._lock:
            if self.closed:
                sub.end()
                return None
            self._subs[sub] = (channel, game)
            latest = self.latest
        if latest is None:
            return None
        if game is not None and latest.game_id != game:
            sub.end()
            return None
        return event_text(latest, channel)

    def _remove(self, sub) -> None:
        with self._lock:
            self._subs.pop(sub, None)

    def subscribe(self, channel: str, game: int | None = None) -> "Subscription":
        """An asyncio subscriber (call it on the event loop): ``await next()`` until it returns None."""
        sub = Subscription(self, asyncio.get_running_loop())
        first = self._add(sub, channel, game)
        if first is not None:
            sub._set(first)
        return sub

    def stream(self, channel: str, game: int | None = None) -> Iterator[str]:
        """The text of one event stream for a thread (a plain WSGI server, the tests): the current
        state at once, then every change."""
        sub = _ThreadSub(self.max_queue)
        first = self._add(sub, channel, game)
        try:
            if self.closed:
                return
            yield RETRY
            if first is not None:
                yield first
            while True:
                try:
                    item = sub.queue.get(timeout=self.keepalive_s)
                except queue.Empty:
                    yield KEEPALIVE
                    continue
                if item is _CLOSED:
                    return
                yield item
        finally:
            self._remove(sub)

    def close(self) -> None:
        """End every stream (at shutdown)."""
        with self._lock:
            self.closed = True
            subs = list(self._subs)
        for sub in subs:
            sub.end()


class _ThreadSub:
    def __init__(self, max_queue: int):
        self.queue: queue.Queue = queue.Queue()
        self.max_queue = max_queue

    def offer(self, text: str) -> None:
        if self.queue.qsize() >= self.max_queue:  # a stalled client: drop it rather than grow
            self.queue.put(_CLOSED)
        else:
            self.queue.put(text)

    def end(self) -> None:
        self.queue.put(_CLOSED)


def _deliver(items: list) -> None:
    """On the event loop: each subscription's newest text (None: the stream ends)."""
    for sub, text in items:
        if text is None:
            sub._end()
        else:
            sub._set(text)


class Subscription:
    """One stream on the event loop: holds only the newest event not yet sent (never a backlog)."""

    def __init__(self, hub: Hub, loop: asyncio.AbstractEventLoop):
        self.hub = hub
        self.loop = loop
        self.pending: str | None = None
        self.ended = False
        self._wake = asyncio.Event()

    def end(self) -> None:
        """End the stream (from any thread)."""
        try:
            self.loop.call_soon_threadsafe(self._end)
        except RuntimeError:  # the loop is closed: the server has stopped
            pass

    # on the loop
    def _set(self, text: str) -> None:
        self.pending = text
        self._wake.set()

    def _end(self) -> None:
        self.ended = True
        self._wake.set()

    async def next(self) -> str | None:
        """The next text to send: the newest state, or a keepalive comment after ``keepalive_s``
        of quiet; None once the stream has ended."""
        if not self.ended and self.pending is None:
            try:
                await asyncio.wait_for(self._wake.wait(), self.hub.keepalive_s)
            except asyncio.TimeoutError:
                return KEEPALIVE
        self._wake.clear()
        if self.ended:
            return None
        text, self.pending = self.pending, None
        return text if text is not None else KEEPALIVE

    def close(self) -> None:
        """Leave the hub (the stream is over); on the loop."""
        self.ended = True
        self.hub._remove(self)
