"""Helpers for the service tests: a started service on a temporary store, browsers as test clients."""
from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import threading

from companion.service.config import CameraSettings, Config, ServiceSettings
from companion.service.inputs import NewGame, Play
from companion.service.runtime import Service
from companion.shuffle import seeded_setup

TABLE_CODE = "TABLE7"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextlib.contextmanager
def live_server(data_dir):
    """The real server (the ASGI front and Flask) in a thread on a free port, as a browser opens it;
    its address is ``.url``."""
    from companion.service.server import Server
    config = Config(service=ServiceSettings(host="127.0.0.1", port=0, data_dir=str(data_dir),
                                            table_code=TABLE_CODE, keepalive_s=2.0, die_seed=5))
    s = Server(config, hardware=False)
    s.start_service()
    thread = threading.Thread(target=s.run, daemon=True)
    thread.start()
    s.url = f"http://127.0.0.1:{s.port}"
    try:
        yield s
    finally:
        s.close()
        thread.join(5)


def make_service(tmp_path, **service) -> Service:
    settings = ServiceSettings(data_dir=str(tmp_path), table_code=TABLE_CODE, keepalive_s=1.0, die_seed=42,
                               **service)
    return Service(Config(service=settings), hardware=False).start()


def camera_config(tmp_path, folder=None, load=True, source="simulated:{map}:3", **camera) -> Config:
    """A configuration with its store in tmp_path/data and a [camera] table (calibration in ``folder``)."""
    return Config(service=ServiceSettings(data_dir=str(tmp_path / "data"), table_code=TABLE_CODE),
                  camera=CameraSettings(source=source, calibration_dir=str(folder or ""), load_calibration=load,
                                        **camera))


def new_game(service: Service, map_name="2p", players=2, seed=3):
    setup = seeded_setup(map_name, players, seed)
    out = service.owner.submit(NewGame(setup, die_seed=7)).result(5)
    assert out.ok, out
    return setup


def play(service: Service, notation: str, seat=None):
    from companion.rules.actions import parse_notation
    return service.owner.submit(Play(parse_notation(notation), seat)).result(5)


class Browser:
    """A Flask test client that behaves like a browser: keeps its cookie, sends the CSRF token."""

    def __init__(self, app):
        self.client = app.test_client()
        self.token = None

    def page(self, path="/", **kw):
        r = self.client.get(path, **kw)
        m = re.search(rb'name="csrf-token" content="([^"]+)"', r.data)
        if m:
            self.token = m.group(1).decode()
        return r

    def get(self, path, **kw):
        return self.client.get(path, **kw)

    def post(self, path, data=None, form=None, **kw):
        if self.token is None:
            self.page("/")
        headers = {"X-CSRF-Token": self.token}
        if form is not None:
            return self.client.post(path, data={**form, "csrf_token": self.token}, **kw)
        return self.client.post(path, data=json.dumps(data or {}), content_type="application/json",
                                headers=headers, **kw)

    def unlock(self):
        self.page("/unlock")
        r = self.client.post("/unlock", data={"code": TABLE_CODE, "csrf_token": self.token})
        assert r.status_code == 302, r.data
        return self

    def join(self, code):
        r = self.page(f"/join/{code}")  # the QR code's page, then its one button
        assert r.status_code == 200, r.data
        r = self.client.post("/join", data={"code": code, "csrf_token": self.token})
        assert r.status_code == 302, r.data
        self.page("/seat")
        return self


def first_events(response, n=1, limit=20):
    """The first ``n`` ``state`` events of a streamed response (as dicts), then close it."""
    out = []
    chunks = iter(response.response)
    try:
        for _ in range(limit + n):
            chunk = next(chunks)
            chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
            for block in chunk.split("\n\n"):
                if "event: state" in block:
                    data = block.split("data: ", 1)[1]
                    out.append(json.loads(data))
            if len(out) >= n:
                break
    finally:
        response.close()
    return out


def dataclass_replace(obj, **kw):
    return dataclasses.replace(obj, **kw)


def sight(view, hidden=()):
    """A still observation of the board as the camera would send it: ``view`` {region: {label: n}}."""
    from vision.observe import Observation as Seen, RegionView
    return Seen(True, {r: RegionView(dict(labels), r in hidden, 1.0) for r, labels in view.items()})


def seen_out_of_reach(service: Service):
    """Ann has picked the Tritons: the camera sees them take region 1 (a coastal border region), then
    tokens of theirs on region 20, far away (not adjacent): an illegal conquest on the board, alerted.
    Returns the last sight's view."""
    from companion.reconcile import expected_view
    from companion.service.inputs import Observation
    view = expected_view(mirror(service))
    view[1] = {"tritons": 1}
    assert service.owner.submit(Observation(sight(view))).result(5).ok
    view = expected_view(mirror(service))
    view[20] = {"tritons": 2}
    service.owner.submit(Observation(sight(view))).result(5)
    return view


def mirror(service: Service):
    """A copy of the owner's game, replayed from the store (tests never touch the owner's Game)."""
    from companion.rules import Game
    stored = service.store.game(service.owner.published.game_id)
    return Game.replay(stored.setup, service.store.actions(stored.id))


def until_attempt(service: Service):
    """Play (as the table) until the active race may declare a final conquest attempt; returns it."""
    from companion.rules.actions import Attempt, Conquer, Pick
    for _ in range(60):
        game = mirror(service)
        legal = game.legal_actions()
        attempts = [a for a in legal if isinstance(a, Attempt)]
        if attempts:
            return attempts[0]
        step = next((a for a in legal if isinstance(a, (Pick, Conquer))), legal[0])
        assert play(service, step.notation()).ok
    raise AssertionError("no final attempt came")
