"""Small World of Warcraft's box for the shared invariants (tests/rules/invariants.py), with its own
extra invariants: discoveries, bombs, Harmony, and coins (transfers between players sum to zero)."""
from __future__ import annotations

from collections import Counter

from companion.rules.warcraft import pieces

from ..rules.invariants import Box


def discoveries_bombs_and_coins(game, markers: Counter) -> None:
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


WARCRAFT = Box(
    lost_tribe=pieces.MURLOC, lost_tribe_tokens=pieces.MURLOC_TOKENS, markers_in_box=pieces.MARKERS_IN_BOX,
    one_a_region=(pieces.FORT, pieces.WATCH_TOWER, pieces.CHAMPION, pieces.BOMB, pieces.FACE_DOWN,
                  pieces.MILITARY_OBJECTIVE) + pieces.ARTIFACTS + pieces.PLACES,
    active_only=(pieces.WATCH_TOWER,),
    gains=lambda action, gained: action.act == "values",  # the first pick's banner values
    extra=discoveries_bombs_and_coins)
