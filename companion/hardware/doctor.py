"""Checks of a table's setup for ``companion doctor``: camera, markers, calibration, scoring box,
GPIO, disk, clock and the address phones use.

Each check is a function of a ``DoctorContext`` that returns a ``Check``: ok, warn, fail or skip,
what it found, and for a problem how to fix it. The camera is opened once (``[camera] source``)
and its frame is shared by the camera, markers and calibration checks (``calibration.doctor``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path
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
    """What the checks look at; tests replace the probes. ``config`` is the service's configuration
    (``companion.service.config.Config``): the camera, the calibration folder, the address."""

    settings: HardwareSettings = field(default_factory=HardwareSettings)
    data_dir: str = "/var/lib/companion"
    config: object = None
    disk_usage: Callable[[str], tuple] = shutil.disk_usage
    wall_clock: Callable[[], float] = time.time
    ntp_synchronized: Callable[[], bool | None] = None  # None: cannot tell
    avahi_running: Callable[[], bool | None] = None  # None: cannot tell
    handshake_s: float = 2.0  # how long the scoring box may take to answer HELLO
    grab_timeout_s: float = 30.0
    _look: object = None

    def __post_init__(self):
        if self.ntp_synchronized is None:
            self.ntp_synchronized = _timedatectl_synchronized
        if self.avahi_running is None:
            self.avahi_running = _avahi_running
        if self.config is None:
            from ..service.config import Config
            self.config = Config()

    @property
    def map_name(self) -> str:
        """The map the calibration was made for, else the demo's map."""
        from calibration.doctor import board_for
        return board_for(self.calibration_folder, self.config.demo.map).map

    @property
    def calibration_folder(self):
        from calibration.folder import Folder
        return Folder(self.config.camera.calibration_path(Path(self.data_dir)))

    def look(self):
        """The frame from the configured camera (taken once)."""
        if self._look is None:
            from calibration.doctor import Look
            spec = self.config.camera.source
            if "{map}" in spec:
                spec = spec.replace("{map}", self.map_name)
            self._look = Look.take(spec, self.grab_timeout_s)
        return self._look


def _check(finding) -> Check:
    return Check(finding.name, finding.status, finding.message, finding.fix)


def check_camera(ctx: DoctorContext) -> Check:
    from calibration.doctor import camera
    return _check(camera(ctx.look()))


def check_markers(ctx: DoctorContext) -> Check:
    from calibration.doctor import board_for, markers
    from vision.settings import Settings
    return _check(markers(Settings(), board_for(ctx.calibration_folder, ctx.map_name), ctx.look()))


def check_calibration(ctx: DoctorContext) -> Check:
    from calibration.doctor import calibration
    from vision.settings import Settings
    return _check(calibration(Settings(), ctx.calibration_folder, ctx.look(), ctx.config.camera.load_calibration))


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
    path = ctx.data_dir
    if not os.path.isdir(path):
        if os.path.exists(path):
            return Check("disk", "fail", f"the data folder {path} is a file, not a folder",
                         "give --data (or [service] data_dir) the folder `companion serve` keeps its games in")
        return Check("disk", "fail", f"the data folder {path} does not exist",
                     "give --data (or [service] data_dir) the folder `companion serve` keeps its games in; "
                     "the installed service uses /var/lib/companion")
    if not os.access(path, os.W_OK | os.X_OK):
        return Check("disk", "fail", f"cannot write to the data folder {path}",
                     f"run the doctor as the service's user (sudo -u companion ...) or fix the owner: sudo chown companion: {path}")
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


def _avahi_running() -> bool | None:
    if shutil.which("systemctl") is None:
        return None
    try:
        out = subprocess.run(["systemctl", "is-active", "avahi-daemon"], capture_output=True, text=True,
                             timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"active": True, "inactive": False, "failed": False}.get(out)


def check_address(ctx: DoctorContext) -> Check:
    """The address phones will use (join links, QR codes), avahi's name, and whether the service answers."""
    from ..service import address
    s = ctx.config.service
    port = s.port
    local = f"http://127.0.0.1:{port}" if port != 80 else "http://127.0.0.1"
    phones = address.for_phones(s.public_url, s.host, local)
    if not phones.reachable:
        return Check("address", "fail", f"phones cannot reach the table: {phones.warning}",
                     "connect the Pi to the table's Wi-Fi (sudo raspi-config: System Options, Wireless LAN)")
    name = address.mdns_name() + ("" if port == 80 else f":{port}")
    avahi = ctx.avahi_running()
    try:
        urllib.request.urlopen(local + "/", timeout=3).close()
        serving = ""
    except urllib.error.HTTPError:
        serving = ""  # it answers: an error page is an answer
    except (OSError, ValueError):
        serving = f"; nothing answers on port {port} yet"
    said = f"phones will use {phones.url}/ (join links and QR codes)"
    if avahi is False:
        return Check("address", "warn", f"{said}; avahi-daemon is not running, so http://{name}/ will not work{serving}",
                     "sudo systemctl enable --now avahi-daemon")
    if serving:
        return Check("address", "warn", said + serving, "start the companion: sudo systemctl start companion "
                     "(or companion serve); logs: journalctl -u companion")
    return Check("address", "ok", f"{said}, also http://{name}/" if avahi else said)


CHECKS: dict[str, Callable[[DoctorContext], Check]] = {
    "camera": check_camera,
    "markers": check_markers,
    "calibration": check_calibration,
    "scoring-box": check_scoring_box,
    "gpio": check_gpio,
    "disk": check_disk,
    "clock": check_clock,
    "address": check_address,
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
