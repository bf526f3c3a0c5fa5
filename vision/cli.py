"""``python -m vision``: render a synthetic table, enroll token samples, observe frames, make geometry and markers.

Errors a user can cause print one line and exit with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from maps.files import number

from .errors import VisionError


def _geometry_for(args):
    from . import geometry, layout
    if getattr(args, "geometry", None):
        return geometry.load(args.geometry)
    import maps
    return layout.generate(maps.load(args.map))


def cmd_render(args) -> int:
    import maps
    from . import layout, markers
    from .render import TIERS, Session, enrollment_samples, random_state
    board = maps.load(args.map)
    geo = layout.generate(board)
    out = Path(args.out)
    (out / "frames").mkdir(parents=True, exist_ok=True)
    geo.save(out / "geometry.json")
    session = Session(geo, args.seed, args.design_seed, TIERS[args.tier])
    cv2.imwrite(str(out / "empty.png"), session.empty())
    rng = np.random.default_rng(args.seed)
    truths = {}
    for i in range(args.frames):
        img, truth = session.frame(random_state(geo, rng), hand=(args.hand and i == args.frames - 1), rng=rng)
        name = f"frame-{i:03d}.png"
        cv2.imwrite(str(out / "frames" / name), img)
        truths[name] = truth.to_json()
    (out / "truth.json").write_text(json.dumps(truths, indent=1), encoding="utf-8")
    for label, imgs in enrollment_samples(args.design_seed, args.samples, seed=args.seed).items():
        (out / "samples" / label).mkdir(parents=True, exist_ok=True)
        for k, img in enumerate(imgs):
            cv2.imwrite(str(out / "samples" / label / f"{k}.png"), img)
    markers.write_sheet(out, geo.markers[0].size)
    print(f"wrote {out}: geometry.json, empty.png, frames/ ({args.frames}), truth.json, samples/, markers.png/pdf")
    return 0


def cmd_geometry(args) -> int:
    import maps
    from . import layout
    geo = layout.generate(maps.load(args.map), seed=args.seed)
    geo.save(args.out)
    rep = geo.adjacency_report
    print(f"wrote {args.out}: {len(geo.regions)} regions, {geo.width_mm:g} x {geo.height_mm:g} mm; "
          f"{len(rep.get('missing', []))} map adjacencies do not touch, {len(rep.get('extra', []))} extra")
    return 0


def cmd_markers(args) -> int:
    from . import markers
    size = args.size if args.size is not None else _geometry_for(args).markers[0].size
    png, pdf = markers.write_sheet(args.out, size, args.dpi)
    print(f"wrote {png} and {pdf} (A4, markers {size:g} mm)")
    return 0


def cmd_enroll(args) -> int:
    from .classify import enroll, read_samples
    from .settings import Settings
    samples = read_samples(args.samples)
    model = enroll(Settings(), samples)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    n = sum(len(v) for v in samples.values())
    print(f"wrote {args.out}: {len(model.labels)} labels from {n} samples")
    return 0


def cmd_observe(args) -> int:
    from . import geometry
    from .classify import load_model
    from .observe import Calibration, observe
    from .settings import Settings
    from .sources import read_image
    settings = Settings()
    geo = geometry.load(args.geometry)
    model = load_model(args.model)
    empty = read_image(args.reference)
    images = [(f, read_image(f)) for f in args.frames]  # every path is checked before any output
    try:
        calibration = Calibration.build(settings, geo, empty)
    except VisionError as exc:
        raise VisionError(f"{args.reference}: reference: {exc}") from None
    prior = None
    for name, img in images:
        obs, prior = observe(settings, calibration, model, img, prior)
        if args.json:
            d = obs.to_dict()
            d["frame"] = str(name)
            print(json.dumps(d, sort_keys=True))
        else:
            if not obs.registered:
                print(f"{name}: not registered: {obs.reason}")
                continue
            seen = [f"{rid}: " + ", ".join(f"{n} {lab}" for lab, n in sorted(v.tokens.items()))
                    for rid, v in sorted(obs.regions.items()) if v.tokens]
            hidden = [str(rid) for rid, v in sorted(obs.regions.items()) if v.occluded]
            print(f"{name}: " + ("; ".join(seen) or "no tokens")
                  + (f"; occluded: {', '.join(hidden)}" if hidden else "") + (f" ({obs.reason})" if obs.reason else ""))
    return 0


SEEDS = 2 ** 31 - 1


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m vision", description="The companion's eyes: board observation.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("render", help="render a synthetic table: frames, empty board, samples, geometry, truth",
                       description="Render a synthetic table to try everything without a camera.")
    r.add_argument("--map", default="4p", help="board name (2p, 3p, 4p, 5p) or map file")
    r.add_argument("--seed", type=number(0, SEEDS), default=0, help="camera, lamp and board states")
    r.add_argument("--design-seed", type=number(0, SEEDS), default=0, help="the printing of the tokens")
    r.add_argument("--frames", type=number(1, 1000), default=5, help="number of board states to render")
    r.add_argument("--samples", type=number(1, 200), default=4, help="enrollment photos per token kind")
    r.add_argument("--tier", choices=("clean", "realistic", "hard"), default="realistic")
    r.add_argument("--hand", action="store_true", help="a hand over the board in the last frame")
    r.add_argument("--out", required=True, help="output folder")
    r.set_defaults(_run=cmd_render)

    g = sub.add_parser("geometry", help="generate a plausible geometry file for a map",
                       description="Generate a geometry for a map from its region list (deterministic).")
    g.add_argument("--map", default="4p")
    g.add_argument("--seed", type=number(0, SEEDS), default=0)
    g.add_argument("--out", required=True, help="geometry file to write (JSON)")
    g.set_defaults(_run=cmd_geometry)

    m = sub.add_parser("markers", help="write the printable marker sheet (PNG and PDF)",
                       description="Write markers.png and markers.pdf (A4, true scale) for a board.")
    m.add_argument("--geometry", help="geometry file (marker size from it)")
    m.add_argument("--map", default="4p", help="map whose generated geometry gives the marker size")
    m.add_argument("--size", type=number(5, 60, float), help="marker side in mm, 5 to 60 (overrides the geometry)")
    m.add_argument("--dpi", type=number(50, 1200), default=200, help="print resolution, 50 to 1200 (default 200)")
    m.add_argument("--out", required=True, help="output folder")
    m.set_defaults(_run=cmd_markers)

    e = sub.add_parser("enroll", help="learn token kinds from SAMPLES/<label>/*.png|jpg",
                       description="Learn a token model from enrollment photos, one folder per label.")
    e.add_argument("samples", help="folder with one sub-folder per label (e.g. elves, elves-decline, hero)")
    e.add_argument("--out", required=True, help="model file to write (.npz)")
    e.set_defaults(_run=cmd_enroll)

    o = sub.add_parser("observe", help="observe frames: visible tokens per region",
                       description="Observe frames against the empty-board reference.")
    o.add_argument("--geometry", required=True, help="board geometry file")
    o.add_argument("--model", required=True, help="token model from 'enroll'")
    o.add_argument("--reference", required=True, help="image of the empty board from the same camera")
    o.add_argument("--json", action="store_true", help="one JSON object per frame")
    o.add_argument("frames", nargs="+", metavar="FRAME", help="images to observe")
    o.set_defaults(_run=cmd_observe)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except (VisionError, ValueError) as exc:  # maps.MapError is a ValueError too
        print(f"vision {args.command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"vision {args.command}: {exc.filename or ''}: {exc.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
