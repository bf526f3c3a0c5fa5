"""Real browsers: Playwright driving Debian's Chromium (headless) against the service as it runs (uvicorn)."""
import re
import shutil

import pytest

from companion.rules import pieces
from companion.service.inputs import NewGame, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from .helpers import ARGS, CHROMIUM, TABLE_CODE, live_server, play, until_attempt


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    with live_server(tmp_path) as s:
        yield s


def unlocked_page(browser, server):
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.url}/unlock")
    page.fill("input[name=code]", TABLE_CODE)
    page.click("button:has-text('Unlock')")
    page.wait_for_url(f"{server.url}/")
    return page


def seat_page(browser, server, code):
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(f"{server.url}/join/{code}")
    page.click("button:has-text('Join')")  # the QR code's page: one button, a POST with the CSRF token
    page.wait_for_url(f"{server.url}/seat")
    return page


def test_table_die_button_shows_the_face(browser, server, tmp_path):
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3), die_seed=9)).result(5).ok
    attempt = until_attempt(service)
    assert play(service, attempt.notation()).ok
    page = unlocked_page(browser, server)
    page.wait_for_selector("#board .region")
    assert page.locator("#board .region").count() == 23
    page.click("#roll")
    page.wait_for_function("document.getElementById('die-face').dataset.face !== ''")
    face = page.get_attribute("#die-face", "data-face")
    assert face == str(service.owner.published.public["die"]) and face in "0123"
    shown = page.text_content("#die-face").strip()
    assert shown == ("" if face == "0" else face)  # a blank face is blank
    assert page.text_content("#die-caption").startswith("Ann rolled for region")
    page.screenshot(path=str(tmp_path / "table.png"))


def test_two_phones_each_see_only_their_own_coins(browser, server, monkeypatch):
    monkeypatch.setattr(pieces, "STARTING_COINS", 70000)
    service = server.service
    setup = seeded_setup("2p", 2, 4)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    for action in simulate(setup, 4).history[:30]:
        assert service.owner.submit(Play(action)).result(5).ok
    coins = [service.owner.published.seats[i]["coins"] for i in (0, 1)]
    assert coins[0] != coins[1] and min(coins) > 70000
    codes = service.owner.published.codes
    pages = [seat_page(browser, server, codes[i]) for i in (0, 1)]
    for i, page in enumerate(pages):
        page.wait_for_function(f"document.getElementById('coins').textContent.includes('{coins[i]}')")
        html = page.content()
        assert str(coins[1 - i]) not in html
        assert not re.search(r"7\d{4}", html.replace(str(coins[i]), ""))
    table = browser.new_context(bypass_csp=True).new_page()
    table.goto(server.url + "/")
    table.wait_for_selector("#board .region")
    assert not re.search(r"7\d{4}", table.content())


def test_an_illegal_conquest_typed_on_a_phone_is_told_to_that_phone_only(browser, server, tmp_path):
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
    table = unlocked_page(browser, server)
    table.wait_for_selector("#board .region")
    ann = seat_page(browser, server, service.owner.published.codes[0])
    ben = seat_page(browser, server, service.owner.published.codes[1])
    ann.wait_for_selector("#picks .pick")
    ann.click("#picks .pick >> nth=0")  # pick the first combo
    ann.wait_for_function("document.getElementById('result').textContent.includes('picks')")
    version = service.owner.published.version
    ann.click("summary:has-text('Type an action')")
    ann.fill("#free", "conquer 12")
    ann.click("#free-form button")
    ann.wait_for_function("document.getElementById('result').textContent.includes('border region')")
    assert "error" in ann.get_attribute("#result", "class")
    ann.screenshot(path=str(tmp_path / "seat.png"), full_page=True)
    assert service.owner.published.version == version  # nothing was broadcast
    assert table.is_hidden("#alert-banner") and table.text_content("#alerts") == "None"
    assert "border region" not in ben.content() and "border region" not in table.content()


def test_a_warcraft_pick_asks_the_table_for_the_values_off_the_pieces(browser, server, tmp_path):
    from ..warcraft.helpers import setup_with
    service = server.service
    assert service.owner.submit(NewGame(setup_with("farmer orcs", "sailing naga", values=False))).result(5).ok
    table = unlocked_page(browser, server)
    table.wait_for_selector("#board .island-box")
    assert table.locator("#board .island-box").count() == 2 and table.locator("#turn-track li").count() == 10
    ann = seat_page(browser, server, service.owner.published.codes[0])
    ann.wait_for_selector("#picks .pick")
    ann.click("#picks .pick:has-text('Farmer Orcs')")
    ann.wait_for_selector("#values-form:not(.hidden)")
    table.wait_for_selector("#values-panel:not(.hidden)")
    assert "Orcs banner" in table.text_content("#values-panel")
    table.fill("#values-banner", "21")
    table.fill("#values-badge", "4")
    table.evaluate("document.getElementById('values-banner').removeAttribute('max')")  # what a typo gets past
    table.click("#values-form button")
    table.wait_for_function("document.getElementById('values-msg').textContent.includes('0 to 20')")
    table.fill("#values-banner", "5")
    table.click("#values-form button")
    table.wait_for_selector("#values-panel.hidden", state="attached")
    ann.wait_for_selector("#values-form.hidden", state="attached")
    assert service.store.piece_values("warcraft") == {"races": {"orcs": 5}, "powers": {"farmer": 4}}
    table.screenshot(path=str(tmp_path / "warcraft.png"))
