"""Corrections: earlier actions the later sights show better, put right through the engine.

A redeployment or a resettlement first seen with tokens under a stack is amended to the counts the
sights since read; Heroes first hidden are moved; a Fortress placed under a stack is inserted into
the turn it was placed in; a conquest the game finds too costly makes the defenders' last
redeployment lighter there. Each correction is replayed and checked like any action
(``Game.replace``, ``Game.insert``), so the coins follow.
"""
from __future__ import annotations

from ..rules import pieces
from ..rules.actions import Action, Attempt, Conquer, Encamp, EndTurn, Heroes, Redeploy, Resettle, placement
from ..rules.errors import IllegalAction
from ..rules.game import Game
from .evidence import Evidence
from .hypotheses import Explanation, _encampments
from .stacks import spread
from .view import View, differences, label_race, occupied, placing_now, playing_labels, race_label


# tokens of the player at play read on a region that show a conquest (a stack or vision unsure of the
# region, glare or blur, hides the rest) rather than a token put on a strong region
CONQUEST_SEEN = 2


class Corrections:
    """Where each race's last redeployment, Heroes and resettlement stand in the history, and the
    corrections the sights show them."""

    def __init__(self, evidence: Evidence):
        self.evidence = evidence
        self.redeploys: dict[str, int] = {}  # race -> index of its last redeployment in the history
        self.heroes: dict[str, int] = {}  # race -> index of its last placement of Heroes
        # race -> (index of its last resettlement, its regions and counts right after it)
        self.resettles: dict[str, tuple[int, dict[int, int]]] = {}
        # (region, marker, length of the history) no missed placement explained: not replayed again
        self.unplaced: set[tuple[int, str, int]] = set()
        # race -> its resettlement as the last amendments found would leave it: kept only when the
        # follower takes them (``taken``); amendments it leaves out (another difference of the sight
        # unexplained) leave the record, and so the resettlement to amend, as it was
        self.pending: dict[str, tuple[int, dict[int, int]]] = {}

    def remember(self, actions: list[Action], game: Game) -> None:
        """Where each redeployment, placement of Heroes and resettlement among ``actions`` (about to
        be played on ``game``) stands in the history; the counts read from then on tell about it."""
        if not any(isinstance(a, (Redeploy, Heroes, Resettle)) for a in actions):
            return
        g = game.copy()
        for action in actions:
            if isinstance(action, (Redeploy, Heroes)):
                race = action.race if isinstance(action, Redeploy) else None
                tribe = g.tribes.get(race) if race else g.active_tribe(g.turn.player)
                if tribe is not None:
                    (self.redeploys if isinstance(action, Redeploy) else self.heroes)[tribe.name] = len(g.history)
                    if isinstance(action, Redeploy):
                        self.evidence.restart(tribe.name)
            if g.explain(action) is not None:
                break
            index = len(g.history)
            g.apply(action)
            if isinstance(action, Resettle):
                self.resettles[action.race] = (index, holding(g, action.race))
                self.evidence.restart(action.race)

    def undone(self, length: int) -> None:
        """The game was taken back to its first ``length`` actions: the redeployments, Heroes and
        resettlements kept from there on are gone, and what the table enters by hand in their place
        is not the camera's to amend (it amended a redeployment entered so back to its misread)."""
        gone = {race for race, i in self.redeploys.items() if i >= length}
        gone |= {race for race, kept in self.resettles.items() if kept[0] >= length}
        self.redeploys = {race: i for race, i in self.redeploys.items() if i < length}
        self.heroes = {race: i for race, i in self.heroes.items() if i < length}
        self.resettles = {race: kept for race, kept in self.resettles.items() if kept[0] < length}
        for race in gone:  # the counts read since tell about a step no longer in the game
            self.evidence.restart(race)

    def lighter_for_conquests(self, game: Game, seen: View, previous: View,
                               skip: set[int]) -> list[tuple[int, Action]]:
        """A race of the player at play (its active race, or one in decline that still conquers)
        seen on a region the game says it has too few tokens to conquer: the defenders' last
        redeployment or resettlement with fewer tokens there, the first that makes the conquest
        legal, never fewer than a sight read there since (only tokens the game guessed under a
        stack go), when the camera sees at least ``CONQUEST_SEEN`` of the tokens it takes (the
        others may hide under them, as the camera shows a stack): one token put on a strong region
        stays an illegal move, and so does a conquest against defenders the camera read."""
        labels = playing_labels(game)
        for d in differences(game, seen, skip, self.evidence.unseen):
            held = game.regions[d.region].race
            if d.label not in labels or d.seen <= d.expected or d.seen < CONQUEST_SEEN:
                continue
            conquest = conquest_by(game, d.label, d.region)
            reason = game.explain(conquest)
            if reason is None or reason.code != "too-few-tokens":
                continue
            if not held or held not in game.tribes:
                if earlier := self._lighter_earlier(game, conquest, seen, skip):
                    return earlier
                continue
            # never fewer defenders than a sight read there: only tokens guessed under a stack go
            floor = max([previous.get(d.region, {}).get(race_label(game, held), 0),
                         *self.evidence.readings_of(held).get(d.region, {})])
            for index in (self.redeploys.get(held), self.resettles.get(held, (None,))[0]):
                if index is None:
                    continue
                for action in lighter_defence(game, index, held, d.region, floor):
                    trial = replaced(game, [(index, action)])
                    if trial is not None and trial.explain(conquest) is None:
                        return [(index, action)]
            if earlier := self._lighter_earlier(game, conquest, seen, skip):
                return earlier
        return []

    def _lighter_earlier(self, game: Game, conquest: Action, seen: View, skip: set[int]) -> list[tuple[int, Action]]:
        """A region conquered before in this turn cost the player fewer tokens on the table than in the
        game: its defenders' tokens the game guessed there lie on their other regions, which the camera
        reads with more than the game has (never more than it reads there): that lighter defence, when
        it makes ``conquest`` legal (``_lighter_conquered``)."""
        return self._lighter_conquered(game, lambda g: g.explain(conquest) is None, seen, skip)

    def lighter_defences(self, best: Explanation, seen: View, previous: View,
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
                    trial = replaced(best.game, [(index, action)])
                    if trial is not None and len(differences(trial, seen, skip, self.evidence.unseen)) < left:
                        return [(index, action)]
        return []

    def lighter_for_attempt(self, game: Game, fits) -> list[tuple[int, Action]]:
        """A final conquest attempt the table declared where the game says the player has no token
        left in hand: a region conquered this turn held fewer defenders than the game has (its
        redeployment or resettlement guessed a token too many there, under a stack), so the
        conquest cost the player less. The defenders' last redeployment or resettlement with fewer
        tokens on such a region, the rest on their biggest stack (``lighter_defence``), the first
        that makes the attempt fit (``fits``: a check of the game), replayed and checked like any
        amendment; none when no such correction fits."""
        return self._lighter_conquered(game, fits)

    def _lighter_conquered(self, game: Game, fits, seen: View | None = None,
                           skip: set[int] = frozenset()) -> list[tuple[int, Action]]:
        """The defenders' last redeployment or resettlement with fewer tokens on a region conquered
        this turn, the rest on their biggest stack (``lighter_defence``), the first that fits
        (``fits``); with ``seen``, only where the camera reads as many as that on the regions the
        tokens go to (this sight or one since that action), none of them in ``skip``."""
        for region in _conquered_this_turn(game):
            for race in game.tribes:
                if game.regions[region].race == race:
                    continue
                label = race_label(game, race)
                read = self.evidence.readings_of(race)
                for index in (self.redeploys.get(race), self.resettles.get(race, (None,))[0]):
                    action = game.history[index] if index is not None and index < len(game.history) else None
                    if not isinstance(action, (Redeploy, Resettle)) or region not in dict(action.tokens):
                        continue
                    for lighter in lighter_defence(game, index, race, region, 1):
                        trial = replaced(game, [(index, lighter)])
                        if trial is None or not fits(trial):
                            continue
                        if seen is not None and not all(
                                r not in skip and trial.regions[r].tokens <= max(seen.get(r, {}).get(label, 0), *read.get(r, {0: []}))
                                for r, n in holding(trial, race).items() if n > game.regions[r].tokens):
                            continue
                        return [(index, lighter)]
        return []

    def heavier_for_attempt(self, game: Game, fits, target: int | None = None) -> list[tuple[int, Action]]:
        """A final conquest attempt the table declared (on ``target``) where the game says the player
        has tokens enough to conquer outright: the player has fewer in hand than the game says, or
        the region attacked holds more. The target held more defenders than the game has, or a
        region conquered this turn did (some read under a stack lay there): the defenders' last
        redeployment with more tokens on such a region, taken from their biggest stack (never under
        the most a sight read there, nor under one), the target first, the first that makes the
        attempt fit (``fits``: a check of the game), replayed and checked like any amendment; none
        when no such correction fits."""
        regions = ([(target, True)] if target is not None else []) + [(r, False) for r in _conquered_this_turn(game)]
        for region, defended in regions:
            for race, index in self.redeploys.items():
                action = game.history[index] if index < len(game.history) else None
                if not isinstance(action, Redeploy) or region not in dict(action.tokens) \
                        or (game.regions[region].race == race) != defended:
                    continue
                read = self.evidence.readings_of(race)
                for heavier in heavier_defence(action, region, {r: max(counts, default=0) for r, counts in read.items()}):
                    trial = replaced(game, [(index, heavier)])
                    if trial is not None and fits(trial):
                        return [(index, heavier)]
        return []

    def missed_placements(self, game: Game, seen: View, before: set[tuple[int, str]],
                           skip: set[int], uncovered: set[tuple[int, str]] = frozenset()) -> list[tuple[int, Action]]:
        """A marker read twice on a region of the race that places it, more of them than the game
        gives it there, while that race is not placing, or one its player's readying just uncovered
        (``uncovered``, see ``Evidence.uncovered``): the placement the camera missed as the race
        ended its last turn (it lay under a stack), put before that end of turn, replayed and checked
        (the coins it scored, the defence it gave). Each such action once; indices kept shift."""
        for rid, kind in sorted((self.evidence.sightings & before) | set(uncovered)):
            race = game.regions[rid].race
            if rid in skip or race not in game.tribes or (placing_now(game, race) and (rid, kind) not in uncovered) \
                    or seen.get(rid, {}).get(kind, 0) <= game.regions[rid].marker(kind) \
                    or (rid, kind, len(game.history)) in self.unplaced:
                continue
            self.unplaced.add((rid, kind, len(game.history)))  # replayed once a state of the game
            index = _last_turn_end(game, race)
            if index is None:
                continue
            then = Game.replay(game.setup, game.history[:index], game.board)
            if kind == pieces.ENCAMPMENT:  # where all the Encampments stand: those not seen under the most seen
                camps = _encampments(then.regions_of(race), seen)
                action = Encamp(placement(camps))
                if camps.get(rid, 0) > then.regions[rid].marker(kind) and then.explain(action) is None \
                        and replaced(game, [(index, action)], insert=True) is not None:
                    self._shift(index)
                    return [(index, action)]
                continue
            # the other regions the placement may put one there too: read with more of it than the
            # game has (the Heroes come two at a time)
            more = {r for r in game.regions if r not in skip and seen.get(r, {}).get(kind, 0) > game.regions[r].marker(kind)}
            # the other Hero may lie under a stack of the race: its biggest first, as ``markers`` guesses
            # (a later sight that shows it amends the placement)
            under = sorted((r for r in then.regions_of(race) if r not in more and occupied(seen, r)),
                           key=lambda r: (-then.regions[r].tokens, r)) if kind == pieces.HERO else []
            for also in [set()] + [{r} for r in under]:
                for action in then.legal_actions():
                    after = then.copy()
                    after.apply(action)
                    if after.regions[rid].marker(kind) != then.regions[rid].marker(kind) + 1 or any(
                            after.regions[r].markers != then.regions[r].markers for r in then.regions
                            if r != rid and not (r in more | also and _one_more(then, after, r, kind))):
                        continue
                    if replaced(game, [(index, action)], insert=True) is not None:
                        self._shift(index)
                        if isinstance(action, Heroes):  # a later sight may move them (``amended_heroes``)
                            self.heroes[race] = index
                        return [(index, action)]
        return []

    def kept(self) -> tuple:
        """What the follower keeps of the history (see ``restore``)."""
        return set(self.unplaced), dict(self.redeploys), dict(self.heroes), dict(self.resettles)

    def restore(self, kept: tuple) -> None:
        """Back to what ``kept`` found: the missed placements found since were not put in (the sight
        waits for another look, or asks), so the indices kept stand and they are looked for again."""
        unplaced, redeploys, heroes, resettles = kept
        self.unplaced, self.redeploys, self.heroes, self.resettles = set(unplaced), dict(redeploys), dict(heroes), dict(resettles)

    def _shift(self, index: int) -> None:
        """An action was put into the history at ``index``: the ones kept from there move one on."""
        for kept in (self.redeploys, self.heroes):
            for race, i in kept.items():
                if i >= index:
                    kept[race] = i + 1
        for race, (i, after) in self.resettles.items():
            if i >= index:
                self.resettles[race] = (i + 1, after)

    def amendments(self, game: Game, seen: View, before: set[tuple[int, str]], skip: set[int],
                    hidden: set[int], settled: int | None = None) -> list[tuple[int, Action]]:
        """Redeployments and Heroes this sight shows better than the game holds them (see
        ``amended_redeploy``, ``amended_heroes``), each one checked after the ones before it."""
        for kept in (self.redeploys, self.heroes, self.resettles):
            for race in [race for race in kept if race not in game.tribes]:
                del kept[race]
        self.evidence.forget(game.tribes)
        # once their player readies troops again, the race's tokens move now, not then
        # (once the game is over nobody readies troops: the last turn's tokens are still seen better)
        over = game.finished
        self.redeploys = {race: i for race, i in self.redeploys.items() if over or not _turn_again(game, race, i)}
        self.heroes = {race: i for race, i in self.heroes.items() if not _turn_again(game, race, i)}
        self.resettles = {race: kept for race, kept in self.resettles.items()
                          if over or not _turn_again(game, race, kept[0])}
        self.evidence.gather(game, seen, hidden, skip - hidden)
        out = []
        self.pending = {}
        trial = game
        settled = len(game.history) if settled is None else settled  # actions of this sight are not amended

        def take(index: int, action: Action | None) -> bool:
            nonlocal trial
            attempt = replaced(trial, [(index, action)]) if action is not None and index < settled else None
            if attempt is not None:
                trial = attempt
                out.append((index, action))
            return attempt is not None

        for race, index in self.redeploys.items():
            if self.resettles.get(race, (-1,))[0] > index:
                continue  # resettled since: what the sights show more now is the resettlement's to say
            take(index, amended_redeploy(trial, index, race, self.evidence.readings_of(race), self.evidence.room))
        for race, index in self.heroes.items():
            if not placing_now(trial, race):  # the Heroes move as the race's turn ends: the end of the step takes them
                heroes = {rid for rid, kind in before if kind == pieces.HERO}
                take(index, amended_heroes(trial, index, race, seen, heroes, skip))
        for race, (index, after) in list(self.resettles.items()):
            now = holding(trial, race)
            if any(after.get(r) != n for r, n in now.items()):
                continue  # touched since (but for conquests of some of its regions)
            amended = amended_resettle(trial, index, race, after, self.evidence.readings_of(race), self.evidence.room)
            was = dict(trial.history[index].tokens) if amended is not None else {}
            if take(index, amended):  # now as amended
                adds = dict(amended.tokens)
                self.pending[race] = (index, {r: n - was.get(r, 0) + adds.get(r, 0) for r, n in after.items()})
        return out

    def taken(self) -> None:
        """The follower took the amendments last found (the owner stores them with its outcome): the
        resettlements are now as amended."""
        self.resettles.update(self.pending)
        self.pending = {}


def amended_redeploy(g: Game, index: int, race: str, evidence: dict[int, dict[int, list[int]]],
                     room: dict[int, int] | None = None) -> Redeploy | None:
    """The redeployment at ``index`` as the sights since show it (``evidence``: per region, each
    count read there and the sights that read it; see ``_as_read``), on the regions nothing has
    touched since (a region another race conquered keeps what the redeployment gave it: that is
    what the conquest took). ``None`` when that is what the game has, when the race moved onto a
    region it did not hold then, or while it has tokens in hand that a sight shows on the board
    already (more read on those regions together than the redeployment gave them: a resettlement
    under way). A conquest of some of its regions, the hand waiting for the end of the turn, says
    nothing of where the tokens on the others lie: a redeployment kept from amendment until its
    resettlement kept a stack guessed wrong, and every resettlement after it went wrong too."""
    if index >= len(g.history) or not isinstance(g.history[index], Redeploy):
        return None
    action = g.history[index]
    given = dict(action.tokens)
    held = g.regions_of(race)
    if not given or not set(held) <= set(given):
        return None
    untouched = {r: n for r, n in given.items() if r in held and g.regions[r].tokens == n}
    if g.tribes[race].hand and _most_read(untouched, evidence) > sum(untouched.values()):
        return None  # tokens in hand lie on the board already: a resettlement under way
    counts = _as_read(untouched, {r: 1 for r in untouched}, evidence, room)
    if counts is None or counts == untouched:
        return None
    return Redeploy(placement({**given, **counts}), action.race)


def _claimed(after: dict[int, int], adds: dict[int, int], kept, evidence: dict[int, dict[int, list[int]]]) -> dict[int, int]:
    """``after`` with the tokens a resettlement put on regions conquered since (not in ``kept``)
    moved, one at a time, to a region it still holds where the most sights read more than that
    (the latest sight on a tie); the rest stay where they were: nothing shows them now."""
    counts = dict(after)
    given = {r: adds.get(r, 0) for r in after if r not in kept and adds.get(r, 0)}

    def more(r: int) -> tuple[int, int]:
        sights = [s for n, read in evidence.get(r, {}).items() if n > counts[r] for s in read]
        return len(sights), max(sights, default=-1)

    while given and kept:
        r = max(kept, key=lambda r: (more(r), -r))
        if not more(r)[0]:
            break
        src = max(given, key=lambda q: (given[q], -q))
        counts[r], counts[src], given[src] = counts[r] + 1, counts[src] - 1, given[src] - 1
        given = {q: n for q, n in given.items() if n}
    return counts


def _most_read(regions, evidence: dict[int, dict[int, list[int]]]) -> int:
    """The most tokens one sight read on ``regions`` together (``evidence``: per region, each count
    read there and the sights that read it)."""
    totals: dict[int, int] = {}
    for r in regions:
        for n, sights in evidence.get(r, {}).items():
            for sight in sights:
                totals[sight] = totals.get(sight, 0) + n
    return max(totals.values(), default=0)


def _as_read(given: dict[int, int], least: dict[int, int], evidence: dict[int, dict[int, list[int]]],
             room: dict[int, int] | None) -> dict[int, int] | None:
    """The tokens of ``given`` spread as the sights read them (``evidence``: per region, each count
    read there and the numbers of the sights that read it): at least ``least`` on each region, the
    rest where they make the counts read likeliest (``stacks.spread``: the race's tokens are all on
    the board, a count read is a lower bound, a count one sight read that the others contradict is a
    misread), where ``given`` has the most on a tie, so a guess that fits stays. ``None`` if ``least``
    is more."""
    spare = sum(given.values()) - sum(least.values())
    if spare < 0:
        return None
    return spread(least, spare, evidence, room, given)


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
    """The resettlement at ``index`` as the sights since show it (``after``: its counts right after
    it), while nothing has touched the race but conquests of some of its regions: each region keeps
    what it held before, the tokens resettled spread as the sights read them (``_as_read``) on the
    regions it still holds (a region conquered since gives up what the resettlement put there when
    the others show it: the conquest took fewer, and the hand it left is smaller; a conquest of one
    region tells nothing of where the tokens on the others lie: they are spread as read). While the
    conquered regions' tokens are in hand, ``None`` when a sight read more on the others than they
    could hold so (the rules keep those tokens in hand until the resettlement: some lie there
    already)."""
    action = g.history[index] if index < len(g.history) else None
    if not isinstance(action, Resettle):
        return None
    adds = dict(action.tokens)
    lost = set(after) - set(g.regions_of(race))
    kept = {r: n for r, n in after.items() if r not in lost}
    if g.tribes[race].hand and (not lost or _most_read(kept, evidence) > sum(kept.values())
                                + sum(adds.get(r, 0) for r in lost)):
        return None
    before = {r: n - adds.get(r, 0) for r, n in after.items()}
    if not lost:
        counts = _as_read(after, before, evidence, room)
    else:  # what it put on the regions conquered since first, then the rest as read on those it holds
        counts = _claimed(after, adds, kept, evidence)
        counts.update(_as_read({r: counts[r] for r in kept}, {r: before[r] for r in kept}, evidence, room) or {})
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


def heavier_defence(action: Redeploy, region: int, floor: dict[int, int]):
    """The redeployment ``action`` with more tokens on ``region``, taken from its biggest other stack
    (never under ``floor``, the most a sight read there, nor under one): one candidate per count,
    fewest moved first."""
    given = dict(action.tokens)
    others = [r for r in given if r != region]
    if not others:
        return
    source = max(others, key=lambda r: (given[r] - max(1, floor.get(r, 0)), given[r], -r))
    for moved in range(1, given[source] - max(1, floor.get(source, 0)) + 1):
        yield Redeploy(placement({**given, region: given[region] + moved, source: given[source] - moved}), action.race)


def replaced(game: Game, amend: list[tuple[int, Action]], insert: bool = False) -> Game | None:
    """A copy of ``game`` with the amendments made (each replayed and checked; ``insert``: each put
    before the action at its index), ``None`` if one does not fit."""
    g = game.copy()
    try:
        for index, action in amend:
            g.insert(index, action) if insert else g.replace(index, action)
    except IllegalAction:
        return None
    return g


def _one_more(then: Game, after: Game, region: int, kind: str) -> bool:
    """Whether ``after`` holds one more ``kind`` on ``region`` than ``then``, and no other change of markers there."""
    was, now = dict(then.regions[region].markers), dict(after.regions[region].markers)
    was[kind] = was.get(kind, 0) + 1
    return {k: v for k, v in now.items() if v} == {k: v for k, v in was.items() if v}


def _conquered_this_turn(game: Game) -> list[int]:
    """The regions conquered in the turn at play, the latest first."""
    conquered = []
    for action in reversed(game.history):
        if isinstance(action, EndTurn):
            break
        if isinstance(action, Conquer):
            conquered.append(action.region)
    return conquered


def _last_turn_end(game: Game, race: str) -> int | None:
    """The index in the history of the end of the last turn ``race`` played as the active race."""
    g, last = Game(game.setup, game.board), None
    for index, action in enumerate(game.history):
        if isinstance(action, EndTurn) and g.current_player >= 0:
            active = g.active_tribe(g.turn.player)
            last = index if active is not None and active.name == race else last
        g.apply(action)
    return last


def _placed(game: Game, conquest: Conquer) -> int:
    """The tokens a legal ``conquest`` puts on its region."""
    g = game.copy()
    g.apply(conquest)
    return g.regions[conquest.region].tokens


def conquest_by(game: Game, label: str, region: int) -> Conquer:
    """The conquest of ``region`` by the race of ``label``, one of the player at play's: their active
    race's, or one in decline that still conquers (Ghouls) named."""
    race, _ = label_race(label)
    return Conquer(region) if game.tribes.get(race) is game.active_tribe(game.turn.player) else Conquer(region, race)


def holding(game: Game, race: str) -> dict[int, int]:
    return {r: game.regions[r].tokens for r in game.regions_of(race)}


def _turn_again(game: Game, race: str, index: int) -> bool:
    """Whether the player of ``race`` is at play in a turn begun after the action at ``index``."""
    return game.tribes[race].owner == game.turn.player and game.phase != "resettlement" and \
        any(isinstance(a, EndTurn) for a in game.history[index:])  # (a resettlement ends the turn before)
