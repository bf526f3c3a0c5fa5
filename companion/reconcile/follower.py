"""Following a game from the camera: each still observation becomes the legal actions that explain
it, an alert in the rulebook's words, or a question when two explanations fit equally.

The stages, one module each: ``evidence`` (what the sights say, per region), ``hypotheses`` (the
legal actions that could explain it), ``corrections`` (earlier actions the sights show better),
``decision`` (apply, ask, alert, hold). This module runs them in order for each input.

The follower never changes the game: it returns the actions, and the one owner of the ``Game``
applies and stores them. Inputs the camera cannot see (the die, a declared final attempt, the end
of a step) come in as calls.
"""
from __future__ import annotations

from ..rules import pieces
from ..rules.actions import Action, Conquer, Convert, DragonConquer, Encamp, EndTurn, Fortify, Heroes, Redeploy, Resettle, Roll
from ..rules.errors import IllegalAction
from ..rules.game import Game
from .corrections import Corrections, replaced
from .decision import BOARD_CODES, Alert, Outcome, Question, Standing, classify, placing
from .evidence import Evidence, judged_confidence, trusting, unsure_of, view_of
from .resync import readable, resync
from .hypotheses import (Explanation, Hints, after, attempts, guess_redeploy, legal_in_turn, markers, redeploying,
                         resettlement, search, unread_conquests)
from .view import View, describe, differences, expected_view, occupied

__all__ = ["Alert", "Follower", "Outcome", "Question", "follows", "view_of"]

# The rulesets whose pieces the camera knows (vision's labels) and whose moves the search proposes.
# Small World of Warcraft is followed by hand: see docs/warcraft.md, "The camera".
FOLLOWED_RULESETS = ("smallworld",)
BURST = 3  # regions newly disagreeing in one sight that make one question, not a row of alerts
# A move (or a refused move's alert) is taken when the still frames that read its regions so are sure
# enough: vision's confidence summed over the frames running that agree (one frame read with a
# confidence of SURE does; on the hard tier no misread region is read over 0.5, three in four read
# right are). At most LOOKS frames of one still board are taken; the last one decides. Two, not
# three: a third look inferred no more on the hard tier (4p seeds 0-1: 84.0 % both, 8.5 against 9.5
# false alerts a game) and cost a Pi's latency (bench/pi.py stillness to state p95: 99 against 298 ms).
SURE = 0.5
LOOKS = 2
PERSIST = 3  # sights a discrepancy stands before the follower asks whether the board is right
# A move the rules refuse is flagged once the still frames are this sure of its region (see ``SURE``):
# the light's noise and a lamp's glare read a token at under 0.1 a frame, so a misread that the last
# look still leaves that faint waits for the next sight, where a token that lies there adds up (on
# four hard-tier development games every move alert raised for a misread was read under 0.18 over
# its two frames, and all but one injected illegal conquest over 0.5, that one 0.21)
ALERT_SURE = 0.2


def follows(ruleset: str) -> bool:
    """Whether the camera can follow a game of this ruleset."""
    return ruleset in FOLLOWED_RULESETS


class Follower:
    """``unsure_below``: a region read with a lower vision confidence is unsure (see ``unsure_of``)."""

    def __init__(self, unsure_below: float = 0.3):
        self.unsure_below = unsure_below
        self.hints = Hints()
        self.evidence = Evidence()
        self.corrections = Corrections(self.evidence)
        self.standing = Standing()
        self.question: Question | None = None
        self.asked: set[int] = set()  # the turns (ends of turns so far) in which a correction was looked for unasked
        self.explain = False  # keep a trace of each decision in ``Outcome.trace``
        self.looks = 0  # still frames of this board taken so far for a vote (see ``SURE``)
        self.voting_on: tuple | None = None  # the game the vote is about (its length, its last action)
        self.ending: Question | None = None  # the End Turn's question: the step ends whatever the answer

    @property
    def last_seen(self) -> View | None:
        """The camera's last sight of the board (``None`` before the first)."""
        return self.evidence.last_seen

    @property
    def room(self) -> dict[int, int]:
        return self.evidence.room

    # ------------------------------------------------------------------ inputs
    def observe(self, game: Game, observation) -> Outcome:
        if not observation.registered:
            return Outcome(alerts=self.standing.values(), note=f"board not registered: {observation.reason}")
        seen, hidden = view_of(observation)
        self.evidence.room = {int(rid): r.room for rid, r in observation.regions.items() if getattr(r, "room", 0)}
        self.evidence.confidence = {int(rid): judged_confidence(game, int(rid), r)
                                    for rid, r in observation.regions.items()}
        return self.see(game, seen, hidden, unsure_of(observation, self.evidence.confidence, self.unsure_below))

    def see(self, game: Game, seen: View, hidden: set[int] = frozenset(),
            unsure: set[int] = frozenset(), vote: bool = True) -> Outcome:
        """Reconcile a still view of the board with the game. Regions in ``hidden`` are not judged;
        those in ``unsure`` only confirm an explanation found elsewhere, or one that fits them exactly.
        ``vote``: a move read with too little confidence waits for another still frame (``hold``)."""
        ev, co = self.evidence, self.corrections
        given = game
        if ev.holding and self.voting_on != _state(game):
            self._voted()  # the game moved on (an input, a correction): the vote is void
        hidden = set(hidden)
        trace: list[str] = []
        # evidence: what this sight says, and how far each region is trusted
        seen, unsure, previous, sighted_before = ev.take(game, seen, hidden, set(unsure))
        if self.explain:
            trace += [f"differences: {_differences(game, seen, hidden, ev.unseen)}",
                      f"not judged alone: hidden {sorted(hidden)}, unsure {sorted(unsure - hidden)}"]
        if not differences(game, seen, hidden, ev.unseen):
            self._voted()
            self.standing.keep(hidden | unsure, sure=self._sure(seen))
            self.question = None
            # a resettlement still due whose tokens this sight shows no more of (under stacks): taken
            # now, as seen, while the race's regions still show it (its player's next turn lifts
            # them), unless a hand is over one of them (the tokens are still being put down)
            due = self._resettled_first(game) if not set(_resettling(game)) & hidden else []
            self._used(due, game)
            now = after(game, due)
            ev.remember_unseen(now, trusting(now, seen, unsure), [])
            ev.confirm(now, seen, hidden, [])
            amend = co.amendments(now, seen, sighted_before, hidden | unsure, hidden, settled=len(game.history))
            co.taken()
            return Outcome(actions=due, alerts=self.standing.values(), amend=amend,
                           trace=trace + [f"chosen: {_actions(due)} (the board agrees with the game)"
                                          if due else "chosen: nothing to do (the board agrees with the game)"]
                           if self.explain else [])
        # corrections the sight asks for before anything new: a missed placement, a lighter defence;
        # an outcome that waits (another look, a question) takes none, so they are looked for again
        kept = co.kept()
        missed = co.missed_placements(game, seen, sighted_before, hidden | unsure,
                                      ev.uncovered(game, seen, previous, hidden | unsure))
        if missed:  # a Fortress placed under a stack, seen since: into the turn it was placed in
            game = replaced(game, missed, insert=True)
        before_amends = game
        first = co.lighter_for_conquests(game, seen, previous, hidden | unsure)
        if first:  # a conquest the game finds too costly: the defenders were fewer, some lay elsewhere
            game = replaced(game, first)
        # hypotheses: the legal actions that explain the sight
        self.hints.before = previous
        found = search(game, seen, hidden | unsure, self.hints, ev.unseen, ev.room)
        if self.explain:
            trace += [f"hypothesis: {_actions(e.actions)} leaves {len(e.remaining)} difference(s)" for e in found]
        if len(found) > 1 and found[0].actions and not found[0].remaining:
            self._voted()
            co.restore(kept)
            return self._ask(found)
        best = found[0]
        rewind = 0
        if best.remaining and not missed and not first:  # the conquests ended too early? (see ``_reopened``)
            rewind, reopened = self._reopened(game, seen, hidden | unsure)
            if rewind:
                self.corrections.undone(len(game.history) - rewind)
                game = before_amends = Game.replay(game.setup, game.history[:len(game.history) - rewind], game.board)
                best = reopened
                if self.explain:
                    trace.append(f"taken back: the last {rewind} action(s), the conquests go on: "
                                 f"{_actions(best.actions)}")
        # a region read as it has read wrong before (its bias) is a misread that comes back: no move
        standing = ev.biased(game, seen, hidden)
        doubtful = [d for d in differences(best.game, seen, hidden | standing, ev.unseen) if d.region in unsure]
        if doubtful and not best.remaining:  # the unsure regions may show one more move: only if it fits exactly
            # and never the end of a turn (a misread that stands, a Lost Tribe always read as a race in
            # the column, is no next player's pick: the End Turn button, or moves read surely, end it)
            more = [m for m in search(best.game, seen, hidden | standing, self.hints, ev.unseen, ev.room)
                    if not any(isinstance(a, EndTurn) for a in m.actions)]
            if more and more[0].actions and not more[0].remaining:
                if len(more) > 1:
                    co.restore(kept)
                    return self._ask([Explanation(best.actions + m.actions, m.game, []) for m in more])
                best = Explanation(best.actions + more[0].actions, more[0].game, [])
        if not best.remaining:
            # (nor is a region's bias a conquest the glare hid)
            best = unread_conquests(best, seen, previous, unsure - hidden - standing)
        # decision: wait for another still frame while the move is not sure; else apply it, with
        # the corrections that fit it
        first_sight = ev.sightings - sighted_before  # a marker read once may be a misread: wait for another
        doubts = self._doubts(game, best, seen, hidden, first_sight) if vote else set()
        if doubts and self.looks < LOOKS - 1:
            self.looks += 1
            ev.holding, self.voting_on = True, _state(given)
            if self.explain:
                trace.append(f"holding for another look: {_actions(best.actions)} read too unsurely on "
                             f"{', '.join(f'region {r} ({ev.sure(r):.2f})' for r in sorted(doubts))}")
            co.restore(kept)
            return Outcome(alerts=self.standing.values(), hold=True, trace=trace)
        self._voted()
        self.question = None
        self._used(best.actions, game)
        amend = co.amendments(best.game, seen, sighted_before, hidden | unsure, hidden, settled=len(game.history))
        if best.remaining and not amend:
            amend = co.lighter_defences(best, seen, previous, hidden | unsure)
        if amend:  # with differences left, taken only if it explains some of them
            trial = replaced(best.game, amend)
            was = {(d.region, d.label) for d in best.remaining}
            left = [d for d in differences(trial, seen, hidden | unsure, ev.unseen) if (d.region, d.label) in was]
            if (not best.remaining or len(left) < len(best.remaining)) \
                    and (checked := replaced(before_amends, first + amend)) is not None \
                    and legal_in_turn(checked, best.actions):
                best = Explanation(best.actions, trial, left)
            else:
                amend = []
        amended, amend = bool(amend), first + amend
        ev.remember_unseen(best.game, trusting(best.game, seen, unsure), best.remaining)
        # an alert stands while its region shows the same problem; raised once, however the counts
        # under a stack flicker from one sight to the next
        remaining = [d for d in best.remaining
                     if not placing(best.game, d, seen) and (d.region, d.label) not in first_sight]
        question = self._burst(given, seen, hidden, {d.region for d in remaining})
        if question is not None:  # many regions part from the game at once: one question, not a row of alerts
            ev.confirm(best.game, seen, hidden, best.remaining)
            co.restore(kept)
            self.standing.keep(hidden | unsure, {(d.region, a.code): a for d, a in classify(given, remaining, seen)},
                               expected_view(given))  # they stand, said by the question, not raised one by one
            return Outcome(alerts=self.standing.values(), question=question,
                           trace=trace + [f"asked: {question.text}"] if self.explain else [])
        alerts = classify(best.game, remaining, seen)
        faint = {d.region for d, a in alerts if a.code not in BOARD_CODES and ev.sure(d.region) < ALERT_SURE}
        if faint and self.explain:
            trace.append(f"not flagged yet, read too faintly: {', '.join(f'region {r} ({ev.sure(r):.2f})' for r in sorted(faint))}")
        raised = self.standing.keep(hidden | unsure | faint,
                                    {(d.region, a.code): a for d, a in alerts if d.region not in faint},
                                    expected_view(best.game), self._sure(seen))
        ev.confirm(best.game, seen, hidden, best.remaining)
        if amended:  # the amendments go to the owner with this outcome
            co.taken()
        if self.explain:
            trace.append(f"chosen: {_actions(best.actions)}"
                         + (f", amended {[(i, a.notation()) for i, a in amend]}" if amend else "")
                         + (f"; alerts {[f'{a.code} on {a.region}' for a in raised]}" if raised else "")
                         + ("; holding for another look" if self.standing.pending else ""))
        return Outcome(actions=best.actions, alerts=self.standing.values(), raised=raised, amend=amend,
                       missed=missed, hold=bool(self.standing.pending), trace=trace, rewind=rewind)

    def _reopened(self, game: Game, seen: View, skip: set[int]) -> tuple[int, Explanation | None]:
        """A troop redeployment the follower took before the table ended the turn (a Hero or an
        Encampment seen early, a count misread) is provisional: when the race is then seen conquering
        again, and taking that redeployment back (with the markers placed after it) explains the
        board where the record cannot, it is taken back (``Outcome.rewind``)
        and the conquests go on. Returns how many actions to take back, and the explanation then."""
        tail = _provisional(game)
        if tail:
            g = Game.replay(game.setup, game.history[:len(game.history) - tail], game.board)
            found = search(g, seen, skip, self.hints, self.evidence.unseen, self.evidence.room)
            if len(found) == 1 and not found[0].remaining and found[0].actions \
                    and any(isinstance(a, (Conquer, Convert, DragonConquer)) for a in found[0].actions):
                return tail, found[0]
        return 0, None

    def _doubts(self, game: Game, best: Explanation, seen: View, hidden: set[int], first_sight) -> set[int]:
        """The regions of a move about to be taken (or of an alert about to be raised) that the
        still frames have not read surely enough yet (see ``SURE``)."""
        was, now = expected_view(game), expected_view(best.game)
        moved = {r for r in now if now[r] != was[r]}
        regions = moved | {d.region for d in best.remaining if not placing(best.game, d, seen)
                    and (d.region, d.label) not in first_sight} - self.standing.regions()
        # a region read empty where the game has tokens (an abandonment, a race gone): vision's
        # confidence says what a token is, not whether it missed one (a lone token lost in the
        # light's noise for a frame): taken when the next still frame reads it empty too
        emptied = {r for r in moved if occupied(was, r) and not occupied(seen, r)} if not self.looks else set()
        return {r for r in regions - set(hidden) if self.evidence.sure(r) < SURE or r in emptied}

    def _voted(self) -> None:
        """The vote over this board's still frames is over: the next sight is judged afresh."""
        self.looks = 0
        self.evidence.holding = False

    def _ask(self, found) -> Outcome:
        options = tuple(tuple(e.actions) for e in found)
        self.question = Question("Two moves fit what the camera sees: which one was played?", options)
        return Outcome(alerts=self.standing.values(), question=self.question)

    @property
    def declared(self) -> int | None:
        """The region of a final conquest attempt declared and still waiting for its die."""
        return self.hints.target

    def die(self, game: Game, face: int) -> Outcome:
        """The Reinforcement Die was rolled (button, scoring box or a typed face)."""
        target = self.hints.target
        due = self._due(game)
        tries = [(before, [a, Roll(face)]) for before in due for a in attempts(after(game, before), target)] \
            if target is not None else []
        for before, actions in tries + [(due[0], [Roll(face)])]:
            if legal_in_turn(game, before + actions):
                return self._do(game, before + actions)
        self.hints.die = face
        return Outcome(alerts=self.standing.values(), note=f"die {face} kept for the final conquest attempt")

    def declare(self, game: Game, region: int) -> Outcome:
        """The final conquest attempt's target, declared on the dashboard before or after the roll.
        The table saying the conquests go on takes back a troop redeployment the follower took before
        the table ended the turn (an Encampment or a Hero seen early: ``_provisional``) when the
        attempt is legal only without it. An attempt where the game says the player has tokens
        enough to conquer outright makes a defence conquered this turn heavier
        (``Corrections.heavier_for_attempt``): the table's word that the player is short; one where
        the game says the player has no token left makes such a defence lighter
        (``Corrections.lighter_for_attempt``): the table's word that one is left."""
        rewind, amend = 0, []
        if (tail := _provisional(game)) and not self._attempt_fits(game, region):
            earlier = Game.replay(game.setup, game.history[:len(game.history) - tail], game.board)
            if self._attempt_fits(earlier, region):
                rewind, game = tail, earlier
                self.corrections.undone(len(game.history))
        if not self._attempt_fits(game, region) and any(
                (reason := game.explain(a)) is not None and reason.code == "not-short" for a in attempts(game, region)):
            # the player has fewer tokens than the game says: a conquest this turn cost more
            amend = self.corrections.heavier_for_attempt(game, lambda g: self._attempt_fits(g, region), region)
            game = replaced(game, amend) if amend else game
        elif not self._attempt_fits(game, region) and any(
                (reason := game.explain(a)) is not None and reason.code == "no-tokens" for a in attempts(game, region)):
            # the player has a token more than the game says: a conquest this turn cost less
            amend = self.corrections.lighter_for_attempt(game, lambda g: self._attempt_fits(g, region))
            game = replaced(game, amend) if amend else game
        for before in self._due(game):
            g = after(game, before)
            for attempt in attempts(g, region) if self.hints.die is not None else []:
                if legal_in_turn(g, [attempt, Roll(self.hints.die)]):
                    out = self._do(game, before + [attempt, Roll(self.hints.die)])
                    out.rewind, out.amend = rewind, amend
                    return out
            if g.phase == "final-roll" or any(legal_in_turn(g, [a]) for a in attempts(g, region)):
                self.hints.target = region
                break
        return Outcome(alerts=self.standing.values(), rewind=rewind, amend=amend,
                       note=f"final conquest attempt declared on region {region}"
                       + (f" (the conquests go on: the last {rewind} action(s) taken back)" if rewind else ""))

    def _attempt_fits(self, game: Game, region: int) -> bool:
        """Whether a final conquest attempt on ``region`` fits the game (after what is due first)."""
        return any(legal_in_turn(g, [a]) for g in (after(game, before) for before in self._due(game))
                   for a in attempts(g, region))

    def confirm(self, game: Game) -> Outcome:
        """"Accept what the camera saw / end the step": what the camera shows, then the troop
        redeployment as seen and the end of the turn (or the resettlement as seen)."""
        if self.last_seen is not None and (question := self._at_the_end(game)) is not None:
            self.question = question
            return Outcome(alerts=self.standing.values(), question=question)
        seen = self.evidence.with_accepted(game, self.last_seen or expected_view(game))
        first = self.see(game, seen, self.evidence.last_unknown, vote=False) if self.last_seen is not None \
            else Outcome()
        if first.question is not None:
            return first
        base = game.copy()  # with what the sight corrected first: a placement missed, earlier actions seen better
        for index, action in first.missed:
            base.insert(index, action)
        for index, action in first.amend:
            base.replace(index, action)
        g = base.copy()
        for action in first.actions:
            g.apply(action)
        steps = self._ending(g, seen)
        if not first.actions and not steps:
            return Outcome(alerts=self.standing.values(), amend=first.amend, missed=first.missed,
                           note="nothing to confirm now")
        self._used(first.actions + steps, base)
        self.evidence.gather(g, seen, self.evidence.last_hidden, self.evidence.last_unknown - self.evidence.last_hidden)
        self.evidence.remember_unseen(g, seen, [])
        self.evidence.confirm(g, seen, self.evidence.last_unknown, [])  # the redeployment as seen: read right
        return Outcome(actions=first.actions + steps, alerts=first.alerts, raised=first.raised, amend=first.amend,
                       missed=first.missed)

    def _ending(self, g: Game, seen: View) -> list[Action]:
        """The end of the step as the camera shows it, played on ``g``: the troop redeployment as seen
        (or the resettlement), the markers placed, the end of the turn."""
        steps: list[Action] = []
        active = g.active_tribe(g.turn.player) if g.current_player >= 0 else None
        action = None
        if g.phase == "conquest" and active is not None:
            action = guess_redeploy(g, active, seen, unknown=self.evidence.last_unknown, room=self.evidence.room)
            if g.explain(action) is not None:  # the counts read do not fit the race (a misread): the table
                # ended the step all the same; the troops as the game has them, a later sight amends them
                action = guess_redeploy(g, active, expected_view(g), room=self.evidence.room)
        elif g.phase == "resettlement":
            action = resettlement(g, g.tribes[g.resettle_queue[0][1]], seen, self.evidence.last_unknown, self.evidence.room)
        if action is not None and g.explain(action) is None:
            g.apply(action)
            steps.append(action)
        if g.phase == "redeployment" and active is not None:
            for action in markers(g, active, seen, set(seen)) + [EndTurn()]:
                if g.explain(action) is None:
                    g.apply(action)
                    steps.append(action)
        return steps

    def _at_the_end(self, game: Game) -> Question | None:
        """The End Turn button is the table saying the step is over as the board shows it: the whole
        board is compared with the record then, and when the smallest set of corrections through the
        engine makes them agree, the table is asked once (once a turn, like a burst): the corrections
        then the end of the step as seen, or the end of the step alone (``answer``)."""
        if game.finished or _turn(game) in self.asked:
            return None
        skip = readable(self.last_seen, self.evidence.last_hidden)
        if not any(d.label not in pieces.MARKERS_IN_BOX and not (d.expected and d.seen)
                   for d in differences(game, self.last_seen, skip, self.evidence.unseen)):
            return None  # the races hold the regions as the game has it: markers and counts the corrections see to
        question = self._resync_question(game, self.last_seen, self.evidence.last_hidden)
        if question is None:
            return None
        fix, rewind = list(question.options[0]), question.rewind(0)
        corrected = Game.replay(game.setup, game.history[:len(game.history) - rewind], game.board)
        try:
            for action in fix:
                corrected.apply(action)
        except IllegalAction:
            return None
        seen = self.evidence.with_accepted(corrected, self.last_seen)
        ending = self._ending(corrected, seen)
        self.ending = Question(question.text, (tuple(fix + ending), ()), (rewind, 0),
                               (question.labels[0] + (", then end the turn" if ending else ""),
                                "the game is right: end the step as it is"), question.regions)
        return self.ending

    def redeployment(self, game: Game) -> Redeploy | Resettle | None:
        """The troop redeployment due now, or the resettlement, as the camera last saw it, if one is
        due and it fits."""
        seen = self.evidence.with_accepted(game, self.last_seen or expected_view(game))
        if game.phase == "resettlement" and not game.finished:
            action = resettlement(game, game.tribes[game.resettle_queue[0][1]], seen, self.evidence.last_unknown, self.evidence.room)
        else:
            tribe, race = redeploying(game)
            if tribe is None:
                return None
            action = guess_redeploy(game, tribe, seen, race=race, unknown=self.evidence.last_unknown, room=self.evidence.room)
        return action if action is not None and game.explain(action) is None else None

    def redeployed(self, game: Game) -> Outcome:
        """The conquests are over: the troop redeployment (or the resettlement) as the camera last saw
        it, no end of turn: an input the rules take only after it came (a pick, an ally, ...)."""
        action = self.redeployment(game)
        if action is None:
            return Outcome(alerts=self.standing.values(), note="no redeployment that fits to take now")
        seen = self.evidence.with_accepted(game, self.last_seen or expected_view(game))
        g = game.copy()
        g.apply(action)
        self.evidence.remember_unseen(g, seen, [])
        self.evidence.confirm(g, seen, self.evidence.last_unknown, [])
        out = self._do(game, [action])
        self.evidence.gather(g, seen, self.evidence.last_hidden, self.evidence.last_unknown - self.evidence.last_hidden)
        return out

    def due_before(self, game: Game, action: Action) -> Redeploy | Resettle | None:
        """The troop redeployment (or resettlement) as the camera last saw it, when ``action`` typed by
        the table is one the rules take only after it (the end of the turn, an ally, Heroes, a pick
        after the Ghouls' redeployment): the one rule the service and ``companion follow`` share."""
        if self.last_seen is None or game.explain(action) is None:
            return None
        due = self.redeployment(game)
        if due is None:
            return None
        trial = game.copy()
        trial.apply(due)
        return due if trial.explain(action) is None else None

    def typed(self, game: Game, action: Action) -> Outcome:
        """An action the table typed (a phone, the dashboard, ``companion follow --inputs``): the
        redeployment the camera last saw first when the rules want it before, then the action; a
        refusal in the engine's words (``refused``) when it does not fit."""
        first = self.due_before(game, action)
        steps = ([first] if first is not None else []) + [action]
        trial = game.copy()
        for step in steps:
            reason = trial.explain(step)
            if reason is not None:
                return Outcome(alerts=self.standing.values(), refused=reason,
                               note=f"{action.notation()}: {reason.code}: {reason.sentence}")
            trial.apply(step)
        if first is not None:
            self.redeployed(game)  # the redeployment as seen: read right, its counts gathered
        self.resync()
        return Outcome(actions=steps, alerts=self.standing.values())

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
        g = after(game, first)
        tribe, race = redeploying(g)
        seen = self.evidence.with_accepted(g, self.last_seen or expected_view(g))
        ending = [guess_redeploy(g, tribe, seen, race=race, unknown=self.evidence.last_unknown, room=self.evidence.room)] \
            if tribe is not None else []
        ending += [EndTurn()]
        return [first] + ([first + ending] if legal_in_turn(g, ending) else [])

    def answer(self, game: Game, option: int) -> Outcome:
        """The table chose one of the question's explanations."""
        if self.question is None or not 0 <= option < len(self.question.options):
            return Outcome(alerts=self.standing.values(), note="no such answer")
        question, self.question = self.question, None
        ending, self.ending = self.ending is question, None
        if ending and option != 0:  # asked at the End Turn, the game is right: the step ends as seen
            return self.confirm(game)
        chosen, rewind = list(question.options[option]), question.rewind(option)
        if not chosen and not rewind and question.regions:  # the game is right: its alerts stand
            return Outcome(alerts=self.standing.values(), note="the game kept as it is")
        if rewind:
            game = Game.replay(game.setup, game.history[:len(game.history) - rewind], game.board)
        out = self._do(game, chosen)
        out.rewind = rewind
        for region in question.regions if option == 0 else ():  # the board was right there
            self.standing.drop(region)
        out.alerts = self.standing.values()
        return out

    def accept(self, game: Game, region: int) -> Outcome:
        """Override: the table says the board is right as the camera sees this region (a misread)."""
        self.evidence.accept(game, region)
        self.standing.drop(region)
        return Outcome(alerts=self.standing.values())

    def board_is_right(self, game: Game) -> Outcome:
        """The table says the board is right: the smallest set of corrections that puts the record
        in step with the board the camera last saw, offered as one question to confirm."""
        if self.last_seen is None:
            return Outcome(alerts=self.standing.values(), note="the camera has not seen the board yet")
        question = self._resync_question(game, self.last_seen, self.evidence.last_hidden, asked=True)
        if question is None:
            return Outcome(alerts=self.standing.values(), note="the board and the game agree: nothing to correct")
        self.question = question
        return Outcome(alerts=self.standing.values(), question=question)

    def _burst(self, game: Game, seen: View, hidden: set[int], disagreeing: set[int]) -> Question | None:
        """Several regions newly parting from the game in one sight (a bumped board, a misread patch,
        a lamp), or a discrepancy standing sight after sight: one question, when corrections to the
        record would make it agree with the board (a burst: better; else the alerts say it)."""
        new = disagreeing - self.standing.regions()
        stood = {r for r in disagreeing & self.standing.regions() if self.standing.stood(r) >= PERSIST}
        if len(new) < BURST and not stood:
            return None
        return self._resync_question(game, seen, hidden, partial=len(new) >= BURST)

    def _resync_question(self, game: Game, seen: View, hidden: set[int], asked: bool = False,
                         partial: bool = False) -> Question | None:
        """Is the board right? The corrections that put the record in step with it, as one question;
        unasked (``asked`` False), once a turn, and only when the corrections make board and record
        agree (``partial``: agree on more regions than now)."""
        turn = _turn(game)
        if not asked and turn in self.asked:
            return None  # asked once this turn already: the alerts say the rest
        if not asked:
            self.asked.add(turn)  # tried once a turn (the search through past actions is not free)
        found = resync(game, seen, hidden, self.evidence.unseen, self.evidence.room)
        if not found.regions or (not asked and found.left > 0
                                 and not (partial and found.changes and found.left < len(found.regions))):
            return None  # asked unprompted only when corrections make the board and the record agree (better)
        where = "; ".join(describe(game, seen, r) for r in found.regions[:6])
        text = (f"The board and the game differ on region{'s' if len(found.regions) > 1 else ''} "
                f"{', '.join(map(str, found.regions))} ({where}). Is the board right?")
        if not found.changes:  # the search found no moves that make them agree: say so, and what the table can do
            text += (" No legal moves the companion can find put the game in step with it: if the game is wrong, "
                     "correct its log (Correct on a move).")
        fix = found.describe(game)
        return Question(text, (tuple(found.actions), ()), (found.rewind, 0),
                        (f"the board is right: {fix}", "the game is right: keep it"),
                        tuple(found.regions))

    def resync(self) -> None:
        """After a manual action (a correction entered by hand): the game is the truth again."""
        self.hints = Hints()
        self.question = None

    def undone(self, length: int) -> None:
        """The game was taken back to its first ``length`` actions (an undo): a question asked of the
        game before is void, and the steps kept from there on are gone (see ``Corrections.undone``)."""
        self.question = None
        self.corrections.undone(length)

    def _do(self, game: Game, actions: list[Action]) -> Outcome:
        self._used(actions, game)
        return Outcome(actions=actions, alerts=self.standing.values())

    # ------------------------------------------------------------------ helpers
    def _sure(self, seen: View) -> set[int]:
        """The regions the still frames read surely (``SURE``)."""
        return {r for r in seen if self.evidence.sure(r) >= SURE}

    def _used(self, actions: list[Action], game: Game) -> None:
        """Forget the inputs these actions used; remember where each redeployment stands in the history."""
        self.corrections.remember(actions, game)
        if any(isinstance(a, Roll) for a in actions):
            self.hints.die = None
            self.hints.target = None
        if any(isinstance(a, EndTurn) for a in actions):  # a die face or a target kept is for one turn only
            self.hints = Hints()


def _provisional(game: Game) -> int:
    """How many of the last actions are the troop redeployment the follower took before the table
    ended the turn, with the markers placed after it (0 when there is none): provisional, the table
    may yet show or say that the conquests go on (``_reopened``, ``declare``)."""
    tail = 0
    for action in reversed(game.history):
        if isinstance(action, (Heroes, Encamp, Fortify)):
            tail += 1
            continue
        if isinstance(action, Redeploy) and action.race is None and game.phase == "redeployment":
            return tail + 1
        break
    return 0


def _resettling(game: Game) -> list[int]:
    """The regions of the race whose resettlement is due now (none when none is)."""
    if game.phase != "resettlement" or game.finished or not game.resettle_queue:
        return []
    return game.regions_of(game.resettle_queue[0][1])


def _turn(game: Game) -> int:
    """Which turn of the game it is: the ends of turns played so far."""
    return sum(isinstance(a, EndTurn) for a in game.history)


def _state(game: Game) -> tuple:
    """Which state of the game a vote is about: an action played, taken back or amended changes it."""
    return len(game.history), game.history[-1] if game.history else None


def _actions(actions) -> str:
    return ", ".join(a.notation() for a in actions) or "no action"


def _differences(game: Game, seen: View, hidden: set[int], unseen) -> str:
    found = differences(game, seen, hidden, unseen)
    return "; ".join(f"region {d.region} {d.label} game {d.expected} camera {d.seen}" for d in found) or "none"
