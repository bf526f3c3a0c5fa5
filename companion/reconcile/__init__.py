"""Reconciliation: the camera's still observations explained as the game's legal actions, or flagged."""
from .follower import Alert, Follower, Outcome, Question, follows, view_of
from .view import Difference, differences, expected_view

__all__ = ["Alert", "Follower", "Outcome", "Question", "follows", "view_of", "Difference", "differences", "expected_view"]
