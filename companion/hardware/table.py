"""All of the table's hardware behind one object, for the service to start, feed and stop.

``TableHardware.start(settings, submit)`` starts the parts the settings enable; a part that
cannot start (no GPIO on this machine) is left out with one error line in the log and the reason
kept in ``problems``, so the game goes on without it. ``show`` hands a snapshot to every part.
"""
from __future__ import annotations

import logging
import warnings

from ..inputs import Submit
from .display import TableDisplay
from .link import ScoringBoxLink
from .panel import Panel, make_pin_factory
from .settings import HardwareSettings

log = logging.getLogger(__name__)


class TableHardware:
    """The running panel and scoring box link (either may be absent)."""

    def __init__(self, panel: Panel | None = None, link: ScoringBoxLink | None = None, problems=()):
        self.panel = panel
        self.link = link
        self.problems = list(problems)

    @classmethod
    def start(cls, settings: HardwareSettings, submit: Submit, *, pin_factory=None) -> "TableHardware":
        panel = link = None
        problems = []
        if settings.gpio.enabled:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # gpiozero's fallback chatter; the error says enough
                    factory = pin_factory or make_pin_factory(settings.gpio.pin_factory)
                    panel = Panel(settings.gpio, submit, pin_factory=factory).start()
            except Exception as exc:
                problems.append(f"GPIO panel not started: {type(exc).__name__}: {exc} (see companion doctor)")
                log.error(problems[-1])
        if settings.scoring_box.enabled:
            link = ScoringBoxLink(settings.scoring_box, submit).start()
        return cls(panel, link, problems)

    def show(self, snapshot: TableDisplay) -> None:
        """Show a snapshot on every part; returns at once."""
        for part in (self.panel, self.link):
            if part is not None:
                part.show(snapshot)

    def close(self) -> None:
        for part in (self.panel, self.link):
            if part is not None:
                part.close()
