"""The GPIO panel: roll, confirm and undo buttons, a green and a red LED, and a buzzer (gpiozero).

Presses become inputs through ``submit``; ``show(snapshot)`` sets the lights. Both may be called
from any thread and return at once. Timing (debounce, the undo hold, the red LED's blinking and
the buzzer's chirp) follows the injected ``clock``; ``start()`` runs a small ticker thread that
calls ``tick()``, and tests call ``tick()`` themselves after moving a fake clock.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from gpiozero import LED, Button, Buzzer

from ..inputs import Confirm, RollRequested, Submit, UndoRequested
from .display import TableDisplay
from .press import PressTracker
from .settings import GpioSettings

log = logging.getLogger(__name__)
SOURCE = "panel"
TICK_S = 0.02


def make_pin_factory(name: str):
    """The gpiozero pin factory for a settings name; None lets gpiozero choose (lgpio on a Pi 5)."""
    if not name:
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory
        return MockFactory()
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory
        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory
        return RPiGPIOFactory()
    if name == "pigpio":
        from gpiozero.pins.pigpio import PiGPIOFactory
        return PiGPIOFactory()
    if name == "native":
        from gpiozero.pins.native import NativeFactory
        return NativeFactory()
    raise ValueError(f"unknown pin factory {name!r}")


class Panel:
    """The buttons and lights on the Pi's header."""

    def __init__(self, settings: GpioSettings, submit: Submit, *, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic):
        self._settings = settings
        self._submit = submit
        self._clock = clock
        self._lock = threading.RLock()
        self._snapshot = TableDisplay()
        self._alert_since: float | None = None
        self._chirp_until = -1.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._devices: list = []
        debounce = settings.debounce_ms / 1000
        self._buttons = {
            "roll": (PressTracker(debounce), RollRequested),
            "confirm": (PressTracker(debounce), Confirm),
            "undo": (PressTracker(debounce, hold_s=settings.undo_hold_s), UndoRequested),
        }
        try:
            for name, pin in (("roll", settings.roll_button), ("confirm", settings.confirm_button),
                              ("undo", settings.undo_button)):
                button = self._own(Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory))
                button.when_pressed = self._edge_handler(name, True)
                button.when_released = self._edge_handler(name, False)
            self._green = self._own(LED(settings.green_led, pin_factory=pin_factory))
            self._red = self._own(LED(settings.red_led, pin_factory=pin_factory))
            self._buzzer = self._own(Buzzer(settings.buzzer, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise
        self._render(clock())

    def _own(self, device):
        self._devices.append(device)
        return device

    def _edge_handler(self, name: str, pressed: bool):
        return lambda *_: self._edge(name, pressed)

    def _edge(self, name: str, pressed: bool) -> None:
        with self._lock:
            tracker, _ = self._buttons[name]
            events = tracker.edge(pressed, self._clock())
        self._emit(name, events)

    def _emit(self, name: str, events: list[str]) -> None:
        kind = self._buttons[name][1]
        for event in events:
            if event == "short":
                log.info("undo button released before %.1f s: hold it to undo", self._settings.undo_hold_s)
                continue
            log.debug("panel %s button: %s", name, event)
            self._submit(kind(SOURCE))

    def show(self, snapshot: TableDisplay) -> None:
        """Show a new snapshot: green while the board agrees, red blinking and a chirp on a new alert."""
        with self._lock:
            now = self._clock()
            if snapshot.alert and not self._snapshot.alert:
                self._alert_since = now
                self._chirp_until = now + self._settings.chirp_s
            elif not snapshot.alert:
                self._alert_since = None
            self._snapshot = snapshot
            self._render(now)

    def tick(self) -> None:
        """Advance timed behaviour to the clock's now: settled levels, the undo hold, blinking, the chirp."""
        with self._lock:
            now = self._clock()
            pending = [(name, tracker.poll(now)) for name, (tracker, _) in self._buttons.items()]
            self._render(now)
        for name, events in pending:
            self._emit(name, events)

    def _render(self, now: float) -> None:
        self._set(self._green, self._snapshot.agrees)
        red = False
        if self._alert_since is not None:
            red = int((now - self._alert_since) / self._settings.blink_s) % 2 == 0
        self._set(self._red, red)
        self._set(self._buzzer, now < self._chirp_until)

    @staticmethod
    def _set(device, on: bool) -> None:
        if bool(device.value) != on:
            device.on() if on else device.off()

    def start(self) -> "Panel":
        """Run the ticker thread (every 20 ms) until ``close``."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="panel-ticker", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(TICK_S):
            try:
                self.tick()
            except Exception:  # a failing pin must not kill the ticker silently
                log.exception("panel tick failed")

    def close(self) -> None:
        """Stop the ticker, switch everything off and release the pins."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:
                log.exception("closing %r failed", device)
        self._devices.clear()

    def __enter__(self) -> "Panel":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
