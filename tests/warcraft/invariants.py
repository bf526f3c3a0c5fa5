"""Invariants of every Small World of Warcraft game, after every action."""
from __future__ import annotations

from collections import Counter

from companion.rules.actions import Pick, Redeploy
from companion.rules.warcraft import pieces


def in_play(game) -> dict[str, int]:
    return {name: t.hand + t.reserve + sum(game.regions[r].tokens for r in game.regions_of(name))
            for name, t in game.tribes.items()}


def check(game, before=None, action=None, bonus: int = 0) -> dict[str, int]:
    rules = game.rules
    for p in game.players:
        assert p.coins >= 0, f"{p.name} has negative coins"
    for rid, rs in game.regions.items():
        assert rs.tokens >= 0
        assert (rs.race is None) == (rs.tokens == 0), f"region {rid}: {rs}"
        if rs.race and rs.race != pieces.MURLOC:
            assert rs.race in game.tribes, f"region {rid} holds {rs.race}, which is not in play"
            if game.board[rid].water:
                assert game.tribes[rs.race].race.conquers_water(), f"region {rid} is water held by {rs.race}"
        for kind in (pieces.FORT, pieces.WATCH_TOWER, pieces.CHAMPION, pieces.BOMB, pieces.FACE_DOWN,
                     pieces.MILITARY_OBJECTIVE) + pieces.ARTIFACTS + pieces.PLACES:
            assert rs.marker(kind) <= 1, f"region {rid} has {rs.marker(kind)} {kind}"
        if rs.marker(pieces.WATCH_TOWER):
            assert rs.race in game.tribes and game.tribes[rs.race].active
    murlocs = sum(rs.tokens for rs in game.regions.values() if rs.race == pieces.MURLOC)
    assert murlocs + game.lost_tribe_tray == pieces.MURLOC_TOKENS
    markers = Counter()
    for rs in game.regions.values():
        markers.update(rs.markers)
    for kind, box in pieces.MARKERS_IN_BOX.items():
        assert game.markers_supply[kind] >= 0
        assert markers[kind] + game.markers_supply[kind] == box, f"{kind}: {markers[kind]} + supply != {box}"
    # every Artifact and Place: face down somewhere, revealed once, or still in the box
    revealed = [k for k in pieces.ARTIFACTS + pieces.PLACES if markers[k]]
    assert sorted(revealed + game.wc.faces_left + game.wc.gone) == sorted(pieces.ARTIFACTS + pieces.PLACES)
    assert markers[pieces.FACE_DOWN] <= len(game.players)
    # bombs: stack + on the board + revealed = 12
    revealed_bombs = sum(pieces.BOMBS.values()) - sum(game.wc.bomb_faces.values())
    assert game.wc.bomb_stack + markers[pieces.BOMB] + revealed_bombs == 12
    assert len(game.wc.bombs) == markers[pieces.BOMB]
    assert len(game.wc.harmony) <= pieces.HARMONY_TOKENS
    # coins: what players and combos hold is the starting coins, the income, and the stash's flows
    income = sum(e["total"] for p in game.players for e in p.income)
    held = sum(p.coins for p in game.players) + sum(s.coins for s in game.column)
    assert held == 5 * len(game.players) + income + game.wc.stash_in - game.wc.stash_out
    between = Counter()
    for frm, to, n, _ in game.wc.transfers:
        assert n > 0
        if frm is not None and to is not None:
            between[frm] -= n
            between[to] += n
    assert sum(between.values()) == 0, "coin transfers between players do not sum to zero"
    now = in_play(game)
    for name, t in game.tribes.items():
        assert t.hand >= 0 and t.reserve >= 0, f"{name}: hand {t.hand}"
        assert game.tray(name) >= 0, f"{name}: more tokens in play than the {rules.box(name)} in the box"
        if before is not None and name in before and now[name] > before[name]:
            gained = now[name] - before[name]
            allowed = isinstance(action, Redeploy) and gained <= bonus or action.act == "values"
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
