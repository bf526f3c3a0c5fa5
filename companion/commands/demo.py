"""companion demo [--config FILE] [--port N] [--pace S] [--seed N] [--ruleset R] [--map M] [--players N] [--data DIR]"""
from __future__ import annotations

import dataclasses
import os
import tempfile

import maps

from ..errors import UserError
from ..service.config import DemoSettings
from . import serve

HELP = "Start the companion on the simulated table: a seeded game plays itself; open the printed address."


def add_arguments(p):
    serve.add_arguments(p)
    p.add_argument("--pace", type=float, help="seconds between two actions (default 1.5)")
    p.add_argument("--seed", type=int, help="the game's seed (default 1)")
    p.add_argument("--ruleset", help="smallworld or warcraft (Small World of Warcraft; default smallworld)")
    p.add_argument("--map", help="2p, 3p, 4p or 5p (default 4p); for warcraft, islands joined by '+' "
                   "(default: the SAMPLE islands for --players)")
    p.add_argument("--players", type=int, help="2 to 5 (default: the map's; warcraft: 4)")


def run(args) -> int:
    # numpy's BLAS threads for its small matrices only fight the service's own threads (and other
    # processes on a Pi's few cores): laying out the simulated board took three times as long with them
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from ..reconcile import follows
    from ..rules import ruleset as rulesets
    config = serve.load_config(args)
    demo = config.demo
    changes = {k: v for k, v in (("pace_s", args.pace), ("seed", args.seed), ("map", args.map),
                                 ("ruleset", args.ruleset), ("players", args.players)) if v is not None}
    if "pace_s" in changes and not 0 <= changes["pace_s"] <= 60:
        raise UserError(f"--pace: expected 0-60 seconds, got {changes['pace_s']}")
    if "players" in changes and not 2 <= changes["players"] <= 5:
        raise UserError(f"--players: expected 2 to 5, got {changes['players']}")
    try:
        rules = rulesets.get(changes.get("ruleset", demo.ruleset))
    except ValueError as exc:
        raise UserError(f"--ruleset: {exc}") from None
    default_map = getattr(rules, "default_map", None)  # a ruleset whose maps depend on the player count
    if default_map is not None and "map" not in changes and (
            "ruleset" in changes or demo.map == default_map(demo.players or 4)):
        changes["map"] = default_map(changes.get("players") or demo.players or 4)
    elif default_map is None and "map" not in changes and "ruleset" in changes:
        changes["map"] = DemoSettings.map
    demo = dataclasses.replace(demo, **changes)
    try:
        board = rules.load_board(demo.map)
    except maps.MapError as exc:
        raise UserError(f"--map: {exc}") from None
    tmp = None
    if not args.data:  # a fresh store each time, unless told where to keep it
        tmp = tempfile.TemporaryDirectory(prefix="companion-demo-")
        config = dataclasses.replace(config, service=dataclasses.replace(config.service, data_dir=tmp.name))
    config = dataclasses.replace(config, demo=demo)
    server = serve.start_server(config, camera=False)  # its simulated camera is the demo's own
    server.service.pictures.rendered_maps = True  # the dashboard draws the board the simulated camera films
    from ..service.demo import DemoDriver
    players = demo.players or board.players
    notes = [server.service.calibration_note]
    if demo.camera and follows(rules.name):
        from ..service.camera_demo import CameraDemo, usable_in_demo
        saved, note = usable_in_demo(server.service.saved_calibration, demo.map)
        notes.append(note)
        driver = CameraDemo(server.service.owner, demo, players, saved)
    else:
        driver = DemoDriver(server.service.owner, demo, players)
    urls = server.urls()
    print(f"companion demo: open {urls[-1]} (on this machine {urls[0]})", flush=True)
    print(f"companion demo: table code {server.service.table_code} (setup, undo, join codes); Ctrl-C stops it",
          flush=True)
    for note in filter(None, notes):
        print(f"companion demo: {note}", flush=True)
    driver.start()  # after the address: the simulated camera's setting up does not hold it back
    try:
        server.run()
    finally:
        driver.stop()
        if tmp is not None:
            tmp.cleanup()
    return 0
