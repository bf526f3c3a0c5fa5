"""companion serve [--config FILE] [--port N] [--host H] [--data DIR]"""
from __future__ import annotations

import dataclasses
import logging

from ..errors import UserError
from ..service import config as configuration

HELP = "Run the companion: the game, its store and the dashboard on the LAN (Ctrl-C stops it)."


def add_arguments(p):
    p.add_argument("--config", metavar="FILE",
                   help=f"the TOML configuration (default: {configuration.SYSTEM_CONFIG} when it exists)")
    p.add_argument("--host", help="address to listen on (overrides [service] host)")
    p.add_argument("--port", type=int, help="port to listen on (overrides [service] port and $COMPANION_PORT)")
    p.add_argument("--data", metavar="DIR", help="where games are kept (overrides [service] data_dir)")


def load_config(args):
    try:
        config = configuration.load(args.config)
    except configuration.ConfigError as exc:
        raise UserError(str(exc)) from None
    changes = {}
    if args.host:
        changes["host"] = args.host
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise UserError(f"--port: expected 0-65535, got {args.port}")
        changes["port"] = args.port
    if args.data:
        changes["data_dir"] = args.data
    if changes:
        config = dataclasses.replace(config, service=dataclasses.replace(config.service, **changes))
    return config


def start_server(config, *, camera: bool = True):
    """The server with its service started; ``camera=False``: the real camera is not watched (the demo)."""
    from ..service.server import Server
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)  # its start-up lines: ours say where to go
    try:
        server = Server(config, camera=camera)
    except OSError as exc:
        raise UserError(str(exc)) from None
    server.start_service()
    return server


def run(args) -> int:
    config = load_config(args)
    server = start_server(config)
    for url in server.urls():
        print(f"companion: the table view is at {url}", flush=True)
    print(f"companion: games are kept in {config.service.data_path}; the table code is in "
          f"{server.service.table_code_file}", flush=True)
    if server.service.calibration_note:
        print(f"companion: {server.service.calibration_note}", flush=True)
    print(f"companion: {server.service.camera_note}", flush=True)
    print("companion: Ctrl-C stops it", flush=True)
    server.run()
    return 0
