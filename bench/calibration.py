"""Benchmark of calibration on the simulated table; prints JSON (not a test).

For each map: a simulated camera (realistic tier, 1280x720), every guided step run as a player
would (one click at the innermost point of each printed region, a handful of each token kind on
the tray), then
- the intersection-over-union of each grown region with the printed (true) outline, and the share
  of regions needing no manual fix (IoU >= 0.9);
- observe's per-region accuracy on rendered games with the guided calibration (grown regions,
  captured reference, tray enrollment) versus the same with the model enrolled from ideal crops
  (vision.render.enrollment_samples) and versus the true geometry with the ideal model.

    python bench/calibration.py                # 2p and 3p, 20 games each
    python bench/calibration.py --maps 2p --games 5 --kinds elves,orcs,lost-tribe
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

_here = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here] + [str(_here.parent)]
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402

from calibration import check, flow, regions, tokens  # noqa: E402
from calibration.folder import Folder  # noqa: E402
from calibration.sim import DESIGN_SEED, SimulatedTable  # noqa: E402
from vision.classify import enroll  # noqa: E402
from vision.geometry import load  # noqa: E402
from vision.observe import Calibration, observe  # noqa: E402
from vision.render import enrollment_samples, random_state  # noqa: E402
from vision.settings import Settings  # noqa: E402

FIX_IOU = 0.9


def accuracy(settings, calibration, model, table, games, seed):
    rng = np.random.default_rng(seed)
    right = total = 0
    prior = None
    for _ in range(games):
        img, truth = table.session.frame(random_state(table.geometry, rng), rng=rng)
        obs, prior = observe(settings, calibration, model, img, prior)
        for rid, toks in truth.regions.items():
            seen = obs.regions.get(rid)
            total += 1
            right += bool(seen is not None and not seen.occluded and seen.tokens == toks)
    return round(right / max(total, 1), 4)


def run(args) -> dict:
    settings = Settings()
    kinds = [k for k in args.kinds.split(",") if k] or list(tokens.ALL_KINDS)
    ideal = enroll(settings, enrollment_samples(DESIGN_SEED, 4, seed=1))
    out = {"tier": args.tier, "games_per_map": args.games, "kinds": len(kinds), "fix_iou": FIX_IOU, "maps": {}}
    all_ious = []
    for name in args.maps:
        table = SimulatedTable(name, args.seed, args.tier)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Folder(tmp)
            report = flow.whole(settings, folder, table, name, kinds)
            g = load(folder.file("geometry.json"))
            ious = [regions.iou(g.regions[r], p) for r, p in table.geometry.regions.items()]
            all_ious += ious
            guided, model = check.load_for_vision(settings, folder)
            true_cal = Calibration.build(settings, table.geometry, table.frame())
            out["maps"][name] = {
                "regions": len(ious),
                "median_iou": round(float(np.median(ious)), 4),
                "min_iou": round(float(np.min(ious)), 4),
                "no_fix_share": round(float(np.mean(np.array(ious) >= FIX_IOU)), 4),
                "adjacency_as_printed": report["regions"]["adjacency"] == table.geometry.adjacency_report,
                "selftest_accuracy": report["selftest"]["accuracy"],
                "selftest_confused": report["selftest"]["confused"][:5],
                "check_ready": report["check"]["ready"],
                "observe_accuracy_guided": accuracy(settings, guided, model, table, args.games, 11),
                "observe_accuracy_guided_geometry_ideal_crops": accuracy(settings, guided, ideal, table,
                                                                         args.games, 11),
                "observe_accuracy_true_geometry_ideal_crops": accuracy(settings, true_cal, ideal, table,
                                                                       args.games, 11),
            }
            print(name, out["maps"][name], file=sys.stderr)
    out["median_iou"] = round(float(np.median(all_ious)), 4)
    out["no_fix_share"] = round(float(np.mean(np.array(all_ious) >= FIX_IOU)), 4)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--maps", nargs="+", default=["2p", "3p"])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--tier", default="realistic")
    p.add_argument("--kinds", default="", help="comma-separated kinds (default: every kind)")
    args = p.parse_args(argv)
    print(json.dumps(run(args), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
