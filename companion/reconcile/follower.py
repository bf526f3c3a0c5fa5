"""Following a game from the camera: each still observation becomes the legal actions that explain
it, an alert in the rulebook's words, or a question when two explanations fit equally.

The follower never changes the game: it returns the actions, and the one owner of the ``Game``
applies and stores them. Inputs the camera cannot see (the die, a declared final attempt, the end
of a step) come in as calls.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import pieces
from ..rules.actions import (Abandon, Action, Conquer, EndTurn, Fortify, Heroes, Pick, Redeploy, Resettle,
                             Roll)
from ..rules.errors import IllegalAction
from ..rules.game import Game
from .explain import (Explanation, Hints, amended_heroes, amended_redeploy, amended_resettle, attempts,
                      failed_attempts, guess_redeploy, lighter_defence, markers, occupied, resettlement, search)
from .view import Difference, View, declined_side, differences, expected_view, label_race, race_label, unseen_tokens


# The rulesets whose pieces the camera knows (vision's labels) and whose moves the search proposes.
# Small World of Warcraft is followed by hand: see docs/warcraft.md, "The camera".
FOLLOWED_RULESETS = ("smallworld",)


def follows(ruleset: str) -> bool:
    """Whether the camera can follow a game of this ruleset."""
    return ruleset in FOLLOWED_RULESETS


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
    """Two or more explanations fit the board equally: the table chooses."""

    text: str
    options: tuple[tuple[Action, ...], ...]

    def to_json(self) -> dict:
        return {"text": self.text, "options": [" then ".join(a.notation() for a in o) for o in self.options]}


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

    @property
    def in_sync(self) -> bool:
        return not self.alerts and self.question is None

    def apply_to(self, game: Game) -> None:
        """Play this outcome on ``game`` in its order: the missed actions into the past, the earlier
        ones seen better, then the new ones (the service stores each as it goes instead)."""
        for index, action in self.missed:
            game.insert(index, action)
        for index, action in self.amend:
            game.replace(index, action)
        for action in self.actions:
            game.apply(action)


def view_of(observation) -> tuple[View, set[int]]:
    """A vision ``Observation`` (or anything shaped like it) as a view and the occluded regions."""
    seen: View = {}
    hidden: set[int] = set()
    for rid, region in observation.regions.items():
        seen[int(rid)] = {str(k): int(v) for k, v in region.tokens.items() if int(v) > 0}
        if region.occluded:
            hidden.add(int(rid))
    return seen, hidden


def unsure_of(observation, below: float) -> set[int]:
    """Regions where vision read tokens with a confidence under ``below``: likely misreads (glare,
    blur), so the follower neither acts on them alone nor raises an alert for them."""
    return {int(rid) for rid, region in observation.regions.items()
            if region.tokens and not region.occluded and region.confidence < below}


class Follower:
    """``unsure_below``: a region read with a lower vision confidence is unsure (see ``unsure_of``)."""

    def __init__(self, unsure_below: float = 0.3):
        self.unsure_below = unsure_below
        self.hints = Hints()
        self.alerts: dict[tuple, Alert] = {}
        self.accepted: dict[int, tuple] = {}  # region -> what the camera sees there, accepted by the table
        self.last_seen: View | None = None
        self.before: View | None = None  # the sight before ``last_seen`` (what changed on the board)
        self.readings: View = {}  # region -> the camera's last reading of it not under a hand
        self.last_unknown: set[int] = set()  # regions of the last sight that could not be read
        self.last_hidden: set[int] = set()  # of those, the ones under a hand
        self.question: Question | None = None
        self.unseen: dict[str, int] = {}
        self.redeploys: dict[str, int] = {}  # race -> index of its last redeployment in the history
        self.heroes: dict[str, int] = {}  # race -> index of its last placement of Heroes
        # race -> (index of its last resettlement, its regions and counts right after it)
        self.resettles: dict[str, tuple[int, dict[int, int]]] = {}
        # race -> region -> count read there -> the sights that read it (numbered), since its last
        # redeployment or resettlement; ``doubts``: the same from the readings vision was unsure of
        self.evidence: dict[str, dict[int, dict[int, list[int]]]] = {}
        self.doubts: dict[str, dict[int, dict[int, list[int]]]] = {}
        self.sights = 0  # the sights gathered so far (they number the readings)
        self.room: dict[int, int] = {}  # region -> how many tokens lie on it side by side (from vision)
        # (region, marker) read where the game has none, on a region of a race that places it
        self.sightings: set[tuple[int, str]] = set()
        # (region, marker, length of the history) no missed placement explained: not replayed again
        self.unplaced: set[tuple[int, str, int]] = set()
        # region -> what the game held there when the camera last read it so (see ``_unconfirmed``)
        self.confirmed: dict[int, tuple] = {}

    # ------------------------------------------------------------------ inputs
    def observe(self, game: Game, observation) -> Outcome:
        if not observation.registered:
            return Outcome(alerts=list(self.alerts.values()), note=f"board not registered: {observation.reason}")
        seen, hidden = view_of(observation)
        self.room = {int(rid): r.room for rid, r in observation.regions.items() if getattr(r, "room", 0)}
        return self.see(game, seen, hidden, unsure_of(observation, self.unsure_below))

    def see(self, game: Game, seen: View, hidden: set[int] = frozenset(),
            unsure: set[int] = frozenset()) -> Outcome:
        """Reconcile a still view of the board with the game. Regions in ``hidden`` are not judged;
        those in ``unsure`` only confirm an explanation found elsewhere, or one that fits them exactly."""
        seen = declined_side(game, seen)
        if seen != self.last_seen:
            self.before, self.last_seen = self.last_seen, seen
        seen = self._with_accepted(game, seen)
        hidden = set(hidden)
        previous = dict(self.readings)
        sighted_before = set(self.sightings)
        self._sight_markers(game, seen, hidden | set(unsure))
        self.readings.update({rid: labels for rid, labels in seen.items() if rid not in hidden})
        unsure = set(unsure) | self._unconfirmed(game, seen, hidden)
        changed = {r for r in unsure if self._changed(r)}
        unsure -= _moved_onto(game, seen, changed, _playing_labels(game))
        unsure -= _moved_onto(game, seen, self._read_right(game, changed), _in_play_labels(game))
        unsure |= _contested(game, seen, hidden)
        self.last_unknown, self.last_hidden = hidden | unsure, hidden
        if not differences(game, seen, hidden, self.unseen):
            self.alerts = self._standing({}, hidden | unsure)
            self.question = None
            self._remember_unseen(game, _trusting(game, seen, unsure), [])
            self._confirm(game, seen, hidden, [])
            return Outcome(alerts=list(self.alerts.values()),
                           amend=self._amendments(game, seen, sighted_before, hidden | unsure, hidden))
        missed = self._missed_placements(game, seen, sighted_before, hidden | unsure)
        if missed:  # a Fortress placed under a stack, seen since: into the turn it was placed in
            game = _replaced(game, missed, insert=True)
        before_amends = game
        first = self._lighter_for_conquests(game, seen, previous, hidden | unsure)
        if first:  # a conquest the game finds too costly: the defenders were fewer, some lay elsewhere
            game = _replaced(game, first)
        found = search(game, seen, hidden | unsure, self.hints, self.unseen, self.room)
        if len(found) > 1 and found[0].actions and not found[0].remaining:
            return self._ask(found)
        best = found[0]
        doubtful = [d for d in differences(best.game, seen, hidden, self.unseen) if d.region in unsure]
        if doubtful and not best.remaining:  # the unsure regions may show one more move: only if it fits exactly
            more = search(best.game, seen, hidden, self.hints, self.unseen, self.room)
            if more[0].actions and not more[0].remaining:
                if len(more) > 1:
                    return self._ask([Explanation(best.actions + m.actions, m.game, []) for m in more])
                best = Explanation(best.actions + more[0].actions, more[0].game, [])
        if not best.remaining:
            best = _unread_conquests(best, seen, previous, unsure - hidden)
        self.question = None
        self._used(best.actions, game)
        amend = self._amendments(best.game, seen, sighted_before, hidden | unsure, hidden,
                                   settled=len(game.history))
        if best.remaining and not amend:
            amend = self._lighter_defences(best, seen, previous, hidden | unsure)
        if amend:  # with differences left, taken only if it explains some of them
            trial = _replaced(best.game, amend)
            was = {(d.region, d.label) for d in best.remaining}
            left = [d for d in differences(trial, seen, hidden | unsure, self.unseen) if (d.region, d.label) in was]
            if (not best.remaining or len(left) < len(best.remaining)) \
                    and (checked := _replaced(before_amends, first + amend)) is not None \
                    and _legal_in_turn(checked, best.actions):
                best = Explanation(best.actions, trial, left)
            else:
                amend = []
        amend = first + amend
        self._remember_unseen(best.game, _trusting(best.game, seen, unsure), best.remaining)
        # an alert stands while its region shows the same problem; raised once, however the counts
        # under a stack flicker from one sight to the next
        first_sight = self.sightings - sighted_before  # a marker read once may be a misread: wait for another
        remaining = [d for d in best.remaining
                     if not _placing(best.game, d, seen) and (d.region, d.label) not in first_sight]
        alerts = self._standing({(d.region, a.code): a for d, a in classify(best.game, remaining, seen)},
                                hidden | unsure)
        raised = [a for k, a in alerts.items() if k not in self.alerts]
        self.alerts = alerts
        self._confirm(best.game, seen, hidden, best.remaining)
        return Outcome(actions=best.actions, alerts=list(alerts.values()), raised=raised, amend=amend, missed=missed)

    def _ask(self, found) -> Outcome:
        options = tuple(tuple(e.actions) for e in found)
        self.question = Question("Two moves fit what the camera sees: which one was played?", options)
        return Outcome(alerts=list(self.alerts.values()), question=self.question)

    def die(self, game: Game, face: int) -> Outcome:
        """The Reinforcement Die was rolled (button, scoring box or a typed face)."""
        target = self.hints.target
        due = self._due(game)
        tries = [(before, [a, Roll(face)]) for before in due for a in attempts(_after(game, before), target)] \
            if target is not None else []
        for before, actions in tries + [(due[0], [Roll(face)])]:
            if _legal_in_turn(game, before + actions):
                return self._do(game, before + actions)
        self.hints.die = face
        return Outcome(alerts=list(self.alerts.values()), note=f"die {face} kept for the final conquest attempt")

    def declare(self, game: Game, region: int) -> Outcome:
        """The final conquest attempt's target, declared on the dashboard before or after the roll."""
        for before in self._due(game):
            g = _after(game, before)
            for attempt in attempts(g, region) if self.hints.die is not None else []:
                if _legal_in_turn(g, [attempt, Roll(self.hints.die)]):
                    return self._do(game, before + [attempt, Roll(self.hints.die)])
            if g.phase == "final-roll" or any(_legal_in_turn(g, [a]) for a in attempts(g, region)):
                self.hints.target = region
                break
        return Outcome(alerts=list(self.alerts.values()), note=f"final conquest attempt declared on region {region}")

    def confirm(self, game: Game) -> Outcome:
        """"Accept what the camera saw / end the step": what the camera shows, then the troop
        redeployment as seen and the end of the turn (or the resettlement as seen)."""
        seen = self._with_accepted(game, self.last_seen or expected_view(game))
        first = self.see(game, seen, self.last_unknown) if self.last_seen is not None else Outcome()
        if first.question is not None:
            return first
        g = game.copy()
        for action in first.actions:
            g.apply(action)
        steps: list[Action] = []
        active = g.active_tribe(g.turn.player) if g.current_player >= 0 else None
        action = None
        if g.phase == "conquest" and active is not None:
            action = guess_redeploy(g, active, seen, unknown=self.last_unknown, room=self.room)
        elif g.phase == "resettlement":
            action = resettlement(g, g.tribes[g.resettle_queue[0][1]], seen, self.last_unknown, self.room)
        if action is not None and g.explain(action) is None:
            g.apply(action)
            steps.append(action)
        if g.phase == "redeployment" and active is not None:
            for action in markers(g, active, seen, set(seen)) + [EndTurn()]:
                if g.explain(action) is None:
                    g.apply(action)
                    steps.append(action)
        if not first.actions and not steps:
            return Outcome(alerts=list(self.alerts.values()), note="nothing to confirm now")
        self._used(first.actions + steps, game)
        self._gather(g, seen, self.last_hidden, self.last_unknown - self.last_hidden)
        self._remember_unseen(g, seen, [])
        self._confirm(g, seen, self.last_unknown, [])  # the redeployment as seen: read right
        return Outcome(actions=first.actions + steps, alerts=first.alerts, raised=first.raised)

    def redeployment(self, game: Game) -> Redeploy | Resettle | None:
        """The troop redeployment due now, or the resettlement, as the camera last saw it, if one is
        due and it fits."""
        seen = self._with_accepted(game, self.last_seen or expected_view(game))
        if game.phase == "resettlement" and not game.finished:
            action = resettlement(game, game.tribes[game.resettle_queue[0][1]], seen, self.last_unknown, self.room)
        else:
            tribe, race = _redeploying(game)
            if tribe is None:
                return None
            action = guess_redeploy(game, tribe, seen, race=race, unknown=self.last_unknown, room=self.room)
        return action if action is not None and game.explain(action) is None else None

    def redeployed(self, game: Game) -> Outcome:
        """The conquests are over: the troop redeployment (or the resettlement) as the camera last saw
        it, no end of turn: an input the rules take only after it came (a pick, an ally, ...)."""
        action = self.redeployment(game)
        if action is None:
            return Outcome(alerts=list(self.alerts.values()), note="no redeployment that fits to take now")
        seen = self._with_accepted(game, self.last_seen or expected_view(game))
        g = game.copy()
        g.apply(action)
        self._remember_unseen(g, seen, [])
        self._confirm(g, seen, self.last_unknown, [])
        out = self._do(game, [action])
        self._gather(g, seen, self.last_hidden, self.last_unknown - self.last_hidden)
        return out

    def _resettled_first(self, game: Game) -> list[Action]:
        """A resettlement still due when the next player's final attempt comes (its tokens under a
        stack, the camera saw no change): taken as the camera last saw it first."""
        due = self.redeployment(game) if game.phase == "resettlement" else None
        return [due] if due is not None else []

    def _due(self, game: Game) -> list[list[Action]]:
        """What may still be due before the final conquest attempt of the player at play, in the
        order tried: the resettlement still due (see ``_resettled_first``); then also the end of the
        turn at play in the game, as the camera last saw it (a turn with no move the camera could
        see, ended by a button the game took for the resettlement): only when the attempt is not
        legal before it."""
        first = self._resettled_first(game)
        g = _after(game, first)
        tribe, race = _redeploying(g)
        seen = self._with_accepted(g, self.last_seen or expected_view(g))
        ending = [guess_redeploy(g, tribe, seen, race=race, unknown=self.last_unknown, room=self.room)] \
            if tribe is not None else []
        ending += [EndTurn()]
        return [first] + ([first + ending] if _legal_in_turn(g, ending) else [])

    def answer(self, game: Game, option: int) -> Outcome:
        """The table chose one of the question's explanations."""
        if self.question is None or not 0 <= option < len(self.question.options):
            return Outcome(alerts=list(self.alerts.values()), note="no such answer")
        chosen = list(self.question.options[option])
        self.question = None
        return self._do(game, chosen)

    def accept(self, game: Game, region: int) -> Outcome:
        """Override: the table says the board is right as the camera sees this region (a misread)."""
        if self.last_seen is not None and region in self.last_seen:
            self.accepted[region] = (tuple(sorted(self.last_seen[region].items())),
                                     tuple(sorted(expected_view(game)[region].items())))
        self.alerts = {k: a for k, a in self.alerts.items() if k[0] != region}
        return Outcome(alerts=list(self.alerts.values()))

    def resync(self) -> None:
        """After a manual action (a correction entered by hand): the game is the truth again."""
        self.hints = Hints()
        self.question = None

    # ------------------------------------------------------------------ helpers
    def _do(self, game: Game, actions: list[Action]) -> Outcome:
        self._used(actions, game)
        return Outcome(actions=actions, alerts=list(self.alerts.values()))

    def _used(self, actions: list[Action], game: Game) -> None:
        """Forget the inputs these actions used; remember where each redeployment stands in the history."""
        if any(isinstance(a, (Redeploy, Heroes, Resettle)) for a in actions):
            g = game.copy()
            for action in actions:
                if isinstance(action, (Redeploy, Heroes)):
                    race = action.race if isinstance(action, Redeploy) else None
                    tribe = g.tribes.get(race) if race else g.active_tribe(g.turn.player)
                    if tribe is not None:
                        (self.redeploys if isinstance(action, Redeploy) else self.heroes)[tribe.name] = len(g.history)
                        if isinstance(action, Redeploy):
                            self.evidence[tribe.name], self.doubts[tribe.name] = {}, {}
                if g.explain(action) is not None:
                    break
                index = len(g.history)
                g.apply(action)
                if isinstance(action, Resettle):
                    self.resettles[action.race] = (index, _holding(g, action.race))
                    self.evidence[action.race], self.doubts[action.race] = {}, {}
        if any(isinstance(a, Roll) for a in actions):
            self.hints.die = None
            self.hints.target = None
        if any(isinstance(a, EndTurn) for a in actions):  # a die face or a target kept is for one turn only
            self.hints = Hints()

    def _lighter_for_conquests(self, game: Game, seen: View, previous: View,
                               skip: set[int]) -> list[tuple[int, Action]]:
        """A race of the player at play seen on a region the game says it has too few tokens to
        conquer: the defenders' last redeployment or resettlement with fewer tokens there (never
        fewer than the camera last read there), the first that makes the conquest legal, when the
        camera sees the tokens it takes (one may hide under another): a token or two put on a
        strong region stays an illegal move."""
        labels = _playing_labels(game)
        for d in differences(game, seen, skip, self.unseen):
            held = game.regions[d.region].race
            if d.label not in labels or d.seen <= d.expected or not held or held not in game.tribes:
                continue
            reason = game.explain(Conquer(d.region))
            if reason is None or reason.code != "too-few-tokens":
                continue
            floor = previous.get(d.region, {}).get(race_label(game, held), 0)
            for index in (self.redeploys.get(held), self.resettles.get(held, (None,))[0]):
                if index is None:
                    continue
                for action in lighter_defence(game, index, held, d.region, floor):
                    trial = _replaced(game, [(index, action)])
                    if trial is not None and trial.explain(Conquer(d.region)) is None \
                            and d.seen >= _placed(trial, d.region) - 1:
                        return [(index, action)]
        return []

    def _lighter_defences(self, best: Explanation, seen: View, previous: View,
                          skip: set[int]) -> list[tuple[int, Action]]:
        """A final attempt that failed in the game but not on the table: the defenders' redeployment
        with fewer tokens on that region, or on one conquered before it this turn (see
        ``failed_attempts``, ``lighter_defence``), the first that explains the sight better,
        replayed and checked like any amendment."""
        left = len(best.remaining)
        regions = failed_attempts(best.game, seen)
        for k, region in enumerate(regions):
            for race, index in self.redeploys.items():
                action = best.game.history[index] if index < len(best.game.history) else None
                if not isinstance(action, Redeploy) or region not in dict(action.tokens):
                    continue
                # what the camera last read there is a floor, before the conquest; after it, one token
                floor = previous.get(region, {}).get(race_label(best.game, race), 0) if k == 0 else 1
                for action in lighter_defence(best.game, index, race, region, floor):
                    trial = _replaced(best.game, [(index, action)])
                    if trial is not None and len(differences(trial, seen, skip, self.unseen)) < left:
                        return [(index, action)]
        return []

    def _sight_markers(self, game: Game, seen: View, skip: set[int]) -> None:
        """Remember the regions read with a marker a race places (Heroes, a Fortress, ...) where the
        game has none (one first hidden under a stack shows in later sights: see ``amended_heroes``,
        ``_missed_placements``)."""
        kinds = {m for t in game.tribes.values() for m in t.race.markers_placed + t.power.markers_placed}
        for rid, labels in seen.items():
            if rid in skip:
                continue
            for kind in kinds:
                if labels.get(kind) and not game.regions[rid].marker(kind):
                    self.sightings.add((rid, kind))
                elif game.regions[rid].marker(kind) or not occupied(seen, rid):
                    self.sightings.discard((rid, kind))  # it hides under the tokens of a region, not on an empty one

    def _missed_placements(self, game: Game, seen: View, before: set[tuple[int, str]],
                           skip: set[int]) -> list[tuple[int, Action]]:
        """A marker read twice on a region of the race that places it, more of them than the game
        gives it there, while that race is not placing: the placement the camera missed as the race
        ended its last turn (it lay under a stack), put before that end of turn, replayed and checked
        (the coins it scored, the defence it gave). Each such action once; indices kept shift."""
        for rid, kind in sorted(self.sightings & before):
            race = game.regions[rid].race
            if rid in skip or race not in game.tribes or _placing_now(game, race) \
                    or seen.get(rid, {}).get(kind, 0) <= game.regions[rid].marker(kind) \
                    or (rid, kind, len(game.history)) in self.unplaced:
                continue
            self.unplaced.add((rid, kind, len(game.history)))  # replayed once a state of the game
            index = _last_turn_end(game, race)
            if index is None:
                continue
            then = Game.replay(game.setup, game.history[:index], game.board)
            for action in then.legal_actions():
                after = then.copy()
                after.apply(action)
                if after.regions[rid].marker(kind) != then.regions[rid].marker(kind) + 1 or any(
                        after.regions[r].markers != then.regions[r].markers for r in then.regions if r != rid):
                    continue
                if _replaced(game, [(index, action)], insert=True) is not None:
                    self._shift(index)
                    return [(index, action)]
        return []

    def _shift(self, index: int) -> None:
        """An action was put into the history at ``index``: the ones kept from there move one on."""
        for kept in (self.redeploys, self.heroes):
            for race, i in kept.items():
                if i >= index:
                    kept[race] = i + 1
        for race, (i, after) in self.resettles.items():
            if i >= index:
                self.resettles[race] = (i + 1, after)

    def _amendments(self, game: Game, seen: View, before: set[tuple[int, str]], skip: set[int],
                    hidden: set[int], settled: int | None = None) -> list[tuple[int, Action]]:
        """Redeployments and Heroes this sight shows better than the game holds them (see
        ``amended_redeploy``, ``amended_heroes``), each one checked after the ones before it."""
        for kept in (self.redeploys, self.heroes, self.resettles, self.evidence, self.doubts):
            for race in [race for race in kept if race not in game.tribes]:
                del kept[race]
        # once their player readies troops again, the race's tokens move now, not then
        self.redeploys = {race: i for race, i in self.redeploys.items() if not _turn_again(game, race, i)}
        self.heroes = {race: i for race, i in self.heroes.items() if not _turn_again(game, race, i)}
        self.resettles = {race: kept for race, kept in self.resettles.items() if not _turn_again(game, race, kept[0])}
        self._gather(game, seen, hidden, skip - hidden)
        out = []
        trial = game
        settled = len(game.history) if settled is None else settled  # actions of this sight are not amended

        def take(index: int, action: Action | None) -> bool:
            nonlocal trial
            attempt = _replaced(trial, [(index, action)]) if action is not None and index < settled else None
            if attempt is not None:
                trial = attempt
                out.append((index, action))
            return attempt is not None

        for race, index in self.redeploys.items():
            was, resettled = _holding(trial, race), self.resettles.get(race)
            if take(index, amended_redeploy(trial, index, race, self._readings(race), self.room)) \
                    and resettled is not None and resettled[1] == was:  # its resettlement since: on other regions
                self.resettles[race] = (resettled[0], _holding(trial, race))
        for race, index in self.heroes.items():
            if not _placing_now(trial, race):  # the Heroes move as the race's turn ends: the end of the step takes them
                heroes = {rid for rid, kind in before if kind == pieces.HERO}
                take(index, amended_heroes(trial, index, race, seen, heroes, skip))
        for race, (index, after) in list(self.resettles.items()):
            amended = amended_resettle(trial, index, race, after, self._readings(race), self.room)
            if _holding(trial, race) == after and take(index, amended):
                self.resettles[race] = (index, _holding(trial, race))  # untouched since, now as amended
        return out

    def _gather(self, game: Game, seen: View, hidden: set[int], unsure: set[int]) -> None:
        """Note which sight read which count on each region of a race since its last redeployment
        or resettlement (``_as_read`` weighs them); a region where none is read gives nothing (they
        may lie under something, or be misread). Readings vision was unsure of are kept apart: they
        count for a region only while it has not been read surely (vision doubts what a token is more
        than that it lies there, so a region unsure in every sight still tells its count)."""
        self.sights += 1
        for race, readings in self.evidence.items():
            label = race_label(game, race)
            held = set(game.regions_of(race))
            doubts = self.doubts.setdefault(race, {})
            for kept in (readings, doubts):
                for r in [r for r in kept if r not in held]:
                    del kept[r]
            for r in held - hidden:
                if n := seen.get(r, {}).get(label, 0):
                    (doubts if r in unsure else readings).setdefault(r, {}).setdefault(n, []).append(self.sights)

    def _readings(self, race: str) -> dict[int, dict[int, list[int]]]:
        """The counts read on each region of ``race`` (see ``_gather``): the sure ones where there are."""
        return {**self.doubts.get(race, {}), **self.evidence.get(race, {})}

    def _changed(self, region: int) -> bool:
        """Whether the camera's reading of a region changed in the last sight (or was never taken)."""
        return self.before is None or self.before.get(region) != self.last_seen.get(region)

    def _standing(self, alerts: dict, unjudged: set[int]) -> dict:
        """The new alerts, and the earlier ones on regions not judged in this sight (a hand over them,
        an unsure reading): those stand until the camera reads the region again."""
        kept = {k: a for k, a in self.alerts.items() if k[0] in unjudged and k not in alerts}
        return {**alerts, **kept}

    def _confirm(self, game: Game, seen: View, hidden: set[int], remaining) -> None:
        """Remember the regions this sight reads as ``game`` has them."""
        wrong = {d.region for d in remaining} | {d.region for d in differences(game, seen, hidden, self.unseen)}
        want = expected_view(game)
        for rid in seen:
            if rid not in hidden and rid not in wrong:
                self.confirmed[rid] = _content(want, rid)

    def _read_right(self, game: Game, regions: set[int]) -> set[int]:
        """Of ``regions``, those the camera last read as the game has them now."""
        want = expected_view(game) if regions else {}
        return {r for r in regions if self.confirmed.get(r) == _content(want, r)}

    def _unconfirmed(self, game: Game, seen: View, hidden: set[int]) -> set[int]:
        """Regions that differ from the game but that the camera has never read as the game has them
        since the game last changed them: a blind spot of this camera (a token the colour of the board
        under it, a lamp's glare), not a move. They are unsure (see ``see``); a region the camera read
        right before, and that no move of the game has changed, is trusted when it changes; so is one
        that shows a race of the player whose turn it is (that player is moving those tokens)."""
        want = expected_view(game)
        playing = _playing_labels(game)
        return {d.region for d in differences(game, seen, hidden, self.unseen)
                if self.confirmed.get(d.region) != _content(want, d.region)
                and not playing.intersection(seen.get(d.region, {}))}

    def _remember_unseen(self, game: Game, seen: View, remaining) -> None:
        """Tokens the camera does not see now may lie anywhere on their race's regions later."""
        if not remaining:
            self.unseen = unseen_tokens(game, seen)

    def _with_accepted(self, game: Game, seen: View) -> View:
        """Regions the table accepted read as the game has them, while neither side changes."""
        if not self.accepted:
            return seen
        want = expected_view(game)
        out = dict(seen)
        for region, (was_seen, was_expected) in list(self.accepted.items()):
            now_seen = tuple(sorted(seen.get(region, {}).items()))
            if now_seen == was_seen and tuple(sorted(want[region].items())) == was_expected:
                out[region] = dict(want[region])
            else:
                del self.accepted[region]
        return out


def _replaced(game: Game, amend: list[tuple[int, Action]], insert: bool = False) -> Game | None:
    """A copy of ``game`` with the amendments made (each replayed and checked; ``insert``: each put
    before the action at its index), ``None`` if one does not fit."""
    g = game.copy()
    try:
        for index, action in amend:
            g.insert(index, action) if insert else g.replace(index, action)
    except IllegalAction:
        return None
    return g


def _last_turn_end(game: Game, race: str) -> int | None:
    """The index in the history of the end of the last turn ``race`` played as the active race."""
    g, last = Game(game.setup, game.board), None
    for index, action in enumerate(game.history):
        if isinstance(action, EndTurn) and g.current_player >= 0:
            active = g.active_tribe(g.turn.player)
            last = index if active is not None and active.name == race else last
        g.apply(action)
    return last


def _placed(game: Game, region: int) -> int:
    """The tokens a legal conquest of ``region`` puts there."""
    g = game.copy()
    g.apply(Conquer(region))
    return g.regions[region].tokens


def _holding(game: Game, race: str) -> dict[int, int]:
    return {r: game.regions[r].tokens for r in game.regions_of(race)}


def _placing_now(game: Game, race: str) -> bool:
    """Whether ``race`` is the active race of the player at play, during the conquests or the
    redeployment: the markers it places may be moving."""
    return not game.finished and game.current_player >= 0 and game.phase in ("conquest", "redeployment") \
        and game.tribes[race] is game.active_tribe(game.turn.player)


def _placing(game: Game, d: Difference, seen: View) -> bool:
    """A marker a race places on its own regions (Heroes, Encampments, a Fortress), seen where the
    game has none: no alert during the turn of the player who places it (the end of the step takes
    it), nor later while the race shows no more of them than the game gives it (one hidden under a
    stack when it was placed; a later sight amends the placement)."""
    tribe = game.tribes.get(game.regions[d.region].race or "")
    if tribe is None or d.seen <= d.expected or d.label not in tribe.race.markers_placed + tribe.power.markers_placed:
        return False
    if _placing_now(game, tribe.name):
        return True
    held = game.regions_of(tribe.name)
    return sum(seen.get(r, {}).get(d.label, 0) for r in held) <= sum(game.regions[r].marker(d.label) for r in held)


def _redeploying(game: Game):
    """The tribe whose troop redeployment is due now, and the race to name in it (``None`` for the
    active race): Ghouls in decline that conquered at the start of the turn, else the active race
    during its conquests; ``(None, None)`` when none is."""
    if game.finished or game.current_player < 0:
        return None, None
    for tribe in game.tribes_of(game.turn.player):
        if tribe.in_decline and tribe.race.conquers_in_decline() and tribe.readied and not tribe.redeployed \
                and game.phase in ("pick", "conquest"):
            return tribe, tribe.name
    active = game.active_tribe(game.turn.player)
    if game.phase == "conquest" and active is not None:
        return active, None
    return None, None


def _contested(game: Game, seen: View, hidden: set[int]) -> set[int]:
    """Regions where the camera sees a race of the player at play next to the tokens of the race the
    game has there: no conquest yet (a conquest takes the defenders away), more likely a misread
    token or a move half made; they are unsure until the region shows one race."""
    labels = _playing_labels(game)
    out = set()
    for rid, here in seen.items():
        held = game.regions[rid].race
        if rid in hidden or not held or not labels.intersection(here) or race_label(game, held) in labels:
            continue
        if here.get(race_label(game, held)):
            out.add(rid)
    return out


def _turn_again(game: Game, race: str, index: int) -> bool:
    """Whether the player of ``race`` is at play in a turn begun after the action at ``index``."""
    return game.tribes[race].owner == game.turn.player and game.phase != "resettlement" and \
        any(isinstance(a, EndTurn) for a in game.history[index:])  # (a resettlement ends the turn before)


def _moved_onto(game: Game, seen: View, regions: set[int], labels: set[str]) -> set[int]:
    """Of the unsure ``regions`` whose reading just changed (a misread that stood before the move is
    no move), those showing one of ``labels`` for a race the game does not have there: tokens moved
    onto the region, so trusted even when vision is unsure (an illegal conquest must be flagged at
    once). ``see`` trusts a race of the player whose turn it is on any changed region (a conquest,
    by far the likeliest change on the board) and any race in play on a region the camera read right
    before (tokens moved onto a region it knew; one it never read right may be a blind spot)."""
    return {r for r in regions
            if any(label in labels and game.regions[r].race != label_race(label)[0] for label in seen.get(r, {}))}


def _unread_conquests(best: Explanation, seen: View, previous: View, unsure: set[int]) -> Explanation:
    """Regions the camera cannot read whose reading just turned into more tokens, all of other
    kinds than it read before and than the game has there, while the player at play conquers: the
    likeliest change is a conquest of it (a lamp's glare on the region), taken when it is legal; a
    guess is never flagged."""
    g, actions = best.game, list(best.actions)
    if g.finished or g.current_player < 0 or g.phase != "conquest":
        return best
    want = expected_view(g)
    for rid in sorted(unsure):
        was, now = previous.get(rid), seen.get(rid, {})
        if was is None or sum(now.values()) <= sum(was.values()):
            continue
        stays = {label for label in want[rid] if label in pieces.MARKERS_IN_BOX}  # a Mountain stays
        if (set(now) & set(was)) - stays or any(label in now for label in want[rid] if label not in stays):
            continue  # a conquest takes away all that was seen there
        if g.explain(Conquer(rid)) is None:
            g = g.copy()
            g.apply(Conquer(rid))
            actions.append(Conquer(rid))
    return best if g is best.game else Explanation(actions, g, [])


def _in_play_labels(game: Game) -> set[str]:
    """The labels of every race on the board's side its tokens show."""
    return {race_label(game, name) for name in game.tribes}


def _playing_labels(game: Game) -> set[str]:
    """The labels of the races of the player whose turn it is."""
    if game.finished or game.current_player < 0:
        return set()
    return {race_label(game, t.name) for t in game.tribes_of(game.turn.player)}


def _content(view: View, region: int) -> tuple:
    return tuple(sorted(view.get(region, {}).items()))


def _trusting(game: Game, seen: View, unsure: set[int]) -> View:
    """The sight with its unsure regions read as the game has them."""
    if not unsure:
        return seen
    want = expected_view(game)
    return {rid: (dict(want.get(rid, {})) if rid in unsure else labels) for rid, labels in seen.items()}


def _after(game: Game, actions: list[Action]) -> Game:
    """A copy of ``game`` with ``actions`` applied."""
    g = game.copy()
    for action in actions:
        g.apply(action)
    return g


def _legal_in_turn(game: Game, actions: list[Action]) -> bool:
    g = game.copy()
    for action in actions:
        if g.explain(action) is not None:
            return False
        g.apply(action)
    return True


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
