"""Evidence: what the sights say, region by region, accumulated over the sights with vision's confidence.

Each still sight of the board is taken in here first: which regions can be judged (not under a hand,
read surely enough, read right before), what each region read and when it changed, the counts read
on each region of a race since its last redeployment (a later sight amends it), the markers sighted,
and the regions the table told the camera to read as the game has them. The hypotheses and the
decision read this; nothing here changes the game.
"""
from __future__ import annotations

from ..rules import pieces
from ..rules.game import Game
from .view import (DECLINE, UNREAD, View, content, declined_side, differences, expected_view, in_play_labels,
                   label_race, occupied, playing_labels, race_label, unread, unseen_tokens)


def view_of(observation) -> tuple[View, set[int]]:
    """A vision ``Observation`` (or anything shaped like it) as a view and the occluded regions."""
    seen: View = {}
    hidden: set[int] = set()
    for rid, region in observation.regions.items():
        seen[int(rid)] = {str(k): int(v) for k, v in region.tokens.items() if int(v) > 0}
        if region.occluded:
            hidden.add(int(rid))
    return seen, hidden


def unsure_of(observation, confidence: dict[int, float], below: float) -> set[int]:
    """Regions where vision read tokens with a confidence under ``below`` (``confidence``: that of the pieces
    the follower judges there, ``judged_confidence``, by region): likely misreads (glare, blur), so the
    follower neither acts on them alone nor raises an alert for them."""
    return {int(rid) for rid, region in observation.regions.items()
            if region.tokens and not region.occluded and confidence[int(rid)] < below}


def judged_confidence(game: Game, region_id: int, region) -> float:
    """How sure vision is of the pieces on a region that can tell the follower something: the lowest
    confidence of the pieces read there, leaving out the markers the game holds there already (a
    Mountain where the map has one, a Fortress the game placed; no more of them than it holds) as
    long as something else is read beside them. Such a marker agrees with the game however unsure
    vision is of its look (another printing's Mountain is read at a confidence near 0), while the
    race tokens beside it are what a move changes: an illegal conquest onto a Mountain is flagged on
    the conquerors' own confidence. Read alone, a held marker keeps its doubt: tokens stacked on a
    Mountain may be what was read as it. An observation with no confidence per label (``confidences``)
    gives the region's."""
    confidence = float(getattr(region, "confidence", 1.0))
    if not getattr(region, "confidences", None):
        return confidence
    held = game.regions[region_id].markers if region_id in game.regions else {}
    judged = [label for label, n in region.tokens.items()
              if not (label in pieces.MARKERS_IN_BOX and 0 < n <= held.get(label, 0))]
    return region.confidence_of(judged) if judged else confidence


def misreads(game: Game, seen: View, told_apart: set[int] = frozenset()) -> tuple[View, set[int]]:
    """The sight with what cannot be on this board taken out, and the regions it was read on (they
    are unsure: something lies there, but not that). A Lost Tribe never moves onto a region; a
    Mountain lies where the map has one; the Dragon, a Hole-in-the-Ground, Heroes, a Fortress or an
    Encampment only come with a race or power in play (or lie on the board already); the in-decline
    side of a race no player has, or the active side of one neither in play nor in the column, or the
    in-decline side of an active race off its own regions (a decline turns its tokens over where they
    lie, a conquest shows the active side), is another token's picture: it is kept as unread
    (``view.UNREAD``: it tells that tokens lie there, and how many) and never compared with the game. One more misread comes from the sides alone: the in-decline sides of
    the races look alike (grey), so another race's in-decline side read on most of the regions of
    a race is that race's own, turned; but not on the regions ``told_apart``, where this camera
    read that race's own side since the game last changed them: another side there is a move."""
    brought = {m for t in game.tribes.values()
               for m in t.race.markers_placed + t.power.markers_placed
               + t.race.markers_removed_on_decline + t.power.markers_removed_on_decline}
    brought |= {m for rs in game.regions.values() for m, n in rs.markers.items() if n}
    brought.add(pieces.TROLL_LAIR)  # placed by a conquest as it happens: the search sees it with the race
    in_column = {slot.race for slot in game.column}

    def possible(rid: int, label: str) -> bool:
        if label == pieces.MOUNTAIN:
            return bool(game.regions[rid].marker(pieces.MOUNTAIN))
        if label in pieces.MARKERS_IN_BOX:
            return label in brought
        race, in_decline = label_race(label)
        if race == pieces.LOST_TRIBE:
            return game.regions[rid].race == pieces.LOST_TRIBE
        if in_decline and race in game.tribes and not game.tribes[race].in_decline:
            return game.regions[rid].race == race  # an active race turns over where it lies, and conquers active
        return race in game.tribes or (not in_decline and race in in_column)

    out: View = {}
    impossible: set[int] = set()
    for rid, labels in _grey_sides(game, seen, told_apart).items():
        here: dict[str, int] = {}
        for label, n in labels.items():
            if rid in game.regions and not unread(label) and not possible(rid, label):
                label = UNREAD + label
                impossible.add(rid)
            here[label] = here.get(label, 0) + n
        out[rid] = here
    return out, impossible


def _grey_sides(game: Game, seen: View, told_apart: set[int]) -> View:
    """Another race's in-decline side read on most regions of a race (its player declining it in
    their turn, or a race in decline already) is that race's own side: the sides look alike. A decline
    turns every region over: while as many of the active race's regions still show its active side as
    show an in-decline side, the grey token is another race in decline put there (an illegal move)."""
    out = seen
    for tribe in game.tribes.values():
        held = game.regions_of(tribe.name)
        own = race_label(game, tribe.name)
        mine = own if tribe.in_decline else own + DECLINE
        if tribe.active and tribe.owner != game.current_player:
            continue  # an active race turns over only in its player's turn
        grey = [r for r in held if own not in seen.get(r, {}) and mine not in seen.get(r, {})
                and any(label_race(label)[1] for label in seen.get(r, {})) and r not in told_apart]
        if not grey or 2 * len(grey) < len(held):
            continue
        if tribe.active and len(grey) + sum(mine in seen.get(r, {}) for r in held) \
                <= sum(own in seen.get(r, {}) for r in held):
            continue  # as many regions still show the active side: a race in decline put on one, no decline
        out = dict(out) if out is seen else out
        for r in grey:
            here: dict[str, int] = {}
            for label, n in seen[r].items():
                label = mine if label_race(label)[1] else label
                here[label] = here.get(label, 0) + n
            out[r] = here
    return out


BIAS = 3  # sights a region reads wrong the same way, unexplained, before that reading is its bias (``biased``)


class Evidence:
    """Per region, what the camera has read and how far to trust it."""

    def __init__(self):
        self.last_seen: View | None = None
        self.before: View | None = None  # the sight before ``last_seen`` (what changed on the board)
        self.readings: View = {}  # region -> the camera's last reading of it not under a hand
        self.last_unknown: set[int] = set()  # regions of the last sight that could not be judged
        self.last_hidden: set[int] = set()  # of those, the ones under a hand
        self.room: dict[int, int] = {}  # region -> how many tokens lie on it side by side (from vision)
        self.accepted: dict[int, tuple] = {}  # region -> what the camera sees there, accepted by the table
        self.unseen: dict[str, int] = {}  # race label -> tokens the camera does not see (under stacks)
        # region -> what the game held there when the camera last read it so (see ``unconfirmed``)
        self.confirmed: dict[int, tuple] = {}
        # (region, marker) read where the game has none, on a region of a race that places it
        self.sightings: set[tuple[int, str]] = set()
        # race -> region -> count read there -> the sights that read it (numbered), since its last
        # redeployment or resettlement; ``doubts``: the same from the readings vision was unsure of
        self.counts: dict[str, dict[int, dict[int, list[int]]]] = {}
        self.doubts: dict[str, dict[int, dict[int, list[int]]]] = {}
        self.sights = 0  # the sights gathered so far (they number the readings)
        # region -> what the game held there when the camera last read its race in decline's own side
        # there (``told_apart``)
        self.own_side: dict[int, tuple] = {}
        self.confidence: dict[int, float] = {}  # region -> vision's confidence in this sight (1 when not given)
        # region -> (its reading, the confidence summed over the sights running that read it so): the vote
        self.streak: dict[int, tuple[tuple, float]] = {}
        self.holding = False  # a vote over still frames is under way: what changed is judged against before it
        self.held: View | None = None  # the readings before the vote began
        # (region, its reading, what the game held there) -> the sights that read it so and that no
        # action explained: a region that reads wrong the same way sight after sight (a lamp's glare,
        # a token whose picture this camera takes for another) has a bias, and that reading is no news
        self.bias: dict[tuple, int] = {}
        # (region, what the game held there) -> the sights that read it wrong, vision unsure, with no
        # action explaining it: a spot this camera cannot read (a lamp's glare), whatever it reads there
        self.blurred: dict[tuple, int] = {}
        self.low: set[int] = set()  # the regions vision read unsurely in the last sight
        # the regions of the last sight read as something that cannot be there, contested by two races
        # or read wrong the same way again and again: their counts are doubts (see ``gather``)
        self.suspect: set[int] = set()

    def take(self, game: Game, seen: View, hidden: set[int], unsure: set[int]):
        """Take one sight in: returns the sight as judged (the accepted regions read as the game has
        them), the regions not to judge alone (``unsure``: vision unsure, a blind spot, a region
        contested by two races; minus the tokens moved onto a region, which are trusted), the readings
        before this sight, and the markers sighted before it."""
        seen = declined_side(game, seen)
        seen, impossible = misreads(game, seen, self.told_apart(game, seen, hidden))
        self.low = set(unsure) - set(hidden)
        unsure = set(unsure) | (impossible - hidden)
        self.vote(seen, hidden)
        if seen != self.last_seen:  # during a vote, a change is still one since the vote began
            self.before, self.last_seen = (self.before if self.holding else self.last_seen), seen
        seen = self.with_accepted(game, seen)
        if not self.holding:
            self.held = dict(self.readings)
        previous = dict(self.held if self.held is not None else self.readings)
        sighted_before = set(self.sightings)
        self.sight_markers(game, seen, hidden | set(unsure))
        self.readings.update({rid: labels for rid, labels in seen.items() if rid not in hidden})
        unsure = set(unsure) | self.unconfirmed(game, seen, hidden)
        # tokens moved onto a region are trusted however unsure vision is, but on a spot it cannot read
        changed = {r for r in unsure if self.changed(r)} - self.unreadable(game, self.low)
        unsure -= moved_onto(game, seen, changed, playing_labels(game))
        unsure -= moved_onto(game, seen, self.read_right(game, changed), in_play_labels(game))
        suspect = (impossible - hidden) | contested(game, seen, hidden) | self.biased(game, seen, hidden)
        unsure |= suspect
        self.suspect = suspect
        self.last_unknown, self.last_hidden = hidden | unsure, hidden
        return seen, unsure, previous, sighted_before

    def vote(self, seen: View, hidden: set[int]) -> None:
        """Each region's reading weighed by vision's confidence, summed over the sights running that
        read it the same (still frames of one board whose light's noise differs: a misread by noise
        rarely repeats, a token that lies there does)."""
        for rid, labels in seen.items():
            if rid in hidden:
                continue
            reading = content(seen, rid)
            was, weight = self.streak.get(rid, ((), 0.0))
            c = self.confidence.get(rid, 1.0)
            self.streak[rid] = (reading, weight + c if was == reading else c)

    def sure(self, region: int) -> float:
        """How sure the sights are of a region's reading (see ``vote``)."""
        return self.streak.get(region, ((), 1.0))[1]

    def accept(self, game: Game, region: int) -> None:
        """The table says the board is right as the camera sees this region (a misread)."""
        if self.last_seen is not None and region in self.last_seen:
            self.accepted[region] = (tuple(sorted(self.last_seen[region].items())),
                                     tuple(sorted(expected_view(game)[region].items())))

    def forget(self, races) -> None:
        """The counts read for races no longer in play."""
        for kept in (self.counts, self.doubts):
            for race in [race for race in kept if race not in races]:
                del kept[race]

    def restart(self, race: str) -> None:
        """A new redeployment or resettlement of ``race``: the counts read from now on tell about it."""
        self.counts[race], self.doubts[race] = {}, {}

    def sight_markers(self, game: Game, seen: View, skip: set[int]) -> None:
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

    def uncovered(self, game: Game, seen: View, previous: View, skip: set[int]) -> set[tuple[int, str]]:
        """(region, marker) the player at play just uncovered: a marker that stays where it is put
        (placed by its race or power and not taken off in decline: a Fortress), read where the game
        has none on a region whose stack of the active race the last reading showed without it and
        this one shows lower (the player readied the troops: all but one token lifted). It lay under
        the stack, placed as the race's last turn ended; it is no misread (lifting the tokens is
        why it shows now), nor one placed now."""
        if game.finished or game.current_player < 0 or game.phase != "conquest" or game.turn.expanded:
            return set()  # the readying is the first thing a turn shows
        tribe = game.active_tribe(game.turn.player)
        if tribe is None:
            return set()
        label = race_label(game, tribe.name)
        stays = [m for m in tribe.race.markers_placed + tribe.power.markers_placed
                 if m not in tribe.race.markers_removed_on_decline + tribe.power.markers_removed_on_decline]
        out = set()
        for rid in game.regions_of(tribe.name):
            was, now = previous.get(rid, {}), seen.get(rid, {})
            if rid in skip or not 0 < now.get(label, 0) < was.get(label, 0):
                continue
            out |= {(rid, m) for m in stays if now.get(m, 0) > max(game.regions[rid].marker(m), was.get(m, 0))}
        return out

    def gather(self, game: Game, seen: View, hidden: set[int], unsure: set[int]) -> None:
        """Note which sight read which count on each region of a race since its last redeployment
        or resettlement (``_as_read`` weighs them); a region where none is read gives nothing (they
        may lie under something, or be misread). Vision's confidence doubts what a token is, not that it
        lies there: read as the race the game has there, a count read unsurely weighs like one read
        surely (on dev boards, counts read so over-counted 0 of 346 times on realistic, 0 of 407 on
        hard, 7 of 363 on foreign: lone tokens read as two). The readings of a region unsure for
        another reason (read as what cannot lie there, contested by two races, wrong the same way
        again and again: ``suspect``; never read as the game has it) are kept apart: they count only
        while the region has no other."""
        self.sights += 1
        for race, readings in self.counts.items():
            label = race_label(game, race)
            held = set(game.regions_of(race))
            doubts = self.doubts.setdefault(race, {})
            for kept in (readings, doubts):
                for r in [r for r in kept if r not in held]:
                    del kept[r]
            doubted = set(unsure) - (self.low - self.suspect)
            for r in held - hidden:
                if n := seen.get(r, {}).get(label, 0):
                    (doubts if r in doubted else readings).setdefault(r, {}).setdefault(n, []).append(self.sights)

    def readings_of(self, race: str) -> dict[int, dict[int, list[int]]]:
        """The counts read on each region of ``race`` (see ``_gather``): the sure ones where there are."""
        return {**self.doubts.get(race, {}), **self.counts.get(race, {})}

    def changed(self, region: int) -> bool:
        """Whether the camera's reading of a region changed in the last sight (or was never taken)."""
        return self.before is None or self.before.get(region) != self.last_seen.get(region)

    def confirm(self, game: Game, seen: View, hidden: set[int], remaining) -> None:
        """Remember the regions this sight reads as ``game`` has them, and how the others read wrong
        (see ``biased``)."""
        wrong = {d.region for d in remaining} | {d.region for d in differences(game, seen, hidden, self.unseen)}
        want = expected_view(game)
        for rid in seen:
            if rid not in hidden and rid not in wrong:
                self.confirmed[rid] = content(want, rid)
        for rid in wrong - set(hidden):
            key = (rid, content(seen, rid), content(want, rid))
            self.bias[key] = self.bias.get(key, 0) + 1
            if rid in self.low:
                self.blurred[rid, key[2]] = self.blurred.get((rid, key[2]), 0) + 1

    def unreadable(self, game: Game, regions: set[int]) -> set[int]:
        """Of ``regions`` (read unsurely now), those read wrong and unsurely in ``BIAS`` sights or more
        that no action explained while the game held the same there: a spot this camera cannot read
        (a lamp's glare: it reads a different race there every other sight), where no reading is news."""
        if not self.blurred or not regions:
            return set()
        want = expected_view(game)
        return {r for r in regions if self.blurred.get((r, content(want, r)), 0) >= BIAS}

    def biased(self, game: Game, seen: View, hidden: set[int]) -> set[int]:
        """Regions that read wrong the very way they read in ``BIAS`` sights or more that no action
        explained, while the game holds the same there: a standing misread of this camera (the
        region's bias), unsure: it neither moves the game nor is news, however sure vision is."""
        if not self.bias:
            return set()
        want = expected_view(game)
        return {rid for rid in seen if rid not in hidden
                and self.bias.get((rid, content(seen, rid), content(want, rid)), 0) >= BIAS}

    def told_apart(self, game: Game, seen: View, hidden: set[int]) -> set[int]:
        """The regions of a race in decline where this camera has read that race's own in-decline
        side (this sight included) since the game last changed them: it tells the grey sides apart
        there (see ``misreads``)."""
        want = expected_view(game)
        for rid, labels in seen.items():
            race = game.regions[rid].race if rid in game.regions and rid not in hidden else None
            if race in game.tribes and game.tribes[race].in_decline and race_label(game, race) in labels:
                self.own_side[rid] = content(want, rid)
        return {r for r, held in self.own_side.items() if held == content(want, r)}

    def read_right(self, game: Game, regions: set[int]) -> set[int]:
        """Of ``regions``, those the camera last read as the game has them now."""
        want = expected_view(game) if regions else {}
        return {r for r in regions if self.confirmed.get(r) == content(want, r)}

    def unconfirmed(self, game: Game, seen: View, hidden: set[int]) -> set[int]:
        """Regions that differ from the game but that the camera has never read as the game has them
        since the game last changed them: a blind spot of this camera (a token the colour of the board
        under it, a lamp's glare), not a move. They are unsure (see ``see``); a region the camera read
        right before, and that no move of the game has changed, is trusted when it changes; so is one
        that shows a race of the player whose turn it is (that player is moving those tokens)."""
        want = expected_view(game)
        playing = playing_labels(game)
        return {d.region for d in differences(game, seen, hidden, self.unseen)
                if self.confirmed.get(d.region) != content(want, d.region)
                and not playing.intersection(seen.get(d.region, {}))}

    def remember_unseen(self, game: Game, seen: View, remaining) -> None:
        """Tokens the camera does not see now may lie anywhere on their race's regions later."""
        if not remaining:
            self.unseen = unseen_tokens(game, seen)

    def with_accepted(self, game: Game, seen: View) -> View:
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


def moved_onto(game: Game, seen: View, regions: set[int], labels: set[str]) -> set[int]:
    """Of the unsure ``regions`` whose reading just changed (a misread that stood before the move is
    no move), those showing one of ``labels`` for a race the game does not have there: tokens moved
    onto the region, so trusted even when vision is unsure (an illegal conquest must be flagged at
    once). ``see`` trusts a race of the player whose turn it is on any changed region (a conquest,
    by far the likeliest change on the board) and any race in play on a region the camera read right
    before (tokens moved onto a region it knew; one it never read right may be a blind spot)."""
    return {r for r in regions
            if any(label in labels and game.regions[r].race != label_race(label)[0] for label in seen.get(r, {}))}


def contested(game: Game, seen: View, hidden: set[int]) -> set[int]:
    """Regions where the camera sees a race of the player at play next to the tokens of the race the
    game has there: no conquest yet (a conquest takes the defenders away), more likely a misread
    token or a move half made; they are unsure until the region shows one race."""
    labels = playing_labels(game)
    out = set()
    for rid, here in seen.items():
        held = game.regions[rid].race
        if rid in hidden or not held or not labels.intersection(here) or race_label(game, held) in labels:
            continue
        if here.get(race_label(game, held)):
            out.add(rid)
    return out


def trusting(game: Game, seen: View, unsure: set[int]) -> View:
    """The sight with its unsure regions read as the game has them."""
    if not unsure:
        return seen
    want = expected_view(game)
    return {rid: (dict(want.get(rid, {})) if rid in unsure else labels) for rid, labels in seen.items()}
