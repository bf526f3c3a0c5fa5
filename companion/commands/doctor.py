"""``companion doctor``: check the table's camera, markers, calibration, hardware, the Pi and the
address phones use, and say how to fix what is wrong."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ..errors import UserError
from ..hardware.doctor import CHECKS, DoctorContext, run_checks
from ..service import config as configuration

HELP = "check camera, markers, calibration, scoring box, GPIO, disk, clock and the phones' address; say how to fix problems"
SERVICE_DATA = Path("/var/lib/companion")  # the installed service's StateDirectory


def add_arguments(parser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help=f"the configuration file (default: {configuration.SYSTEM_CONFIG} when it exists)")
    parser.add_argument("--data", metavar="DIR",
                        help="where games and the calibration are kept (default: [service] data_dir, else the "
                             f"installed service's {SERVICE_DATA})")
    parser.add_argument("--camera", metavar="SOURCE", help="check this camera instead of [camera] source "
                        "('picamera', 'camera:N', 'simulated:MAP', a video or an image folder)")
    parser.add_argument("--box", metavar="PATH", help="check the scoring box at this path or pyserial URL")
    parser.add_argument("--skip", action="append", default=[], choices=sorted(CHECKS), metavar="CHECK",
                        help=f"leave a check out (repeatable): {', '.join(CHECKS)}")


def load_config(args) -> configuration.Config:
    try:
        config = configuration.load(args.config)
    except configuration.ConfigError as exc:
        raise UserError(str(exc)) from None
    if args.camera:
        problem = configuration.camera_source_problem(args.camera)
        if problem:
            raise UserError(f"--camera: {problem}")
        config = dataclasses.replace(config, camera=dataclasses.replace(config.camera, source=args.camera))
    if args.box:
        box = dataclasses.replace(config.hardware.scoring_box, enabled=True, path=args.box)
        config = dataclasses.replace(config, hardware=dataclasses.replace(config.hardware, scoring_box=box))
    return config


def data_dir(args, config: configuration.Config) -> str:
    if args.data:
        return args.data
    if not config.service.data_dir and SERVICE_DATA.is_dir():
        return str(SERVICE_DATA)
    return str(config.service.data_path)


def run(args) -> int:
    config = load_config(args)
    names = [n for n in CHECKS if n not in args.skip]
    ctx = DoctorContext(settings=config.hardware, data_dir=data_dir(args, config), config=config)
    results = run_checks(ctx, names)
    for r in results:
        print(f"{r.status:<5} {r.name}: {r.message}", flush=True)
        if r.fix and r.status in ("warn", "fail"):
            print(f"      fix: {r.fix}")
    failed = [r.name for r in results if r.status == "fail"]
    warned = [r.name for r in results if r.status == "warn"]
    if failed:
        print(f"{len(failed)} problem(s): {', '.join(failed)}")
    else:
        print("all checks passed" + (f" ({len(warned)} warning(s): {', '.join(warned)})" if warned else ""))
    return 1 if failed else 0
