"""``python -m calibration``: every calibration step from the command line, with the dashboard's artefacts."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from maps.files import number
from vision.errors import VisionError
from vision.settings import Settings

from . import flow, regions, tokens
from .errors import CalibrationError
from .folder import Folder

EPILOG = """steps, in order:
  camera     measure px/mm and advise the mount height (--lock fixes focus, exposure, white balance)
  markers    write board.json and the marker sheet (markers.png, markers.pdf) for --map
  watch      report which markers are seen and when registration is stable
  reference  capture the empty board
  regions    --order lists the regions to click; --seeds FILE grows the outlines from the clicks
  fix-region replace one region's outline (--polygon FILE or JSON text, [[x_mm, y_mm], ...])
  tokens     capture one kind (--kind) or every kind (--kinds a,b,... or all), then enroll
  selftest   mixed layouts on the tray: accuracy and the kinds confused
  check      can a game start? (and which step to redo)
  status     each step: done, missing, changed or outdated
  all        every step on the simulated camera
camera: 'simulated[:map[:seed[:tier]]]', 'picamera', 'camera:0', a video, or an image folder
artefacts: docs/calibration.md"""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m calibration", description="Calibrate the companion for one table.",
                                epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dir", default="calibration-data", help="the calibration folder (default: %(default)s)")
    p.add_argument("--camera", default="simulated", help="the camera (default: %(default)s)")
    p.add_argument("--yes", action="store_true", help="do not wait for Enter before a capture")
    sub = p.add_subparsers(dest="step", required=True, metavar="STEP")
    c = sub.add_parser("camera", help="measure the camera over the board")
    c.add_argument("--map", default="2p")
    c.add_argument("--lock", action="store_true", help="write camera.json with the settings fixed now")
    m = sub.add_parser("markers", help="board frame and marker sheet")
    m.add_argument("--map", default="2p", help="2p, 3p, 4p, 5p or a house map file (docs/maps.md)")
    m.add_argument("--board", metavar="WxH", help="your board, mm: width x height of the area the markers frame")
    m.add_argument("--marker-mm", type=float, help="the side of the printed markers, mm")
    m.add_argument("--marker-inset", type=float, metavar="MM",
                   help="how far each marker's centre sits from the two board edges at its corner, mm")
    m.add_argument("--token-mm", type=float, help="a race token's width, mm")
    w = sub.add_parser("watch", help="markers seen, registration stable")
    w.add_argument("--frames", type=number(1, 1000), default=8)
    sub.add_parser("reference", help="capture the empty board")
    r = sub.add_parser("regions", help="grow region outlines from one click each")
    g = r.add_mutually_exclusive_group(required=True)
    g.add_argument("--order", action="store_true", help="list the regions in the order to click them")
    g.add_argument("--seeds", help="JSON file {region id: [x_mm, y_mm]}")
    g.add_argument("--truth-seeds", action="store_true", help="simulated camera: click each true region")
    f = sub.add_parser("fix-region", help="replace one region's outline")
    f.add_argument("region", type=number(0, 9999))
    f.add_argument("--polygon", required=True, help="JSON file or text: [[x_mm, y_mm], ...]")
    t = sub.add_parser("tokens", help="capture token kinds on the tray and enroll them")
    t.add_argument("--kind", help="one kind (label), e.g. elves or elves-decline")
    t.add_argument("--kinds", default="", help="comma-separated kinds, or 'all' (default: every kind)")
    t.add_argument("--enroll-only", action="store_true", help="only enroll the samples already captured")
    s = sub.add_parser("selftest", help="mixed layouts: what the model confuses")
    s.add_argument("--layouts", type=number(1, 100), default=3)
    sub.add_parser("check", help="can a game start?")
    sub.add_parser("status", help="each step's state")
    a = sub.add_parser("all", help="every step on the simulated camera")
    a.add_argument("--map", default="2p")
    a.add_argument("--kinds", default="", help="comma-separated kinds (default: every kind)")
    return p


def _measures(args) -> dict:
    """The board's measurements given on the command line (none: the companion's own layout)."""
    out = {}
    if args.board:
        try:
            w, h = (float(v) for v in args.board.lower().replace(" ", "").split("x"))
        except ValueError:
            raise CalibrationError(f"--board {args.board!r}: expected WIDTHxHEIGHT in mm, e.g. 600x450") from None
        out["board_mm"] = (w, h)
    for key in ("marker_mm", "token_mm"):
        if getattr(args, key) is not None:
            out[key] = getattr(args, key)
    if args.marker_inset is not None:
        out["marker_inset_mm"] = args.marker_inset
    return out


def _kinds(text: str) -> list[str]:
    if not text or text == "all":
        return list(tokens.ALL_KINDS)
    out = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in out if k not in tokens.ALL_KINDS]
    if bad:
        raise CalibrationError(f"--kinds: {bad[0]!r} is not a token kind (e.g. 'elves', 'elves-decline', 'hero')")
    return out


class _Asking:
    """A real camera: tell the person at the table what to do and wait for Enter."""

    def __init__(self, camera, yes: bool):
        self.camera, self.yes = camera, yes

    def __getattr__(self, name):
        return getattr(self.camera, name)

    def prepare(self, request: dict) -> None:
        self.camera.prepare(request)
        if type(self.camera).__name__ == "SimulatedTable":
            return
        if request.get("kind") == "empty":
            text = "Clear the board (markers uncovered)"
        elif request.get("kind") == "tray":
            text = (f"Lay {len(request['slots'])} {tokens.describe(request['slots'][0][0])} on the tray at x = "
                    + ", ".join(f"{x:.0f}" for _, x, _ in request["slots"]) + " mm")
        else:
            text = "Set up the board"
        print(text, file=sys.stderr)
        if not self.yes and sys.stdin.isatty():
            input("Press Enter when done. ")


def run(args) -> dict:
    settings = Settings()
    folder = Folder(args.dir)
    if folder.path.exists() and not folder.path.is_dir():
        raise CalibrationError(f"--dir {folder.path}: a file, not a folder")
    step = args.step
    if step == "status":
        return {"dir": str(folder.path), "steps": folder.status()}
    if step == "markers":
        return flow.markers_step(folder, args.map, _measures(args))
    if step == "fix-region":
        text = args.polygon
        try:
            poly = json.loads(Path(text).read_text(encoding="utf-8") if Path(text).is_file() else text)
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"--polygon: not a JSON list of [x_mm, y_mm]: {exc}") from None
        return flow.fix_region(folder, args.region, poly)
    if step == "regions" and args.order:
        b = flow.board(folder)
        return {"map": b.map, "order": regions.prompts(b.map)}
    if step == "regions" and args.seeds:
        return flow.regions_step(folder, regions.load_seeds(args.seeds))
    if step == "tokens" and args.enroll_only:
        return flow.enroll_step(settings, folder, None)
    from .sim import open_camera
    spec = args.camera
    if step == "all" and not spec.startswith("simulated"):
        raise CalibrationError("'all' runs on the simulated camera only (--camera simulated:MAP:SEED)")
    if step == "all" and spec == "simulated":
        spec = f"simulated:{args.map}"
    camera = _Asking(open_camera(spec), args.yes)
    try:
        if step == "camera":
            return flow.camera_step(settings, folder, camera, args.map, args.lock)
        if step == "watch":
            from . import markers
            watch = markers.MarkerWatch(settings, flow.board(folder))
            last = {}
            for _ in range(max(1, args.frames)):
                last = watch.feed(camera.frame())
                if last["stable"]:
                    break
            return last
        if step == "reference":
            return flow.reference_step(settings, folder, camera)
        if step == "regions":
            return flow.regions_step(folder, flow.truth_seeds(camera.camera))
        if step == "tokens":
            kinds = [args.kind] if args.kind else _kinds(args.kinds)
            seen = [flow.token_kind_step(settings, folder, camera, k) for k in tokens.kinds_order(kinds)]
            if args.kind:
                return seen[0]
            return {"captured": seen, "enrolled": flow.enroll_step(settings, folder, kinds)}
        if step == "selftest":
            return flow.selftest_step(settings, folder, camera, args.layouts)
        if step == "check":
            return flow.check_step(settings, folder, camera)
        if step == "all":
            return flow.whole(settings, folder, camera.camera, args.map, _kinds(args.kinds))
    finally:
        camera.close()
    raise CalibrationError(f"unknown step {step}")


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        out = run(args)
    except (CalibrationError, VisionError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    try:
        print(json.dumps(out, indent=1, default=str))
    except BrokenPipeError:
        return 0
    if args.step == "check" and not out.get("ready"):
        return 1
    return 0
