"""Decision: what to do with what the sights say and what could explain it: apply the actions, ask
the table, raise an alert in the rulebook's words, or hold.

An alert names the region, what the camera read there, what the game holds and the engine's reason.
It is raised once and stands while its region is not read as the game has it (see ``Standing``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import pieces
from ..rules.actions import Abandon, Action, Conquer, Fortify, Pick
from ..rules.game import Game
from .view import Difference, View, content, label_race, placing_now


@dataclass(frozen=True)
class Alert:
    """An illegal move or a disagreement between the board and the game, as a player reads it."""

    code: str
    sentence: str
    region: int | None = None
    player: str | None = None

    def to_json(self) -> dict:
        return {"code": self.code, "sentence": self.sentence, "region": self.region, "player": self.player}


@dataclass(frozen=True)
class Question:
    """Two or more explanations fit the board equally, or the board and the game part on several
    regions (is the board right?): the table chooses. Option k takes back the last ``rewinds[k]``
    actions first (a correction), then plays ``options[k]``; ``labels`` say each option in words;
    ``regions``: the regions it is about (an option with no actions there keeps the game, and the
    camera reads them as the game has them)."""

    text: str
    options: tuple[tuple[Action, ...], ...]
    rewinds: tuple[int, ...] = ()
    labels: tuple[str, ...] = ()
    regions: tuple[int, ...] = ()

    def rewind(self, option: int) -> int:
        return self.rewinds[option] if option < len(self.rewinds) else 0

    def to_json(self) -> dict:
        words = [" then ".join(a.notation() for a in o) for o in self.options]
        return {"text": self.text, "options": [label or word for label, word in
                                               zip(self.labels or words, words)], "regions": list(self.regions)}


@dataclass
class Outcome:
    actions: list[Action] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)  # alerts standing after this step
    raised: list[Alert] = field(default_factory=list)  # the ones new in this step
    question: Question | None = None
    note: str = ""
    # earlier actions corrected by this sight, (index in the history, action), applied before ``actions``
    amend: list[tuple[int, Action]] = field(default_factory=list)
    # actions the camera missed then, put into the history before the one at index: applied first
    missed: list[tuple[int, Action]] = field(default_factory=list)
    refused: object | None = None  # a typed action the engine refused: its reason (code, sentence)
    hold: bool = False  # something seen once waits for another still sight before it is shown or applied
    rewind: int = 0  # the last actions taken back first (a correction the table confirmed)
    trace: list[str] = field(default_factory=list)  # how this was decided, a line a step (``--explain``)

    @property
    def in_sync(self) -> bool:
        return not self.alerts and self.question is None

    def apply_to(self, game: Game) -> None:
        """Play this outcome on ``game`` in its order: the missed actions into the past, the earlier
        ones seen better, then the new ones (the service stores each as it goes instead); a
        correction takes back the last ``rewind`` actions first."""
        for _ in range(self.rewind):
            game.undo()
        for index, action in self.missed:
            game.insert(index, action)
        for index, action in self.amend:
            game.replace(index, action)
        for action in self.actions:
            game.apply(action)


# The codes of a board that simply disagrees with the game (no move the rules refuse): a misread is
# likelier than a move, so they are shown when a second sight agrees. A move the rules refuse is
# flagged at once.
BOARD_CODES = ("board-differs", "count", "tokens-missing", "race-not-in-play")
CLEAR_AFTER = 2  # sights that read a region as the game has it before its board alert goes


class Standing:
    """The alerts on the table screen, one per region: raised once, standing while the region
    disagrees (however its counts flicker), gone when the camera reads it as the game has it (a
    disagreement of the board alone: ``CLEAR_AFTER`` sights running). A disagreement of the board alone (``BOARD_CODES``) waits for a
    second sight before it is shown; a move the rules refuse is shown at once."""

    def __init__(self):
        self.alerts: dict[tuple, Alert] = {}  # (region, code) -> the alert shown
        self.pending: dict[int | None, Alert] = {}  # region -> a board disagreement seen once
        self.right: dict[int | None, int] = {}  # region -> sights running it read as the game has it
        self.sights: dict[int | None, int] = {}  # region -> sights its alert has stood
        # (region, code) -> what the game held there when it was shown: a discrepancy that goes and
        # comes back while the game holds the same there (a misread that flickers, sight after sight
        # or turn after turn) stands again without being raised again; a move the rules refuse only
        # while it is the same move (``_same``) and the region has not been read right surely since
        # (``CLEAR_AFTER`` sights): another race put there, or the same move made again after the
        # table put it right, is another illegal move
        self.shown: dict[tuple, tuple] = {}
        self.sure_right: dict[int | None, int] = {}  # region -> sure sights that read it right since a move alert

    def values(self) -> list[Alert]:
        return list(self.alerts.values())

    def regions(self) -> set:
        return {k[0] for k in self.alerts}

    def keep(self, unjudged: set[int], new: dict | None = None, held: View | None = None,
             sure: set[int] = frozenset()) -> list[Alert]:
        """Take this sight's disagreements (``new``, by (region, code)); regions in ``unjudged`` (a
        hand over them, an unsure reading) keep what they had; ``held``: what the game holds on each
        region (an alert is raised once while the game holds the same there); ``sure``: the regions
        the still frames read surely (a region among them that agrees with the game is read right:
        after ``CLEAR_AFTER`` such sights, a move the rules refuse seen there again is raised again).
        Returns the alerts raised now."""
        new = new or {}
        held = held or {}
        self._read_right(set(sure) - unjudged - {key[0] for key in new})
        standing = self.regions()
        by_region: dict = {}
        for key, alert in new.items():
            by_region.setdefault(key[0], (key, alert))
        raised, alerts, pending = [], {}, {}
        for region, (key, alert) in by_region.items():
            self.right.pop(region, None)
            old = next((k for k in self.alerts if k[0] == region), None)
            if old is not None and alert.code not in BOARD_CODES \
                    and (old[1] in BOARD_CODES or self.alerts[old].player != alert.player):
                # a move the rules refuse where another discrepancy stands (the board's, or another
                # player's move): news, raised (the same tokens judged again as the turn goes on are not)
                alerts[key] = alert
                raised.append(alert)
                self.shown[key] = _same(alert, content(held, region))
                self.sights[region] = 1
            elif region in standing:  # the same discrepancy, however it reads now: shown once
                alerts[old if alert.code in BOARD_CODES else key] = alert if alert.code not in BOARD_CODES \
                    else self.alerts[old]
                self.sights[region] = self.sights.get(region, 0) + 1
            elif key in self.shown and self.shown[key] == _same(alert, content(held, region)):  # shown before: it stands again
                alerts[key] = alert
                self.sights[region] = self.sights.get(region, 0) + 1
            elif alert.code not in BOARD_CODES or region in self.pending:
                alerts[key] = alert
                raised.append(alert)
                self.shown[key] = _same(alert, content(held, region))
                self.sights[region] = 1
            else:
                pending[region] = alert
        for key, alert in self.alerts.items():
            region = key[0]
            if region in by_region:
                continue
            if region in unjudged:
                alerts[key] = alert
                continue
            self.right[region] = self.right.get(region, 0) + 1
            if alert.code in BOARD_CODES and self.right[region] < CLEAR_AFTER:
                alerts[key] = alert
            else:
                self.right.pop(region, None)
                self.sights.pop(region, None)
        self.pending = {r: a for r, a in {**{r: a for r, a in self.pending.items() if r in unjudged},
                                          **pending}.items()}
        self.alerts = alerts
        return raised

    def _read_right(self, regions: set) -> None:
        """Regions read right surely in this sight: the moves the rules refuse shown there before are
        forgotten once ``CLEAR_AFTER`` such sights ran (the table put the move right; the same move
        seen again is made again, not a misread coming back: a misread that flickers is read right
        unsurely, or not two sights running)."""
        moved = {key[0] for key in self.shown if key[1] not in BOARD_CODES}
        self.sure_right = {r: n for r, n in self.sure_right.items() if r in regions}
        for region in regions & moved:
            self.sure_right[region] = self.sure_right.get(region, 0) + 1
            if self.sure_right[region] >= CLEAR_AFTER:
                self.shown = {k: v for k, v in self.shown.items() if k[0] != region or k[1] in BOARD_CODES}
                del self.sure_right[region]

    def stood(self, region) -> int:
        """How many sights the alert on ``region`` has stood."""
        return self.sights.get(region, 0)

    def drop(self, region: int) -> None:
        self.alerts = {k: a for k, a in self.alerts.items() if k[0] != region}
        self.pending.pop(region, None)
        self.right.pop(region, None)
        self.sights.pop(region, None)


def _same(alert: Alert, held: tuple) -> tuple:
    """What an alert shown before must share with a new one for the new one to stand without being
    raised: what the game holds on its region; for a move the rules refuse, also the move (its
    sentence names the race and the reason, and whose race it is). The same move shown again stands
    unraised while the region has not been read right surely since (``Standing._read_right``): a
    misread coming back (on the hard tier far more often than the same illegal move made again in
    a later turn) is rarely read right surely in between, a move the table put right is."""
    return held if alert.code in BOARD_CODES else (held, alert.sentence, alert.player)


def placing(game: Game, d: Difference, seen: View) -> bool:
    """A marker a race places on its own regions (Heroes, Encampments, a Fortress), seen where the
    game has none: no alert during the turn of the player who places it (the end of the step takes
    it), nor later while the race shows no more of them than the game gives it (one hidden under a
    stack when it was placed; a later sight amends the placement)."""
    tribe = game.tribes.get(game.regions[d.region].race or "")
    if tribe is None or d.seen <= d.expected or d.label not in tribe.race.markers_placed + tribe.power.markers_placed:
        return False
    if placing_now(game, tribe.name):
        return True
    held = game.regions_of(tribe.name)
    return sum(seen.get(r, {}).get(d.label, 0) for r in held) <= sum(game.regions[r].marker(d.label) for r in held)


def classify(game: Game, remaining: list[Difference], seen: View) -> list[tuple[Difference, Alert]]:
    """One alert per region that no legal action explains, with the engine's reason where there is one."""
    out = []
    done: set[int] = set()
    for d in sorted(remaining, key=lambda d: (d.missing, d.region)):
        if d.region in done:
            continue
        done.add(d.region)
        out.append((d, _alert(game, d, seen)))
    return out


def _alert(game: Game, d: Difference, seen: View) -> Alert:
    r = d.region
    where = game.board[r].describe()
    if d.label in pieces.MARKERS_IN_BOX:
        name = pieces.MARKER_NAMES[d.label]
        if d.label == pieces.FORTRESS and d.seen > d.expected:
            reason = game.explain(Fortify(r))
            if reason:
                return Alert(reason.code, reason.sentence, r, _owner(game, game.regions[r].race))
        return Alert("board-differs", f"The camera sees {d.seen} {name} on {where}; the game has {d.expected}.", r)
    race, in_decline = label_race(d.label)
    if race == pieces.LOST_TRIBE:
        return Alert("board-differs", f"The camera sees {d.seen} Lost Tribe token(s) on {where}; "
                     f"the game has {d.expected}.", r)
    tribe = game.tribes.get(race)
    title = game.rules.race_title(race) if game.rules.is_race(race) else race
    if d.seen > d.expected and game.regions[r].race != race:
        if tribe is None:
            if game.phase == "pick" and any(s.race == race for s in game.column):
                reason = game.explain(Pick(race))
                if reason:
                    return Alert(reason.code, reason.sentence, r, game.players[game.turn.player].name)
            return Alert("race-not-in-play", f"{title} tokens appeared on {where}, but no player has the {title}.", r)
        mine = game.active_tribe(game.turn.player)
        action = Conquer(r) if tribe is mine else Conquer(r, race)
        reason = game.explain(action)
        if reason:
            return Alert(reason.code, reason.sentence, r, game.players[tribe.owner].name)
        return Alert("board-differs", f"{title} tokens appeared on {where}, but that conquest does not fit the "
                     "turn; enter it by hand if it was played.", r, game.players[tribe.owner].name)
    if d.seen > d.expected:
        return Alert("count", f"The camera sees {d.seen} {title} tokens on {where}; the game has {d.expected}.",
                     r, _owner(game, race))
    mine = game.active_tribe(game.turn.player) if game.current_player >= 0 else None
    if tribe is not None and tribe is mine:
        reason = game.explain(Abandon(r))
        if reason:
            return Alert(reason.code, reason.sentence, r, game.players[tribe.owner].name)
    return Alert("tokens-missing", f"The game has {d.expected} {title} token(s) on {where}; the camera sees none.",
                 r, _owner(game, race))


def _owner(game: Game, race: str | None) -> str | None:
    tribe = game.tribes.get(race) if race else None
    return game.players[tribe.owner].name if tribe else None
