"""Invariants that hold after every action of every game."""
from __future__ import annotations

from collections import Counter

from companion.rules import pieces
from companion.rules.actions import Convert, Pick, Redeploy


def in_play(game) -> dict[str, int]:
    out = {}
    for name, t in game.tribes.items():
        out[name] = t.hand + t.reserve + sum(game.regions[r].tokens for r in game.regions_of(name))
    return out


def check(game, before: dict[str, int] | None = None, action=None, bonus: int = 0) -> dict[str, int]:
    """Assert every invariant; returns the tokens in play per race, for the next call."""
    rules = game.rules
    for p in game.players:
        assert p.coins >= 0, f"{p.name} has negative coins"
    for rid, rs in game.regions.items():
        assert rs.tokens >= 0
        assert (rs.race is None) == (rs.tokens == 0), f"region {rid}: {rs}"
        if rs.race and rs.race != pieces.LOST_TRIBE:
            assert rs.race in game.tribes, f"region {rid} holds {rs.race}, which is not in play"
            if game.board[rid].water:
                assert game.tribes[rs.race].power.conquers_water(), f"region {rid} is water held by {rs.race}"
        for kind in (pieces.FORTRESS, pieces.TROLL_LAIR, pieces.HOLE, pieces.DRAGON, pieces.HERO):
            assert rs.marker(kind) <= 1, f"region {rid} has {rs.marker(kind)} {kind}"
        for kind in pieces.IMMUNITY_MARKERS:
            if rs.marker(kind):
                assert rs.race in game.tribes and game.tribes[rs.race].active, f"{kind} on region {rid} of {rs.race}"
    on_board_lost = sum(rs.tokens for rs in game.regions.values() if rs.race == pieces.LOST_TRIBE)
    assert on_board_lost + game.lost_tribe_tray == pieces.LOST_TRIBE_TOKENS
    markers = Counter()
    for rs in game.regions.values():
        markers.update(rs.markers)
    for kind, box in pieces.MARKERS_IN_BOX.items():
        assert game.markers_supply[kind] >= 0
        assert markers[kind] + game.markers_supply[kind] == box, f"{kind}: {markers[kind]} + supply != {box}"
    now = in_play(game)
    for name, t in game.tribes.items():
        assert t.hand >= 0 and t.reserve >= 0, f"{name}: hand {t.hand}, held back {t.reserve}"
        assert game.tray(name) >= 0, f"{name}: more tokens in play than the {rules.box(name)} in the box"
        if before is not None and name in before and now[name] > before[name]:
            gained = now[name] - before[name]
            allowed = (isinstance(action, Convert) and gained == 1) or \
                      (isinstance(action, Redeploy) and gained <= bonus)
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
    assert len(game.column) <= 6
    return now


def redeploy_bonus(game, action) -> int:
    if not isinstance(action, Redeploy):
        return 0
    tribe = game.active_tribe(game.turn.player) if action.race is None else game.tribes.get(action.race)
    if tribe is None or not tribe.active:
        return 0
    return sum(t.redeployment_bonus_tokens(game, tribe) for t in (tribe.race, tribe.power))
