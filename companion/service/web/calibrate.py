"""The guided calibration on the dashboard: one page per step, driven by a JSON API over ``calibration``.

The camera is the configuration's ``[camera] source`` (the app's ``CALIBRATE_CAMERA``): the
simulated table by default, or 'picamera', 'camera:0', ...; '{map}' in it is replaced by the chosen
map. Artefacts go to ``[camera] calibration_dir`` (``CALIBRATE_DIR``; default
``<data dir>/calibration``, docs/calibration.md).
"""
from __future__ import annotations

import threading

import cv2
from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, send_file, url_for

import maps
from calibration import flow, regions
from calibration import tokens as tokens_mod
from calibration.errors import CalibrationError
from calibration.folder import Folder, STEPS
from calibration.markers import MarkerWatch
from calibration.reference import rectified_view
from calibration.sim import open_camera
from vision.errors import VisionError
from vision.settings import Settings

from . import bodies, security

bp = Blueprint("calibrate", __name__, url_prefix="/calibrate")
PAGES = ("camera", "markers", "reference", "regions", "tokens", "check")
TITLES = {"camera": "1. Camera", "markers": "2. Markers", "reference": "3. The empty board",
          "regions": "4. Regions", "tokens": "5. Tokens", "check": "6. Ready to play?"}


class _State:
    """The calibration in progress: folder, camera, clicks so far (one per app)."""

    def __init__(self, folder: Folder, camera_spec: str):
        self.folder, self.camera_spec = folder, camera_spec
        self.camera = None
        self.map = None
        self.seeds: dict[int, tuple[float, float]] = {}
        self.watch = None
        self.lock = threading.Lock()
        self.settings = Settings()
        if folder.file("board.json").exists():
            try:
                self.map = flow.board(folder).map
            except CalibrationError:
                self.map = None

    def cam(self):
        if self.map is None:
            raise CalibrationError("choose the map first (step 2, Markers)")
        if self.camera is None:
            spec = self.camera_spec.replace("{map}", self.map)
            self.camera = open_camera(f"simulated:{self.map}" if spec == "simulated" else spec)
        return self.camera


def _state() -> _State:
    ext = current_app.extensions
    if "calibrate" not in ext:
        service = current_app.config["SERVICE"]
        camera = service.config.camera
        folder = Folder(current_app.config.get("CALIBRATE_DIR") or camera.calibration_path(service.data))
        ext["calibrate"] = _State(folder, current_app.config.get("CALIBRATE_CAMERA") or camera.source)
    return ext["calibrate"]


def _table_only():
    if not security.is_table():
        abort(403, description="Unlock the table first (the table code).")


def _api(fn):
    """Run a step under the lock; a calibration error becomes one line of JSON with status 400."""
    _table_only()
    st = _state()
    try:
        with st.lock:
            return jsonify(fn(st))
    except (CalibrationError, VisionError, ValueError) as exc:
        return jsonify({"error": "calibration", "sentence": str(exc)}), 400


@bp.get("/")
@bp.get("/<step>")
def page(step: str = ""):
    if not security.is_table():
        return redirect(url_for("table.unlock_form", next=request.path))
    if step and step not in PAGES:
        abort(404)
    st = _state()
    return render_template("calibrate.html", step=step, pages=PAGES, titles=TITLES, map=st.map,
                           maps=maps.builtin_names(), status=st.folder.status(), steps=STEPS)


@bp.get("/api/status")
def status():
    return _api(lambda st: {"map": st.map, "steps": st.folder.status(), "seeds": len(st.seeds)})


@bp.post("/api/map")
def choose_map():
    def run(st):
        name = str(bodies.json_object().get("map", "")).strip()
        if name not in maps.builtin_names() and not name.endswith(".json"):
            raise CalibrationError(f"field 'map': unknown map {name!r} (one of {', '.join(maps.builtin_names())}, "
                                   "or the path of a house map file on the companion)")
        out = flow.markers_step(st.folder, name)  # a house map file is read (and checked) here
        if st.camera is not None and out["map"] != st.map:
            st.camera.close()
            st.camera = None
        st.map, st.seeds, st.watch = out["map"], {}, None
        return out
    return _api(run)


@bp.post("/api/board")
def board_measures():
    """The user's own board measured with a ruler: size, marker side and inset, token width (mm)."""
    def run(st):
        body = bodies.json_object()
        out = {}
        for key, field in (("width_mm", "width_mm"), ("height_mm", "height_mm"), ("marker_mm", "marker_mm"),
                           ("marker_inset_mm", "marker_inset_mm"), ("token_mm", "token_mm")):
            value = body.get(field)
            if value in (None, ""):
                continue
            try:
                out[key] = float(value)
            except (TypeError, ValueError):
                raise CalibrationError(f"field {field!r}: a number of millimetres, not {value!r}") from None
        if ("width_mm" in out) != ("height_mm" in out):
            raise CalibrationError("fields 'width_mm' and 'height_mm': give both, or neither")
        if "width_mm" in out:
            out["board_mm"] = (out.pop("width_mm"), out.pop("height_mm"))
        if not st.map:
            raise CalibrationError("choose the map first (the camera step)")
        return flow.markers_step(st.folder, st.map, out)
    return _api(run)


@bp.get("/preview.jpg")
def preview():
    _table_only()
    st = _state()
    try:
        with st.lock:
            frame = st.cam().frame()
    except (CalibrationError, VisionError) as exc:
        abort(409, description=str(exc))
    ok, jpg = cv2.imencode(".jpg", cv2.resize(frame, (640, int(640 * frame.shape[0] / frame.shape[1]))))
    return current_app.response_class(jpg.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/api/camera")
def camera():
    lock = bool(bodies.json_object().get("lock"))
    return _api(lambda st: flow.camera_step(st.settings, st.folder, st.cam(), st.map, lock))


@bp.get("/sheet/<name>")
def sheet(name: str):
    _table_only()
    if name not in ("markers.png", "markers.pdf"):
        abort(404)
    p = _state().folder.file(name)
    if not p.is_file():
        abort(404, description="Choose the map first: the sheet is made for its marker size.")
    return send_file(p, as_attachment=name.endswith(".pdf"))


@bp.post("/api/watch")
def watch():
    def run(st):
        if st.watch is None:
            st.watch = MarkerWatch(st.settings, flow.board(st.folder))
        return st.watch.feed(st.cam().frame())
    return _api(run)


@bp.post("/api/reference")
def reference():
    return _api(lambda st: flow.reference_step(st.settings, st.folder, st.cam()))


@bp.get("/rectified.png")
def rectified():
    _table_only()
    p = _state().folder.file("empty-rectified.png")
    if not p.is_file():
        abort(404, description="Take the empty board first (step 3).")
    return send_file(p, mimetype="image/png", max_age=0)


_SCHEMATICS: dict = {}


def _regions_view(st) -> dict:
    from vision import layout
    from vision.errors import GeometryError
    from vision.geometry import load
    b = flow.board(st.folder)
    r = rectified_view(b)
    out = {"map": b.map, "order": regions.prompts(b.map), "px_per_mm": r.px_per_mm, "origin_mm": list(r.origin),
           "size_px": list(r.size), "seeds": {str(k): v for k, v in st.seeds.items()}, "polygons": {},
           "problems": []}
    if b.map not in _SCHEMATICS:  # the companion's own drawing of the map, made once
        g = layout.generate(maps.load(b.map))
        _SCHEMATICS[b.map] = {"size_mm": [g.width_mm, g.height_mm],
                              "polygons": {str(k): v.round(1).tolist() for k, v in g.regions.items()}}
    out["schematic"] = _SCHEMATICS[b.map]
    if st.folder.status()["regions"] in ("done", "outdated"):
        try:
            g = load(st.folder.file("geometry.json"))
            out["polygons"] = {str(k): v.tolist() for k, v in g.regions.items()}
            out["problems"] = regions.describe_adjacency(b.map, g.adjacency_report)
        except GeometryError as exc:
            out["problems"] = [str(exc)]
    return out


@bp.get("/api/regions")
def regions_view():
    return _api(_regions_view)


@bp.post("/api/regions/seed")
def seed():
    def run(st):
        data = bodies.json_object()
        try:
            rid, x, y = int(data["region"]), float(data["x_mm"]), float(data["y_mm"])
        except (KeyError, TypeError, ValueError):
            raise CalibrationError("a click is {region, x_mm, y_mm}") from None
        b = flow.board(st.folder)
        if rid not in maps.load(b.map).ids:
            raise CalibrationError(f"field 'region': {rid} is not on map {b.map}")
        x0, y0, x1, y1 = b.play_area
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            raise CalibrationError("that click is outside the play area")
        st.seeds[rid] = (x, y)
        return {"seeds": len(st.seeds)}
    return _api(run)


@bp.post("/api/regions/grow")
def grow():
    def run(st):
        result = flow.regions_step(st.folder, st.seeds)
        return {**result, **_regions_view(st)}
    return _api(run)


@bp.post("/api/regions/<int:rid>")
def fix(rid: int):
    def run(st):
        poly = bodies.json_object().get("polygon")
        flow.fix_region(st.folder, rid, poly)
        return _regions_view(st)
    return _api(run)


@bp.get("/api/tokens")
def tokens_view():
    def run(st):
        done = sorted(p.name for p in st.folder.file("samples").glob("*") if p.is_dir())
        b = flow.board(st.folder)
        return {"kinds": [{"label": k, "say": tokens_mod.describe(k), "done": k in done}
                          for k in tokens_mod.kinds_order()],
                "tray_mm": list(b.tray()), "handful": tokens_mod.HANDFUL}
    return _api(run)


@bp.get("/tray.png")
def tray():
    """The tray seen now, with the places to lay the next kind (``?kind=``) ringed."""
    _table_only()
    st = _state()
    kind = request.args.get("kind", "")
    try:
        with st.lock:
            b = flow.board(st.folder)
            plan = tokens_mod.plan_kind(b, kind) if kind in tokens_mod.ALL_KINDS else []
            picture = tokens_mod.tray_picture(st.settings, b, st.cam().frame(), plan)
    except (CalibrationError, VisionError) as exc:
        abort(409, description=str(exc))
    ok, png = cv2.imencode(".png", picture)
    return current_app.response_class(png.tobytes(), mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.post("/api/tokens/enroll")
def enroll():
    def run(st):
        kinds = bodies.json_object().get("kinds") or None
        return flow.enroll_step(st.settings, st.folder, kinds)
    return _api(run)


@bp.post("/api/tokens/selftest")
def selftest():
    return _api(lambda st: flow.selftest_step(st.settings, st.folder, st.cam()))


@bp.post("/api/tokens/<kind>")
def capture(kind: str):
    return _api(lambda st: flow.token_kind_step(st.settings, st.folder, st.cam(), kind))


@bp.post("/api/check")
def check():
    return _api(lambda st: flow.check_step(st.settings, st.folder, st.cam()))
