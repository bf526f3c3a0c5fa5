"""Running the service under uvicorn until Ctrl-C (or SIGTERM), then stopping cleanly.

uvicorn (asyncio, h11: pure Python) serves ``asgi.Front``: the event streams on its event loop,
the Flask pages and API in a small thread pool. The game owner, the camera watcher and the table
hardware keep their own threads; nothing is monkey-patched.
"""
from __future__ import annotations

import logging
import signal
import socket
import threading

from . import address
from .asgi import Front, QuietDrops
from .config import Config
from .runtime import Service

log = logging.getLogger(__name__)
# A client that stops acknowledging what it is sent (a phone gone off the network) is closed by the
# kernel after this long, so its stream ends; accepted sockets inherit it from the listening one.
USER_TIMEOUT_MS = 10_000
STALL_S = 10.0  # a stream whose writes are blocked this long (its client reads nothing) is dropped
MAX_CONNECTIONS = 1000  # beyond, uvicorn answers 503 (a flood must not take the memory)


def listen(host: str, port: int) -> socket.socket:
    """The listening socket (bound now, so that port 0 is known before serving)."""
    family, kind, proto, _, where = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_MS)
        sock.bind(where)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _uvicorn(app, hub):
    """uvicorn's Server for ``app``, which ends the event streams first when it shuts down (on its
    event loop: a signal handler must take no lock, it may have interrupted the holder)."""
    import uvicorn

    class Stopping(uvicorn.Server):
        async def shutdown(self, sockets=None):
            hub.close()
            await super().shutdown(sockets)

    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietDrops) for f in errors.filters):
        errors.addFilter(QuietDrops())
    return Stopping(uvicorn.Config(
        app, http="h11", ws="none", lifespan="off", log_config=None, access_log=False, proxy_headers=False,
        server_header=False, timeout_keep_alive=5, timeout_graceful_shutdown=3, limit_concurrency=MAX_CONNECTIONS))


class Server:
    """The service and its web server; ``run()`` blocks until ``close()`` or a signal."""

    def __init__(self, config: Config, *, hardware: bool = True, camera: bool = True):
        from .web import create_app
        self.config = config
        self.service = Service(config, hardware=hardware, camera=camera)
        self.app = create_app(self.service)
        s = config.service
        try:
            self.sock = listen(s.host, s.port)
        except OSError as exc:
            self.service.store.close()
            raise OSError(f"cannot listen on {s.host}:{s.port}: {exc.strerror}") from None
        self.port = self.sock.getsockname()[1]
        self.front = Front(self.app, self.service.hub, workers=s.threads, stall_s=STALL_S)
        self.uvicorn = None  # made in run(): its import need not delay the printed address
        self._lock = threading.Lock()
        self._stopped = False
        self._serving = threading.Event()
        self._served = threading.Event()

    def urls(self) -> list[str]:
        host = self.config.service.host
        if host in ("0.0.0.0", "::", ""):
            out = [f"http://127.0.0.1:{self.port}/"]
            lan = address.lan_address()
            if lan:
                out.append(f"http://{lan}:{self.port}/")
            return out
        return [f"http://{host}:{self.port}/"]

    def start_service(self) -> None:
        self.service.start()

    def run(self) -> None:
        """Serve until ``close()``, Ctrl-C or SIGTERM; then close the streams, the owner, the hardware, the store."""
        def stop(signum, frame):
            raise KeyboardInterrupt
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, stop)  # uvicorn takes it while serving, and hands it back after
        with self._lock:
            if self._stopped:
                return
            self.uvicorn = _uvicorn(self.front, self.service.hub)
            self._serving.set()
        try:
            self.uvicorn.run(sockets=[self.sock])
        except KeyboardInterrupt:
            pass
        finally:
            self._served.set()
            self.close()

    def close(self) -> None:
        """Stop serving (from any thread) and close the service."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self.service.hub.close()  # the streams say goodbye, so the server need not wait for them
        if self.uvicorn is not None:
            self.uvicorn.should_exit = True
        if self._serving.is_set() and not self._served.wait(10):
            log.warning("the web server did not stop within 10 s")
        self.sock.close()
        self.front.close()
        self.service.close()
