"""Alerts that are noticed, "the board is right", the connection on every page and a phone whose game
is over, in Chromium at a phone's size and a table screen's."""
import time

import pytest

from companion.reconcile import expected_view
from companion.service.inputs import NewGame, Observation, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from ..service.helpers import live_server, mirror, play, seen_out_of_reach, sight, until_attempt
from .conftest import join, needs_chromium, open_page, overflow, unlock
from .test_pages import axe_violations

pytestmark = [needs_chromium, pytest.mark.slow]


def _camera_alert(service):
    """Ann's Tritons take region 1 as the camera sees it, then tokens appear on region 20 (not
    adjacent): an illegal conquest on the board."""
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
    assert play(service, "pick tritons", seat=0).ok
    view = seen_out_of_reach(service)
    [alert] = service.owner.published.public["alerts"]
    return view, alert


def clean(watched, what):
    page = watched.page
    assert overflow(page) <= 0, f"{what}: {overflow(page)} px wider than the screen"
    problems = axe_violations(page)
    assert not problems, f"{what}:\n" + "\n".join(problems)
    assert not watched.errors, f"{what}: {watched.errors}"


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_an_alert_is_a_banner_and_its_region_outlined_and_only_the_table_settles_it(browser, server, size):
    service = server.service
    view, alert = _camera_alert(service)
    table = unlock(open_page(browser, size), server.url)
    viewer = open_page(browser, size)
    viewer.page.goto(server.url + "/")
    ann = join(open_page(browser, size), server.url, service.owner.published.codes[0])
    for w in (table, viewer, ann):
        w.page.wait_for_selector('#board [data-region="20"].alerted')
    for w in (table, viewer):
        banner = w.page.locator("#alert-banner")
        assert banner.is_visible() and "Ann, region 20" in banner.text_content()
        assert "not adjacent" in banner.text_content() or "adjacent" in banner.text_content()
    assert table.page.locator("#alert-banner button", has_text="Override").is_visible()
    assert viewer.page.locator("#alert-banner button").count() == 0  # not unlocked: nothing to press
    assert viewer.page.locator("#alerts button").count() == 0
    assert not table.page.is_checked("#alert-sound")  # the sound is off until the table turns it on
    clean(table, f"{size}: the table with an alert")
    clean(viewer, f"{size}: a viewer with an alert")
    # Ann ends her turn with the tokens still on region 20: the alert is about the board from now on
    assert play(service, "end", seat=0).ok
    table.page.wait_for_function("() => document.getElementById('alert-banner').dataset.about === 'board'")
    assert "The board and the game differ, region 20" in table.page.text_content("#alert-banner")
    clean(table, f"{size}: the table with an alert about the board")
    # the table overrides it (the camera misread): gone everywhere
    table.page.click("#alert-banner button:has-text('Override')")
    for w in (table, viewer):
        w.page.wait_for_selector("#alert-banner.hidden", state="attached")
    for w in (table, viewer, ann):
        w.page.wait_for_selector('#board [data-region="20"]:not(.alerted)', state="attached")
    assert "misread region 20" in table.page.text_content("#alert-msg")
    for w in (table, viewer, ann):
        assert not w.errors, w.errors
        w.page.context.close()


def test_the_sound_toggle_is_remembered_and_a_new_alert_beeps(browser, server):
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
    table = unlock(open_page(browser), server.url)
    table.page.add_init_script("""window.__beeps = 0; const Real = window.AudioContext;
        window.AudioContext = function () { window.__beeps += 1; return new Real(); };""")
    table.page.reload()
    table.page.wait_for_selector("#board .region")
    table.page.check("#alert-sound")  # turning it on plays it once, so the table hears what it chose
    assert table.page.evaluate("window.__beeps") == 1
    table.page.reload()
    table.page.wait_for_selector("#board .region")
    assert table.page.is_checked("#alert-sound")  # remembered by this browser
    _camera_alert(service)
    table.page.wait_for_selector("#alert-banner:not(.hidden)")
    table.page.wait_for_function("() => window.__beeps === 1")  # a new alert: two tones, one context
    table.page.uncheck("#alert-sound")
    assert not table.errors, table.errors
    table.page.context.close()


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_the_board_is_right_offers_the_cameras_corrections_to_confirm(browser, server, size):
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
    assert play(service, "pick tritons", seat=0).ok
    table = unlock(open_page(browser, size), server.url)
    viewer = open_page(browser, size)
    viewer.page.goto(server.url + "/")
    table.page.wait_for_selector("#board .region")
    assert table.page.is_hidden("#board-right")  # no camera has seen this game: no button
    view = expected_view(mirror(service))
    view[1] = {"tritons": 1}
    service.owner.submit(Observation(sight(view))).result(5)  # the camera reads conquer 1
    table.page.wait_for_selector("#board-right", state="visible")
    assert viewer.page.locator("#board-right").count() == 0  # only for an unlocked table
    table.page.click("#board-right")
    table.page.wait_for_function("() => document.getElementById('alert-msg').textContent.includes('agree')")
    game = mirror(service)
    game.undo()
    other = next(a for a in game.legal_actions() if a.act == "conquer" and a.region != 1)
    game.apply(other)  # the players had conquered another region: the camera misread which
    service.owner.submit(Observation(sight(expected_view(game)))).result(5)
    table.page.click("#board-right")
    table.page.wait_for_selector("#question-panel:not(.hidden)")
    assert "Is the board right?" in table.page.text_content("#question-text")
    confirm = table.page.locator("#question-options button").first
    assert confirm.text_content().startswith("the board is right: take back conquer 1")
    viewer.page.wait_for_selector("#question-panel:not(.hidden)")
    assert viewer.page.locator("#question-options button").count() == 0  # read-only for a viewer
    clean(table, f"{size}: the camera's offer")
    confirm.click()
    table.page.wait_for_function("() => !document.getElementById('alert-msg').textContent.includes('offers')")
    assert "conquer" in table.page.text_content("#alert-msg")  # the answer: what the game took
    table.page.wait_for_selector("#question-panel.hidden", state="attached")
    stored = service.store.actions(service.owner.published.game_id)
    assert stored[-1] == other
    for w in (table, viewer):
        assert not w.errors, w.errors
        w.page.context.close()


PAGES = ["/", "/setup", "/games", "/calibrate/", "/calibrate/camera", "/join", "/unlock"]


def test_every_page_says_live_then_server_gone(browser, tmp_path):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # the browser fixture skips without it
    with live_server(tmp_path) as server:
        service = server.service
        assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
        opened = []
        for path in PAGES:
            w = open_page(browser, "phone")
            if path != "/join" and path != "/unlock":
                unlock(w, server.url)
            w.page.goto(server.url + path)
            opened.append((path, w))
        opened.append(("/seat", join(open_page(browser, "phone"), server.url, service.owner.published.codes[0])))
        for path, w in opened:
            try:
                w.page.wait_for_selector("#connection[data-state=live]")
            except PlaywrightTimeout:  # say which page, and what it showed, not only the selector
                pytest.fail(f"{path} not live in 30 s: {w.page.text_content('#connection')!r}, errors {w.errors}")
            assert w.page.text_content("#connection") == "Live", path
        server.close()  # the companion stops (a pulled plug)
        for path, w in opened:
            w.page.wait_for_selector("#connection[data-state=reconnecting], #connection[data-state=gone]",
                                     timeout=15000)
        start = time.monotonic()
        for path, w in opened:
            w.page.wait_for_selector("#connection[data-state=gone]", timeout=30000)
            assert "Server gone" in w.page.text_content("#connection"), path
        assert time.monotonic() - start < 30
        opened[0][1].page.screenshot(path=str(tmp_path / "gone.png"))
        for path, w in opened:
            w.errors[:] = [e for e in w.errors if "ERR_CONNECTION_REFUSED" not in e and "Failed to fetch" not in e]
            assert not w.errors, (path, w.errors)
            w.page.context.close()


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_a_phone_whose_game_is_over_says_a_new_game_began_and_joins_it(browser, server, size):
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
    phone = join(open_page(browser, size), server.url, service.owner.published.codes[1])
    phone.page.wait_for_selector("#board .region")
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 4))).result(5).ok  # the table starts another
    phone.page.wait_for_selector("#gone:not(.hidden)", timeout=15000)
    assert "A new game began" in phone.page.text_content("#gone-text")
    assert phone.page.is_hidden("#act-panel") and phone.page.is_hidden("#coins-toggle")
    assert phone.page.get_attribute("#connection", "data-state") == "live"  # the server is there
    clean(phone, f"{size}: a seat of the last game")
    phone.page.fill("#gone-code", service.owner.published.codes[1])
    phone.page.click("#gone button")
    phone.page.wait_for_url(f"{server.url}/seat")
    phone.page.wait_for_selector("#board .region")
    assert phone.page.is_hidden("#gone")
    # a reload of the old seat's page says it too, on the join page
    other = join(open_page(browser, size), server.url, service.owner.published.codes[0])
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 5))).result(5).ok
    other.page.goto(server.url + "/seat")
    other.page.wait_for_url(f"{server.url}/join?why=new-game")
    assert "A new game began" in other.page.text_content("main")
    for w in (phone, other):
        assert not [e for e in w.errors if "403" not in e], w.errors
        w.page.context.close()


def test_the_die_says_who_rolled_for_which_region_and_is_gone_at_the_end(browser, server):
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3), die_seed=9)).result(5).ok
    attempt = until_attempt(service)
    seat = service.owner.published.public["current"]
    name = service.owner.published.public["players"][seat]["name"]
    table = open_page(browser, "screen")
    table.page.goto(server.url + "/")
    roller = join(open_page(browser, "phone"), server.url, service.owner.published.codes[seat])
    assert play(service, attempt.notation(), seat=seat).ok
    roller.page.wait_for_selector("#die-row:not(.hidden)")
    roller.page.click("#die-row #roll")
    for w in (table, roller):
        w.page.wait_for_function("() => document.getElementById('die-face').dataset.face !== ''")
        caption = w.page.text_content("#die-caption")
        assert caption.startswith(f"{name} rolled for region {attempt.region}:"), caption
    # a whole game to its end: no die to roll anywhere
    setup = seeded_setup("2p", 2, 8)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    for action in simulate(setup, 8).history:
        assert service.owner.submit(Play(action)).result(5).ok
    table.page.reload()
    table.page.wait_for_selector("#end:not(.hidden)")
    assert table.page.is_hidden("#roll") and table.page.is_hidden(".die-panel")
    phone = join(open_page(browser, "phone"), server.url, service.owner.published.codes[0])
    phone.page.wait_for_selector("#board .region")
    assert phone.page.is_hidden("#roll") and phone.page.is_hidden("#die-row")
    for w in (table, roller, phone):
        w.page.context.close()


def test_a_refused_tap_is_said_on_that_phone_in_sight_and_nowhere_else(browser, server):
    from .test_taps import tap_region
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
    assert play(service, "pick tritons", seat=0).ok
    table = open_page(browser, "screen")
    table.page.goto(server.url + "/")
    ann = join(open_page(browser, "phone"), server.url, service.owner.published.codes[0])
    ann.page.wait_for_selector("#board .region")
    ann.page.wait_for_selector("#act-hint:has-text('Tap a region to conquer')")
    far = next(r for r in mirror(service).board.ids
               if r not in {c["region"] for c in service.owner.published.public["conquerable"]})
    version = service.owner.published.version
    tap_region(ann.page, far)  # at the bottom of the phone's page: the answer stays in sight at the top
    ann.page.wait_for_selector("#result.error:not(:empty)")
    assert f"Region {far}" in ann.page.text_content("#result")
    top = ann.page.locator("#result").bounding_box()["y"]
    assert 0 <= top < 844, top
    assert service.owner.published.version == version and table.page.is_hidden("#alert-banner")
    ann.page.click("#result")  # a tap puts it away
    ann.page.wait_for_selector("#result:empty", state="attached")
    for w in (table, ann):
        assert not w.errors, w.errors
        w.page.context.close()
