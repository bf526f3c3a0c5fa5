"""Reconciliation: the camera's still observations explained as the game's legal actions, or flagged.

The stages, one module each: ``evidence`` (what the sights say), ``hypotheses`` (what legal actions
could explain it), ``corrections`` (earlier actions seen better), ``decision`` (apply, ask, alert,
hold); ``follower`` runs them for each input; ``view`` is the board as the game expects it.
"""
from .decision import Alert, Outcome, Question
from .evidence import view_of
from .follower import LOOKS, Follower, follows
from .view import Difference, differences, expected_view

__all__ = ["LOOKS", "Alert", "Follower", "Outcome", "Question", "follows", "view_of", "Difference", "differences", "expected_view"]
