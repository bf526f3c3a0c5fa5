"""Checks of a table's setup for ``companion doctor``: camera, markers, scoring box, GPIO, disk, clock.

Each check is a function of a ``DoctorContext`` that returns a ``Check``: ok, warn, fail or skip,
what it found, and for a problem how to fix it. Camera and marker checks come from
``vision.doctor`` (``check_camera(ctx)``, ``check_markers(ctx)``) once the vision package has one;
until then the camera is looked for directly and the markers are not checked.
"""
from __future__ import annotations

import glob
import importlib
import os
import shutil
import subprocess
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable

from .settings import HardwareSettings

STATUSES = ("ok", "warn", "fail", "skip")


@dataclass(frozen=True)
class Check:
    """One check's outcome."""

    name: str
    status: str
    message: str
    fix: str = ""


@dataclass
class DoctorContext:
    """What the checks look at; tests replace the probes."""

    settings: HardwareSettings = field(default_factory=HardwareSettings)
    data_dir: str = "/var/lib/companion"
    disk_usage: Callable[[str], tuple] = shutil.disk_usage
    wall_clock: Callable[[], float] = time.time
    ntp_synchronized: Callable[[], bool | None] = None  # None: cannot tell
    handshake_s: float = 2.0  # how long the scoring box may take to answer HELLO

    def __post_init__(self):
        if self.ntp_synchronized is None:
            self.ntp_synchronized = _timedatectl_synchronized


def _vision_check(name: str):
    try:
        module = importlib.import_module("vision.doctor")
    except ImportError:
        return None
    return getattr(module, f"check_{name}", None)


def check_camera(ctx: DoctorContext) -> Check:
    plugged = _vision_check("camera")
    if plugged is not None:
        return plugged(ctx)
    try:
        from picamera2 import Picamera2  # Debian's python3-picamera2 on the Pi
        cameras = Picamera2.global_camera_info()
    except ImportError:
        cameras = None
    except Exception as exc:  # libcamera present but unhappy
        return Check("camera", "fail", f"picamera2 cannot list cameras: {exc}",
                     "check the ribbon cable (contacts towards the board), then reboot")
    if cameras:
        model = cameras[0].get("Model", "camera")
        return Check("camera", "ok", f"{model} found by picamera2 (not opened: vision not available)")
    devices = sorted(glob.glob("/dev/video*"))
    if cameras is None and devices:
        return Check("camera", "warn", f"no picamera2; video devices {', '.join(devices)} not opened (vision not available)",
                     "on the Pi: sudo apt install python3-picamera2")
    return Check("camera", "fail", "no camera found",
                 "connect the camera's ribbon cable with the Pi off, then boot; `rpicam-hello --list-cameras` should list it")


def check_markers(ctx: DoctorContext) -> Check:
    plugged = _vision_check("markers")
    if plugged is not None:
        return plugged(ctx)
    return Check("markers", "skip", "not checked: vision not available")


def check_scoring_box(ctx: DoctorContext) -> Check:
    from firmware import proto

    from .link import find_port, open_port
    from .session import HostSession

    s = ctx.settings.scoring_box
    if not s.enabled:
        return Check("scoring box", "skip", "disabled in the configuration ([scoring_box] enabled = false)")
    if s.path == "sim":
        return Check("scoring box", "skip", "simulated ([scoring_box] path = \"sim\")")
    where = s.path or f"USB {s.usb_id}"
    path = find_port(s)
    if path is None:
        return Check("scoring box", "fail", f"not found ({where})",
                     "plug the box into the Pi; `ls -l /dev/scorebox` should show it (udev rule from deploy/install.sh)")
    try:
        port = open_port(path, s)
    except PermissionError:
        return Check("scoring box", "fail", f"no permission to open {path}",
                     "add the user to the dialout group (sudo usermod -aG dialout $USER), then log in again")
    except Exception as exc:
        busy = "busy" in str(exc).lower() or "lock" in str(exc).lower()
        return Check("scoring box", "warn" if busy else "fail", f"cannot open {path}: {exc}",
                     "the companion service has it open: fine if it runs (systemctl status companion)" if busy
                     else "unplug and plug the box back in")
    try:
        session = HostSession(lambda _: None)
        session.start(time.monotonic())
        deadline = time.monotonic() + ctx.handshake_s
        while not session.ready and time.monotonic() < deadline:
            port.write(session.output())
            session.feed(port.read(max(1, port.in_waiting)), time.monotonic())
            session.tick(time.monotonic())
    except Exception as exc:
        return Check("scoring box", "fail", f"lost {path} during the handshake: {exc}", "check the USB cable")
    finally:
        port.close()
    if not session.ready:
        return Check("scoring box", "fail", f"{path} opens but does not answer HELLO (protocol {proto.VERSION})",
                     "flash the firmware: sudo systemctl stop companion; deploy/flash-firmware.sh")
    return Check("scoring box", "ok", f"firmware {session.firmware} at {path}")


def check_gpio(ctx: DoctorContext) -> Check:
    from .panel import Panel, make_pin_factory

    g = ctx.settings.gpio
    if not g.enabled:
        return Check("gpio", "skip", "disabled in the configuration ([gpio] enabled = false)")
    factory = None
    try:
        with warnings.catch_warnings():  # gpiozero warns about each factory it falls back from
            warnings.simplefilter("ignore")
            factory = make_pin_factory(g.pin_factory)
            with Panel(g, lambda _: None, pin_factory=factory):
                pass
    except Exception as exc:
        return Check("gpio", "fail", f"cannot claim the panel's pins: {type(exc).__name__}: {exc}",
                     "on a Pi 5 install python3-lgpio; the user needs the gpio group; another program may hold the pins")
    finally:
        if factory is not None:
            factory.close()
    pins = ", ".join(f"{k} GPIO{v}" for k, v in g.pins.items())
    return Check("gpio", "ok", f"panel pins free ({pins})")


def check_disk(ctx: DoctorContext) -> Check:
    path = ctx.data_dir if os.path.isdir(ctx.data_dir) else "/"
    free_mb = ctx.disk_usage(path)[2] // 2**20
    if free_mb < 200:
        return Check("disk", "fail", f"{free_mb} MB free on {path}",
                     "free space: sudo apt clean; sudo journalctl --vacuum-size=100M")
    if free_mb < 1024:
        return Check("disk", "warn", f"only {free_mb} MB free on {path}", "sudo apt clean; remove old game records")
    return Check("disk", "ok", f"{free_mb} MB free on {path}")


def check_clock(ctx: DoctorContext) -> Check:
    year = time.gmtime(ctx.wall_clock()).tm_year
    if year < 2024:
        return Check("clock", "fail", f"the clock says {year}: the Pi has no battery clock and has not set it",
                     "connect the Pi to a network with internet so it can set its clock (systemd-timesyncd)")
    synced = ctx.ntp_synchronized()
    if synced is False:
        return Check("clock", "warn", "the clock is not synchronized (game record times may be off)",
                     "connect to a network; check `timedatectl` and `systemctl status systemd-timesyncd`")
    return Check("clock", "ok", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ctx.wall_clock()))
                 + (", synchronized" if synced else ""))


def _timedatectl_synchronized() -> bool | None:
    if shutil.which("timedatectl") is None:
        return None
    try:
        out = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                             capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"yes": True, "no": False}.get(out)


CHECKS: dict[str, Callable[[DoctorContext], Check]] = {
    "camera": check_camera,
    "markers": check_markers,
    "scoring-box": check_scoring_box,
    "gpio": check_gpio,
    "disk": check_disk,
    "clock": check_clock,
}


def run_checks(ctx: DoctorContext, names=None) -> list[Check]:
    """Run the named checks (all by default); a check that crashes is reported as failed."""
    results = []
    for name in names or CHECKS:
        try:
            results.append(CHECKS[name](ctx))
        except Exception as exc:
            results.append(Check(name, "fail", f"the check itself failed: {type(exc).__name__}: {exc}"))
    return results
