"""Resynchronising: the table says "the board is right", and the record is put in step with it.

The whole board is read as the camera last saw it (every region, however unsure vision was, but
those under a hand and the readings that cannot be on this board), and the smallest set of
corrections that makes the record agree is found: the last few actions taken back (a misread
conquest, a redeployment taken too early), then the legal actions that explain the board, tried
through the engine like any hypothesis, so the coins are the rules' own. The table confirms it once.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..rules.actions import Action, Conquer, DragonConquer, EndTurn, Redeploy
from ..rules.game import Game
from .hypotheses import Budget, Hints, guess_redeploy, redeploying, search
from .view import View, differences, unread

REWIND_MOST = 8  # actions taken back at most: no further than the start of the turn before
# what the whole search may spend: states of the game tried over every rewind (a few hundred
# milliseconds here), and at most this long on the clock on a slow machine
NODES_MOST = 240
SECONDS_MOST = 0.8
OUT_SHARE = 0.5  # ... and as much again in states, half as long, for a conquest taken out where it stands


@dataclass
class Resync:
    """Take back the last ``rewind`` actions, then play ``actions``: the board then differs from the
    record on ``left`` regions (0: they agree)."""

    rewind: int
    actions: list[Action]
    left: int
    regions: list[int]  # the regions where the record and the board disagreed
    # a move taken out where it stands (the first one taken back): the rest played again, ``kept`` of
    # them as they were, the others (a redeployment that named its region) as the camera shows them
    out: Action | None = None
    kept: int = 0

    @property
    def changes(self) -> int:
        if self.out is not None:  # the move taken out, each move played otherwise, the moves found after
            return 1 + len(self.actions) - self.kept
        return self.rewind + len(self.actions)

    def describe(self, game: Game) -> str:
        if self.out is not None:
            again = game.history[len(game.history) - self.rewind + 1:]
            parts = [f"take out {self.out.notation()}"]
            parts += [f"{was.notation()} becomes {now.notation()}" for was, now in zip(again, self.actions)
                      if was != now]
            if self.actions[len(again):]:
                parts.append("then " + ", ".join(a.notation() for a in self.actions[len(again):]))
            return "; ".join(parts)
        taken = [a.notation() for a in game.history[len(game.history) - self.rewind:]] if self.rewind else []
        parts = []
        if taken:
            parts.append("take back " + ", ".join(taken))
        if self.actions:
            parts.append(("then " if taken else "") + ", ".join(a.notation() for a in self.actions))
        return "; ".join(parts) or "no legal moves found that explain it"


def readable(seen: View, hidden: set[int]) -> set[int]:
    """The regions not to judge when the board is right: under a hand, or read as what cannot be there."""
    return set(hidden) | {rid for rid, labels in seen.items() if any(unread(label) for label in labels)}


def _earliest(game: Game) -> int:
    """How far back corrections may reach: the start of the turn before the one at play."""
    ends = [k for k, a in enumerate(game.history) if isinstance(a, EndTurn)]
    start = ends[-2] + 1 if len(ends) >= 2 else 0
    return max(start, len(game.history) - REWIND_MOST)


def resync(game: Game, seen: View, hidden: set[int], unseen: dict[str, int] | None = None,
           room: dict[int, int] | None = None) -> Resync:
    """The smallest set of corrections that makes the record agree with ``seen``: fewest regions left
    disagreeing, then fewest actions taken back and played; the best found within the search's
    budget (``NODES_MOST`` states of the game tried, ``SECONDS_MOST`` on the clock)."""
    budget = Budget(NODES_MOST, time.thread_time() + SECONDS_MOST)
    skip = readable(seen, hidden)
    regions = sorted({d.region for d in differences(game, seen, skip, unseen)})
    best = Resync(0, [], len(regions), regions)
    if not regions:
        return best
    for rewind in range(0, len(game.history) - _earliest(game) + 1):
        if budget.spent():
            break
        g = game if rewind == 0 else Game.replay(game.setup, game.history[:len(game.history) - rewind], game.board)
        if rewind and len({d.region for d in differences(g, seen, skip, unseen)}) > best.left + rewind + 4:
            continue  # taking back this far makes the picture much worse
        found = search(g, seen, skip, Hints(), unseen, room, budget)[0]
        left = len({d.region for d in found.remaining})
        trial = Resync(rewind, list(found.actions), left, regions)
        if (trial.left, trial.changes) < (best.left, best.changes):
            best = trial
        if best.left == 0 and best.changes <= rewind:
            break  # no further rewind can be smaller
    if best.left:  # a conquest the camera misread, further back: taken out where it stands (a search
        # of its own: the rewinds may have spent theirs)
        for trial in _taken_out(game, seen, skip, unseen, room,
                                Budget(NODES_MOST, time.thread_time() + SECONDS_MOST * OUT_SHARE)):
            if (trial.left, trial.changes) < (best.left, best.changes):
                best = Resync(trial.rewind, trial.actions, trial.left, regions, trial.out, trial.kept)
    return best


def _taken_out(game: Game, seen: View, skip: set[int], unseen, room, budget: Budget):
    """The record with one recent conquest taken out (the camera misread it, the record went on from
    there): the moves after it played again through the engine, a troop redeployment that no longer
    fits (it named the region) as the camera shows it now, then the legal actions that explain what
    is left of the board. Latest first, within the search's budget."""
    history = game.history
    for k in range(len(history) - 1, _earliest(game) - 1, -1):
        if budget.spent():
            return
        if not isinstance(history[k], (Conquer, DragonConquer)):
            continue
        budget.nodes -= 1
        g = Game.replay(game.setup, history[:k], game.board)
        played, kept = [], 0
        for action in history[k + 1:]:
            budget.nodes -= 1
            if g.explain(action) is not None:
                tribe, race = redeploying(g)
                if not isinstance(action, Redeploy) or tribe is None:
                    break
                action = guess_redeploy(g, tribe, seen, race=race, room=room)
                if g.explain(action) is not None:
                    break
            else:
                kept += 1
            g.apply(action)
            played.append(action)
        else:
            if budget.spent():
                return
            found = search(g, seen, skip, Hints(), unseen, room, budget)[0]
            yield Resync(len(history) - k, played + list(found.actions), len({d.region for d in found.remaining}),
                         [], history[k], kept)
