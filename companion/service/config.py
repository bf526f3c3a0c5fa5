"""The configuration file (TOML): ``[service]``, ``[demo]``, ``[camera]``, ``[gpio]``, ``[scoring_box]``.

Every setting has a default that works on the simulated table. ``load`` refuses an unknown key or
a bad value with a one-line ``ConfigError`` naming the file and the key.
"""
from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from maps import files

from .. import settings_table
from ..hardware.settings import HardwareSettings

SYSTEM_CONFIG = Path("/etc/companion/config.toml")
SIMULATED_TIERS = ("clean", "realistic", "hard", "foreign", "foreign-clean", "foreign-realistic",
                   "foreign-hard")  # vision.render.TIERS, without importing OpenCV here
PORT_ENV = "COMPANION_PORT"  # the systemd unit sets 80 (http://companion.local); a dev machine uses 8000


MAX_CONFIG = 256 * 1024  # bytes: a real configuration file is under 2 KB


class ConfigError(ValueError):
    """A bad configuration: one line naming the file and the key."""


def default_data_dir() -> str:
    """systemd's StateDirectory when run as the service, else the user's data folder."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return state.split(":")[0]
    return str(Path.home() / ".local" / "share" / "companion")


@dataclass(frozen=True)
class ServiceSettings:
    """The web service and the store."""

    host: str = "0.0.0.0"
    port: int = 8000
    data_dir: str = ""  # "" = default_data_dir()
    table_code: str = ""  # "" = generated once and kept in the store
    allowed_hosts: tuple[str, ...] = ()  # besides localhost, IP addresses and this machine's names
    public_url: str = ""  # the address phones use (QR codes); "" = the address the table screen used
    threads: int = 16  # threads for the pages and the API (the event streams need none)
    keepalive_s: float = 10.0  # a comment on every quiet event stream this often
    die_seed: int = -1  # -1 = a new random seed per game (it is recorded with the game)

    @property
    def data_path(self) -> Path:
        return Path(os.path.expanduser(self.data_dir or default_data_dir()))


@dataclass(frozen=True)
class DemoSettings:
    """The demo: a seeded game played on the simulated table."""

    ruleset: str = "smallworld"  # or "warcraft": Small World of Warcraft on the SAMPLE islands
    map: str = "4p"  # for warcraft: islands joined by '+' (unset: the SAMPLE islands for the players)
    players: int = 0  # 0 = the map's player count (warcraft: 4 when the map is unset)
    seed: int = 1
    pace_s: float = 1.5  # one action every pace_s seconds
    restart_s: float = 30.0  # pause on the final scores before the next demo game
    camera: bool = True  # the board reaches the companion through the simulated camera and vision


@dataclass(frozen=True)
class CameraSettings:
    """The camera over the board and its saved calibration (docs/calibration.md)."""

    # What the guided calibration reads: 'simulated[:map[:seed[:tier]]]' ('{map}': the map chosen
    # on /calibrate), 'picamera', 'camera:N', a video file or a folder of images.
    source: str = "simulated:{map}:3"
    calibration_dir: str = ""  # "" = DATA_DIR/calibration: where /calibrate saves, what the service loads
    load_calibration: bool = False  # at start, load the saved calibration for vision (one line if it cannot)
    retry_s: float = 5.0  # companion serve: seconds before opening the watched camera again after it failed or ended

    def calibration_path(self, data_path: Path) -> Path:
        return Path(os.path.expanduser(self.calibration_dir)) if self.calibration_dir else data_path / "calibration"


@dataclass(frozen=True)
class Config:
    service: ServiceSettings = field(default_factory=ServiceSettings)
    demo: DemoSettings = field(default_factory=DemoSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    hardware: HardwareSettings = field(default_factory=HardwareSettings)
    source: str = "defaults"


_TABLES = {"service": ServiceSettings, "demo": DemoSettings, "camera": CameraSettings}
_HARDWARE_TABLES = ("gpio", "scoring_box")
_RANGES = {
    ("service", "port"): (0, 65535), ("service", "threads"): (4, 256), ("service", "keepalive_s"): (1.0, 300.0),
    ("demo", "players"): (0, 5), ("demo", "pace_s"): (0.0, 60.0), ("demo", "restart_s"): (0.0, 3600.0),
    ("camera", "retry_s"): (0.01, 600.0),
}


def load(path: str | Path | None = None, *, env: Mapping[str, str] | None = None) -> Config:
    """Read the file (None: /etc/companion/config.toml when it exists, else the defaults)."""
    env = os.environ if env is None else env
    if path is None and SYSTEM_CONFIG.exists():
        path = SYSTEM_CONFIG
    data: dict = {}
    source = "defaults"
    if path is not None:
        source = str(path)
        try:
            data = tomllib.loads(files.read_text(path, "configuration file", MAX_CONFIG))
        except files.BadInput as exc:
            raise ConfigError(str(exc)) from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        except RecursionError:
            raise ConfigError(f"{path}: not valid TOML: nested too deeply") from None
        except ValueError:  # tomllib's own: a number of thousands of digits
            raise ConfigError(f"{path}: not valid TOML: a number too long to read") from None
    config = from_mapping(data, source)
    port = env.get(PORT_ENV)
    if port:
        if not port.isdigit() or not 0 <= int(port) <= 65535:
            raise ConfigError(f"{PORT_ENV}: expected a port number 0-65535, got {port!r}")
        config = dataclasses.replace(config, service=dataclasses.replace(config.service, port=int(port)))
    return config


def from_mapping(data: Mapping[str, Any], source: str = "config") -> Config:
    for key in data:
        if key not in _TABLES and key not in _HARDWARE_TABLES:
            raise ConfigError(f"{source}: unknown table [{key}] (known: {', '.join([*_TABLES, *_HARDWARE_TABLES])})")
    built = {name: _table(kind, data.get(name, {}), name, source) for name, kind in _TABLES.items()}
    try:
        hardware = HardwareSettings.from_mapping(data, source=source)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return Config(service=built["service"], demo=built["demo"], camera=built["camera"], hardware=hardware,
                  source=source)


def _table(kind, values: Any, table: str, source: str):
    if not isinstance(values, Mapping):
        raise ConfigError(f"{source}: [{table}] must be a table")
    ranges = {key: low_high for (t, key), low_high in _RANGES.items() if t == table}
    out = settings_table.read(kind, values, table, source, ConfigError, ranges)
    if table == "service" and "table_code" in out and out["table_code"] and len(out["table_code"]) < 6:
        raise ConfigError(f"{source}: [service] table_code: use at least 6 characters")
    if table == "demo":
        _check_demo(out, source)
    if table == "camera":
        problem = camera_source_problem(out["source"]) if "source" in out else None
        if problem:
            raise ConfigError(f"{source}: [camera] source: {problem}")
        folder = Path(os.path.expanduser(out.get("calibration_dir", "")))
        if out.get("calibration_dir") and folder.exists() and not folder.is_dir():
            raise ConfigError(f"{source}: [camera] calibration_dir: {folder} is a file, not a folder")
    return kind(**out)


def _check_demo(out: dict, source: str) -> None:
    """The demo's ruleset exists and its map is one of that ruleset's maps."""
    import maps

    from ..rules import ruleset as rulesets
    try:
        rules = rulesets.get(out.get("ruleset", "smallworld"))
    except ValueError as exc:
        raise ConfigError(f"{source}: [demo] ruleset: {exc}") from None
    default_map = getattr(rules, "default_map", None)
    if "map" not in out and default_map is not None:
        out["map"] = default_map(out.get("players") or 4)
    try:
        rules.load_board(out.get("map", DemoSettings.map))
    except maps.MapError as exc:
        raise ConfigError(f"{source}: [demo] map: {exc}") from None


def camera_source_problem(spec: str) -> str | None:
    """What is wrong with a camera description, or None (files and folders are checked when opened)."""
    if not spec.strip():
        return "empty (e.g. 'picamera', 'camera:0' or 'simulated:{map}:3')"
    parts = spec.split(":")
    if parts[0] == "simulated":
        import maps
        if len(parts) > 1 and parts[1] != "{map}" and parts[1] not in maps.builtin_names():
            return f"unknown map {parts[1]!r} in {spec!r} (one of {', '.join(maps.builtin_names())}, or {{map}})"
        if len(parts) > 2 and not parts[2].isdigit():
            return f"the seed in {spec!r} must be a whole number"
        if len(parts) > 3 and parts[3] not in SIMULATED_TIERS:
            return f"unknown tier {parts[3]!r} in {spec!r} (one of {', '.join(SIMULATED_TIERS)})"
        if len(parts) > 4:
            return f"expected simulated[:map[:seed[:tier]]], got {spec!r}"
    elif parts[0] == "camera" and (len(parts) != 2 or not parts[1].isdigit()):
        return f"expected camera:N with N the camera's number, got {spec!r}"
    return None
