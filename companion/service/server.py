"""Running the service under waitress until Ctrl-C (or SIGTERM), then stopping cleanly."""
from __future__ import annotations

import logging
import signal
import threading
import time

from . import address
from .config import Config
from .runtime import Service

log = logging.getLogger(__name__)


class Server:
    """The service and its waitress server; ``run()`` blocks until ``stop()`` or a signal."""

    def __init__(self, config: Config, *, hardware: bool = True, camera: bool = True):
        from waitress.server import create_server

        from .web import create_app
        self.config = config
        self.service = Service(config, hardware=hardware, camera=camera)
        self.app = create_app(self.service)
        s = config.service
        try:
            self.server = create_server(self.app, host=s.host, port=s.port, threads=s.threads,
                                        channel_timeout=max(60, int(s.keepalive_s * 4)), ident="companion",
                                        clear_untrusted_proxy_headers=True)
        except OSError as exc:
            self.service.store.close()
            raise OSError(f"cannot listen on {s.host}:{s.port}: {exc.strerror}") from None
        self.port = self.server.effective_port
        self._stopped = threading.Event()

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
        """Serve until Ctrl-C or SIGTERM; then close the streams, the owner, the hardware, the store."""
        def stop(signum, frame):
            raise KeyboardInterrupt
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, stop)
        try:
            self.server.run()
        except KeyboardInterrupt:
            pass
        finally:
            self.close()

    def close(self) -> None:
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.service.hub.close()
        deadline = time.monotonic() + 2.0
        while self.service.hub.count and time.monotonic() < deadline:  # let the streams say goodbye
            time.sleep(0.02)
        time.sleep(0.1)  # the streams' last writes
        try:
            self.server.close()
        finally:
            self.service.close()
