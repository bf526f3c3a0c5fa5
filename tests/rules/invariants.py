"""Invariants that hold after every action of every game, for any ruleset: what differs between
rulesets (their pieces, extra checks) comes in a ``Box``; ``SMALLWORLD`` is the base game's."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Mapping

from companion.rules import pieces
from companion.rules.actions import Convert, Pick, Redeploy


@dataclass(frozen=True)
class Box:
    """What the invariants need to know of a ruleset's box of pieces."""

    lost_tribe: str  # the race that starts on the board (Lost Tribes, Murlocs)
    lost_tribe_tokens: int
    markers_in_box: Mapping[str, int]
    one_a_region: tuple[str, ...]  # markers a region holds at most one of
    active_only: tuple[str, ...]  # markers only on a region of an active race
    gains: Callable  # (action, gained): tokens a race may gain on an action besides its redeployment bonus
    extra: Callable  # (game, markers on the board): the ruleset's own invariants


def in_play(game) -> dict[str, int]:
    return {name: t.hand + t.reserve + sum(game.regions[r].tokens for r in game.regions_of(name))
            for name, t in game.tribes.items()}


def check(game, before: dict[str, int] | None = None, action=None, bonus: int = 0, box: Box | None = None
          ) -> dict[str, int]:
    """Assert every invariant; returns the tokens in play per race, for the next call."""
    box = box or SMALLWORLD
    rules = game.rules
    for p in game.players:
        assert p.coins >= 0, f"{p.name} has negative coins"
    for rid, rs in game.regions.items():
        assert rs.tokens >= 0
        assert (rs.race is None) == (rs.tokens == 0), f"region {rid}: {rs}"
        if rs.race and rs.race != box.lost_tribe:
            assert rs.race in game.tribes, f"region {rid} holds {rs.race}, which is not in play"
            if game.board[rid].water:
                tribe = game.tribes[rs.race]
                assert any(t.conquers_water() for t in (tribe.race, tribe.power)), \
                    f"region {rid} is water held by {rs.race}"
        for kind in box.one_a_region:
            assert rs.marker(kind) <= 1, f"region {rid} has {rs.marker(kind)} {kind}"
        for kind in box.active_only:
            if rs.marker(kind):
                assert rs.race in game.tribes and game.tribes[rs.race].active, f"{kind} on region {rid} of {rs.race}"
    on_board_lost = sum(rs.tokens for rs in game.regions.values() if rs.race == box.lost_tribe)
    assert on_board_lost + game.lost_tribe_tray == box.lost_tribe_tokens
    markers = Counter()
    for rs in game.regions.values():
        markers.update(rs.markers)
    for kind, in_box in box.markers_in_box.items():
        assert game.markers_supply[kind] >= 0
        assert markers[kind] + game.markers_supply[kind] == in_box, f"{kind}: {markers[kind]} + supply != {in_box}"
    box.extra(game, markers)
    now = in_play(game)
    for name, t in game.tribes.items():
        assert t.hand >= 0 and t.reserve >= 0, f"{name}: hand {t.hand}, held back {t.reserve}"
        assert game.tray(name) >= 0, f"{name}: more tokens in play than the {rules.box(name)} in the box"
        if before is not None and name in before and now[name] > before[name]:
            gained = now[name] - before[name]
            allowed = isinstance(action, Redeploy) and gained <= bonus or box.gains(action, gained)
            assert allowed, f"{name} gained {gained} tokens on {action}"
        if before is not None and name not in before:
            assert isinstance(action, Pick)
    for i, p in enumerate(game.players):
        counted = [n for n in p.declined if game.tribes[n].power.counts_toward_decline_limit()]
        assert len(counted) <= 1, f"{p.name} has {counted} in decline"
        for n in p.declined + ([p.active] if p.active else []):
            assert game.tribes[n].owner == i
    races = [s.race for s in game.column] + game.race_stack + list(game.tribes)
    assert sorted(races) == sorted(rules.race_names()), "a race banner was lost or duplicated"
    powers = [s.power for s in game.column if s.power] + game.power_stack + game.power_discard + game.power_pile
    powers += [t.power.name for t in game.tribes.values() if t.active or t.power.keeps_badge_in_decline()]
    assert sorted(powers) == sorted(rules.power_names()), "a special power badge was lost or duplicated"
    return now


def redeploy_bonus(game, action) -> int:
    if not isinstance(action, Redeploy):
        return 0
    tribe = game.active_tribe(game.turn.player) if action.race is None else game.tribes.get(action.race)
    if tribe is None or not tribe.active:
        return 0
    return game.redeployment_bonus(tribe)


def _column_of_six(game, markers) -> None:
    assert len(game.column) <= 6


SMALLWORLD = Box(
    lost_tribe=pieces.LOST_TRIBE, lost_tribe_tokens=pieces.LOST_TRIBE_TOKENS, markers_in_box=pieces.MARKERS_IN_BOX,
    one_a_region=(pieces.FORTRESS, pieces.TROLL_LAIR, pieces.HOLE, pieces.DRAGON, pieces.HERO),
    active_only=pieces.IMMUNITY_MARKERS,
    gains=lambda action, gained: isinstance(action, Convert) and gained == 1,  # Sorcerers: one token from the tray
    extra=_column_of_six)
