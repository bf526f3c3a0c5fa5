"""Which legal actions turn the game's board into the board the camera sees.

A depth-first search over actions proposed from the differences (a race seen on a new region is a
conquest, a race no longer seen is an abandonment, tokens flipped are a decline, ...), each tried on
a copy of the game. The shortest sequence that explains every difference wins; two different ones
of the same length are a question for the table, not a guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import pieces
from ..rules.actions import (Abandon, Action, Attempt, Conquer, Convert, Decline, DragonConquer, Encamp, EndTurn,
                             Fortify, Heroes, Pick, Redeploy, Resettle, Roll, placement)
from ..rules.game import Game
from .view import Difference, View, differences, expected_view, label_race, race_label

MAX_DEPTH = 12
MAX_NODES = 400


@dataclass
class Explanation:
    actions: list[Action]
    game: Game
    remaining: list[Difference]


@dataclass
class Hints:
    """What the inputs told us that the camera cannot see."""

    die: int | None = None  # a Reinforcement Die face rolled and not yet used
    target: int | None = None  # a final conquest attempt declared on the dashboard
    end_turn: bool = False  # the table confirmed the end of the step
    assumed: list[str] = field(default_factory=list)


def search(game: Game, seen: View, skip: set[int], hints: Hints,
           unseen: dict[str, int] | None = None, room: dict[int, int] | None = None) -> list[Explanation]:
    """The best explanations: fewest differences left, then fewest actions; several when they tie.
    ``room``: how many tokens lie side by side on each region, when vision knows (see ``_as_read``)."""
    best: list[Explanation] = []
    nodes = 0

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
        here = Explanation(list(actions), g, diffs)
        if not diffs and actions:
            exact.append(here)
        if not best or score(here) < score(best[0]):
            best = [here]
        elif score(here) == score(best[0]) and not any(b.game.fingerprint() == g.fingerprint() for b in best):
            best.append(here)
        if not diffs or len(actions) >= MAX_DEPTH or nodes >= MAX_NODES:
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
    if not best[0].remaining:  # a conversion and a conquest both fit a stack: the count cannot tell them apart
        best += [e for e in exact if e not in best and _interchangeable(e.actions, best[0].actions, seen)
                 and not any(b.game.fingerprint() == e.game.fingerprint() for b in best)]
    return best


def _conquests_ended(actions: list[Action], hints: Hints) -> int:
    """1 when the actions redeploy troops with no end of the turn after it, unasked by the table."""
    if hints.end_turn:
        return 0
    last = max((k for k, a in enumerate(actions) if isinstance(a, Redeploy)), default=None)
    return int(last is not None and not any(isinstance(a, EndTurn) for a in actions[last:]))


def _interchangeable(a: list[Action], b: list[Action], seen: View) -> bool:
    """The same moves, but for a Sorcerers' conversion in place of a conquest of the same region
    where the camera sees a single token (the conversion's one, or the top of the conquest's stack)."""
    def lone(region: int) -> bool:
        return sum(n for label, n in seen.get(region, {}).items() if label not in pieces.MARKERS_IN_BOX) <= 1
    return len(a) == len(b) and a != b and all(
        x == y or ({type(x), type(y)} == {Conquer, Convert} and x.region == y.region and lone(x.region))
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
            if d.label == name + "-decline" and g.regions[r].race == name:
                out.append((Decline(), False))
            if d.label == pieces.FORTRESS and d.seen > d.expected:
                out.append((Fortify(r), False))
            if d.missing and any(d.label == race_label(g, t.name) and g.regions[r].race == t.name
                                 for t in g.tribes_of(me) if t.in_decline):
                out.append((Decline(), False))  # declining again takes the race in decline off the map
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
        if any(d.label == active.name + "-decline" for d in diffs):
            out.append((Decline(), False))  # Stout
        if others_moved or hints.end_turn:
            out.append((EndTurn(), False))
    return out


def attempts(g: Game, region: int) -> list[Attempt]:
    """The final conquest attempt on ``region`` by each race of the player at play: the active one,
    and one in decline (the Ghouls still conquer; the engine refuses the others)."""
    return [Attempt(region)] + [Attempt(region, t.name) for t in g.tribes_of(g.turn.player) if t.in_decline]


def active_moved(g: Game, me: int, diffs: list[Difference]) -> bool:
    """Whether the active race of the player shows a change: the Ghouls' conquests are then over."""
    active = g.active_tribe(me)
    return active is not None and any(d.label == active.name for d in diffs)


def occupied(seen: View, region: int) -> bool:
    """Whether the camera sees race or Lost Tribe tokens on a region."""
    return any(label not in pieces.MARKERS_IN_BOX for label in seen.get(region, {}))


def _seen_race(seen: View, race: str) -> set[int]:
    return {rid for rid, labels in seen.items() if labels.get(race)}


def _tokens_moved(g: Game, tribe, d: Difference) -> bool:
    """More tokens seen on one of the race's regions, or one of them left empty: a redeployment."""
    return d.label == tribe.name and g.regions[d.region].race == tribe.name and (d.seen > d.expected or d.missing)


def guess_redeploy(g: Game, tribe, seen: View, race: str | None = None, unknown: set[int] = frozenset(),
                   room: dict[int, int] | None = None) -> Redeploy:
    """The redeployment the camera shows; tokens it cannot see are on a region it cannot read now
    (``unknown``), else under the fullest stack (``_fullness``). A later sight may amend it
    (``amended_redeploy``)."""
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
    if spare < 0:
        return Redeploy(placement(counts), race)  # more seen than there are: explain() refuses it
    if spare:  # tokens under a stack: the fullest stack seen hides them most likely
        shown = {r: seen.get(r, {}).get(label, 0) for r in held}
        counts[_hiding_place(held, shown, unknown, room, {r: g.regions[r].tokens for r in held})] += spare
    return Redeploy(placement(counts), race)


def _hiding_place(regions, shown: dict[int, int], unread: set[int], room: dict[int, int] | None,
                  held: dict[int, int] | None = None) -> int:
    """Where tokens the camera cannot see lie: on a region it could not read, else under the fullest
    stack read (``_fullness``), the biggest on a tie, then where ``held`` has the most."""
    held = held or {}
    return max(regions, key=lambda r: (r in unread, _fullness(shown[r], r, room), shown[r], held.get(r, 0), -r))


def _fullness(shown: int, region: int, room: dict[int, int] | None) -> float:
    """How full a region shows: the tokens read there over how many lie on it side by side (vision's
    ``room``; a region that shows all it can hold hides the next ones under them); the count read
    when vision does not say."""
    return shown / room[region] if room and room.get(region) else float(shown)


def amended_redeploy(g: Game, index: int, race: str, evidence: dict[int, dict[int, list[int]]],
                     room: dict[int, int] | None = None) -> Redeploy | None:
    """The redeployment at ``index`` as the sights since show it (``evidence``: per region, each
    count read there and the sights that read it; see ``_as_read``), on the regions nothing has
    touched since (a region another race conquered keeps what the redeployment gave it: that is
    what the conquest took). ``None`` when that is what the game has, when the race moved onto a
    region it did not hold then, or while it has tokens in hand."""
    if index >= len(g.history) or not isinstance(g.history[index], Redeploy):
        return None
    action = g.history[index]
    given = dict(action.tokens)
    held = g.regions_of(race)
    if not given or not set(held) <= set(given) or g.tribes[race].hand:
        return None  # tokens in hand may lie on the board already: a resettlement under way
    untouched = {r: n for r, n in given.items() if r in held and g.regions[r].tokens == n}
    counts = _as_read(untouched, {r: 1 for r in untouched}, evidence, room)
    if counts is None or counts == untouched:
        return None
    return Redeploy(placement({**given, **counts}), action.race)


def _as_read(given: dict[int, int], least: dict[int, int], evidence: dict[int, dict[int, list[int]]],
             room: dict[int, int] | None) -> dict[int, int] | None:
    """The tokens of ``given`` spread as the sights read them (``evidence``: per region, each count
    read there and the numbers of the sights that read it): at least ``least`` on each region, then
    one token at a time where the most sights read more than it holds, the latest sight on a tie (a
    count read is a lower bound: tokens under a stack are not seen; when the counts read add up to
    more than there are, a count a few sights read that the others contradict, a token seen over
    the outline or tokens on their way, gives way to them); the rest on a region never read, else
    under the stack read fullest for its region (``room``: how many lie there side by side, when
    vision knows; a region that shows all it can hold hides the next ones), else the biggest (where
    ``given`` has the most on a tie, so a guess that fits stays). ``None`` if ``least`` is more."""
    counts = dict(least)
    spare = sum(given.values()) - sum(counts.values())
    if spare < 0:
        return None

    def more(r: int) -> tuple[int, int]:
        """How many sights read more than ``counts`` has on ``r``, and the latest of them."""
        sights = [s for n, read in evidence.get(r, {}).items() if n > counts[r] for s in read]
        return len(sights), max(sights, default=-1)

    while spare:
        r = max(given, key=lambda r: (more(r), given[r], -r))
        if not more(r)[0]:
            break
        counts[r] += 1
        spare -= 1
    if spare:
        read = {r: max(evidence.get(r, ()), default=0) for r in given}  # the most read there
        counts[_hiding_place(given, read, set(given) - set(evidence), room, given)] += spare
    return counts


def amended_heroes(g: Game, index: int, race: str, seen: View, before: set[int],
                   skip: set[int]) -> Heroes | None:
    """The Heroes placed at ``index`` corrected by later sights: the camera now shows a Hero, and has
    shown one before (``before``: the regions read so), on a region of the race where the game has
    none (it lay under a stack when the Heroes were placed). Heroes not seen stay where the game has
    them if tokens there may hide them."""
    if index >= len(g.history) or not isinstance(g.history[index], Heroes):
        return None
    placed = list(g.history[index].regions)
    held = set(g.regions_of(race))

    def shows(r: int) -> bool:
        return bool(seen.get(r, {}).get(pieces.HERO))

    new = sorted(r for r in held - set(placed) - skip if shows(r) and r in before)
    if not new or len(new) > len(placed):
        return None
    kept = [r for r in placed if r in skip or shows(r)]
    hidden = [r for r in placed if r not in kept and r in held and seen.get(r)]
    regions = kept + new + hidden
    if len(regions) < len(placed):
        return None
    return Heroes(tuple(sorted(regions[:len(placed)])))


def amended_resettle(g: Game, index: int, race: str, after: dict[int, int],
                     evidence: dict[int, dict[int, list[int]]],
                     room: dict[int, int] | None = None) -> Resettle | None:
    """The resettlement at ``index`` as the sights since show it, while nothing has touched the race
    (``after``: its counts right after it): each region keeps what it held before, the tokens
    resettled spread as the sights read them (``_as_read``)."""
    action = g.history[index] if index < len(g.history) else None
    if not isinstance(action, Resettle) or g.tribes[race].hand:
        return None
    adds = dict(action.tokens)
    before = {r: n - adds.get(r, 0) for r, n in after.items()}
    counts = _as_read(after, before, evidence, room)
    if counts is None or counts == after:
        return None
    return Resettle(action.race, placement({r: n - before[r] for r, n in counts.items() if n > before[r]}),
                    action.encampments)


def failed_attempts(g: Game, seen: View) -> list[int]:
    """Regions whose defenders the game may count too many: this turn's final conquest attempt failed
    in the game while the camera shows the attacker on its region (the die face was enough on the
    table), then the regions conquered before it this turn (each cost the attacker more tokens in
    the game than on the table, if some of their defenders lay elsewhere, under a stack)."""
    if g.finished or g.current_player < 0:
        return []
    attacker = {race_label(g, t.name) for t in g.tribes_of(g.turn.player)}
    turn: list = []
    for action in reversed(g.history):
        if isinstance(action, EndTurn):
            break
        turn.append(action)
    failed = [a.region for a in turn if isinstance(a, Attempt) and g.regions[a.region].race
              and race_label(g, g.regions[a.region].race) not in attacker
              and attacker.intersection(seen.get(a.region, {}))]
    if not failed:
        return []
    return failed[:1] + [a.region for a in turn if isinstance(a, Conquer)]


def lighter_defence(g: Game, index: int, race: str, region: int, floor: int):
    """The redeployment or resettlement at ``index`` with fewer tokens on ``region`` (never under
    ``floor``, what the camera last read there, nor under one), the rest on the race's biggest
    stack: one candidate per count, fewest moved first."""
    action = g.history[index] if index < len(g.history) else None
    if not isinstance(action, (Redeploy, Resettle)):
        return
    given = dict(action.tokens)
    if isinstance(action, Resettle):  # the tokens added: the region keeps what it held before
        now = {r: g.regions[r].tokens for r in g.regions_of(race)}
        most = min(given.get(region, 0), now.get(region, 0) - max(1, floor))
        others = [r for r in now if r != region]
        to = max(others, key=lambda r: (now[r], -r)) if others else None
    else:
        most = given.get(region, 0) - max(1, floor)
        others = [r for r in given if r != region]
        to = max(others, key=lambda r: (given[r], -r)) if others else None
    if to is None:
        return
    for moved in range(1, most + 1):
        counts = {**given, region: given[region] - moved, to: given.get(to, 0) + moved}
        if isinstance(action, Resettle):
            yield Resettle(action.race, placement(counts), action.encampments)
        else:
            yield Redeploy(placement(counts), action.race)


def resettlement(g: Game, tribe, seen: View, unknown: set[int] = frozenset(),
                 room: dict[int, int] | None = None) -> Resettle | None:
    """The defender's tokens seen back on their regions; unseen ones go to a region the camera cannot
    read now, else under the fullest stack (``_fullness``)."""
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
