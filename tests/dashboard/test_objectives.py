"""Small World of Warcraft's Military Objectives on a Humans player's phone: one placement on the map
(tap up to 2 regions, then confirm), not a button for every region and pair of regions."""
import dataclasses
import random
import time

import pytest

from companion.rules import ruleset as rulesets
from companion.rules.game import Game
from companion.rules.warcraft import actions as W
from companion.service.inputs import NewGame, Play
from companion.shuffle import seeded_setup
from companion.simulate import choose

from .conftest import join, needs_chromium, open_page, overflow
from .test_pages import axe_violations
from .test_taps import tap_region

pytestmark = [needs_chromium, pytest.mark.slow]


def humans_at_their_objectives(seed=1):
    """A Warcraft game whose first player picked the Humans, played until the Objectives are due."""
    rules = rulesets.get("warcraft")
    setup = seeded_setup(rules.default_map(2), 2, seed, "warcraft")
    setup = dataclasses.replace(setup, races=("humans",) + tuple(r for r in setup.races if r != "humans"))
    game, rng = Game(setup), random.Random(seed)
    while not any(isinstance(a, W.Objectives) for a in game.legal_actions()):
        game.apply(choose(game, rng))
        assert len(game.history) < 300
    return setup, game


def test_military_objectives_are_one_placement_on_the_map(browser, server):
    service = server.service
    setup, game = humans_at_their_objectives()
    assert service.owner.submit(NewGame(setup)).result(5).ok
    for action in game.history:
        assert service.owner.submit(Play(action)).result(5).ok
    seat = game.current_player
    spots = sorted({r for a in game.legal_actions() if isinstance(a, W.Objectives) for r in a.regions})
    assert len(spots) > 10  # the engine lists every spot and every pair of spots: hundreds of actions
    phone = join(open_page(browser, "phone"), server.url, service.owner.published.codes[seat])
    page = phone.page
    page.wait_for_selector("#board .region")
    page.wait_for_function("() => document.getElementById('act-hint').textContent.includes('Military Objectives')")
    assert page.locator("#choices button").count() <= 3 and "objectives" not in page.text_content("#choices")
    a, b = spots[0], spots[-1]
    tap_region(page, a)
    page.wait_for_selector("#confirm:not(.hidden)")
    assert "region " + str(a) in page.text_content("#confirm-text") and "up to 2" in page.text_content("#confirm-text")
    tap_region(page, b)
    assert page.text_content("#confirm-text").startswith(f"Place the Military Objectives in regions {a} and {b}")
    assert overflow(page) <= 0 and not axe_violations(page)
    page.click("#confirm-yes")
    deadline = time.monotonic() + 10
    while not isinstance(service.owner.game.history[-1], W.Objectives) and time.monotonic() < deadline:
        time.sleep(0.1)
    last = service.owner.game.history[-1]
    assert isinstance(last, W.Objectives) and sorted(last.regions) == [a, b], page.text_content("#result")
    assert not phone.errors, phone.errors
    page.context.close()
