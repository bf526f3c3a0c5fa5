"""The serial link to the scoring box (pyserial), on its own thread.

The link finds the box (a configured path or pyserial URL, else the first USB port with the
configured VID:PID; ``"sim"`` starts a simulated box on a pty), runs a ``HostSession`` over it,
and when the port fails (the box was unplugged) closes it and looks again every ``reconnect_s``;
on the new connection the handshake makes the box show the current state again. ``show`` and
``status`` never block the caller.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Callable

import serial
from serial.tools import list_ports

from ..inputs import Submit
from .display import TableDisplay
from .session import HostSession
from .settings import ScoringBoxSettings

log = logging.getLogger("companion.hardware.scoring_box")
READ_TIMEOUT_S = 0.05
SIMULATED = "sim"  # [scoring_box] path = "sim" runs a simulated box inside the companion
WRITE_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class LinkStatus:
    """What the link is doing, for the dashboard and ``companion doctor``."""

    state: str  # "stopped", "looking", "connected" (port open, no handshake yet), "ready"
    port: str | None = None
    firmware: str | None = None
    showing: TableDisplay | None = None  # the last state the box acknowledged
    problems: int = 0  # garbage lines dropped since the link started


def find_port(settings: ScoringBoxSettings) -> str | None:
    """The configured path if it exists (URLs always do), else the first USB port with the VID:PID."""
    if settings.path:
        if "://" in settings.path or os.path.exists(settings.path):
            return settings.path
        return None
    vid, pid = settings.vid_pid
    matches = sorted(p.device for p in list_ports.comports() if p.vid == vid and p.pid == pid)
    if len(matches) > 1:
        log.warning("several USB serial ports are %s (%s); using %s. Set [scoring_box] path to choose",
                    settings.usb_id, ", ".join(matches), matches[0])
    return matches[0] if matches else None


def open_port(path: str, settings: ScoringBoxSettings):
    """Open a device path or pyserial URL with the link's timeouts."""
    extra = {} if "://" in path else {"exclusive": True}
    return serial.serial_for_url(path, baudrate=settings.baudrate, timeout=READ_TIMEOUT_S,
                                 write_timeout=WRITE_TIMEOUT_S, **extra)


class ScoringBoxLink:
    """Keeps the scoring box connected and showing the latest snapshot; its die presses go to ``submit``."""

    def __init__(self, settings: ScoringBoxSettings, submit: Submit, *,
                 finder: Callable[[ScoringBoxSettings], str | None] = find_port,
                 opener: Callable[[str, ScoringBoxSettings], object] = open_port,
                 clock: Callable[[], float] = time.monotonic):
        self._settings = settings
        self._submit = submit
        self._finder = finder
        self._opener = opener
        self._clock = clock
        self._lock = threading.Lock()
        self._snapshot: TableDisplay | None = None
        self._status = LinkStatus("stopped")
        self._problems = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.simulator = None
        if settings.path == SIMULATED:  # the firmware's logic on a pty, for the simulated table
            from firmware.sim import Simulator
            self.simulator = Simulator()
            self._finder = lambda _settings: self.simulator.path

    def show(self, snapshot: TableDisplay) -> None:
        """Make ``snapshot`` what the box shows; the link thread sends it within a read timeout."""
        with self._lock:
            self._snapshot = snapshot

    @property
    def status(self) -> LinkStatus:
        with self._lock:
            return self._status

    def start(self) -> "ScoringBoxLink":
        if self._thread is None:
            if self.simulator is not None:
                self.simulator.start()
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="scoring-box-link", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self.simulator is not None:
            self.simulator.unplug()
        self._set_status(LinkStatus("stopped", problems=self._problems))

    def __enter__(self) -> "ScoringBoxLink":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def _set_status(self, status: LinkStatus) -> None:
        with self._lock:
            self._status = status

    def _run(self) -> None:
        missing_logged = False
        while not self._stop.is_set():
            self._set_status(LinkStatus("looking", problems=self._problems))
            try:
                path = self._finder(self._settings)
                port = self._opener(path, self._settings) if path else None
            except (serial.SerialException, OSError) as exc:
                path, port = None, None
                if not missing_logged:
                    log.warning("scoring box: cannot open it (%s); trying again every %.1f s",
                                exc, self._settings.reconnect_s)
                    missing_logged = True
            if port is None:
                if not missing_logged:
                    log.info("scoring box not found (%s); looking every %.1f s",
                             self._settings.path or f"USB {self._settings.usb_id}", self._settings.reconnect_s)
                    missing_logged = True
                self._stop.wait(self._settings.reconnect_s)
                continue
            missing_logged = False
            log.info("scoring box found at %s", path)
            try:
                self._serve(port, path)
            except (serial.SerialException, OSError) as exc:
                log.warning("scoring box lost (%s); looking for it again", exc)
            except Exception:  # never let the link thread die quietly
                log.exception("scoring box link failed; looking for the box again")
            finally:
                try:
                    port.close()
                except Exception:
                    pass
            self._set_status(LinkStatus("looking", problems=self._problems))
            self._stop.wait(self._settings.reconnect_s)

    def _serve(self, port, path: str) -> None:
        session = HostSession(self._submit, self._settings.ack_timeout_s)
        session.start(self._clock())
        shown = None
        while not self._stop.is_set():
            now = self._clock()
            with self._lock:
                snapshot = self._snapshot
            if snapshot is not None and snapshot is not shown:
                session.show(snapshot, now)
                shown = snapshot
            out = session.output()
            if out:
                port.write(out)
            data = port.read(max(1, port.in_waiting))
            now = self._clock()
            if data:
                before = session.problems
                session.feed(data, now)
                self._problems += session.problems - before
            session.tick(now)
            state = "ready" if session.ready else "connected"
            self._set_status(LinkStatus(state, path, session.firmware, session.acknowledged, self._problems))
