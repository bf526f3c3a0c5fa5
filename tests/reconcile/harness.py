"""Follow a simulated game as a table would play it: the camera sees each board, the buttons and phones
give what it cannot see, and the table answers the follower's questions truthfully."""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.reconcile import Follower, expected_view
from companion.reconcile.view import typed_only
from companion.rules import pieces
from companion.rules import Game
from companion.rules.actions import Attempt, EndTurn, Redeploy, Resettle, Roll
from companion.rules.errors import IllegalAction


@dataclass
class Run:
    truth: Game
    ours: Game
    alerts: list = field(default_factory=list)
    questions: int = 0
    amended: int = 0
    corrections: int = 0  # times the table put the game right by hand after an alert (``table_reacts``)
    entered: int = 0  # actions the table typed then in the game log (put in place of a wrong one, or inserted)
    retyped: int = 0  # the same, were every action after the first wrong one typed again (the measure until 2026-11-24)
    in_place: int = 0  # the same, were every action the record has wrong put right, however old (the measure until 2026-11-25)
    accepted: int = 0  # regions the table told the camera to read as the game has them
    fixes: list = field(default_factory=list)  # what the table did at each correction (``--explain``)
    taps: int = 0  # buttons the table pressed then: "the board is right", its confirmation, a move taken out, save
    # where the record left the true game (which race holds each region, whose turn it is), one entry
    # an episode, the first few: the step, the true action, what the record did, the regions, the trace
    drifts: list = field(default_factory=list)
    raised_sure: list = field(default_factory=list)  # how sure the still frames were of each alert's region


def _retyped(ours: Game, live: Game) -> int:
    """The actions a table retypes to put ``ours`` right when it can only take back from the end: all
    of ``live`` after the two part (the bench's measure before 2026-11-24's fourth session)."""
    same = 0
    for a, b in zip(ours.history, live.history):
        if a.notation() != b.notation():
            break
        same += 1
    return len(live.history) - same


def _alignment(ours: list, live: list) -> list[tuple]:
    """The fewest edits that turn the record's actions ``ours`` into the true game's ``live`` (the
    longest run of actions both share in order kept): ``(how, seq, action)`` with ``seq`` numbering
    ``ours``; a move missed where another was taken is one ``replace``."""
    a, b = [x.notation() for x in ours], [x.notation() for x in live]
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    n, m = len(a) - start, len(b) - start
    best = [[0] * (m + 1) for _ in range(n + 1)]  # longest common subsequence of the two tails, from (i, j) on
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = best[i + 1][j + 1] + 1 if a[start + i] == b[start + j] else max(best[i + 1][j], best[i][j + 1])
    edits, i, j = [], 0, 0
    while i < n or j < m:
        if i < n and j < m and a[start + i] == b[start + j]:
            i, j = i + 1, j + 1
        elif i < n and j < m and best[i + 1][j + 1] == best[i][j]:
            edits.append(("replace", start + i, live[start + j]))
            i, j = i + 1, j + 1
        elif j < m and (i == n or best[i][j + 1] >= best[i + 1][j]):
            edits.append(("insert", start + i, live[start + j]))
            j += 1
        else:
            edits.append(("remove", start + i, None))
            i += 1
    return edits


def _entered_by_hand(ours: Game, live: Game) -> int:
    """The actions a table types to put ``ours`` right in place (the table screen's log corrections,
    every action of the true game the record lacks or has wrong), whatever the record's state."""
    return sum(how != "remove" for how, _, _ in _alignment(ours.history, live.history))


def corrected_in_the_log(ours: Game, live: Game) -> tuple[Game, list]:
    """What a table does in the game log to put the record right (``POST /api/log``): the fewest
    corrections, the latest first, after which the game is the true game's state (board, coins,
    hands, turn); an old move taken wrongly whose effect a later move undid (a redeployment's counts
    redeployed since) is left as it is. Returns the corrected game and the edits made."""
    from companion.service.inputs import Edit
    from companion.service.log_edits import edited
    if in_step(ours, live):
        return ours.copy(), []
    edits = [Edit(how, seq, action) for how, seq, action in _alignment(ours.history, live.history)]
    for first in range(len(edits) - 1, -1, -1):  # the latest corrections first, then earlier ones too
        tried = edits[first:]
        try:
            game = Game.replay(ours.setup, edited(list(ours.history), tried), ours.board)
        except IllegalAction:
            continue
        if game.fingerprint() == live.fingerprint():
            return game, tried
    return live.copy(), edits


def in_step(ours: Game, live: Game) -> bool:
    """Whether the record is the true game's state, or that state but for the troop redeployment (or
    resettlement) just made on the board, which the End Turn takes as the camera shows it: nothing for
    the table to put right yet."""
    if ours.fingerprint() == live.fingerprint():
        return True
    if not live.history or not isinstance(live.history[-1], (Redeploy, Resettle)):
        return False
    return ours.fingerprint() == Game.replay(live.setup, live.history[:-1], live.board).fingerprint()


def _owners(game: Game) -> dict:
    """Which kind of token holds each region (what a table checks at a glance, not the counts)."""
    return {rid: tuple(sorted(label for label in labels if label not in pieces.MARKERS_IN_BOX))
            for rid, labels in expected_view(game).items()}


def _answered(ours: Game, question, option: int) -> Game | None:
    """The game after this answer (None: it no longer fits)."""
    trial = ours.copy()
    try:
        for _ in range(question.rewind(option)):
            trial.undo()
        for action in question.options[option]:
            trial.apply(action)
    except Exception:  # noqa: BLE001 - a correction that no longer fits is refused
        return None
    return trial


def _puts_right(ours: Game, question, option: int, live: Game) -> bool:
    """Whether the table, looking at its board, says yes to this correction: after it, every region is
    held as on the board, and the turn is the board's."""
    trial = _answered(ours, question, option)
    return trial is not None and _owners(trial) == _owners(live) and trial.current_player == live.current_player


def _typed_to_fix(ours: Game, live: Game) -> int:
    return sum(e.how != "remove" for e in corrected_in_the_log(ours, live)[1])


def _worth_confirming(ours: Game, question, live: Game) -> bool:
    """Whether a table confirms the camera's offered corrections ("the board is right: take back ...,
    then ..."): they put the board right, or what they say was played was (the game is nearer the
    true one: fewer moves are left to type in the log)."""
    if _puts_right(ours, question, 0, live):
        return True
    trial = _answered(ours, question, 0)
    return trial is not None and _typed_to_fix(trial, live) < _typed_to_fix(ours, live)


def invisible(before, after, action) -> bool:
    """An action the camera cannot see and no button gives: entered on a phone (a pick, an ally, ...)."""
    return typed_only(before, after, action)


EXTRA_SIGHTS = 2  # still frames more a camera gives when the follower wants another look (``Outcome.hold``)


def follow(truth: Game, seen_of=expected_view, follower: Follower | None = None, before_sight=None,
           table_reacts: bool = False, again=None) -> Run:
    """Replay ``truth`` through the follower; ``seen_of(game)`` is what the camera reports of a board
    (a view, or a vision ``Observation``); ``again(game)`` another still frame of the same board when
    the follower holds for one (``seen_of`` by default).
    ``before_sight(ours, follower, was)`` runs before each sight, ``was`` the true game before the action
    the sight shows (a benchmark injects illegal moves there: made on the true board, then taken back).
    ``table_reacts``: the table answers an alert as players would: if the game went wrong, they put
    right the actions the record lacks or has wrong by hand (the follower resynchronises); if the game is right,
    the camera misread the region and they tell it so (``accept``)."""
    live, ours = Game(truth.setup), Game(truth.setup)
    was = Game(truth.setup) if before_sight is not None else None  # the true game one action behind
    f = follower or Follower()
    run = Run(truth, ours)
    again = again or seen_of
    apart: list = []  # the episode under way (the record and the true game part), while it lasts

    def check(step: int, action, out) -> None:
        """After a step is taken: note where the record first leaves the true game, and when it is back."""
        ours = run.ours
        truly = _owners(live)
        regions = sorted(r for r, o in _owners(ours).items() if truly[r] != o)
        turn = ours.current_player == live.current_player  # (a redeployment taken at the End Turn is no drift)
        if not regions and turn:
            if apart:
                apart.pop()["back_at"] = step
            return
        if apart or len(run.drifts) >= 8:
            return
        seen = f.last_seen or {}
        want, have = expected_view(live), expected_view(ours)
        apart.append({
            "step": step, "action": action.notation(), "turn_right": turn,
            "record": [a.notation() for a in ours.history[-4:]],
            "truth": [a.notation() for a in live.history[-4:]],
            "regions": {r: {"true": want[r], "record": have[r], "camera": seen.get(r, {})} for r in regions[:6]},
            "hands": {name: {"true": t.hand, "record": ours.tribes[name].hand} for name, t in live.tribes.items()
                      if name in ours.tribes and ours.tribes[name].hand != t.hand},
            "trace": list(out.trace)[-12:]})
        run.drifts.append(apart[0])

    def look(sight):
        return f.observe(run.ours, sight) if hasattr(sight, "regions") else f.see(run.ours, sight)

    def take(out) -> None:
        ours = run.ours
        out.apply_to(ours)  # actions missed then, earlier ones seen better, then the new ones
        run.amended += len(out.amend) + len(out.missed)
        run.alerts += out.raised
        run.raised_sure += [round(f.evidence.sure(a.region), 3) if a.region is not None else None for a in out.raised]
        if table_reacts and out.raised:
            if not in_step(ours, live):
                run.corrections += 1
                fixed = f.board_is_right(ours)  # first: "the board is right" (a tap), the corrections confirmed
                run.taps += 1
                confirmed = fixed.question is not None and _worth_confirming(ours, fixed.question, live)
                if confirmed:
                    f.answer(ours, 0).apply_to(ours)
                    run.taps += 1
                if not in_step(ours, live):  # else (or what is left) corrected in the log
                    run.retyped += _retyped(ours, live)
                    run.in_place += _entered_by_hand(ours, live)
                    game, edits = corrected_in_the_log(ours, live)
                    run.entered += sum(e.how != "remove" for e in edits)  # typed: a move put in or in place
                    run.taps += sum(e.how == "remove" for e in edits) + 1  # a move taken out; "save"
                    run.ours = game
                    run.fixes.append({"at": len(live.history), "offered": fixed.question.labels[0] if fixed.question else fixed.note,
                                      "confirmed": confirmed,
                                      "record": [a.notation() for a in ours.history[-8:]],
                                      "true": [a.notation() for a in live.history[-8:]],
                                      "log": [f"{e.how} {e.seq}" + (f" {e.action.notation()}" if e.action else "")
                                                                  for e in edits],
                                      "alerts": [f"{a.code} on {a.region}" for a in out.raised]})
                    f.undone(min(e.seq for e in edits))  # as the service does after a log correction
                    f.resync()
            else:
                for alert in out.raised:
                    if alert.region is not None:
                        f.accept(ours, alert.region)
                        run.accepted += 1
        elif out.question:
            run.questions += 1
            q = out.question
            if q.regions:  # is the board right? yes when the corrections put the record in step with it
                choice = 0 if _puts_right(ours, q, 0, live) else len(q.options) - 1
            else:
                upcoming = truth.history[len(ours.history):]
                choice = next((k for k, o in enumerate(q.options) if list(o) == upcoming[:len(o)]), 0)
            f.answer(ours, choice).apply_to(ours)

    for step, action in enumerate(truth.history):
        before = expected_view(live)
        live.apply(action)
        if was is not None and step:
            was.apply(truth.history[step - 1])
        if invisible(before, expected_view(live), action):  # typed on a phone: the one path for typed inputs
            out = f.typed(run.ours, action)
            if out.refused is None:
                out.apply_to(run.ours)
            check(step, action, out)
            continue
        if isinstance(action, Roll):
            out = f.die(run.ours, action.face)
        elif isinstance(action, Attempt):
            out = f.declare(run.ours, action.region)
        elif isinstance(action, EndTurn):
            out = f.confirm(run.ours)
        else:
            if before_sight is not None:
                before_sight(run.ours, f, was)
            out = look(seen_of(live))
        take(out)
        for _ in range(EXTRA_SIGHTS):
            if not out.hold:
                break
            out = look(again(live))
            take(out)
        check(step, action, out)
    return run
