"""A whole game played from two phones by taps only (no typing), in Chromium at a phone's size: the
engine's choices are the buttons, conquests are taps on the map, redeployments are + and −."""
import random
import time

import pytest

from companion.rules import actions as A
from companion.rules.game import CHANCE
from companion.service import wording
from companion.service.inputs import NewGame
from companion.service.views import REGION_MODES
from companion.shuffle import seeded_setup
from companion.simulate import choose

from .conftest import join, needs_chromium, open_page, overflow

pytestmark = [needs_chromium, pytest.mark.slow]


def wait_seen(page, version, timeout=10.0):
    page.wait_for_function("v => window.__seen[v] !== undefined", arg=version, timeout=timeout * 1000)


def tap_region(page, rid):
    """A tap where the region's pieces are drawn (deep inside it), as a finger would."""
    from playwright.sync_api import Error
    for tries in range(3):  # the board drawn again (a state arriving) between finding the region and the tap
        try:
            return _tap_region(page, rid)
        except Error as exc:
            if "not attached to the DOM" not in str(exc) or tries == 2:
                raise


def _tap_region(page, rid):
    g = page.locator(f'#board [data-region="{rid}"]')
    g.scroll_into_view_if_needed()
    point = page.evaluate("""rid => {
        const g = document.querySelector(`#board [data-region="${rid}"]`);
        const svg = g.ownerSVGElement, p = svg.createSVGPoint();
        p.x = Number(g.dataset.x); p.y = Number(g.dataset.y);
        const s = p.matrixTransform(svg.getScreenCTM());
        return {x: s.x, y: s.y};
    }""", rid)
    box = g.bounding_box()
    g.click(position={"x": point["x"] - box["x"], "y": point["y"] - box["y"]})


def place(page, placement: dict):
    """Enter a placement with + and − until each region shows its count."""
    rows = page.locator("#place-fields li")
    for i in range(rows.count()):
        row = rows.nth(i)
        rid = int(row.locator(".place-name").text_content().split()[1])
        want = placement.get(rid, 0)
        while int(row.locator(".place-n").text_content()) != want:
            have = int(row.locator(".place-n").text_content())
            row.locator("button", has_text="+" if have < want else "−").click()
    page.click("#place-btn")


def perform(page, game, action):
    """Do ``action`` on the phone by taps, as its player would."""
    words = wording.describe(game, action)
    if isinstance(action, A.Pick):
        slot = next(s for s in game.column if s.race == action.race)
        title = f"{wording.power_title(game, slot.power)} {game.rules.race_title(slot.race)}"
        page.locator("#picks .pick", has=page.locator("strong", has_text=title)).first.click()
    elif isinstance(action, (A.Conquer, A.Attempt, A.Abandon, A.DragonConquer, A.Convert, A.Fortify, A.Heroes)):
        modes = page.locator("#modes button")
        wanted = ("Conquer", "Final conquest attempt") if isinstance(action, (A.Conquer, A.Attempt)) else (REGION_MODES[action.act],)
        for i in range(modes.count()):
            b = modes.nth(i)
            if b.text_content() in wanted and b.get_attribute("aria-pressed") != "true":
                b.click()
                break
        for rid in (action.regions if isinstance(action, A.Heroes) else [action.region]):
            tap_region(page, rid)
        page.wait_for_selector("#confirm:not(.hidden)")
        assert page.text_content("#confirm-text").startswith(words), (page.text_content("#confirm-text"), words)
        page.click("#confirm-yes")
    elif isinstance(action, (A.Redeploy, A.Resettle, A.Encamp)):
        done = page.locator("#choices button[data-act=redeploy]")
        if done.count():
            done.click()
        page.wait_for_selector("#place-form:not(.hidden)")
        placement = dict(action.encampments if isinstance(action, A.Encamp) else action.tokens)
        place(page, placement)
    elif isinstance(action, A.Roll):
        page.click("#roll")
    else:
        page.locator("#choices button", has_text=words).first.click()


def test_a_whole_game_played_from_the_phones_by_taps(browser, server):
    service = server.service
    setup = seeded_setup("2p", 2, 11)
    assert service.owner.submit(NewGame(setup, die_seed=3)).result(5).ok
    codes = service.owner.published.codes
    phones = [join(open_page(browser, "phone", reduced_motion="reduce"), server.url, code) for code in codes]
    for w in phones:
        wait_seen(w.page, service.owner.published.version)
        assert overflow(w.page) <= 0
    rng = random.Random(5)
    steps, started, kinds = 0, time.monotonic(), set()
    while not service.owner.game.finished:
        game = service.owner.game.copy()
        action = choose(game, rng)
        seat = game.turn.player if game.current_player == CHANCE else game.current_player
        page = phones[seat].page
        before = service.owner.published.version
        perform(page, game, action)
        kinds.add(action.act)
        deadline = time.monotonic() + 10
        while service.owner.published.version == before:
            assert time.monotonic() < deadline, f"step {steps}: {action.notation()} did nothing: {page.text_content('#result')}"
            time.sleep(0.02)
        assert len(service.owner.game.history) > len(game.history), page.text_content("#result")
        for w in phones:
            wait_seen(w.page, service.owner.published.version)
        steps += 1
        assert steps < 400
    for w in phones:
        assert w.page.text_content("#turn") == "The game is over."
        assert not w.errors, w.errors
    assert {"pick", "conquer", "redeploy", "end", "decline"} <= kinds, kinds
    print(f"{steps} actions by taps in {time.monotonic() - started:.0f} s: {sorted(kinds)}")
