"""The demo driver: plays a seeded simulated game through the owner's queue at a steady pace.

Its players decide which engine action happens and enter it as the table would (die rolls go
through the die button's seeded roll). A watchdog says in the log and on the table screen when
the game has not moved for a minute while the players have a move to make: any such wait is a bug.
The camera's table (``camera_demo``) plays the same game through the simulated camera and vision.
"""
from __future__ import annotations

import logging
import random
import threading
import time

from ..rules import actions as A
from ..rules.game import Game
from ..shuffle import seeded_setup
from ..simulate import choose
from .config import DemoSettings
from .inputs import NewGame, Notice, Play, RollDie
from .owner import GameOwner

log = logging.getLogger(__name__)
STALL_S = 60.0  # a game that has not moved for this long while its players have a move to make


class DemoDriver:
    """A thread: set up a seeded game, play one action every ``pace_s``, start again after the end."""

    def __init__(self, owner: GameOwner, settings: DemoSettings, players: int, *, stall_s: float = STALL_S):
        self.owner = owner
        self.settings = settings
        self.players = players
        self.stall_s = stall_s
        self.doing = "setting up the game"  # what the players do or wait for now (the watchdog says it)
        self.playing = False  # a game is on and its players have a move to make
        self.stalls = 0  # times the watchdog reported a game that stopped moving
        self._noticed = ""  # the notice on the table screen
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)
        self._watchdog = threading.Thread(target=self._watch, name="demo-watchdog", daemon=True)

    def start(self) -> "DemoDriver":
        self._thread.start()
        self._watchdog.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._watchdog.join(1)

    def _run(self) -> None:
        seed = self.settings.seed
        while not self._stop.is_set():
            game_id = self.new_game(seed)
            if game_id is None:
                return
            self.playing = True
            try:
                self.play(game_id, random.Random(seed))
            except Exception:  # a bug must not end the demo in silence
                log.exception("demo: the players stopped playing (a bug)")
                self.notice("The demo's players stopped playing: a bug (see the log).", "warning")
                return
            finally:
                self.playing = False
            self.doing = "looking at the final scores"
            if self._stop.wait(self.settings.restart_s):
                return
            seed += 1

    def new_game(self, seed: int) -> int | None:
        """Set up the seeded game on the owner; its id (None if the owner refused it, said in the log)."""
        setup = seeded_setup(self.settings.map, self.players, seed, self.settings.ruleset)
        outcome = self.owner.submit(NewGame(setup, die_seed=seed, source="demo")).result()
        if not outcome.ok:
            log.error("demo: %s", outcome.sentence)
            return None
        self.notice("")
        return outcome.data["game"]

    def play(self, game_id: int, rng: random.Random) -> None:
        """Play the game to its end (or until another game is set up, or the demo stops)."""
        stored = self.owner.store.game(game_id)
        mirror = Game(stored.setup)
        while not self._stop.wait(self.settings.pace_s):
            if self.owner.published.game_id != game_id:
                return  # somebody set up another game
            mirror = self.follow_store(mirror, game_id)
            if mirror.finished:
                return
            action = choose(mirror, rng)
            item = RollDie(None, None, "demo") if isinstance(action, A.Roll) and mirror.phase == "final-roll" \
                else Play(action, None, "demo")
            self.doing = f"playing {action.notation()}"
            outcome = self.owner.submit(item).result()
            if not outcome.ok:
                log.warning("demo: %s", outcome.sentence)

    def follow_store(self, mirror: Game, game_id: int) -> Game:
        """``mirror`` brought to the companion's game as stored (an undo or a phone's action included)."""
        actions = self.owner.store.actions(game_id)
        done = len(mirror.history)
        if actions[:done] == mirror.history:
            for action in actions[done:]:
                mirror.apply(action)
            return mirror
        return Game.replay(mirror.setup, actions)

    # ---------------------------------------------------------------- saying it
    def notice(self, text: str, level: str = "info") -> None:
        """Say ``text`` on the table screen (and in the log unless empty); "" takes it down."""
        if text:
            (log.warning if level == "warning" else log.info)("demo: %s", text)
        if text != self._noticed:
            self._noticed = text
            self.owner.submit(Notice(text, level))

    def _watch(self) -> None:
        """The watchdog: a game that has not moved for ``stall_s`` (or four paces, if longer) while its
        players have a move to make is reported once (log + table screen) with what the players wait
        for; and again when it moves."""
        last, since, said = None, time.monotonic(), False
        limit = max(self.stall_s, 4 * self.settings.pace_s)  # a slow --pace is no stall
        tick = min(1.0, limit / 10)
        while not self._stop.wait(tick):
            public = self.owner.published.public
            moved = (public.get("game"), public.get("actions"), public.get("finished"))
            if moved != last or not self.playing:
                if said and self.playing:
                    self.notice(f"The game moves again (action {public.get('actions')}).")
                last, since, said = moved, time.monotonic(), False
                continue
            if not said and time.monotonic() - since >= limit:
                said = True
                self.stalls += 1
                self.notice(f"The game has not moved for {time.monotonic() - since:.0f} s at action "
                            f"{public.get('actions')} ({public.get('step', '')}); the demo's players are "
                            f"{self.doing}.", "warning")
