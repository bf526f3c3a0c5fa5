"""Floods: repeated illegal conquests are answered to their sender only (never broadcast, never an
alert) and a repeating phone is slowed down; a scoring box sending garbage is one log line a minute; guessing codes is hopeless."""
import json
import logging
import random

from hypothesis import given, settings, strategies as st

from companion.floods import Backoff, Summary, Window
from companion.hardware.session import HostSession
from companion.rules.actions import parse_notation
from companion.service.inputs import Play
from companion.service.owner import REFUSALS

from ..service.helpers import make_service, new_game


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def _illegal_conquests(game, n):
    """``n`` conquests the current player may not make (regions not adjacent to the edge, water...)."""
    from companion.rules import actions as A
    out = [A.Conquer(r) for r in game.board.ids if game.explain(A.Conquer(r)) is not None]
    return out[:n]


def test_a_thousand_repeats_of_one_illegal_conquest_are_never_broadcast(tmp_path):
    service = make_service(tmp_path)
    try:
        new_game(service)
        owner = service.owner
        owner.handle(Play(parse_notation(f"pick {owner.game.column[0].race}"), 0))
        published = []
        owner.listeners.append(published.append)
        size = len(json.dumps(owner.published.public))
        bad = _illegal_conquests(owner.game, 1)[0]
        answers = [owner.handle(Play(bad, 0, "web")).status for _ in range(1000)]
        assert answers[0] == 422 and set(answers[REFUSALS:]) == {429}
        assert len(owner.published.alerts) == 0 and len(published) == 0  # its sender's answers only
        assert len(json.dumps(owner.published.public)) < size + 1000
    finally:
        service.close()


def test_refusals_on_many_regions_are_no_alerts(tmp_path):
    clock = Clock()
    service = make_service(tmp_path)
    try:
        new_game(service)
        owner = service.owner
        owner._refused.clock = clock
        owner.handle(Play(parse_notation(f"pick {owner.game.column[0].race}"), 0))
        published = []
        owner.listeners.append(published.append)
        for k, bad in enumerate(_illegal_conquests(owner.game, 40)):
            clock.t += 5.0  # slowly enough not to be slowed down
            assert owner.handle(Play(bad, 0, "web")).status == 422
        assert owner.published.alerts == () and published == []
    finally:
        service.close()


def test_a_scoring_box_sending_garbage_is_one_line_a_minute(caplog):
    clock = Clock()
    host = HostSession(lambda item: None)
    rng = random.Random(7)
    with caplog.at_level(logging.DEBUG, logger="companion.hardware.scoring_box"):
        for second in range(180):
            for _ in range(200):  # 200 garbled lines a second, torn and junk
                host.feed(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))) + b"$x\n", clock())
            clock.t += 1.0
            host.tick(clock())
    lines = [r.getMessage() for r in caplog.records if "garb" in r.getMessage()]
    assert host.problems > 30_000
    assert len(lines) <= 3 * 6 + 1, len(lines)  # five in full and one count a minute
    assert any("garbled lines from the scoring box in the last minute" in m for m in lines)


@settings(max_examples=60, derandomize=True)
@given(free=st.integers(1, 10), base=st.floats(0.5, 10), hours=st.integers(1, 3))
def test_backoff_gives_the_guesses_it_says(free, base, hours):
    clock = Clock()
    backoff = Backoff(free=free, base_s=base, max_s=600, clock=clock)
    guesses, start = 0, clock.t
    while clock.t - start < 3600:
        wait = backoff.wait("attacker")
        if wait:
            clock.t += wait
            continue
        guesses += 1
        backoff.failed("attacker")
    assert guesses <= backoff.guesses_per_hour() + free
    assert backoff.wait("a real table") == 0  # another client is not hindered


def test_a_few_typos_cost_nothing():
    clock = Clock()
    backoff = Backoff(clock=clock)
    for _ in range(backoff.free):
        assert backoff.wait("table") == 0
        backoff.failed("table")
    assert backoff.wait("table") > 0
    backoff.succeeded("table")
    assert backoff.wait("table") == 0


def test_window_and_summary_forget_what_is_old():
    clock = Clock()
    window = Window(3, 10.0, clock)
    for _ in range(3):
        window.add("x")
    assert window.over("x")
    clock.t += 10.0
    assert not window.over("x")
    log = logging.getLogger("test.summary")
    seen = []
    log.addHandler(type("H", (logging.Handler,), {"emit": lambda self, r: seen.append(r.getMessage())})())
    log.setLevel(logging.INFO)
    summary = Summary(log, "first: %s", "%d in all", 60.0, burst=2, clock=clock)
    for _ in range(100):
        summary.add("junk")
    clock.t += 61
    summary.flush()
    assert seen == ["first: junk", "first: junk", "100 in all"]
