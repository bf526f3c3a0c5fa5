"""``companion doctor``: check the table's hardware and the Pi, and say how to fix what is wrong."""
from __future__ import annotations

import tomllib

from ..errors import UserError
from ..hardware.doctor import CHECKS, DoctorContext, run_checks
from ..hardware.settings import HardwareSettings

HELP = "check camera, markers, scoring box, GPIO, disk space and clock, and say how to fix problems"


def add_arguments(parser) -> None:
    parser.add_argument("--config", metavar="FILE", help="configuration file whose [gpio] and [scoring_box] tables to use")
    parser.add_argument("--box", metavar="PATH", help="check the scoring box at this path or pyserial URL")
    parser.add_argument("--data-dir", default="/var/lib/companion", help="where game records go (disk check)")
    parser.add_argument("--skip", action="append", default=[], choices=sorted(CHECKS), metavar="CHECK",
                        help=f"leave a check out (repeatable): {', '.join(CHECKS)}")


def load_settings(path: str | None) -> HardwareSettings:
    if path is None:
        return HardwareSettings()
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}")
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path} is not valid TOML: {exc}")
    try:
        return HardwareSettings.from_mapping(data, source=path)
    except ValueError as exc:
        raise UserError(str(exc))


def run(args) -> int:
    settings = load_settings(args.config)
    if args.box:
        from dataclasses import replace
        settings = replace(settings, scoring_box=replace(settings.scoring_box, enabled=True, path=args.box))
    names = [n for n in CHECKS if n not in args.skip]
    results = run_checks(DoctorContext(settings=settings, data_dir=args.data_dir), names)
    for r in results:
        print(f"{r.status:<5} {r.name}: {r.message}")
        if r.fix and r.status in ("warn", "fail"):
            print(f"      fix: {r.fix}")
    failed = [r.name for r in results if r.status == "fail"]
    print(f"{len(failed)} problem(s): {', '.join(failed)}" if failed else "all checks passed")
    return 1 if failed else 0
