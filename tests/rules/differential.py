"""The differential check of ``legal_actions()``: on a position, every action a player could name
(every kind, every region, every argument the position allows) is asked of ``explain``; the set it
accepts must equal what ``legal_actions()`` lists, except placements (a distribution of tokens or
markers: ``PLACEMENTS``), of which every one listed must be accepted and one at least is listed
whenever the simplest one is legal."""
from __future__ import annotations

from itertools import combinations

from companion.rules import actions as A
from companion.rules.game import Game


def _regions(game: Game) -> list[int]:
    return list(game.board.ids)


def named_actions(game: Game) -> list[A.Action]:
    """Every non-placement action a player could name now, legal or not."""
    rids = _regions(game)
    me = game.turn.player
    # the active race's actions are written without its name (naming it is the same action)
    races = [None] + [t.name for t in game.tribes_of(me) if t.in_decline]
    out: list[A.Action] = [A.Decline(), A.EndTurn()]
    out += [A.Pick(r) for r in game.rules.race_names()]
    out += [A.Reveal(p) for p in game.rules.power_names()]
    out += [A.Roll(f) for f in range(4)]
    for race in races:
        for rid in rids:
            out += [A.Conquer(rid, race), A.Attempt(rid, race), A.Abandon(rid, race)]
    for rid in rids:
        out += [A.DragonConquer(rid), A.Convert(rid), A.Fortify(rid)]
    held = [rid for t in game.tribes_of(me) for rid in game.regions_of(t.name)]
    out += [A.Heroes((r,)) for r in held] + [A.Heroes(p) for p in combinations(sorted(held), 2)]
    out += [A.Ally(p) for p in range(len(game.players))]
    if game.rules.name == "warcraft":
        out += _warcraft_named(game, rids, held)
    return out


def _warcraft_named(game, rids, held):
    from companion.rules.warcraft import actions as W
    from companion.rules.warcraft import pieces as P
    out = [W.Form("human"), W.Form("worgen"), W.Side("alliance"), W.Side("horde")]
    out += [W.Enlist(n) for n in range(1, 21)]
    awaiting = game.awaiting()
    if awaiting and awaiting[0] == "discover":
        out += [W.Discover(awaiting[1], f) for f in P.ARTIFACTS + P.PLACES]
    if awaiting and awaiting[0] == "detonate":
        out += [W.Detonate(awaiting[1], f) for f in ("exploding", "dud")]
    for rid in rids:
        out += [W.Airborne(rid), W.ChampionConquer(rid), W.Objectives((rid,))]
        out += [W.Use(item, rid) for item in ("ashes-of-alar", "doomhammer", "frostmourne")]
        out += [W.Place(item, rid) for item in ("aegis-of-aggramar", "heart-of-azeroth", P.CHAMPION)]
        near = sorted(game.board[rid].adjacent)
        out += [W.Steal(rid, to) for to in near]
        out += [W.Intimidate(rid, to) for to in [0] + rids]
    out += [W.Objectives(p) for p in combinations(rids, 2)]
    magic = [rid for rid in rids if game.board[rid].magic]
    out += [W.Portal(p) for p in combinations(magic, 2)]
    return out


def check(game: Game) -> int:
    """Assert the differential on this position; returns how many actions it asked about."""
    listed = game.legal_actions()
    assert len(listed) == len(set(listed)), "legal_actions() lists an action twice"
    for a in listed:
        assert game.explain(a) is None, f"legal_actions() lists {a} but explain says {game.explain(a)}"
    named = named_actions(game)
    accepted = {a for a in named if game.explain(a) is None}
    exact = {a for a in listed if not isinstance(a, type(game).PLACEMENTS)}
    values = {a for a in listed if a.act == "values"}  # one representative of the numbers read off
    assert accepted - exact == set(), f"legal but not listed: {sorted(map(str, accepted - exact))[:5]}"
    assert exact - values - accepted == set(), f"listed, not named: {sorted(map(str, exact - accepted))[:5]}"
    _placements_offered(game, listed)
    return len(named)


def _placements_offered(game: Game, listed) -> None:
    """Whenever the simplest redeployment (everything into the first region) is legal, one is listed."""
    for tribe in game.tribes_of(game.turn.player):
        held = game.regions_of(tribe.name)
        if not held or game.phase not in ("pick", "conquest"):
            continue
        total = game.tokens_to_redeploy(tribe)
        race = None if tribe.active else tribe.name
        spread = {r: 1 for r in held}
        spread[held[0]] += total - len(held)
        if total >= len(held) and game.explain(A.Redeploy(A.placement(spread), race)) is None:
            assert any(isinstance(a, A.Redeploy) and a.race == race for a in listed), \
                f"a redeployment of the {tribe.name} is legal, none listed"
