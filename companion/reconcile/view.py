"""The board as the camera should see it, and where a camera observation differs from it.

A *view* maps each region to ``{label: count}`` with the vision labels: a race name (``ratmen``),
its in-decline side (``ratmen-decline``), ``lost-tribe`` and the markers (``mountain``,
``troll-lair``, ``fortress``, ``encampment``, ``hero``, ``dragon``, ``hole``).

An overhead camera sees only the top of a stack, so a count seen is a lower bound: fewer tokens
seen than the game holds is normal, more is a difference. A marker under race tokens may be
hidden; a race that is not seen at all where the game has it is a difference.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..rules import pieces
from ..rules.actions import Attempt, EndTurn, Redeploy, Resettle, Roll
from ..rules.game import Game

View = dict[int, dict[str, int]]
DECLINE = "-decline"
UNREAD = "?"  # before a label that cannot be on this board: something lies there, not that (``misreads``)


def unread(label: str) -> bool:
    """Whether a label of a sight is a reading that cannot be right (see ``evidence.misreads``)."""
    return label.startswith(UNREAD)


def race_label(game: Game, race: str) -> str:
    if race == pieces.LOST_TRIBE:
        return race
    tribe = game.tribes.get(race)
    return race + DECLINE if tribe is not None and tribe.in_decline else race


def expected_view(game: Game) -> View:
    """What lies on every region, by vision label, with the true counts."""
    view: View = {}
    for rid, rs in game.regions.items():
        here: dict[str, int] = {}
        if rs.race and rs.tokens:
            here[race_label(game, rs.race)] = rs.tokens
        for kind, n in rs.markers.items():
            if n:
                here[kind] = n
        view[rid] = here
    return view


def label_race(label: str) -> tuple[str, bool]:
    """('ratmen', False) for 'ratmen', ('ratmen', True) for 'ratmen-decline'."""
    if label.endswith(DECLINE):
        return label[: -len(DECLINE)], True
    return label, False


def declined_side(game: Game, seen: View) -> View:
    """The sight with a race's tokens read on their active side turned to the in-decline side when
    the game has that race in decline: its tokens never turn back, so that reading is a misread
    of the side (the token's picture is the same race)."""
    declined = {t.name for t in game.tribes.values() if t.in_decline}
    if not any(label in declined for labels in seen.values() for label in labels):
        return seen
    out: View = {}
    for rid, labels in seen.items():
        here: dict[str, int] = {}
        for label, n in labels.items():
            label = label + DECLINE if label in declined else label
            here[label] = here.get(label, 0) + n
        out[rid] = here
    return out


@dataclass(frozen=True)
class Difference:
    """One region where what is seen does not fit the game: the label, how many the game has, how many seen."""

    region: int
    label: str
    expected: int
    seen: int

    @property
    def missing(self) -> bool:
        return self.seen == 0


def in_hand_on_board(game: Game) -> dict[str, int]:
    """Tokens a conquering race holds in hand that may still lie on its regions: the rules ready all
    but one token per region at once, a player lifts them only as the conquests need them."""
    out: dict[str, int] = {}
    if game.finished or game.current_player < 0:
        return out
    for tribe in game.tribes_of(game.turn.player):
        if tribe.readied and not tribe.redeployed and tribe.hand:
            out[race_label(game, tribe.name)] = tribe.hand
    return out


def unseen_tokens(game: Game, seen: View) -> dict[str, int]:
    """Per race label, the tokens the game places that the camera does not see (under stacks): they
    may lie on any region of that race, so later sights of more tokens there are no contradiction."""
    out: dict[str, int] = {}
    for rid, labels in expected_view(game).items():
        for label, n in labels.items():
            if label not in pieces.MARKERS_IN_BOX:
                hidden = n - seen.get(rid, {}).get(label, 0)
                if hidden > 0:
                    out[label] = out.get(label, 0) + hidden
    return out


def differences(game: Game, seen: View, skip: set[int] = frozenset(),
                unseen: dict[str, int] | None = None) -> list[Difference]:
    """Every (region, label) where the sight contradicts the game; regions in ``skip`` are not judged.
    ``unseen`` (from ``unseen_tokens`` of an earlier sight) is how many tokens of a race may lie
    hidden anywhere on its regions."""
    expected = expected_view(game)
    spare = in_hand_on_board(game)
    for label, n in (unseen or {}).items():
        spare[label] = spare.get(label, 0) + n
    out = []
    for rid, want in expected.items():
        if rid in skip or rid not in seen:
            continue
        got = seen[rid]
        has_race = any(label not in pieces.MARKERS_IN_BOX for label in got)
        held = [m for m in pieces.HELD_MARKERS if want.get(m)]
        # the markers that leave with the region's last token, all read there and nothing else: the
        # race still holds it, its tokens (one a marker at most) lie under or among them
        kept = sum(got.get(m, 0) for m in held) if held and all(got.get(m) for m in held) and not has_race else 0
        for label in set(want) | set(got):
            if unread(label):
                continue  # a misread: it tells that something lies there, not what
            e, s = want.get(label, 0), got.get(label, 0)
            if s > e + (spare.get(label, 0) if e else 0):
                out.append(Difference(rid, label, e, s))
            elif e > 0 and s == 0:
                if label in pieces.MARKERS_IN_BOX and has_race:
                    continue  # a marker under the tokens
                if label not in pieces.MARKERS_IN_BOX and e <= kept:
                    continue  # tokens under the markers their race keeps there
                out.append(Difference(rid, label, e, s))
    return sorted(out, key=lambda d: (d.region, d.label))


def playing_labels(game: Game) -> set[str]:
    """The labels of the races of the player whose turn it is."""
    if game.finished or game.current_player < 0:
        return set()
    return {race_label(game, t.name) for t in game.tribes_of(game.turn.player)}


def in_play_labels(game: Game) -> set[str]:
    """The labels of every race on the board's side its tokens show."""
    return {race_label(game, name) for name in game.tribes}


def content(view: View, region: int) -> tuple:
    return tuple(sorted(view.get(region, {}).items()))


def placing_now(game: Game, race: str) -> bool:
    """Whether ``race`` is the active race of the player at play, during the conquests or the
    redeployment: the markers it places may be moving."""
    return not game.finished and game.current_player >= 0 and game.phase in ("conquest", "redeployment") \
        and game.tribes[race] is game.active_tribe(game.turn.player)


def occupied(seen: View, region: int) -> bool:
    """Whether the camera sees race or Lost Tribe tokens on a region."""
    return any(label not in pieces.MARKERS_IN_BOX for label in seen.get(region, {}))


def contents(game: Game, labels: dict[str, int]) -> str:
    """What lies on a region, in words: '2 Ratmen, 1 Mountain' ('nothing' for none)."""
    words = []
    for label, n in sorted(labels.items()):
        if unread(label):
            words.append(f"{n} token(s) it cannot place (read as {label[len(UNREAD):]})")
        elif label in pieces.MARKERS_IN_BOX:
            words.append(f"{n} {pieces.MARKER_NAMES[label]}")
        else:
            race, in_decline = label_race(label)
            title = "Lost Tribe" if race == pieces.LOST_TRIBE else (
                game.rules.race_title(race) if game.rules.is_race(race) else race)
            words.append(f"{n} {title}{' in decline' if in_decline else ''}")
    return ", ".join(words) or "nothing"


def describe(game: Game, seen: View, region: int) -> str:
    """A region as the camera reads it and as the game holds it, in words."""
    return (f"region {region}: the camera reads {contents(game, seen.get(region, {}))}, "
            f"the game has {contents(game, expected_view(game).get(region, {}))}")


def typed_only(before: View, after: View, action) -> bool:
    """An action that changes nothing the camera sees and that no button gives, so the table enters it
    on a phone: a pick, an ally, a decline with no token on the map, the Ghouls in decline redeployed
    where they lay. (The die, the final attempt's region and the end of the turn come from buttons;
    the troop redeployment of the active race with the end of the step, a resettlement as seen.)"""
    if before != after:
        return False
    if isinstance(action, Redeploy):
        return action.race is not None  # a race in decline's: no End Turn gives it
    return not isinstance(action, (Roll, Attempt, EndTurn, Resettle))
