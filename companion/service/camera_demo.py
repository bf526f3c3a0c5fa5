"""The simulated table seen by a simulated camera: the demo through the real pipeline.

Players (a seeded simulation) play on a synthetic board; each still board is rendered under a
camera, a hand passes between two still boards, the stillness gate decides when to look, vision
observes, and the observation goes on the owner's queue like a real camera's. What a camera cannot
see comes as the table would give it: the die and the end of a step from the buttons, a pick or an
ally from a phone.
"""
from __future__ import annotations

import logging
import random

import numpy as np

import maps
from .. import inputs as hw
from ..reconcile import expected_view
from ..rules import actions as A
from ..rules.game import Game
from ..simulate import choose
from .demo import DemoDriver
from .inputs import Declare, Observation, Play, RollDie

log = logging.getLogger(__name__)
DESIGN_SEED = 7


class Camera:
    """A synthetic camera over a board: frames of a state, a hand in between, still detection, observe.

    With a ``Saved`` calibration (made on the simulated table) the camera is the one it was made
    with, and vision reads the board through the grown regions and the enrolled tokens; without,
    through the true geometry and a model enrolled from ideal crops.
    """

    def __init__(self, map_name: str, seed: int, saved=None):
        from vision.settings import Settings
        from vision.still import StillnessGate
        self.settings = Settings()
        if saved is not None:
            from calibration.sim import open_camera
            table = open_camera(saved.camera)
            self.geometry, self.session = table.geometry, table.session
            self.calibration, self.model = saved.calibration, saved.model
        else:
            from vision import layout
            from vision.classify import enroll
            from vision.observe import Calibration
            from vision.render import TIERS, Session, enrollment_samples
            self.geometry = layout.generate(maps.load(map_name))
            realism = TIERS["realistic"]
            realism = type(realism)(**{**realism.__dict__, "frame_size": (1280, 720)})
            self.session = Session(self.geometry, seed, DESIGN_SEED, realism)
            self.model = enroll(self.settings, enrollment_samples(DESIGN_SEED, seed=1))
            self.calibration = Calibration.build(self.settings, self.geometry, self.session.empty())
        self.gate = StillnessGate(self.settings)
        self.rng = np.random.default_rng(seed)
        self.clock = 0.0
        self.prior = None

    def look(self, board: dict):
        """A hand passes, the board is still again: the observation taken when the gate fires."""
        from vision.observe import observe
        hand, _ = self.session.frame(board, hand=True, rng=self.rng)
        self.gate.update(hand, self.clock)
        frame, _ = self.session.frame(board, rng=self.rng)
        for _ in range(50):
            self.clock += 0.1
            if self.gate.update(frame, self.clock):
                break
        obs, self.prior = observe(self.settings, self.calibration, self.model, frame, self.prior)
        return obs


def usable_in_demo(saved, demo_map: str):
    """The saved calibration if the demo's simulated camera can read through it, and one line saying so."""
    if saved is None:
        return None, ""
    if saved.camera.split(":")[:2] != ["simulated", saved.map]:
        return None, (f"camera: the saved calibration is for the camera {saved.camera!r}; the demo's simulated "
                      "camera uses its built-in one")
    if saved.map != demo_map:
        return None, (f"camera: the saved calibration is for map {saved.map} and the demo plays {demo_map}: "
                      f"its camera uses its built-in one (--map {saved.map} to use the saved one)")
    return saved, "camera: the demo's simulated camera reads the board through the saved calibration"


class CameraDemo(DemoDriver):
    """The demo driver, but the board reaches the companion only through the camera."""

    def __init__(self, owner, settings, players: int, saved=None):
        super().__init__(owner, settings, players)
        self.saved = saved

    def _play(self, game_id: int, rng: random.Random) -> None:
        stored = self.owner.store.game(game_id)
        camera = Camera(self.settings.map, self.settings.seed, self.saved)
        table = Game(stored.setup)  # the physical table
        while not self._stop.wait(self.settings.pace_s):
            if self.owner.published.game_id != game_id:
                return
            ours = Game.replay(stored.setup, self.owner.store.actions(game_id))
            if expected_view(ours) != expected_view(table) or ours.phase != table.phase:
                table = ours  # the players put the board as the companion has it
            if table.finished:
                return
            action = choose(table, rng)
            before = expected_view(table)
            if table.phase == "final-roll":
                self.owner.submit(RollDie(None, None, "scoring-box")).result()
                continue
            table.apply(action)
            if isinstance(action, A.Attempt):
                item = Declare(action.region, None, "web")
            elif isinstance(action, A.Roll):
                item = RollDie(action.face, None, "scoring-box")
            elif isinstance(action, A.EndTurn):
                item = hw.Confirm(source="panel")
            elif expected_view(table) == before and not isinstance(action, (A.Redeploy, A.Resettle)):
                item = Play(action, None, "phone")  # nothing to see: entered on a phone
            else:
                item = Observation(camera.look(expected_view(table)))
            outcome = self.owner.submit(item).result()
            if not outcome.ok:
                log.warning("demo: %s", outcome.sentence)

