"""The game owner: one thread drains the one input queue; the only code that changes the Game.

For each input it checks, applies, commits to the store, then publishes (in that order: nothing is
shown before it is on disk). Listeners receive a ``Published`` snapshot after every change. The
alerts and the camera's question that stand are stored too (``Store.standing``) and shown again
after a restart.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import queue
import random
import secrets
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field

from .. import floods
from .. import inputs as hw
from ..rules import actions as A
from ..rules import ruleset as rulesets
from ..rules.errors import IllegalAction
from ..rules.game import CHANCE, Game
from ..rules.setup import Setup
from ..shuffle import roll_die
from . import codes, views, wording
from ..reconcile import Follower, Question, follows
from ..reconcile.decision import BOARD_CODES
from .inputs import (Answer, BoardIsRight, Correct, Declare, NewGame, Notice, Observation, Outcome, Play, Resolve,
                     Resume, RollDie, Undo)
from .log_edits import edit_words, edited
from .store import Store, StoredGame

log = logging.getLogger(__name__)
_STOP = object()


@dataclass(frozen=True)
class Published:
    """Everything the screens need after one change; seat views are private to each seat."""

    version: int
    game_id: int | None
    public: dict
    seats: tuple[dict, ...]
    log: tuple[dict, ...]
    alerts: tuple[dict, ...]
    codes: tuple[str, ...] = field(repr=False, default=())


EMPTY = Published(0, None, {"no_game": True}, (), (), ())
REFUSALS, REFUSAL_S = 10, 10.0  # refused actions from one sender before it is slowed down


class GameOwner:
    """Owns the current Game. ``submit(input)`` returns a Future of the ``Outcome``."""

    def __init__(self, store: Store, *, die_seed: int = -1, clock=time.monotonic):
        self.store = store
        self.die_seed = die_seed
        self.queue: queue.Queue = queue.Queue()
        self.listeners: list = []
        self.published: Published = EMPTY
        self.game: Game | None = None
        self.stored: StoredGame | None = None
        self._log: list[dict] = []
        self._alerts: list[dict] = []
        self._alert_ids = 0
        self._settled: dict = {}  # region -> the code of a camera alert whose correction the table accepted
        self._version = 0
        self._thread: threading.Thread | None = None
        self.follower = Follower()
        self.question: dict | None = None  # the camera's question as the screens show it
        self.notice: dict | None = None  # what the demo's simulated table says it does or waits for
        self._asked = None  # ... and as the follower asked it (its options are actions)
        self._kept = ""  # the standing alerts and question last stored (JSON)
        # a phone (or screen) repeating refused actions is slowed down: past REFUSALS in REFUSAL_S
        # seconds its actions are answered 429, neither explained nor alerted nor broadcast
        self._refused = floods.Window(REFUSALS, REFUSAL_S, clock)

    # ---------------------------------------------------------------- life
    def start(self) -> "GameOwner":
        """Resume the latest game from the store, then drain the queue in a thread."""
        latest = self.store.current()
        if latest is not None:
            self._load(latest)
        self._publish()
        self._thread = threading.Thread(target=self._run, name="game-owner", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            self.queue.put((_STOP, None))
            self._thread.join(timeout)
            self._thread = None

    def submit(self, item) -> Future:
        """Queue an input (from any thread); the Future's result is an ``Outcome``."""
        future: Future = Future()
        self.queue.put((item, future))
        return future

    def hardware_submit(self, item: hw.Input) -> None:
        """The table hardware's ``submit``: panel and scoring box inputs join the same queue."""
        self.queue.put((item, None))

    def _run(self) -> None:
        while True:
            item, future = self.queue.get()
            if item is _STOP:
                return
            try:
                outcome = self.handle(item)
            except Exception as exc:  # a bug must not stop the table: answer 500 and go on
                log.exception("input %s failed", type(item).__name__)
                outcome = Outcome(500, "internal-error", f"The companion failed on this input ({type(exc).__name__}).")
            if future is not None:
                future.set_result(outcome)

    # ---------------------------------------------------------------- inputs
    def handle(self, item) -> Outcome:
        """Handle one input on the owner thread (tests may call it directly)."""
        if isinstance(item, NewGame):
            return self._new_game(item)
        if isinstance(item, Resume):
            return self._resume(item)
        if isinstance(item, Notice):
            self.notice = {"text": item.text, "level": item.level, "source": item.source} if item.text else None
            self._publish()
            return Outcome(200, "ok", item.text)
        if isinstance(item, hw.RollRequested):
            item = RollDie(source=item.source)
        elif isinstance(item, hw.UndoRequested):
            item = Undo(source=item.source)
        if self.game is None:
            return Outcome(409, "no-game", "No game is set up yet: open the setup page.")
        if isinstance(item, Observation):
            if not follows(self.game.rules.name):
                return Outcome(409, "no-camera", f"The camera does not follow {self.game.rules.title} games yet: "
                               "enter the moves on the dashboard.")
            return self._camera(self.follower.observe(self.game, item.observation), "camera")
        if isinstance(item, hw.Confirm):
            return self._camera(self.follower.confirm(self.game), item.source)
        if isinstance(item, Declare):
            out = self._camera(self.follower.declare(self.game, item.region), item.source)
            return dataclasses.replace(out, sentence=wording.sentence(out.sentence))  # said on the screen
        if isinstance(item, BoardIsRight):
            if not follows(self.game.rules.name):
                return Outcome(409, "no-camera", f"The camera does not follow {self.game.rules.title} games.")
            out = self._camera(self.follower.board_is_right(self.game), item.source)
            if out.ok and out.data.get("question"):  # the offer, confirmed (or not) as the camera's question
                return dataclasses.replace(out, sentence="The camera offers its corrections under 'The camera asks': "
                                                         "confirm them there, or keep the game.")
            return dataclasses.replace(out, sentence=wording.sentence(out.sentence))
        if isinstance(item, Answer):
            question = self.follower.question
            if question is None or not 0 <= item.option < len(question.options):
                return Outcome(409, "no-question", "The camera has no such question now.")
            return self._camera(self.follower.answer(self.game, item.option), item.source)
        if isinstance(item, Play):
            return self._play(item.action, item.seat, item.source)
        if isinstance(item, RollDie):
            return self._roll(item)
        if isinstance(item, Undo):
            return self._undo()
        if isinstance(item, Resolve):
            return self._resolve(item)
        if isinstance(item, Correct):
            return self._correct(item)
        return Outcome(400, "unknown-input", f"Unknown input {type(item).__name__}.")

    def _new_game(self, item: NewGame) -> Outcome:
        try:
            setup = self._with_table_values(Setup.from_json(item.setup.to_json()))  # stored as it will be read
            game = Game(setup)
        except (ValueError, KeyError) as exc:
            return Outcome(400, "bad-setup", str(exc))
        seed = item.die_seed if item.die_seed is not None else (
            self.die_seed if self.die_seed >= 0 else secrets.randbelow(2**31))
        seat_codes = _distinct_codes(len(setup.players))
        game_id = self.store.new_game(setup, seed, seat_codes)
        self._load(self.store.game(game_id), game)
        self._publish()
        return Outcome(201, "ok", "The game is set up.", {"game": game_id})

    def _resume(self, item: Resume) -> Outcome:
        stored = self.store.game(item.game)
        if stored is None:
            return Outcome(404, "no-such-game", f"There is no game {item.game}.")
        if stored.finished:
            return Outcome(409, "finished", f"Game {item.game} is over: its final scores are in Games.")
        if self.stored is not None and self.stored.id == stored.id:
            return Outcome(200, "ok", f"Game {item.game} is the game in progress.", {"game": stored.id})
        self._load(stored)
        self.store.set_current(stored.id)
        self._publish()
        return Outcome(200, "ok", f"Game {item.game} resumed.", {"game": stored.id})

    def _with_table_values(self, setup):
        """A ruleset whose token numbers the table reads off its pieces: the values this table has
        already read go into the new game's header (``options.values``); the header's own win."""
        rules = rulesets.get(setup.ruleset)
        if not rules.reads_values:
            return setup
        known = self.store.piece_values(rules.name)
        options = dict(setup.options or {})
        given = options.get("values") or {}
        values = {}
        for kind, is_known in (("races", rules.is_race), ("powers", rules.is_power)):
            kept = {n: v for n, v in known[kind].items() if is_known(n)}
            values[kind] = {**kept, **(given.get(kind) or {})}
        if not (values["races"] or values["powers"]):
            return setup
        options["values"] = values
        rules.check_options(options)
        return dataclasses.replace(setup, options=options)

    def _remember_values(self, before: dict | None, source: str) -> None:
        """Keep the values a player has just read off the pieces for the next games, and forget those
        an undo took back (the demo's SAMPLE values are never kept)."""
        if before is None or source == "demo":
            return
        after = self.game.known_values()
        changes = {}
        for kind in after:
            changes[kind] = {n: v for n, v in after[kind].items() if before[kind].get(n) != v}
            changes[kind].update({n: None for n in before[kind] if n not in after[kind]})
        if any(changes.values()):
            try:
                self.store.set_piece_values(self.game.rules.name, changes)
            except Exception:  # the action itself is stored: the table is asked again next game
                log.exception("cannot keep the piece values")

    def _known_values(self) -> dict | None:
        return self.game.known_values() if self.game.rules.reads_values else None

    def _load(self, stored: StoredGame, game: Game | None = None) -> None:
        self.follower = Follower()
        self.question, self._asked = None, None
        self.stored = stored
        self.game = game or Game(stored.setup)
        self._log, self._alerts, self._settled = [], [], {}
        for action in ([] if game else self.store.actions(stored.id)):
            self._log.append(self._entry(action, "store"))
            self.game.apply(action)
        if stored.finished != self.game.finished:  # stored by a version that wrote the two apart
            log.warning("game %d was stored as %s but its record says %s: repaired", stored.id,
                        "finished" if stored.finished else "unfinished", "finished" if self.game.finished else "unfinished")
            self.store.set_finished(stored.id, self.game.finished)
            self.stored = dataclasses.replace(stored, finished=self.game.finished)
        self._restore_standing()

    def _restore_standing(self) -> None:
        """The alerts and the question that stood when the service stopped."""
        alerts, question = self.store.standing(self.stored.id)
        # the camera's alerts only (a refused typed move is no alert: stored by an older version, dropped)
        alerts = [dict(a, about=a.get("about") or ("board" if a["code"] in BOARD_CODES else "move"))
                  for a in alerts if a.get("source") == "camera"]
        self._alerts = alerts
        self._alert_ids = max([self._alert_ids] + [a["id"] for a in alerts])
        if question is not None:
            self._asked = Question(question["text"], tuple(tuple(A.from_json(a) for a in option)
                                                            for option in question["options"]))
            self.follower.question = self._asked  # answered as if asked in this run
            self.question = self._asked.to_json()
        self._kept = json.dumps([alerts, question])

    def _keep_standing(self) -> None:
        """Store the alerts and the question that stand, when they changed (before they are shown)."""
        question = None if self.question is None or self._asked is None else {
            "text": self._asked.text, "options": [[a.to_json() for a in o] for o in self._asked.options]}
        kept = json.dumps([self._alerts, question])
        if kept != self._kept:
            self.store.set_standing(self.stored.id, self._alerts, question)
            self._kept = kept

    def _entry(self, action: A.Action, source: str) -> dict:
        return _entry_on(self.game, action, len(self.game.history), source)

    def _play(self, action: A.Action, seat: int | None, source: str) -> Outcome:
        game = self.game
        acting = game.current_player
        if acting == CHANCE and isinstance(action, A.Roll):
            acting = game.turn.player  # a die the rules ask for (the Gnomes' airborne assault): its player rolls
        if seat is not None and seat != acting and not game.finished:
            if acting == CHANCE:
                return Outcome(409, "not-your-turn", f"The table answers first: {wording.step(game)}")
            return Outcome(409, "not-your-turn", f"It is {game.players[acting].name}'s turn, not yours.")
        sender = (source, seat)
        if source != "camera" and self._refused.over(sender):
            return Outcome(429, "slow-down", "Too many refused actions in a row: wait a few seconds, then play "
                           f"what the rules allow ({wording.step(game)})")
        reason = game.explain(action)
        if reason is not None and self._redeployed_first(action):
            reason = game.explain(action)
        if reason is not None:  # a refused input is its sender's answer only: nothing happened on the board
            if source != "camera":
                self._refused.add(sender)
            return Outcome(422, reason.code, wording.refusal(game, reason.code, reason.sentence, seat))
        if source != "camera":
            self.follower.resync()  # a correction by hand: the game is the truth the camera follows
            self.question = self._asked = None  # ... and the camera's question went with it
        self._accept(action, source)
        return Outcome(200, "ok", self._log[-1]["text"], {"seq": len(game.history)})

    def _redeployed_first(self, action: A.Action) -> bool:
        """An input the rules take only after the troop redeployment or a resettlement (the end of the
        turn, an ally, a pick after the Ghouls): with the camera following, that step as it last saw
        it comes first (``Follower.due_before``, the rule ``companion follow --inputs`` shares)."""
        if self.follower.due_before(self.game, action) is None:
            return False
        self._camera(self.follower.redeployed(self.game), "camera")
        return True

    def _accept(self, action: A.Action, source: str) -> None:
        """Apply, commit, then publish: the order that makes a pulled plug lose nothing shown."""
        entry = self._entry(action, source)
        seq = len(self.game.history)
        before = self._known_values()
        self.game.apply(action)
        try:  # the game's last action and its finished flag: one transaction
            self.store.append(self.stored.id, seq, action, source, finished=self.game.finished)
        except Exception:
            self.game.undo()
            raise
        self._remember_values(before, source)
        self._log.append(entry)
        self._publish()

    def _amend(self, seq: int, action: A.Action, source: str) -> None:
        """A past action the camera now sees better (a redeployment first seen under a stack)."""
        try:
            was = self.game.replace(seq, action)
        except IllegalAction:
            return
        try:
            self.store.replace(self.stored.id, seq, action, source)
        except Exception:
            self.game.replace(seq, was)
            raise
        for entry in self._log:
            if entry["seq"] == seq:
                entry.update(text=wording.describe(self.game, action), notation=action.notation(), source=source)

    def _insert(self, seq: int, action: A.Action, source: str) -> None:
        """An action the camera missed then and sees now (a Fortress placed under a stack), put into
        the past before the action at ``seq``: replayed (coins and all), stored, and logged in place."""
        try:
            self.game.insert(seq, action)
        except IllegalAction:
            return
        then = type(self.game).replay(self.game.setup, self.game.history[:seq], self.game.board)
        try:
            self.store.insert(self.stored.id, seq, action, source)
        except Exception:
            self.game.remove(seq)
            raise
        for entry in self._log:
            if entry["seq"] >= seq:
                entry["seq"] += 1
        at = next((k for k, entry in enumerate(self._log) if entry["seq"] > seq), len(self._log))
        self._log.insert(at, _entry_on(then, action, seq, source))

    def _roll(self, item: RollDie) -> Outcome:
        game = self.game
        face = item.face
        if face is None:
            face = roll_die(random.Random(f"{self.stored.die_seed}:{len(game.history)}"))
        reason = game.explain(A.Roll(0))
        # the camera's table: the die may come before the target shows on the board; and a final
        # attempt declared takes the die (a Berserk race's roll is legal without it; the Ghouls in
        # decline attempt theirs before their player picks)
        if self.follower.declared is not None or (
                reason is not None and game.phase == "conquest" and game.current_player >= 0):
            outcome = self._camera(self.follower.die(game, face), item.source,
                                   f"The Reinforcement Die shows {wording.DIE_FACES.get(face, face)}.")
            return dataclasses.replace(outcome, data={**outcome.data, "die": face})
        if reason is not None:
            return Outcome(409, "no-roll-due", "No Reinforcement Die roll is due now: "
                           "it follows a final conquest attempt (or comes before a Berserk conquest).")
        outcome = self._play(A.Roll(face), item.seat, item.source)
        return dataclasses.replace(outcome, data={**outcome.data, "die": face})  # the face the table sees

    def _camera(self, out, source: str, sentence: str = "") -> Outcome:
        """Apply what reconciliation explained (each action stored before it is shown); keep its alerts
        and its question on the table screen."""
        for _ in range(out.rewind):  # a correction the table confirmed ("the board is right"): taken back first
            self._undo()
        for seq, action in out.missed:  # actions the camera missed then and sees now
            self._insert(seq, action, source)
        for seq, action in out.amend:  # earlier actions the camera now sees better, then the new ones
            self._amend(seq, action, source)
        for action in out.actions:
            if self.game.explain(action) is not None:
                break
            self._accept(action, source)
        self._alerts = self._standing(out.alerts)
        self._asked = out.question
        self.question = out.question.to_json() if out.question else None
        self._publish()
        done = self._log[-len(out.actions)]["text"] if out.actions else ""
        return Outcome(200, "ok", sentence or out.note or done or "The board agrees with the game.",
                       {"actions": [a.notation() for a in out.actions], "question": self.question,
                        "alerts": [dict(a.to_json(), sentence=wording.refusal(self.game, a.code, a.sentence, None))
                                   for a in out.raised], "hold": out.hold})

    def _standing(self, alerts) -> list[dict]:
        """The camera's alerts as the screens show them, one a region. An alert about a move (a code
        the rules give) belongs to the turn it was raised in; one about the board (``BOARD_CODES``: the
        board and the record disagree) stands until the board agrees or the table settles it. A move
        alert whose region still disagrees once its turn has ended is about the board from then on
        (``_end_turn_alerts``), and keeps its place whatever the camera now calls it."""
        shown = {a.get("region"): a for a in self._alerts}
        turn = self._turn()
        self._settled = {r: c for r, c in self._settled.items() if any(a.region == r for a in alerts)}
        out = []
        for alert in alerts:
            if self._settled.get(alert.region) == alert.code:
                continue  # the table accepted the correction: the players put the board back
            was = shown.get(alert.region)
            if was is not None and (was["code"] == alert.code or was["about"] == "board"):
                out.append(was)
                continue
            self._alert_ids += 1
            out.append({"id": self._alert_ids, "seat": None, "who": alert.player or "The board",
                        "code": alert.code, "region": alert.region,
                        "sentence": wording.refusal(self.game, alert.code, alert.sentence, None),
                        "action": f"region {alert.region}" if alert.region is not None else "",
                        "source": "camera", "turn": turn,
                        "about": "board" if alert.code in BOARD_CODES else "move"})
        return out

    def _turn(self) -> str:
        """The turn now, as alerts remember it: round and player."""
        return f"{self.game.round}:{self.game.turn.player}"

    def _end_turn_alerts(self) -> None:
        """Alerts end with their turn: a move alert whose turn is over is no longer about that move. The
        camera still reports it only while its region disagrees with the record (the next sight that
        reads the region as the game has it clears it), so from then on it is about the board, and
        says so."""
        turn = self._turn()
        for alert in self._alerts:
            if alert.get("about", "move") == "move" and alert.get("turn") != turn:
                whose = f"{alert['who']}'s turn" if alert["who"] != "The board" else "the turn"
                alert["about"] = "board"
                alert["sentence"] = f"Still on the board after {whose}: {alert['sentence']}"

    def _undo(self) -> Outcome:
        game = self.game
        if not game.history:
            return Outcome(409, "nothing-to-undo", "No action has been played yet.")
        seq = len(game.history) - 1
        before = self._known_values()
        last = game.undo()
        try:
            self.store.remove_last(self.stored.id, seq, finished=game.finished)
        except Exception:
            game.apply(last)
            raise
        self._remember_values(before, "undo")
        self.follower.undone(len(game.history))
        self.question = self._asked = None  # asked of the game before the undo
        undone = self._log.pop() if self._log else None
        self._publish()
        text = undone["text"] if undone else last.notation()
        return Outcome(200, "ok", f"Taken back: {text}")

    def _correct(self, item: Correct) -> Outcome:
        """The table corrects past actions of its log in place (``Correct``): the record with the
        edits is replayed through the rules (coins and all); if an action no longer fits, nothing
        changes and the answer says which and why. Stored in one transaction, then shown."""
        game = self.game
        history = list(game.history)
        try:
            actions = edited(history, item.edits)
        except ValueError as exc:
            return Outcome(400, "bad-correction", str(exc))
        start = min(e.seq for e in item.edits)
        trial = type(game).replay(game.setup, actions[:start], game.board)
        kept = {id(a): e["source"] for a, e in zip(history, self._log)} if len(self._log) == len(history) else {}
        sources = [kept.get(id(a), item.source) for a in actions[start:]]
        entries = []
        for k, (action, source) in enumerate(zip(actions[start:], sources), start):
            reason = trial.explain(action)
            if reason is not None:
                return Outcome(422, reason.code, f"Not corrected: with these corrections, action {k + 1} "
                               f"({wording.describe(trial, action).rstrip('.')}) no longer fits: "
                               f"{wording.refusal(trial, reason.code, reason.sentence, None)}")
            entries.append(_entry_on(trial, action, k, source))
            trial.apply(action)
        before = self._known_values()
        game.rewrite(actions)
        try:
            self.store.rewrite(self.stored.id, start, actions[start:], sources, finished=game.finished)
        except Exception:
            game.rewrite(history)
            raise
        self._remember_values(before, item.source)
        self._log = [e for e in self._log if e["seq"] < start] + entries
        self.follower.undone(start)  # the camera's steps kept from there on are gone
        self.follower.resync()  # a correction by hand: the game is the truth the camera follows
        self.question = self._asked = None
        self._publish()
        done = "; ".join(edit_words(e) for e in sorted(item.edits, key=lambda e: e.seq))
        return Outcome(200, "ok", f"The log is corrected: {done}.", {"seq": len(game.history)})

    def _resolve(self, item: Resolve) -> Outcome:
        alert = next((a for a in self._alerts if a["id"] == item.alert), None)
        if alert is None:
            return Outcome(404, "no-such-alert", "That alert is already settled.")
        self._alerts.remove(alert)
        if alert.get("source") == "camera" and alert.get("region") is not None:
            if item.accept:  # hidden until the camera sees the board put back (or sees something else there)
                self._settled[alert["region"]] = alert["code"]
            else:
                self.follower.accept(self.game, alert["region"])  # the camera misread: the board is right
        self._publish()
        where = alert["action"] or "the board"
        if item.accept:
            return Outcome(200, "ok", f"Correction accepted: put {where} back as the game has it.")
        return Outcome(200, "ok", f"Overridden by the table: the camera misread {where}; the game stays as it is.")

    # ---------------------------------------------------------------- publishing
    def _publish(self) -> None:
        self._version += 1
        if self.game is None:
            self.published = Published(self._version, None, {"no_game": True, "version": self._version,
                                                             "notice": self.notice}, (), (), ())
        else:
            self._end_turn_alerts()
            public = views.public_view(self.game)
            public.update(version=self._version, game=self.stored.id, alerts=list(self._alerts), notice=self.notice,
                          log=self._log[-40:], question=self.question,
                          camera=self.follower.last_seen is not None)  # the camera follows this game
            seats = tuple(dict(views.seat_view(self.game, i), version=self._version)
                          for i in range(len(self.game.players)))
            self.published = Published(self._version, self.stored.id, public, seats, tuple(self._log),
                                       tuple(self._alerts), self.stored.seat_codes)
            try:
                self._keep_standing()
            except Exception:  # the game itself is stored: only a restart would forget the alerts
                log.exception("cannot keep the standing alerts")
        for listener in list(self.listeners):
            try:
                listener(self.published)
            except Exception:
                log.exception("a listener failed")

    def seat_of_code(self, code: str) -> int | None:
        """The seat whose join code this is, in the current game."""
        for seat, known in enumerate(self.published.codes):
            if codes.same(code, known):
                return seat
        return None


def _distinct_codes(n: int) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        c = codes.new_code(6)
        if c not in out:
            out.append(c)
    return out


def _entry_on(game: Game, action: A.Action, seq: int, source: str) -> dict:
    """The log's line for ``action`` played on ``game`` (the state before it) as action ``seq``."""
    seat = game.current_player
    return {"seq": seq, "seat": None if seat == CHANCE else seat, "text": wording.describe(game, action),
            "notation": action.notation(), "source": source}
