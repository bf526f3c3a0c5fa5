"""The ASGI application the server runs: the event streams on the event loop, the rest Flask's.

Flask decides every request, ``/events/`` included: the Host check, the cookie, which channel a
browser may see, the headers. Under this front the events view only names the channel (in the
``companion.stream`` slot of the ASGI scope, which a2wsgi passes on as ``environ["asgi.scope"]``)
and answers with its headers; the front then writes the events from the hub itself. An open stream
costs a socket and a coroutine, never a thread: a hundred phones, stale tabs and table screens
leave the pages and the API their threads (a2wsgi's pool of ``workers``).

A stream ends when its client closes it (the server is told at once), when the hub ends it (a new
game for a seat, shutdown), or when its client has stopped reading: a write still blocked after
``stall_s`` (the socket's buffers full) drops it. A client gone without a word (a phone off the
network) stops acknowledging the keepalives, and the kernel closes its socket (``TCP_USER_TIMEOUT``,
set on the listening socket by ``server.py``).
"""
from __future__ import annotations

import asyncio
import logging

from a2wsgi import WSGIMiddleware

from .hub import RETRY, SLOT, Hub

log = logging.getLogger(__name__)


class Front:
    """The ASGI app: ``/events/*`` streamed here once Flask has said yes, the rest to Flask."""

    def __init__(self, flask_app, hub: Hub, *, workers: int = 16, stall_s: float = 10.0):
        self.wsgi = WSGIMiddleware(flask_app, workers=workers)
        self.hub = hub
        self.stall_s = stall_s

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/events/"):
            await self.wsgi(scope, receive, send)
            return
        slot: dict = {}
        scope = dict(scope, **{SLOT: slot})

        async def headers_only(message):  # a stream's (empty) body from Flask is the front's to write
            if slot and message["type"] == "http.response.body":
                return
            if slot and message["type"] == "http.response.start":
                message = dict(message, headers=[(k, v) for k, v in message["headers"] if k != b"content-length"])
            await send(message)

        await self.wsgi(scope, receive, headers_only)
        if slot and scope["method"] == "HEAD":  # the headers only: no stream to hold open
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        elif slot:
            await self.stream(slot["channel"], slot.get("game"), receive, send, scope.get("client"))

    async def stream(self, channel: str, game: int | None, receive, send, client) -> None:
        sub = self.hub.subscribe(channel, game)
        watcher = asyncio.ensure_future(_until_disconnect(receive, sub))
        try:
            text = RETRY
            while text is not None:
                if not await self._write(send, text, client):
                    return  # dropped: the server closes the connection
                text = await sub.next()
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watcher.cancel()
            sub.close()

    async def _write(self, send, text: str, client) -> bool:
        try:
            await asyncio.wait_for(send({"type": "http.response.body", "body": text.encode(), "more_body": True}),
                                   self.stall_s)
            return True
        except asyncio.TimeoutError:
            log.info("an event stream (%s) read nothing for %g s: dropped", _who(client), self.stall_s)
            return False

    def close(self) -> None:
        self.wsgi.executor.shutdown(wait=False)


async def _until_disconnect(receive, sub) -> None:
    """End the subscription the moment the client goes (uvicorn says ``http.disconnect``)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            sub._end()
            return


def _who(client) -> str:
    return f"{client[0]}:{client[1]}" if client else "a client"


class QuietDrops(logging.Filter):
    """uvicorn reports a response the app stopped writing as an error; for a stream the front
    dropped on purpose it is not one (the front has said why)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "returned without completing response" not in record.getMessage()
