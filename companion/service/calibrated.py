"""The saved calibration, loaded when the service starts (``[camera] load_calibration``).

``load(config)`` returns what vision needs to read this table (``Saved``) or None, and one line to
tell the person starting the service: loaded, missing, stale (which steps to redo on /calibrate) or
unusable; nothing when loading is not configured.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .config import Config

CALIBRATE_HINT = "open /calibrate on the dashboard (or run python -m calibration)"
STATE_WORDS = {"missing": "not done", "changed": "its files changed", "outdated": "a step before it was redone"}


@dataclass(frozen=True)
class Saved:
    """A calibration folder that passed its re-check, loaded as ``vision.observe`` takes it."""

    folder: Path
    map: str
    camera: str  # the camera it was made with (camera.json; else [camera] source, '{map}' filled in)
    calibration: object  # vision.observe.Calibration
    model: object  # vision.classify.Model

    @property
    def regions(self) -> int:
        return len(self.calibration.geometry.regions)

    @property
    def kinds(self) -> int:
        return len(self.model.labels)


def load(config: Config) -> tuple[Saved | None, str]:
    """The saved calibration (or None) and the one line that says how it went."""
    camera = config.camera
    path = camera.calibration_path(config.service.data_path)
    if not camera.load_calibration:
        return None, ""
    from calibration.errors import CalibrationError
    from calibration.folder import STEPS, Folder
    folder = Folder(path)
    try:
        status = folder.status()
        if all(state == "missing" for state in status.values()):
            return None, f"camera: no saved calibration in {path}: {CALIBRATE_HINT}"
        stale = [f"{step} ({STATE_WORDS[status[step]]})" for step in STEPS if status[step] != "done"]
        if stale:
            return None, f"camera: the calibration in {path} is stale: redo {', '.join(stale)}; {CALIBRATE_HINT}"
        from calibration import check
        from vision.settings import Settings
        calibration, model = check.load_for_vision(Settings(), folder)
    except CalibrationError as exc:
        return None, f"camera: the calibration in {path} cannot be used: {exc}; {CALIBRATE_HINT}"
    name = calibration.geometry.map
    spec = _made_with(folder) or camera.source.replace("{map}", name)
    saved = Saved(path, name, f"simulated:{name}" if spec == "simulated" else spec, calibration, model)
    return saved, (f"camera: calibration loaded from {path} (map {name}, {saved.regions} regions, "
                   f"{saved.kinds} token kinds)")


def _made_with(folder) -> str:
    """The camera named in camera.json (the camera step), or ''."""
    import json
    try:
        camera = json.loads(folder.file("camera.json").read_text(encoding="utf-8")).get("camera", "")
    except (OSError, ValueError, AttributeError):
        return ""
    return camera if isinstance(camera, str) else ""
