"""Benchmark of the vision pipeline on rendered 1920x1080 frames; prints JSON (not a test).

Three tiers (clean, realistic, hard) on the four maps, with a token printing (design seed) that
development never used. Reports per-region accuracy, the share of frames with every region right,
and median / 95th-percentile time per frame on one thread, by stage: the stillness test
(thumbnail and comparison) and the stages of ``observe``; ``total`` is their sum.

    python bench/vision.py                 # full run: 75 frames per map and tier (900 frames)
    python bench/vision.py --frames 10     # quick run
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

# This file is named like the package it measures: keep its folder off the import path.
_here = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here] + [str(_here.parent)]

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import maps  # noqa: E402
from vision import layout  # noqa: E402
from vision.classify import enroll  # noqa: E402
from vision.observe import Calibration, observe  # noqa: E402
from vision.render import TIERS, Session, enrollment_samples, random_state  # noqa: E402
from vision.settings import Settings  # noqa: E402
from vision.still import is_still, thumbnail  # noqa: E402

STAGES = ("still", "register", "rectify", "detect", "features", "classify", "total")


def run(args) -> dict:
    cv2.setNumThreads(1)
    overrides = {}
    for item in args.set:
        key, _, value = item.partition("=")
        overrides[key] = type(getattr(Settings(), key))(value)
    settings = Settings(**overrides)
    model = enroll(settings, enrollment_samples(args.design_seed, args.samples, seed=args.design_seed + 1))
    report = {"design_seed": args.design_seed, "settings": overrides, "frames_per_map_and_tier": args.frames, "tiers": {}}
    for tier in args.tiers:
        times = {k: [] for k in STAGES}
        regions = right = frames = perfect = 0
        errors = Counter()
        confidences = {True: [], False: []}
        cpu = []
        per_map = {}
        for name in args.maps:
            geo = layout.generate(maps.load(name))
            m_regions = m_right = 0
            sessions = max(1, args.frames // args.frames_per_session)
            done = 0
            for s in range(sessions):
                n = args.frames // sessions + (1 if s < args.frames % sessions else 0)
                seed = 1000 * (args.seed + 1) + 17 * s + sum(map(ord, name)) + 131 * len(tier)
                session = Session(geo, seed, args.design_seed, TIERS[tier])
                calibration = Calibration.build(settings, geo, session.empty())
                prior = previous = None
                rng = np.random.default_rng(seed)
                for _ in range(n):
                    img, truth = session.frame(random_state(geo, rng), rng=rng)
                    timing = {}
                    c0 = time.process_time()
                    t0 = time.perf_counter()
                    thumb = thumbnail(settings, img)
                    is_still(settings, previous, thumb)
                    still_s = time.perf_counter() - t0
                    previous = thumb
                    obs, prior = observe(settings, calibration, model, img, prior, timing)
                    timing["still"] = still_s
                    timing["total"] += still_s
                    cpu.append((time.process_time() - c0) * 1000)
                    for k in STAGES:
                        times[k].append(timing.get(k, 0.0) * 1000)
                    ok_frame = obs.registered
                    for rid, tokens in truth.regions.items():
                        seen = obs.regions.get(rid)
                        ok = seen is not None and not seen.occluded and seen.tokens == tokens
                        if not ok:
                            ok_frame = False
                            if args.verbose:
                                print(f"  {tier} {name} region {rid}: truth {tokens} seen "
                                      f"{seen.tokens if seen else None}", file=sys.stderr)
                            if seen is None:
                                errors["unregistered"] += 1
                            elif sum(seen.tokens.values()) != sum(tokens.values()):
                                errors["count"] += 1
                            else:
                                errors["label"] += 1
                        m_regions += 1
                        m_right += ok
                        if seen is not None and not seen.occluded:
                            confidences[bool(ok)].append(seen.confidence)
                    frames += 1
                    perfect += ok_frame
                    done += 1
            regions += m_regions
            right += m_right
            per_map[name] = round(m_right / max(m_regions, 1), 5)
            print(f"{tier} {name}: {per_map[name]:.4f}", file=sys.stderr)
        report["tiers"][tier] = {
            "frames": frames,
            "regions": regions,
            "region_accuracy": round(right / max(regions, 1), 5),
            "frames_perfect": round(perfect / max(frames, 1), 4),
            "region_accuracy_by_map": per_map,
            "wrong_regions": dict(errors),
            "confidence_median": {"right": round(float(np.median(confidences[True] or [0])), 3),
                                  "wrong": round(float(np.median(confidences[False] or [0])), 3)},
            # how well a confidence threshold separates misreads (reconciliation treats those regions as unsure)
            "confidence_below": {str(t): {"right": round(float(np.mean(np.array(confidences[True]) < t))
                                                         if confidences[True] else 0.0, 4),
                                          "wrong": round(float(np.mean(np.array(confidences[False]) < t))
                                                         if confidences[False] else 0.0, 4)}
                                 for t in (0.1, 0.2, 0.3)},
            # CPU time of this process per frame: close to the wall time on an idle machine.
            "cpu_ms_median_total": round(float(np.median(cpu)), 2),
            "cpu_ms_p95_total": round(float(np.percentile(cpu, 95)), 2),
            "ms_median": {k: round(float(np.median(v)), 2) for k, v in times.items()},
            "ms_p95": {k: round(float(np.percentile(v, 95)), 2) for k, v in times.items()},
        }
    return report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=75, help="frames per map and tier")
    p.add_argument("--frames-per-session", type=int, default=15, help="frames per camera pose and lamp")
    p.add_argument("--tiers", nargs="+", default=list(TIERS), choices=list(TIERS))
    p.add_argument("--maps", nargs="+", default=maps.builtin_names())
    p.add_argument("--design-seed", type=int, default=1000, help="token printing (development used 0 and 5)")
    p.add_argument("--samples", type=int, default=4, help="enrollment photos per token kind")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="override a Settings field")
    p.add_argument("--verbose", action="store_true", help="print every wrong region to stderr")
    args = p.parse_args(argv)
    t0 = time.time()
    report = run(args)
    report["wall_seconds"] = round(time.time() - t0, 1)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
