"""Hardware settings: the ``[gpio]`` and ``[scoring_box]`` tables of the configuration file.

Defaults work on the simulated table: both parts are disabled until the configuration turns
them on. ``HardwareSettings.from_mapping`` refuses an unknown key or a bad value with a one-line
``ValueError`` that names the key.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .. import settings_table

PIN_FACTORIES = ("", "lgpio", "rpigpio", "pigpio", "native", "mock")
PICO_MICROPYTHON_USB_ID = "2e8a:0005"  # Raspberry Pi's VID with the MicroPython CDC product id


@dataclass(frozen=True)
class GpioSettings:
    """The panel on the Pi's header. Pins are BCM GPIO numbers."""

    enabled: bool = False
    pin_factory: str = ""  # "" lets gpiozero choose (lgpio on a Pi 5); "mock" for a dry run
    roll_button: int = 17
    confirm_button: int = 27
    undo_button: int = 22
    green_led: int = 23
    red_led: int = 24
    buzzer: int = 25
    debounce_ms: int = 30
    undo_hold_s: float = 2.0
    blink_s: float = 0.5  # red LED half-period while an alert is pending
    chirp_s: float = 0.15  # buzzer on-time for an illegal conquest

    @property
    def pins(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in _PIN_KEYS}


@dataclass(frozen=True)
class ScoringBoxSettings:
    """The USB scoring box: found by ``path`` if set (a device, any pyserial URL, or ``"sim"`` for a
    simulated box inside the companion), else by the first USB serial port with ``usb_id``."""

    enabled: bool = False
    path: str = ""
    usb_id: str = PICO_MICROPYTHON_USB_ID
    baudrate: int = 115200
    reconnect_s: float = 0.2  # how often to look for the box while it is away
    ack_timeout_s: float = 0.5  # resend the state when the box has not acknowledged it by then

    @property
    def vid_pid(self) -> tuple[int, int]:
        vid, pid = self.usb_id.split(":")
        return int(vid, 16), int(pid, 16)


@dataclass(frozen=True)
class HardwareSettings:
    """Both hardware tables of the configuration."""

    gpio: GpioSettings = field(default_factory=GpioSettings)
    scoring_box: ScoringBoxSettings = field(default_factory=ScoringBoxSettings)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "file") -> "HardwareSettings":
        """Build from ``{"gpio": {...}, "scoring_box": {...}}`` (other top-level tables are ignored)."""
        gpio = _table(GpioSettings, data.get("gpio", {}), "gpio", source)
        box = _table(ScoringBoxSettings, data.get("scoring_box", {}), "scoring_box", source)
        _check_gpio(gpio, source)
        _check_box(box, source)
        return cls(gpio=gpio, scoring_box=box)


_PIN_KEYS = ("roll_button", "confirm_button", "undo_button", "green_led", "red_led", "buzzer")


def _fail(source: str, table: str, key: str, problem: str) -> ValueError:
    return ValueError(settings_table.problem_line(source, table, key, problem))


def _table(kind, values: Any, table: str, source: str):
    if not isinstance(values, Mapping):
        raise ValueError(f"{source}: [{table}] must be a table, got {type(values).__name__}")
    return kind(**settings_table.read(kind, values, table, source))


def _check_gpio(s: GpioSettings, source: str) -> None:
    seen: dict[int, str] = {}
    for key in _PIN_KEYS:
        pin = getattr(s, key)
        if not 0 <= pin <= 27:
            raise _fail(source, "gpio", key, f"expected a BCM GPIO number 0-27, got {pin}")
        if pin in seen:
            raise _fail(source, "gpio", key, f"GPIO{pin} is already used by {seen[pin]}")
        seen[pin] = key
    if s.pin_factory not in PIN_FACTORIES:
        raise _fail(source, "gpio", "pin_factory", f"expected one of {PIN_FACTORIES}, got {s.pin_factory!r}")
    for key, low, high in (("debounce_ms", 0, 1000), ("undo_hold_s", 0.2, 10.0),
                           ("blink_s", 0.05, 5.0), ("chirp_s", 0.01, 2.0)):
        if not low <= getattr(s, key) <= high:
            raise _fail(source, "gpio", key, f"expected {low}-{high}, got {getattr(s, key)}")


def _check_box(s: ScoringBoxSettings, source: str) -> None:
    if not re.fullmatch(r"[0-9a-fA-F]{4}:[0-9a-fA-F]{4}", s.usb_id):
        raise _fail(source, "scoring_box", "usb_id", f"expected VID:PID in hex like {PICO_MICROPYTHON_USB_ID!r}, got {s.usb_id!r}")
    if s.baudrate <= 0:
        raise _fail(source, "scoring_box", "baudrate", f"expected a positive number, got {s.baudrate}")
    for key, low, high in (("reconnect_s", 0.01, 5.0), ("ack_timeout_s", 0.05, 10.0)):
        if not low <= getattr(s, key) <= high:
            raise _fail(source, "scoring_box", key, f"expected {low}-{high}, got {getattr(s, key)}")
