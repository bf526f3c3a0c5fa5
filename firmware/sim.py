"""A scoring box without a Pico: the firmware's own logic behind a pseudo-terminal (CPython only).

The companion opens the pty's path with pyserial exactly as it opens the Pico's USB port.
``Simulator`` runs in a thread (tests, ``[scoring_box] path = "sim"``); ``python -m firmware.sim``
runs one as a process that prints its path, keeps ``--link`` pointing at it like the udev rule's
/dev/scorebox, presses the die on SIGUSR1, and vanishes like an unplugged box when killed.
Not copied to the Pico.
"""
from __future__ import annotations

import argparse
import logging
import os
import select
import signal
import sys
import threading
import time
import tty

from . import scorebox

log = logging.getLogger("firmware.sim")
PRESS_MS = 60
LOOP_S = 0.005


class Simulator:
    """One simulated box on a fresh pty; ``path`` is what the host opens."""

    def __init__(self, link: str | None = None):
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no newline translation: a plain byte pipe like USB CDC
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self.link = link
        if link:
            tmp = f"{link}.{os.getpid()}.tmp"
            os.symlink(self.path, tmp)
            os.replace(tmp, link)
        self._t0 = time.monotonic()
        self.box = scorebox.ScoreBox(self._ms())
        self._press_until = -1
        self._presses = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reported = 0

    def _ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def press_die(self) -> None:
        """Press and release the die button (held 60 ms)."""
        with self._lock:
            self._presses += 1

    def start(self) -> "Simulator":
        self._thread = threading.Thread(target=self._run, name="scorebox-sim", daemon=True)
        self._thread.start()
        return self

    def step(self) -> None:
        """One pass of the box's main loop: bytes in, button, resends, bytes out."""
        now = self._ms()
        try:
            data = os.read(self._master, 4096)
        except BlockingIOError:
            data = b""
        except OSError:  # EIO: nobody has the port open just now
            data = b""
        if data:
            self.box.feed(data, now)
        with self._lock:
            if self._presses and now >= self._press_until + PRESS_MS:
                self._presses -= 1
                self._press_until = now + PRESS_MS
        self.box.button(now < self._press_until, now)
        self.box.tick(now)
        out = self.box.output()
        if out:
            try:
                os.write(self._master, out)
            except OSError as exc:
                log.warning("simulated box could not send %d bytes: %s", len(out), exc)
        while self._reported < self.box.problem_count:
            self._reported += 1
            log.warning("simulated box ignored: %s", self.box.problems[-1])

    def _run(self) -> None:
        while not self._stop.is_set():
            select.select([self._master], [], [], LOOP_S)
            self.step()

    def unplug(self) -> None:
        """Stop and close the pty as a pulled USB cable would; the link name goes too."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.link and os.path.islink(self.link) and os.readlink(self.link) == self.path:
            os.unlink(self.link)
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware.sim", description=__doc__.splitlines()[0])
    parser.add_argument("--link", help="keep this symlink pointing at the pty (like /dev/scorebox)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    sim = Simulator(args.link)
    stop = threading.Event()
    signal.signal(signal.SIGUSR1, lambda *_: sim.press_die())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(sim.path, flush=True)
    try:
        while not stop.is_set():
            select.select([sim._master], [], [], LOOP_S)
            sim.step()
    except KeyboardInterrupt:
        pass
    sim.unplug()
    return 0


if __name__ == "__main__":
    sys.exit(main())
