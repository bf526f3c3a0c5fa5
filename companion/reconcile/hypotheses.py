"""Hypotheses: which legal actions turn the game's board into the board the camera sees.

A depth-first search over actions proposed from the differences (a race seen on a new region is a
conquest, a race no longer seen is an abandonment, tokens flipped are a decline, ...), each tried on
a copy of the game. The shortest sequence that explains every difference wins; two different ones
of the same length are a question for the table, not a guess.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..rules import pieces
from ..rules.actions import (Abandon, Action, Attempt, Conquer, Convert, Decline, DragonConquer, Encamp, EndTurn,
                             Fortify, Heroes, Pick, Redeploy, Resettle, Roll, placement)
from ..rules.game import Game
from .stacks import fullness, spread
from .view import Difference, View, differences, expected_view, label_race, occupied, race_label

MAX_DEPTH = 12
MAX_NODES = 400


@dataclass
class Explanation:
    actions: list[Action]
    game: Game
    remaining: list[Difference]


@dataclass
class Budget:
    """What a search may still spend, shared by several searches (the resync's, one a rewind): nodes
    (states of the game tried: deterministic) and a deadline on the clock (``time.monotonic``), for
    a slow machine; ``None``: no deadline."""

    nodes: int
    deadline: float | None = None

    def spent(self) -> bool:
        return self.nodes <= 0 or (self.deadline is not None and time.thread_time() >= self.deadline)


@dataclass
class Hints:
    """What the inputs told us that the camera cannot see."""

    die: int | None = None  # a Reinforcement Die face rolled and not yet used
    target: int | None = None  # a final conquest attempt declared on the dashboard
    end_turn: bool = False  # the table confirmed the end of the step
    # the camera's readings before this sight: a decline turns over the tokens a redeployment just showed
    before: View = field(default_factory=dict)
    assumed: list[str] = field(default_factory=list)


def search(game: Game, seen: View, skip: set[int], hints: Hints,
           unseen: dict[str, int] | None = None, room: dict[int, int] | None = None,
           budget: Budget | None = None) -> list[Explanation]:
    """The best explanations: fewest differences left, then fewest actions; several when they tie.
    ``room``: how many tokens lie side by side on each region, when vision knows (see ``_as_read``);
    ``budget``: what the search may spend at most (besides ``MAX_NODES``), spent as it goes."""
    best: list[Explanation] = []
    nodes = 0
    budget = budget or Budget(MAX_NODES)

    def score(e: Explanation):
        # fewest differences left, where ending a turn the table did not end counts as two (neither a
        # single misread nor one token put on an occupied region, which is two differences, may move
        # the game on by a turn), and ending the conquests of a turn that goes on counts as one (a
        # Hero seen where the game has none must not stop a player's conquests);
        # on equal terms the fewest turns ended; then the closest count (a stack may hide tokens,
        # but an exact match is likelier); then the fewest actions
        turns = sum(isinstance(a, EndTurn) for a in e.actions)
        return (len(e.remaining) + 2 * turns + _conquests_ended(e.actions, hints), turns, slack(e.game), len(e.actions))

    def slack(g: Game) -> int:
        """How far the counts are from the sight: tokens under stacks, and tokens seen beyond the
        game's (those still in hand may lie on the board, but an exact count is likelier)."""
        want = expected_view(g)
        return sum(abs(want.get(rid, {}).get(label, 0) - seen.get(rid, {}).get(label, 0))
                   for rid in want if rid not in skip
                   for label in set(want[rid]) | set(seen.get(rid, {})) if label not in pieces.MARKERS_IN_BOX)

    def visit(g: Game, actions: list[Action], diffs: list[Difference], die: int | None):
        nonlocal best, nodes
        nodes += 1
        budget.nodes -= 1
        here = Explanation(list(actions), g, diffs)
        if not diffs and actions:
            exact.append(here)
        if not best or score(here) < score(best[0]):
            best = [here]
        elif score(here) == score(best[0]) and not any(b.game.fingerprint() == g.fingerprint() for b in best):
            best.append(here)
        if not diffs or len(actions) >= MAX_DEPTH or nodes >= MAX_NODES or budget.spent():
            return
        for action, uses_die in propose(g, seen, diffs, die, hints, skip, room or {}):
            if g.explain(action) is not None:
                continue
            nxt = g.copy()
            nxt.apply(action)
            follow = [action]
            if isinstance(action, Attempt) and die is not None:
                if nxt.explain(Roll(die)) is not None:
                    continue
                nxt.apply(Roll(die))
                follow.append(Roll(die))
            nd = differences(nxt, seen, skip, unseen)
            if len(nd) > len(diffs) + 1:
                continue  # never take a step that makes the picture much worse
            if len(nd) >= len(diffs) and not _enabling(action):
                continue
            visit(nxt, actions + follow, nd, None if uses_die else die)

    exact: list[Explanation] = []
    visit(game, [], differences(game, seen, skip, unseen), hints.die)
    if not best[0].remaining:
        # a conversion puts one Sorcerer: more tokens read there are a conquest's stack, not a conversion
        best = [e for e in best if not any(isinstance(a, Convert) and not _lone(seen, a.region) for a in e.actions)] \
            or best
        # a conversion and a conquest both fit a single token: the count cannot tell them apart
        best += [e for e in exact if e not in best and _interchangeable(e.actions, best[0].actions, seen)
                 and not any(b.game.fingerprint() == e.game.fingerprint() for b in best)]
    return best


def _conquests_ended(actions: list[Action], hints: Hints) -> int:
    """1 when the actions redeploy troops with no end of the turn after it, unasked by the table."""
    if hints.end_turn:
        return 0
    last = max((k for k, a in enumerate(actions) if isinstance(a, Redeploy)), default=None)
    return int(last is not None and not any(isinstance(a, (EndTurn, Decline)) for a in actions[last:]))


def _lone(seen: View, region: int) -> bool:
    """Whether the camera sees at most one token (markers aside) on ``region``."""
    return sum(n for label, n in seen.get(region, {}).items() if label not in pieces.MARKERS_IN_BOX) <= 1


def _interchangeable(a: list[Action], b: list[Action], seen: View) -> bool:
    """The same moves, but for a Sorcerers' conversion in place of a conquest of the same region
    where the camera sees a single token (the conversion's one, or the top of the conquest's stack)."""
    return len(a) == len(b) and a != b and all(
        x == y or ({type(x), type(y)} == {Conquer, Convert} and x.region == y.region and _lone(seen, x.region))
        for x, y in zip(a, b))


def _enabling(action: Action) -> bool:
    """Actions that change nothing visible but open the way (a pick, the end of a turn, ...)."""
    return isinstance(action, (Pick, EndTurn, Redeploy, Roll, Attempt, Resettle))


def propose(g: Game, seen: View, diffs: list[Difference], die: int | None, hints: Hints,
            unknown: set[int] = frozenset(), room: dict[int, int] | None = None):
    """Candidate next actions, as (action, uses the die) pairs, from where the picture differs;
    ``unknown``: regions the camera cannot read now."""
    out: list[tuple[Action, bool]] = []
    if g.finished or g.current_player < 0:
        return out
    me = g.current_player
    phase = g.phase
    changed = {d.region for d in diffs}
    if phase == "resettlement":
        seat, race = g.resettle_queue[0]
        action = resettlement(g, g.tribes[race], seen, unknown, room)
        return [(action, False)] if action else []
    if phase == "final-roll":
        return [(Roll(die), True)] if die is not None else []
    new_races = {label_race(d.label) for d in diffs if d.seen > d.expected and d.label not in pieces.MARKERS_IN_BOX}
    mine = {t.name for t in g.tribes_of(me)}
    others_moved = any(race in g.tribes and race not in mine and g.tribes[race].owner != me
                       for race, _ in new_races) or any(race not in g.tribes for race, _ in new_races
                                                        if g.phase != "pick")
    if phase == "pick":
        for race, decline in new_races:
            if not decline and any(s.race == race for s in g.column):
                out.append((Pick(race), False))
    active = g.active_tribe(me)
    for tribe in g.tribes_of(me):
        if tribe.in_decline and tribe.race.conquers_in_decline() and not tribe.redeployed:
            label = race_label(g, tribe.name)  # in decline
            moved = False
            for d in diffs:
                if d.label != label:
                    continue
                if d.seen > d.expected and g.regions[d.region].race != tribe.name:
                    out.append((Conquer(d.region, tribe.name), False))
                    if die is not None:
                        out.append((Attempt(d.region, tribe.name), True))
                elif g.regions[d.region].race == tribe.name:
                    moved = True
                    if d.missing and not tribe.conquered:
                        out.append((Abandon(d.region, tribe.name), False))
            if moved or (tribe.readied and (others_moved or hints.end_turn or active_moved(g, me, diffs))):
                out.append((guess_redeploy(g, tribe, seen, race=tribe.name, unknown=unknown, room=room), False))
    if active is not None and phase == "conquest":
        name = active.name
        for d in diffs:
            r = d.region
            if d.label == name and d.seen > d.expected and g.regions[r].race != name:
                if seen[r].get(pieces.DRAGON) and not g.regions[r].marker(pieces.DRAGON):
                    out.append((DragonConquer(r), False))
                out.append((Conquer(r), False))
                out.append((Convert(r), False))
                if die is not None and active.power.rolls_before_conquest():
                    out.append((Roll(die), True))
                elif die is not None:
                    out.append((Attempt(r), True))
            if d.label == name and d.missing and g.regions[r].race == name and r not in _seen_race(seen, name) \
                    and not occupied(seen, r):  # an abandoned region is left empty, not to another race
                out.append((Abandon(r), False))
            if d.label == pieces.FORTRESS and d.seen > d.expected:
                out.append((Fortify(r), False))
        if _declining(g, me, diffs):
            out.append((_decline_first(g, active, hints.before, unknown, room), False))
        if die is not None and hints.target is not None:
            out += [(a, True) for a in attempts(g, hints.target)]
        # Heroes or Encampments on a region that had none: placed after the redeployment (one more
        # Encampment where some stood is more likely one the camera missed before)
        placed = any(d.label in (pieces.HERO, pieces.ENCAMPMENT) and d.expected == 0 for d in diffs)
        if others_moved or hints.end_turn or placed or any(_tokens_moved(g, active, d) for d in diffs):
            out.append((guess_redeploy(g, active, seen, unknown=unknown, room=room), False))
    if active is not None and phase == "redeployment":
        marker_action = markers(g, active, seen, changed)
        out += [(a, False) for a in marker_action]
        if _declining(g, me, diffs):
            out.append((Decline(), False))  # Stout: after the redeployment, after the scoring
        if others_moved or hints.end_turn:
            out.append((EndTurn(), False))
    return out


def _declining(g: Game, me: int, diffs: list[Difference]) -> bool:
    """Whether the sight shows the player at play going into decline: the active race's tokens
    turned to their in-decline side, or the player's race in decline gone from the map (declining
    again takes it off)."""
    active = g.active_tribe(me)
    if active is None:
        return False
    flipped = any(d.label == active.name + "-decline" and g.regions[d.region].race == active.name for d in diffs)
    return flipped or any(d.missing and d.label == race_label(g, t.name) and g.regions[d.region].race == t.name
                          for t in g.tribes_of(me) if t.in_decline for d in diffs)


def _decline_first(g: Game, active, before: View, unknown: set[int], room: dict[int, int] | None) -> Action:
    """The first step of a decline seen during the conquests: the decline itself, or, when the rules
    let the race decline after the turn's scoring (Stout), the troop redeployment as seen first. The
    board is the same either way, but a race declined after scoring scores as an active race, so a
    player who may do so does (the decline follows in the redeployment phase). The tokens turned
    over show one a region whatever lay there: the redeployment is the one the camera read ``before``
    (the sight before the decline), else the tokens as the game has them."""
    label = race_label(g, active.name)
    shown = {r: before[r] for r in g.regions_of(active.name) if before.get(r, {}).get(label)}
    redeploy = guess_redeploy(g, active, {**expected_view(g), **shown}, unknown=unknown, room=room)
    if g.explain(redeploy) is not None:
        redeploy = guess_redeploy(g, active, expected_view(g), unknown=unknown, room=room)
    if g.explain(redeploy) is None and after(g, [redeploy]).explain(Decline()) is None:
        return redeploy
    return Decline()


def attempts(g: Game, region: int) -> list[Attempt]:
    """The final conquest attempt on ``region`` by each race of the player at play: the active one,
    and one in decline (the Ghouls still conquer; the engine refuses the others)."""
    return [Attempt(region)] + [Attempt(region, t.name) for t in g.tribes_of(g.turn.player) if t.in_decline]


def active_moved(g: Game, me: int, diffs: list[Difference]) -> bool:
    """Whether the active race of the player shows a change: the Ghouls' conquests are then over."""
    active = g.active_tribe(me)
    return active is not None and any(d.label == active.name for d in diffs)



def _seen_race(seen: View, race: str) -> set[int]:
    return {rid for rid, labels in seen.items() if labels.get(race)}


def _tokens_moved(g: Game, tribe, d: Difference) -> bool:
    """More tokens seen on one of the race's regions, or one of them left empty: a redeployment."""
    return d.label == tribe.name and g.regions[d.region].race == tribe.name and (d.seen > d.expected or d.missing)


def guess_redeploy(g: Game, tribe, seen: View, race: str | None = None, unknown: set[int] = frozenset(),
                   room: dict[int, int] | None = None) -> Redeploy:
    """The redeployment the camera shows; tokens it cannot see are on a region it cannot read now
    (``unknown``), else where the counts read make likeliest (``stacks.spread``). More tokens read than
    the race has are a misread of the regions it cannot read now: those counts give way first (down to
    one token). A later sight may amend it (``amended_redeploy``)."""
    label = race_label(g, tribe.name)
    held = g.regions_of(tribe.name)
    total = g.tokens_to_redeploy(tribe)
    if not held:
        return Redeploy((), race)
    if total < len(held):  # Amazons short of tokens: the regions still seen keep one each
        keep = sorted(held, key=lambda r: (-seen.get(r, {}).get(label, 0), r))[:total]
        return Redeploy(placement({r: 1 for r in keep}), race)
    counts = {r: max(1, seen.get(r, {}).get(label, 0)) for r in held}
    spare = total - sum(counts.values())
    for r in sorted(set(held) & set(unknown), key=lambda r: (-counts[r], r)):
        if spare >= 0:
            break  # more read than the race has: a count the camera cannot read now is the misread
        cut = min(counts[r] - 1, -spare)
        counts[r], spare = counts[r] - cut, spare + cut
    if spare < 0:
        return Redeploy(placement(counts), race)  # more seen than there are: explain() refuses it
    if spare:  # tokens under a stack: on a region the camera cannot read now, else where the counts
        # read make likeliest (``stacks.spread``)
        shown = {r: seen.get(r, {}).get(label, 0) for r in held}
        now = {r: g.regions[r].tokens for r in held}
        if unknown & set(held):
            counts[_hiding_place(held, shown, unknown, room, now)] += spare
        else:
            counts = spread(counts, spare, {r: {n: [0]} for r, n in shown.items() if n}, room, now)
    return Redeploy(placement(counts), race)


def _hiding_place(regions, shown: dict[int, int], unread: set[int], room: dict[int, int] | None,
                  held: dict[int, int] | None = None) -> int:
    """Where tokens the camera cannot see lie: on a region it could not read, else under the fullest
    stack read (``stacks.fullness``), the biggest on a tie, then where ``held`` has the most."""
    held = held or {}
    return max(regions, key=lambda r: (r in unread, fullness(shown[r], r, room), shown[r], held.get(r, 0), -r))


def resettlement(g: Game, tribe, seen: View, unknown: set[int] = frozenset(),
                 room: dict[int, int] | None = None) -> Resettle | None:
    """The defender's tokens seen back on their regions; unseen ones go to a region the camera cannot
    read now, else under the fullest stack (``stacks.fullness``)."""
    label = race_label(g, tribe.name)
    held = g.regions_of(tribe.name)
    if not held:
        return None
    adds = {r: max(0, seen.get(r, {}).get(label, 0) - g.regions[r].tokens) for r in held}
    spare = tribe.hand - sum(adds.values())
    if spare < 0:  # more seen than the hand holds: the hand where most were seen; the rest is a count to flag
        left = tribe.hand
        for r in sorted(held, key=lambda r: (-adds[r], r)):
            adds[r], left = min(adds[r], left), left - min(adds[r], left)
        spare = 0
    if spare:
        adds[_hiding_place(held, {r: g.regions[r].tokens + adds[r] for r in held}, unknown, room)] += spare
    enc = None
    if tribe.power.resettles_markers(g, tribe) and tribe.active:
        enc = placement(_encampments(held, seen))
    return Resettle(tribe.name, placement(adds), enc)


def markers(g: Game, tribe, seen: View, changed: set[int]) -> list[Action]:
    """Encampments, Heroes and a Fortress placed after redeployment, as the camera shows them."""
    held = g.regions_of(tribe.name)
    out: list[Action] = []
    heroes = sorted(r for r in held if seen.get(r, {}).get(pieces.HERO))
    if heroes and any(not g.regions[r].marker(pieces.HERO) for r in heroes):
        rest = [r for r in held if r not in heroes]
        if rest and len(heroes) < min(pieces.MARKERS_IN_BOX[pieces.HERO], len(held)):
            # the other Hero under a stack: where one stood before, else under the biggest stack
            heroes.append(max(rest, key=lambda r: (g.regions[r].marker(pieces.HERO), g.regions[r].tokens, -r)))
        out.append(Heroes(tuple(sorted(heroes))))
    seen_camps = {r: seen.get(r, {}).get(pieces.ENCAMPMENT, 0) for r in held}
    now = {r: g.regions[r].marker(pieces.ENCAMPMENT) for r in held}
    if any(seen_camps[r] > now[r] for r in held if r in changed):  # fewer seen: hidden under the tokens
        camps = _encampments(held, seen)
        if placement(camps) != placement(now):
            out.append(Encamp(placement(camps)))
    for r in held:
        if seen.get(r, {}).get(pieces.FORTRESS) and not g.regions[r].marker(pieces.FORTRESS):
            out.append(Fortify(r))
    return out


def _encampments(held: list[int], seen: View) -> dict[int, int]:
    """The Encampments as seen; "deploy the 5 Encampments": those not seen lie under the biggest stack of them."""
    camps = {r: seen.get(r, {}).get(pieces.ENCAMPMENT, 0) for r in held}
    spare = pieces.MARKERS_IN_BOX[pieces.ENCAMPMENT] - sum(camps.values())
    if spare > 0 and any(camps.values()):
        camps[max(held, key=lambda r: (camps[r], -r))] += spare
    return camps


def redeploying(game: Game):
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


def unread_conquests(best: Explanation, seen: View, previous: View, unsure: set[int]) -> Explanation:
    """A region the camera cannot read whose reading just turned into more tokens, all of other
    kinds than it read before and than the game has there, while the player at play conquers and
    nothing else on the board moved: the likeliest change is a conquest of it (a lamp's glare on the
    region), taken when it is legal; a guess is never flagged. Only one such region, and only when
    the sight shows no move read elsewhere: a move is the one change of a still moment, so with a
    conquest read surely beside it, or two regions changing unreadably at once (the light, a bump),
    the unreadable ones are misreads, not more conquests nobody saw."""
    g = best.game
    if g.finished or g.current_player < 0 or g.phase != "conquest" or best.actions:
        return best
    want = expected_view(g)
    changed = []
    for rid in sorted(unsure):
        was, now = previous.get(rid), seen.get(rid, {})
        if was is None or sum(now.values()) <= sum(was.values()):
            continue
        stays = {label for label in want[rid] if label in pieces.MARKERS_IN_BOX}  # a Mountain stays
        if (set(now) & set(was)) - stays or any(label in now for label in want[rid] if label not in stays):
            continue  # a conquest takes away all that was seen there
        changed.append(rid)
    if len(changed) != 1 or g.explain(Conquer(changed[0])) is not None:
        return best
    return Explanation([Conquer(changed[0])], after(g, [Conquer(changed[0])]), [])


def after(game: Game, actions: list[Action]) -> Game:
    """A copy of ``game`` with ``actions`` applied."""
    g = game.copy()
    for action in actions:
        g.apply(action)
    return g


def legal_in_turn(game: Game, actions: list[Action]) -> bool:
    g = game.copy()
    for action in actions:
        if g.explain(action) is not None:
            return False
        g.apply(action)
    return True
