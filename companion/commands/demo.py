"""companion demo [--config FILE] [--port N] [--pace S] [--seed N] [--map M] [--data DIR]"""
from __future__ import annotations

import dataclasses
import tempfile

import maps

from ..errors import UserError
from . import serve

HELP = "Start the companion on the simulated table: a seeded game plays itself; open the printed address."


def add_arguments(p):
    serve.add_arguments(p)
    p.add_argument("--pace", type=float, help="seconds between two actions (default 1.5)")
    p.add_argument("--seed", type=int, help="the game's seed (default 1)")
    p.add_argument("--map", help="2p, 3p, 4p or 5p (default 4p)")


def run(args) -> int:
    config = serve.load_config(args)
    demo = config.demo
    changes = {k: v for k, v in (("pace_s", args.pace), ("seed", args.seed), ("map", args.map)) if v is not None}
    if "pace_s" in changes and not 0 <= changes["pace_s"] <= 60:
        raise UserError(f"--pace: expected 0-60 seconds, got {changes['pace_s']}")
    if "map" in changes and changes["map"] not in maps.builtin_names():
        raise UserError(f"--map: expected one of {', '.join(maps.builtin_names())}, got {changes['map']!r}")
    demo = dataclasses.replace(demo, **changes)
    tmp = None
    if not args.data:  # a fresh store each time, unless told where to keep it
        tmp = tempfile.TemporaryDirectory(prefix="companion-demo-")
        config = dataclasses.replace(config, service=dataclasses.replace(config.service, data_dir=tmp.name))
    config = dataclasses.replace(config, demo=demo)
    server = serve.start_server(config)
    from ..service.demo import DemoDriver
    players = demo.players or maps.load(demo.map).players
    notes = [server.service.calibration_note]
    if demo.camera:
        from ..service.camera_demo import CameraDemo, usable_in_demo
        saved, note = usable_in_demo(server.service.saved_calibration, demo.map)
        notes.append(note)
        driver = CameraDemo(server.service.owner, demo, players, saved).start()
    else:
        driver = DemoDriver(server.service.owner, demo, players).start()
    urls = server.urls()
    print(f"companion demo: open {urls[-1]} (on this machine {urls[0]})", flush=True)
    print(f"companion demo: table code {server.service.table_code} (setup, undo, join codes); Ctrl-C stops it",
          flush=True)
    for note in filter(None, notes):
        print(f"companion demo: {note}", flush=True)
    try:
        server.run()
    finally:
        driver.stop()
        if tmp is not None:
            tmp.cleanup()
    return 0
