"""The calibration folder and its manifest: which step made which files, their hashes and times.

A step is *done* when its files are all present with the hashes it recorded and the steps it
depends on have not been redone since; otherwise it is *missing*, *changed* or *outdated*, and
only that step (and the ones depending on it) needs doing again.
"""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from .errors import CalibrationError

FORMAT = "smallworld-calibration/1"
STEPS = ("camera", "markers", "reference", "regions", "tokens")
# Regions are in board millimetres and tokens are cut to board scale: neither depends on the camera pose.
DEPENDS = {"camera": (), "markers": (), "reference": ("markers",), "regions": ("markers",), "tokens": ()}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Folder:
    """One calibration folder (``manifest.json`` plus the step files named in docs/calibration.md)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def file(self, name: str) -> Path:
        return self.path / name

    @property
    def manifest_path(self) -> Path:
        return self.path / "manifest.json"

    def manifest(self) -> dict:
        p = self.manifest_path
        if not p.exists():
            return {"format": FORMAT, "steps": {}}
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"{p}: not readable JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("steps"), dict):
            raise CalibrationError(f"{p}: field 'format' must be {FORMAT!r} with a 'steps' object")
        return data

    def _save(self, data: dict) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(self.manifest_path)

    def digest(self, step: str, data: dict | None = None) -> str:
        """One hash over the files a step recorded (what dependants remember)."""
        entry = (data or self.manifest())["steps"].get(step, {})
        return hashlib.sha256(json.dumps(entry.get("files", {}), sort_keys=True).encode()).hexdigest()[:16]

    def record(self, step: str, files: list[str], info: dict | None = None) -> dict:
        """Record that ``step`` has just made ``files`` (names relative to the folder)."""
        if step not in STEPS:
            raise CalibrationError(f"unknown step {step!r} (steps: {', '.join(STEPS)})")
        data = self.manifest()
        hashes = {}
        for name in sorted(files):
            p = self.file(name)
            if not p.is_file():
                raise CalibrationError(f"{p}: step {step} did not write this file")
            hashes[name] = sha256(p)
        data["steps"][step] = {
            "done_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "files": hashes,
            "inputs": {d: self.digest(d, data) for d in DEPENDS[step]},
            "info": info or {},
        }
        self._save(data)
        return data["steps"][step]

    def forget(self, step: str) -> None:
        data = self.manifest()
        if data["steps"].pop(step, None) is not None:
            self._save(data)

    def info(self, step: str) -> dict:
        return self.manifest()["steps"].get(step, {}).get("info", {})

    def status(self) -> dict[str, str]:
        """Each step's state: 'done', 'missing' (never done), 'changed' (a file differs) or 'outdated'."""
        data = self.manifest()
        out: dict[str, str] = {}
        for step in STEPS:
            entry = data["steps"].get(step)
            if entry is None:
                out[step] = "missing"
                continue
            bad = [n for n, h in entry.get("files", {}).items()
                   if not self.file(n).is_file() or sha256(self.file(n)) != h]
            if bad:
                out[step] = "changed"
            elif any(out.get(d) != "done" or entry.get("inputs", {}).get(d) != self.digest(d, data)
                     for d in DEPENDS[step]):
                out[step] = "outdated"
            else:
                out[step] = "done"
        return out

    def changed_files(self, step: str) -> list[str]:
        entry = self.manifest()["steps"].get(step, {})
        return [n for n, h in entry.get("files", {}).items()
                if not self.file(n).is_file() or sha256(self.file(n)) != h]
