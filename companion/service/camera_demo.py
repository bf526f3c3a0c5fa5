"""The simulated table seen by a simulated camera: the demo through the real pipeline.

Players (a seeded simulation) play on a synthetic board; each still board is rendered under a
camera, a hand passes between two still boards, the stillness gate decides when to look, vision
observes, and the observation goes on the owner's queue like a real camera's. What a camera cannot
see comes as the table would give it: the die and the end of a step from the buttons, a pick or an
ally from a phone. What the companion asks, the players answer (see ``CameraDemo``).
"""
from __future__ import annotations

import logging
import random
import threading

import maps
from .. import inputs as hw
from ..reconcile import expected_view
from ..reconcile.view import typed_only
from ..rules import actions as A
from ..rules.game import Game
from ..simulate import choose
from .demo import DemoDriver
from .inputs import Answer, Declare, Observation, Play, Resolve, RollDie, Undo

log = logging.getLogger(__name__)
DESIGN_SEED = 7


class Camera:
    """A synthetic camera over a board: frames of a state, a hand in between, still detection, observe.

    With a ``Saved`` calibration (made on the simulated table) the camera is the one it was made
    with, and vision reads the board through the grown regions and the enrolled tokens; without,
    through the true geometry and a model enrolled from ideal crops.
    """

    def __init__(self, map_name: str, seed: int, saved=None):
        import numpy as np
        from vision.settings import Settings
        from vision.still import StillnessGate
        self.settings = Settings()
        if saved is not None:
            from calibration.sim import open_camera
            table = open_camera(saved.camera)
            self.geometry, self.session = table.geometry, table.session
            self.calibration, self.model = saved.calibration, saved.model
        else:
            from vision.observe import Calibration
            from vision.render import TIERS, Session
            from . import camera_cache
            self.geometry = camera_cache.geometry(maps.load(map_name))
            realism = TIERS["realistic"]
            realism = type(realism)(**{**realism.__dict__, "frame_size": (1280, 720)})
            self.session = Session(self.geometry, seed, DESIGN_SEED, realism)
            self.model = camera_cache.model(self.settings, DESIGN_SEED, 1)
            self.calibration = Calibration.build(self.settings, self.geometry, self.session.empty())
        self.gate = StillnessGate(self.settings)
        self.rng = np.random.default_rng(seed)
        self.clock = 0.0
        self.prior = None
        self.board: dict = {}  # the board last looked at

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
        self.board = board
        return obs

    def again(self):
        """The next still frame of the board last looked at (no hand; the light's noise anew): what the
        camera gives when the follower holds for another look."""
        from vision.observe import observe
        frame, _ = self.session.frame(self.board, rng=self.rng)
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
    """The demo's players at a table the companion follows only through the camera, the buttons and
    the phones.

    The ``Table`` is the physical game (the truth the camera looks at); the companion's game may lag
    behind it while the camera path holds a step for an input still to come (a redeployment until
    the turn ends, a declared attempt until its die), and the players go on playing meanwhile. They
    answer as a table would: the camera's question with the option they played; an alert with
    "the board is right" when the companion's game is right; and when the companion's game is not
    theirs (it read another move, or it has not caught up when the turn has ended) they take back
    what it got wrong and enter their moves by hand. Each of these is said in the log and on the
    table screen (taken down when the turn ends), and counted in ``answers``.
    """

    def __init__(self, owner, settings, players: int, saved=None, *, camera: Camera | None = None, **kwargs):
        super().__init__(owner, settings, players, **kwargs)
        self.saved = saved
        self.answers: dict[str, int] = {}  # what the players had to do for the companion, by kind
        self.camera = camera  # given: one already set up (a test plays many games with one)
        self._ready = threading.Event()  # the camera is set up (or failed: ``camera`` stays None)
        if camera is not None:
            self._ready.set()

    def start(self) -> "CameraDemo":
        # the camera is set up beside the first moves (a pick needs no camera): the table is not kept waiting
        if not self._ready.is_set():
            threading.Thread(target=self._set_up_camera, name="demo-camera", daemon=True).start()
        return super().start()

    def _set_up_camera(self) -> None:
        try:
            self.camera = Camera(self.settings.map, self.settings.seed, self.saved)
        except Exception:  # a bug: said, and the demo's players wait no more for it
            log.exception("demo: the simulated camera could not be set up")
            self.notice("The simulated camera could not be set up (see the log): the demo stops.", "warning")
        finally:
            self._ready.set()

    def _look(self, board: dict):
        """The camera's observation of ``board`` (waiting for the camera to be set up, the first time)."""
        if not self._ready.is_set():
            self.doing = "waiting for the simulated camera to be set up"
            while not self._ready.wait(0.2):
                if self._stop.is_set():
                    raise _Stopped
        if self.camera is None:
            self._stop.set()
            raise _Stopped
        return self.camera.look(board)

    def play(self, game_id: int, rng: random.Random) -> None:
        if self._thread is not threading.current_thread() and not self._ready.is_set():
            self._set_up_camera()  # played in the caller's thread (a test): set up here
        try:
            self._play(game_id, rng)
        except _Stopped:
            return

    def _play(self, game_id: int, rng: random.Random) -> None:
        stored = self.owner.store.game(game_id)
        table = Table(stored.setup)
        ours = Game(stored.setup)  # the companion's game, as stored
        answered = 0  # answers given since the players last moved
        while not self._stop.wait(self.settings.pace_s):
            if self.owner.published.game_id != game_id:
                return
            ours = self.follow_store(ours, game_id)
            at = table.where(ours)
            if table.game.finished and at == table.now:
                self.doing = "looking at the final scores"
                return
            if answered < 3 and self._answer(table, ours, at):
                answered += 1
                continue
            if table.closed and at != table.now:
                if not self._enter_by_hand(table, ours, at):
                    self._stop.wait(1.0)  # a bug (said in the log): the watchdog says the game stopped
                continue
            answered = 0
            self._move(table, rng)

    # ---------------------------------------------------------------- the players' move
    def _move(self, table: "Table", rng: random.Random) -> None:
        """The players make their next move on the table and give the companion what shows it."""
        game = table.game
        action = choose(game, rng)
        before = expected_view(game)
        if game.phase == "final-roll":  # the die button: the companion rolls, everybody sees the face
            self.doing = "rolling the Reinforcement Die for the final conquest attempt"
            outcome = self._submit(RollDie(None, None, "scoring-box"))
            table.apply(A.Roll(outcome.data.get("die", action.face)))
            return
        table.apply(action)
        self.doing = f"playing {action.notation()}"
        if isinstance(action, A.Attempt):
            item = Declare(action.region, None, "web")
        elif isinstance(action, A.Roll):
            item = RollDie(action.face, None, "scoring-box")
        elif isinstance(action, A.EndTurn):
            item = hw.Confirm(source="panel")
            self.notice("")  # what the players said this turn is done with
        elif typed_only(before, expected_view(game), action):
            item = Play(action, None, "phone")  # nothing to see, no button gives it: entered on a phone
        else:
            item = Observation(self._look(expected_view(game)))
        outcome = self._submit(item)
        for _ in range(2):  # the follower holds for another look: the next still frames, as the watcher gives
            if not isinstance(item, Observation) or not outcome.ok or not (outcome.data or {}).get("hold"):
                break
            outcome = self._submit(Observation(self.camera.again()))

    def _submit(self, item):
        outcome = self.owner.submit(item).result()
        log.debug("demo: %s: %s %s", type(item).__name__, outcome.status, outcome.sentence)
        if not outcome.ok:
            log.info("demo: %s: %s", type(item).__name__, outcome.sentence)
        return outcome

    # ---------------------------------------------------------------- answering the companion
    def _answer(self, table: "Table", ours: Game, at: int | None) -> bool:
        """Answer what the companion waits for from the table (its question, its alerts); whether
        the players answered something. ``at``: the table's state the companion's game is at."""
        public = self.owner.published.public
        question = public.get("question")
        if question:
            played = [a.notation() for a in table.game.history[at:]] if at is not None else []
            choice = next((k for k, option in enumerate(question["options"])
                           if option.split(" then ") == played[:len(option.split(" then "))]), None)
            if choice is None:
                self._count("question-none-fits")
                return self._enter_by_hand(table, ours, at, f"the camera asks \"{question['text']}\" and none of "
                                           f"its options ({'; '.join(question['options'])}) is what the players played")
            self._count("question")
            self.doing = f"answering the camera's question: {question['options'][choice]}"
            self.notice(f"The camera asks \"{question['text']}\": the players answer "
                        f"\"{question['options'][choice]}\".")
            self._submit(Answer(choice, "table"))
            return True
        alerts = [a for a in public.get("alerts") or () if a.get("source") == "camera"]
        if not alerts:
            return False
        if at != table.now:  # the companion's game went wrong, or fell behind
            self._count("alert-game-wrong")
            return self._enter_by_hand(table, ours, at, "the camera raised: " + "; ".join(a["sentence"] for a in alerts))
        self._count("alert-board-right")
        for alert in alerts:  # the game is right: the camera misread the region
            self.doing = f"telling the camera the board is right ({alert['action']})"
            self.notice(f"The camera raised \"{alert['sentence']}\" but the companion's game is right: "
                        "the players tell it the board is right.")
            self._submit(Resolve(alert["id"], False, "table"))
        return True

    def _enter_by_hand(self, table: "Table", ours: Game, at: int | None, why: str = "") -> bool:
        """Put the companion's game right as players would: take back what it got wrong, then enter
        the moves it has not followed on the table screen. Whether the companion took them all."""
        keep, since = (len(ours.history), at) if at is not None else table.common(ours)
        wrong, missing = ours.history[keep:], table.game.history[since:]
        if not why:
            why = ("the companion read " + ", ".join(a.notation() for a in wrong) + " where the players played "
                   + (", ".join(a.notation() for a in missing) or "nothing") if wrong else
                   "the turn has ended and the companion has not followed " + ", ".join(a.notation() for a in missing))
        self._count("entered-by-hand")
        self.doing = "entering moves by hand"
        self.notice(f"{why[0].upper()}{why[1:]}: the players "
                    + (f"take back {len(wrong)} action(s) and " if wrong else "")
                    + f"enter {len(missing)} by hand.", "warning")
        for _ in wrong:
            self._submit(Undo(source="table"))
        for action in missing:
            outcome = self._submit(Play(action, None, "table"))
            if not outcome.ok:
                log.error("demo: the companion refused %s entered by hand: %s", action.notation(), outcome.sentence)
                return False
        return True

    def _count(self, kind: str) -> None:
        self.answers[kind] = self.answers.get(kind, 0) + 1


class _Stopped(Exception):
    """The demo stops (or its camera could not be set up) while the players wait for the camera."""


class Table:
    """The physical table: the game its players play, and the states it went through. The companion's
    game may be at any of them: behind while the camera path holds a step for an input still to come
    (a redeployment until the turn ends, a declared attempt until its die), or with two moves taken
    in another order (a Fortress and the redeployment): states are compared, not orders of moves."""

    def __init__(self, setup):
        self.game = Game(setup)
        self._states = {self.game.fingerprint(): 0}

    def apply(self, action) -> None:
        self.game.apply(action)
        self._states[self.game.fingerprint()] = len(self.game.history)

    @property
    def now(self) -> int:
        return len(self.game.history)

    @property
    def closed(self) -> bool:
        """At the end of a turn or of the game: the button that ends a turn gives the camera path all
        it was waiting for, so the companion's game is the table's now."""
        return self.game.finished or bool(self.game.history and isinstance(self.game.history[-1], A.EndTurn))

    def where(self, ours: Game) -> int | None:
        """How many of the players' moves the companion's game stands after (None: it went elsewhere)."""
        return self._states.get(ours.fingerprint())

    def common(self, ours: Game) -> tuple[int, int]:
        """The last state both games went through: (the companion's moves to keep, the players' moves
        it stands after)."""
        replay, kept = Game(ours.setup, ours.board), [0]
        for action in ours.history:
            replay.apply(action)
            kept.append(self._states.get(replay.fingerprint(), -1))
        keep = max(k for k, at in enumerate(kept) if at >= 0)
        return keep, kept[keep]
