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

from ..rules.actions import Action, EndTurn
from ..rules.game import Game
from .hypotheses import Budget, Hints, search
from .view import View, differences, unread

REWIND_MOST = 8  # actions taken back at most: no further than the start of the turn before
# what the whole search may spend: states of the game tried over every rewind (a few hundred
# milliseconds here), and at most this long on the clock on a slow machine
NODES_MOST = 240
SECONDS_MOST = 0.8


@dataclass
class Resync:
    """Take back the last ``rewind`` actions, then play ``actions``: the board then differs from the
    record on ``left`` regions (0: they agree)."""

    rewind: int
    actions: list[Action]
    left: int
    regions: list[int]  # the regions where the record and the board disagreed

    @property
    def changes(self) -> int:
        return self.rewind + len(self.actions)

    def describe(self, game: Game) -> str:
        taken = [a.notation() for a in game.history[len(game.history) - self.rewind:]] if self.rewind else []
        parts = []
        if taken:
            parts.append("take back " + ", ".join(taken))
        if self.actions:
            parts.append(("then " if taken else "") + ", ".join(a.notation() for a in self.actions))
        return "; ".join(parts) or "nothing to change"


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
    return best
