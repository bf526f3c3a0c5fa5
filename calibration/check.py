"""Step 6, the check that a game can start, and the quick re-check of a saved calibration.

Every region registered (geometry.json has an outline for each region of the map), every token
kind enrolled (model.npz knows each kind chosen), the camera steady (the markers are where they
were when the empty board was taken, and the light is about the same). A failure names the step
to redo; the other steps are kept.
"""
from __future__ import annotations

import json

import cv2
import numpy as np

import maps
from vision.classify import load_model
from vision.errors import GeometryError, ModelError, RegistrationError
from vision.geometry import load as load_geometry
from vision.observe import Calibration
from vision.register import register
from vision.settings import Settings

from . import board as board_mod
from .errors import CalibrationError
from .folder import STEPS
from .reference import rectified_view

LIGHT_RANGE = (0.8, 1.25)


def _item(name, ok, say, redo=None):
    return {"name": name, "ok": bool(ok), "say": say, "redo": None if ok else redo}


def run(settings: Settings, folder, frames: list[np.ndarray] | None = None) -> dict:
    """The check; with ``frames`` from the camera now, also that the camera has not moved."""
    status = folder.status()
    items = []
    for step in STEPS:
        st = status[step]
        items.append(_item(f"step {step}", st == "done",
                           "done" if st == "done" else {
                               "missing": "not done yet", "changed": "its files changed since: "
                               + ", ".join(folder.changed_files(step)[:3]),
                               "outdated": "a step it depends on was redone"}[st], step))
    geometry = None
    if status["regions"] in ("done", "outdated"):
        try:
            geometry = load_geometry(folder.file("geometry.json"))
            board = maps.load(geometry.map)
            missing = [r.id for r in board if r.id not in geometry.regions]
            items.append(_item("every region registered", not missing,
                               f"all {len(board)} regions of map {geometry.map} have an outline" if not missing
                               else f"no outline for regions {', '.join(map(str, missing))}", "regions"))
        except (GeometryError, ValueError) as exc:
            items.append(_item("every region registered", False, str(exc), "regions"))
    if status["tokens"] in ("done", "outdated"):
        kinds = folder.info("tokens").get("kinds", [])
        try:
            model = load_model(folder.file("model.npz"))
            missing = sorted(set(kinds) - set(model.labels))
            items.append(_item("every token kind enrolled", kinds and not missing,
                               f"{len(model.labels)} kinds enrolled" if not missing
                               else f"not enrolled: {', '.join(missing)}", "tokens"))
        except ModelError as exc:
            items.append(_item("every token kind enrolled", False, str(exc), "tokens"))
    if frames and status["reference"] == "done":
        items.append(camera_steady(settings, folder, frames))
    redo = []
    for it in items:
        if not it["ok"] and it["redo"] and it["redo"] not in redo:
            redo.append(it["redo"])
    report = {"format": "smallworld-check/1", "ready": all(it["ok"] for it in items), "items": items,
              "redo": [s for s in STEPS if s in redo]}
    folder.path.mkdir(parents=True, exist_ok=True)
    folder.file("check.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report


def camera_steady(settings: Settings, folder, frames: list[np.ndarray]) -> dict:
    """Whether the markers stayed put and the light held since the empty board was taken."""
    try:
        ref = json.loads(folder.file("reference.json").read_text(encoding="utf-8"))
        H0 = np.array(ref["homography_mm_to_px"], float)
        b = board_mod.load(folder.file("board.json"))
    except (OSError, ValueError, KeyError) as exc:
        return _item("camera steady", False, f"{folder.file('reference.json')}: {exc}", "reference")
    g = b.geometry()
    moved = 0.0
    for f in frames:
        try:
            reg = register(settings, g, f)
        except RegistrationError as exc:
            return _item("camera steady", False, str(exc), "reference")
        for m in g.markers:
            a = cv2.perspectiveTransform(m.corners()[None], H0)[0]
            c = cv2.perspectiveTransform(m.corners()[None], reg.homography)[0]
            moved = max(moved, float(np.abs(a - c).max()))
    if moved > settings.moved_px:
        return _item("camera steady", False, f"the camera moved ({moved:.1f} px) since the empty board was taken",
                     "reference")
    from vision.register import rectify
    r = rectified_view(b)
    flat = rectify(settings, frames[-1], reg, r)
    ratio = float(flat.mean()) / max(float(ref.get("brightness", flat.mean())), 1.0)
    if not LIGHT_RANGE[0] <= ratio <= LIGHT_RANGE[1]:
        return _item("camera steady", False, f"the light changed ({ratio:.0%} of the empty board's brightness)",
                     "reference")
    return _item("camera steady", True, f"markers within {moved:.1f} px, light at {ratio:.0%}")


def load_for_vision(settings: Settings, folder):
    """The saved calibration as vision uses it: (vision.observe.Calibration, vision.classify.Model)."""
    from .reference import load_empty
    try:
        geometry = load_geometry(folder.file("geometry.json"))
        model = load_model(folder.file("model.npz"))
        calibration = Calibration.build(settings, geometry, load_empty(folder))
    except (GeometryError, ModelError, RegistrationError) as exc:
        raise CalibrationError(str(exc)) from None
    return calibration, model
