"""The steps as the dashboard and the command line run them: a camera, a folder, the settings."""
from __future__ import annotations

import numpy as np

from vision.settings import Settings

from . import board as board_mod
from . import camera as camera_mod
from . import check as check_mod
from . import markers as markers_mod
from . import reference as reference_mod
from . import regions as regions_mod
from . import tokens as tokens_mod
from .errors import CalibrationError

REFERENCE_FRAMES = 3


def board(folder) -> board_mod.Board:
    return board_mod.load(folder.file("board.json"))


def camera_step(settings: Settings, folder, camera, map_name: str, lock: bool = False) -> dict:
    b = board_mod.for_map(map_name) if not folder.file("board.json").exists() else board(folder)
    result = camera_mod.check(settings, b, camera.frame())
    out = result.to_dict()
    if lock:
        camera_mod.lock(folder, camera, result)
        out["locked"] = True
    return out


def markers_step(folder, map_name: str, measures: dict | None = None) -> dict:
    """The board frame (the map's, or the user's measurements: ``board.measured``'s keywords) and the sheet."""
    b = board_mod.measured(map_name, **measures) if measures else board_mod.for_map(map_name)
    files = markers_mod.prepare(folder, b)
    return {"map": b.map, "files": files, "marker_mm": b.markers[0].size, "board_mm": [b.width_mm, b.height_mm],
            "marker_inset_mm": b.markers[0].center[0], "token_mm": b.token_mm}


def reference_step(settings: Settings, folder, camera) -> dict:
    b = board(folder)
    camera.prepare({"kind": "empty"})
    return reference_mod.capture(settings, folder, b, camera.frames(REFERENCE_FRAMES))


def truth_seeds(camera) -> dict:
    """Clicks a careful player would make on the simulated board: the innermost point of each region."""
    g = getattr(camera, "geometry", None)
    if g is None:
        raise CalibrationError("--truth-seeds needs the simulated camera")
    return {rid: regions_mod.inner_point(p) for rid, p in g.regions.items()}


def regions_step(folder, seeds: dict) -> dict:
    b = board(folder)
    seeds = regions_mod.check_seeds(b, seeds)
    polys = regions_mod.grow(b, reference_mod.load_rectified(folder), seeds)
    g = regions_mod.save(folder, b, seeds, polys)
    return {"map": b.map, "regions": len(g.regions), "adjacency": g.adjacency_report,
            "problems": regions_mod.describe_adjacency(b.map, g.adjacency_report)}


def fix_region(folder, rid: int, polygon) -> dict:
    """Replace one region's outline (validated) and save; the adjacency report is redone."""
    from vision.errors import GeometryError
    from vision.geometry import load
    b = board(folder)
    try:
        g = load(folder.file("geometry.json"))
    except GeometryError as exc:
        raise CalibrationError(str(exc)) from None
    if rid not in g.regions:
        raise CalibrationError(f"region {rid} is not on map {b.map}")
    polys = dict(g.regions)
    polys[rid] = regions_mod.validate_polygon(b, rid, polygon)
    seeds = regions_mod.load_seeds(folder.file("seeds.json"))
    fixed = set(folder.info("regions").get("fixed", [])) | {rid}
    g = regions_mod.save(folder, b, {int(k): v for k, v in seeds.items()}, polys, fixed)
    return {"region": rid, "adjacency": g.adjacency_report,
            "problems": regions_mod.describe_adjacency(b.map, g.adjacency_report)}


def token_kind_step(settings: Settings, folder, camera, label: str, n: int = tokens_mod.HANDFUL) -> dict:
    if label not in tokens_mod.ALL_KINDS:  # before anyone is asked to lay it
        raise CalibrationError(f"tokens: {label!r} is not a token kind (e.g. 'elves', 'elves-decline', 'hero')")
    b = board(folder)
    plan = tokens_mod.plan_kind(b, label, n)
    camera.prepare({"kind": "tray", "slots": plan})
    return tokens_mod.capture_kind(settings, folder, b, label, plan, reference_mod.load_empty(folder),
                                   camera.frame())


def enroll_step(settings: Settings, folder, kinds) -> dict:
    return tokens_mod.build_model(settings, folder, kinds)


def selftest_step(settings: Settings, folder, camera, layouts: int = 3, seed: int = 0) -> dict:
    b = board(folder)
    kinds = folder.info("tokens").get("kinds") or []
    if not kinds:
        raise CalibrationError("self-test: enroll the tokens first")
    rng = np.random.default_rng(seed)
    frames = []
    for _ in range(layouts):
        plan = tokens_mod.plan_mixed(b, kinds, rng)
        camera.prepare({"kind": "tray", "slots": plan})
        frames.append((plan, camera.frame()))
    camera.prepare({"kind": "empty"})
    report = tokens_mod.selftest(settings, folder, b, reference_mod.load_empty(folder), frames)
    report["sentences"] = tokens_mod.confusion_sentences(report)
    return report


def check_step(settings: Settings, folder, camera=None) -> dict:
    frames = None
    if camera is not None:
        camera.prepare({"kind": "empty"})
        frames = camera.frames(2)
    return check_mod.run(settings, folder, frames)


def whole(settings: Settings, folder, camera, map_name: str, kinds, seeds=None) -> dict:
    """Every step in order (the simulated table does what it is asked); the reports by step."""
    out = {"camera": camera_step(settings, folder, camera, map_name)}
    out["markers"] = markers_step(folder, map_name)
    out["camera"] = camera_step(settings, folder, camera, map_name, lock=True)
    out["reference"] = reference_step(settings, folder, camera)
    out["regions"] = regions_step(folder, seeds if seeds is not None else truth_seeds(camera))
    for k in tokens_mod.kinds_order(kinds):
        token_kind_step(settings, folder, camera, k)
    out["tokens"] = enroll_step(settings, folder, kinds)
    out["selftest"] = selftest_step(settings, folder, camera)
    out["check"] = check_step(settings, folder, camera)
    return out
