"""The demo driver: plays a seeded simulated game through the owner's queue at a steady pace.

It stands where the camera's reconciliation will stand: it decides which engine action happened
and submits it (die rolls go through the die button's seeded roll). Vision is not wired in yet.
"""
from __future__ import annotations

import logging
import random
import threading

from ..rules import actions as A
from ..rules.game import Game
from ..shuffle import seeded_setup
from ..simulate import choose
from .config import DemoSettings
from .inputs import NewGame, Play, RollDie
from .owner import GameOwner

log = logging.getLogger(__name__)


class DemoDriver:
    """A thread: set up a seeded game, play one action every ``pace_s``, start again after the end."""

    def __init__(self, owner: GameOwner, settings: DemoSettings, players: int):
        self.owner = owner
        self.settings = settings
        self.players = players
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)

    def start(self) -> "DemoDriver":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        seed = self.settings.seed
        while not self._stop.is_set():
            setup = seeded_setup(self.settings.map, self.players, seed, self.settings.ruleset)
            outcome = self.owner.submit(NewGame(setup, die_seed=seed, source="demo")).result()
            if not outcome.ok:
                log.error("demo: %s", outcome.sentence)
                return
            self._play(outcome.data["game"], random.Random(seed))
            if self._stop.wait(self.settings.restart_s):
                return
            seed += 1

    def _play(self, game_id: int, rng: random.Random) -> None:
        stored = self.owner.store.game(game_id)
        mirror = Game(stored.setup)
        while not self._stop.wait(self.settings.pace_s):
            if self.owner.published.game_id != game_id:
                return  # somebody set up another game
            actions = self.owner.store.actions(game_id)
            if actions != mirror.history:  # an undo or a phone's action: follow the store
                mirror = Game.replay(stored.setup, actions)
            if mirror.finished:
                return
            action = choose(mirror, rng)
            item = RollDie(None, None, "demo") if isinstance(action, A.Roll) and mirror.phase == "final-roll" \
                else Play(action, None, "demo")
            outcome = self.owner.submit(item).result()
            if not outcome.ok:
                log.warning("demo: %s", outcome.sentence)
