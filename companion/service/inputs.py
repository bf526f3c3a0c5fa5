"""What the game owner's one queue carries, besides the table hardware's inputs.

Every input names where it came from (``source``: "web", "table", "demo", "camera", "panel",
"scoring-box"). A web input from a phone names its ``seat``; ``seat=None`` is the table itself
(the shared screen, the demo driver, the camera's reconciliation).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.actions import Action
from ..rules.setup import Setup


@dataclass(frozen=True)
class Play:
    """Play an engine action (a phone, the table screen, the demo, reconciliation)."""

    action: Action
    seat: int | None = None
    source: str = "web"


@dataclass(frozen=True)
class RollDie:
    """Roll the Reinforcement Die (``face=None``: the companion rolls, seeded) or enter a typed face."""

    face: int | None = None
    seat: int | None = None
    source: str = "web"


@dataclass(frozen=True)
class Undo:
    """Take back the last action (the table code was checked by whoever submits this)."""

    source: str = "web"


@dataclass(frozen=True)
class Edit:
    """One correction to a past action of the log: ``replace`` the action at ``seq`` by ``action``,
    ``insert`` ``action`` before it (a move the record missed; ``seq`` may be the log's length: at
    the end), or ``remove`` it (a move never played)."""

    how: str
    seq: int
    action: Action | None = None


@dataclass(frozen=True)
class Correct:
    """The table corrects past actions of its log in place (the table code was checked by whoever
    submits this): every edit at once, each ``seq`` numbering the log as it is before them; the
    actions after them are kept and replayed through the rules."""

    edits: tuple[Edit, ...]
    source: str = "web"


@dataclass(frozen=True)
class Resolve:
    """Settle an alert: ``accept`` the correction (the engine's state stands) or override it."""

    alert: int
    accept: bool = True
    source: str = "web"


@dataclass(frozen=True)
class NewGame:
    """Start a game from a setup; it becomes the game the table shows."""

    setup: Setup
    die_seed: int | None = None
    source: str = "web"


@dataclass(frozen=True)
class Resume:
    """Play an unfinished game again (from the list of games): it becomes the game the table shows."""

    game: int
    source: str = "web"


@dataclass(frozen=True)
class Observation:
    """A still observation of the board from the camera (vision's ``Observation``): reconciled with
    the game into legal actions, alerts or a question."""

    observation: object
    source: str = "camera"


@dataclass(frozen=True)
class Declare:
    """The region of the final conquest attempt, declared before (or after) the die is rolled."""

    region: int
    seat: int | None = None
    source: str = "web"


@dataclass(frozen=True)
class Answer:
    """The table answers the camera's question: which of the explanations was played."""

    option: int
    source: str = "web"


@dataclass(frozen=True)
class BoardIsRight:
    """The table says the board is right: the camera offers the corrections that put the game in step
    with it, as a question to confirm (``Follower.board_is_right``)."""

    source: str = "web"


@dataclass(frozen=True)
class Notice:
    """A line for the table screen from the demo's simulated table: what its players do or wait for
    (``level`` "info" or "warning"; an empty ``text`` takes the notice down)."""

    text: str
    level: str = "info"
    source: str = "demo"


@dataclass(frozen=True)
class Outcome:
    """The answer to one input: ``status`` is an HTTP status; ``code`` and ``sentence`` say why."""

    status: int = 200
    code: str = "ok"
    sentence: str = ""
    data: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status < 400
