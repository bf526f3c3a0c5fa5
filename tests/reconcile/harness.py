"""Follow a simulated game as a table would play it: the camera sees each board, the buttons and phones
give what it cannot see, and the table answers the follower's questions truthfully."""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.reconcile import Follower, expected_view
from companion.rules import Game
from companion.rules.actions import Attempt, EndTurn, Redeploy, Resettle, Roll


@dataclass
class Run:
    truth: Game
    ours: Game
    alerts: list = field(default_factory=list)
    questions: int = 0
    amended: int = 0


def invisible(before, after, action) -> bool:
    """An action the camera cannot see and no button gives: entered on a phone (a pick, an ally, ...)."""
    return before == after and not isinstance(action, (Roll, Attempt, EndTurn, Redeploy, Resettle))


def follow(truth: Game, seen_of=expected_view, follower: Follower | None = None, before_sight=None) -> Run:
    """Replay ``truth`` through the follower; ``seen_of(game)`` is what the camera reports of a board
    (a view, or a vision ``Observation``).
    ``before_sight(ours, follower)`` runs before each sight (a benchmark injects illegal moves there)."""
    live, ours = Game(truth.setup), Game(truth.setup)
    f = follower or Follower()
    run = Run(truth, ours)
    for action in truth.history:
        before = expected_view(live)
        live.apply(action)
        if invisible(before, expected_view(live), action):
            if ours.explain(action) is not None:
                for a in f.redeployed(ours).actions:
                    ours.apply(a)
            if ours.explain(action) is None:
                ours.apply(action)
                f.resync()
            continue
        if isinstance(action, Roll):
            out = f.die(ours, action.face)
        elif isinstance(action, Attempt):
            out = f.declare(ours, action.region)
        elif isinstance(action, EndTurn):
            out = f.confirm(ours)
        else:
            if before_sight is not None:
                before_sight(ours, f)
            sight = seen_of(live)
            out = f.observe(ours, sight) if hasattr(sight, "regions") else f.see(ours, sight)
        for a in out.actions:
            ours.apply(a)
        for index, a in out.amend:
            ours.replace(index, a)
        run.amended += len(out.amend)
        run.alerts += out.raised
        if out.question:
            run.questions += 1
            upcoming = truth.history[len(ours.history):]
            choice = next((k for k, o in enumerate(out.question.options) if list(o) == upcoming[:len(o)]), 0)
            for a in f.answer(ours, choice).actions:
                ours.apply(a)
    return run
